/**
 * The guard's log line (`kind: "loop"`), one per guarded call that is warned or denied. No tool input text:
 * the tool name, the loop's shape and where the session runs.
 */
import * as z from "../../zod.ts";

export const LoopLogLineSchema = z.looseObject({
  ts: z.string(),
  session: z.string(),
  event: z.literal("PreToolUse"),
  agent: z.nullable(z.string()),
  kind: z.literal("loop"),
  action: z.enum(["warn", "deny"]),
  pattern: z.enum(["burst", "cycle"]),
  /** 1 for a burst, 2-4 for a cycle. */
  period: z.int().check(z.minimum(1)),
  /** burst: identical calls in a row; cycle: times the loop came back round to this call. */
  repeats: z.int().check(z.minimum(1)),
  tool: z.string(),
  /** Observe mode: decided and logged, nothing printed (not warned, not denied). */
  observe: z.boolean(),
  cwd: z.nullable(z.string()),
});
export type LoopLogLine = z.infer<typeof LoopLogLineSchema>;
