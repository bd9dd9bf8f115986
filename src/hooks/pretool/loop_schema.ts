/** The schema of the guard's per-session history file (history.ts); the hook loads it only for a file loop_state.ts cannot vouch for. */
import * as z from "../../zod.ts";

export const HistoryEntrySchema = z.strictObject({
  tool: z.string(),
  /** callSignature(): tool + canonical input, hashed. */
  sig: z.string(),
  /** describeCall(): a short description for warnings and denials (never logged). */
  desc: z.string(),
  /** When the call was seen (ms since the epoch). */
  at: z.number(),
  /** The guard denied it (it is still recorded: the loop stays visible). */
  denied: z.boolean(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/**
 * The answers to the newest calls by tool_use_id, with when each was given: a second copy of one call (the hook
 * registered twice, both copies started together) gets the same answer.
 */
export const AnsweredSchema = z.object({ id: z.string(), decision: z.unknown(), finishedAt: z.number() });

export const LoopStateSchema = z.strictObject({
  v: z.literal(1),
  history: z.array(HistoryEntrySchema),
  /** Absent in files written before it existed. */
  answered: z.optional(z.array(AnsweredSchema)),
  /** The prompt_id of the newest recorded call that carried one: a call of another prompt starts a new user turn. */
  prompt: z.optional(z.string()),
});
export type LoopState = z.infer<typeof LoopStateSchema>;
