/**
 * log.jsonl: one line per decision. Only the fields below are written; no message text beyond them. The schemas are
 * for reading the log (stats); writing it is log_file.ts, which a hook loads without building them.
 */
import * as z from "../zod.ts";
import { appendJsonLines, type LogFile } from "./log_file.ts";

export { appendJsonLines, type LogFile };

export const LogLineSchema = z.looseObject({
  ts: z.string(),
  session: z.string(),
  event: z.string(),
  agent: z.nullable(z.string()),
  action: z.enum(["allow", "block"]),
  observe: z.boolean(),
  /**
   * A block held back because a person is at the keyboard (config `attended: "observe"`): nothing was sent, the
   * stop went through. Absent on lines written before it existed and on the relay's lines.
   */
  attended: z.optional(z.boolean()),
  rule: z.string(),
  open: z.array(z.string()),
  match: z.nullable(z.string()),
  source: z.nullable(z.enum(["tasks", "todo", "markdown"])),
  continuation: z.int(),
  /** The transcript's `entrypoint` mark for this turn ("cli", "sdk-cli", …), null when unread or unmarked. */
  entrypoint: z.optional(z.nullable(z.string())),
  cwd: z.nullable(z.string()),
});
export type LogLine = z.infer<typeof LogLineSchema>;

/**
 * A stall-stage event (`kind: "stall"`): what the stall detector found at a stop and which guardrail, if any,
 * held the nudge back. Decision lines have no `kind`.
 */
export const StallLogLineSchema = z.looseObject({
  ts: z.string(),
  session: z.string(),
  event: z.string(),
  agent: z.nullable(z.string()),
  kind: z.literal("stall"),
  name: z.enum([
    "stall_detected",
    "recovery_dispatched",
    "retry_cap_hit",
    "cooldown_skipped",
    "kill_switch_active",
    "recovery_suppressed",
    "healthy_stop",
  ]),
  stalls: z.array(z.object({
    kind: z.string(),
    tool: z.string(),
    id: z.string(),
    line: z.int(),
    signature: z.string(),
    retries: z.int(),
  })),
  gate: z.nullable(z.string()),
  maxRetries: z.int(),
  cooldownS: z.number(),
  cooldownLeftS: z.nullable(z.number()),
  observe: z.boolean(),
  cwd: z.nullable(z.string()),
});
export type StallLogLine = z.infer<typeof StallLogLineSchema>;

/**
 * Append lines in one write with O_APPEND, so concurrent hooks do not interleave them (each hook's lines stay
 * together).
 */
export async function appendLog(log: LogFile, ...lines: (LogLine | StallLogLine)[]): Promise<void> {
  await appendJsonLines(log, lines);
}
