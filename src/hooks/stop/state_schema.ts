/**
 * The schema of a session's state file (state.ts): the source of truth for a state file, and for its problems. The
 * hook checks a valid file by hand (checkSessionState) and loads this module only for one the check cannot vouch for;
 * state_test.ts holds the two equal.
 */
import * as z from "../../zod.ts";
import { freshStallState } from "./stall/gates.ts";
import { StallStateSchema } from "./stall/stall_schema.ts";

export const RecentDecisionSchema = z.object({
  /** Fingerprint of the stop: session, agent, prompt id, stop_hook_active and the final message. */
  fp: z.string(),
  startedAt: z.number(),
  finishedAt: z.number(),
  decision: z.object({
    action: z.enum(["allow", "block"]),
    rule: z.string(),
    reason: z.nullable(z.string()),
    open: z.array(z.string()),
    match: z.nullable(z.string()),
    source: z.nullable(z.enum(["tasks", "todo", "markdown"])),
    /** Held for a person at the keyboard: answered like an allow (absent in files written before it existed). */
    attended: z.optional(z.boolean()),
  }),
  observe: z.boolean(),
});
export type RecentDecision = z.infer<typeof RecentDecisionSchema>;

export const SessionStateSchema = z.looseObject({
  v: z.literal(1),
  turn: z.object({
    /** "p:<prompt_id>" when the payload has one, else "s:<n>" counted from stop_hook_active=false stops. */
    key: z.nullable(z.string()),
    seq: z.int().check(z.minimum(0)),
    blocks: z.int().check(z.minimum(0)),
  }),
  recent: z.array(RecentDecisionSchema),
  /** The stall stage's retry counters and last nudge time. */
  stall: z._default(StallStateSchema, freshStallState),
  /** The transcript index (validated by the transcript module). */
  index: z.nullable(z.unknown()),
});
export type SessionState = z.infer<typeof SessionStateSchema>;
