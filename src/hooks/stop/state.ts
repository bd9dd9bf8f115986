/**
 * Per-session state (`state/<session>[.<agent>].json`): the continuation count of the current user turn,
 * recent decisions for duplicate calls, and the transcript index. Validated on read; a corrupt file is
 * reported and replaced by a fresh state, never fatal.
 */
import { join } from "../../path.ts";
import * as z from "../../zod.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { type LoadedStateFile, readStateFile } from "../../store/state_file.ts";
import { sanitizeId } from "../../store/sanitize.ts";
import { freshStallState, StallStateSchema } from "./stall/gates.ts";

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

export function freshState(): SessionState {
  return { v: 1, turn: { key: null, seq: 0, blocks: 0 }, recent: [], stall: freshStallState(), index: null };
}

/**
 * The state file key: the session, plus the agent for SubagentStop. A SubagentStop without an agent_id still
 * gets a key of its own, so it never shares the main session's count, lock or transcript index.
 */
export function sessionKey(
  sessionId: string,
  agent: { subagent: boolean; agentId?: string | null | undefined },
): string {
  if (!agent.subagent) return sanitizeId(sessionId);
  // "agent-" keeps these apart from other hooks' per-session files (<session>.prompt.json, <session>.loop.json)
  return `${sanitizeId(sessionId)}.${agent.agentId ? `agent-${sanitizeId(agent.agentId)}` : "subagent"}`;
}

export function statePath(stateDir: string, key: string): string {
  return join(stateDir, `${key}.json`);
}

export type LoadedState = LoadedStateFile<SessionState>;

const SESSION_STATE_FILE = { schema: SessionStateSchema, fresh: freshState, label: "state file" };

export function readSessionState(path: string): Promise<LoadedState> {
  return readStateFile(path, SESSION_STATE_FILE);
}

export async function writeSessionState(path: string, state: SessionState): Promise<void> {
  // losing the last update of a counter on power loss is harmless; an fsync on every stop is not free
  await writeJsonAtomic(path, state, { fsync: false, label: "state file" });
}
