/** The schema of the stall stage's part of the session state (gates.ts), part of the state file's (../state_schema.ts). */
import * as z from "../../../zod.ts";

export const StallStateSchema = z.object({
  /** Nudges sent per tool_use_id (bounded to the newest entries). */
  retries: z.record(z.string(), z.int().check(z.minimum(0))),
  /** When the last nudge went out (ms since the epoch). */
  lastRecoveryAt: z.nullable(z.number()),
});
export type StallState = z.infer<typeof StallStateSchema>;
