/** The schemas of the turn's stored tool calls (turn_tools.ts), part of the reducer state's schema. */
import * as z from "../zod.ts";

export const ToolCallRefSchema = z.object({ id: z.string(), name: z.string(), line: z.int() });
export type ToolCallRefState = z.infer<typeof ToolCallRefSchema>;

export const TurnToolsStateSchema = z.object({
  /** tool_use blocks seen in the turn. */
  calls: z.int().check(z.nonnegative()),
  /** tool_use blocks with no result yet, oldest first. */
  pending: z.array(ToolCallRefSchema),
  /** Ids of the turn's results (a tool_use line written after its result is then not pending). */
  answered: z.array(z.string()),
  /** Results empty in every form. */
  empty: z.array(ToolCallRefSchema),
  /** The run of result lines the turn ends on; null once an assistant reply (visible output) follows. */
  trailing: z.nullable(z.array(ToolCallRefSchema)),
});
export type TurnToolsState = z.infer<typeof TurnToolsStateSchema>;
