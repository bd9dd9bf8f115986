/**
 * Per-session state (`state/<session>[.<agent>].json`): the continuation count of the current user turn,
 * recent decisions for duplicate calls, and the transcript index. Validated on read, by hand for a valid file
 * (checkSessionState) and with state_schema.ts's schema, loaded then, for any other; a corrupt file is reported and
 * replaced by a fresh state, never fatal.
 */
import { join } from "../../path.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { type LoadedStateFile, readStateFileLazy } from "../../store/state_file.ts";
import { sanitizeId } from "../../store/sanitize.ts";
import { freshStallState, type StallState } from "./stall/gates.ts";
import type { RecentDecision, SessionState } from "./state_schema.ts";

export type { RecentDecision, SessionState };

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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** z.number(): a finite number. */
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
const SOURCES: readonly unknown[] = ["tasks", "todo", "markdown"];
/** SessionStateSchema's keys, in its order: its output lists them first, then the file's other keys. */
const STATE_KEYS = ["v", "turn", "recent", "stall", "index"];

function recentDecision(v: unknown): RecentDecision | null {
  if (!isObj(v) || typeof v["fp"] !== "string" || !isNumber(v["startedAt"]) || !isNumber(v["finishedAt"])) return null;
  const d = v["decision"];
  if (!isObj(d) || (d["action"] !== "allow" && d["action"] !== "block") || typeof d["rule"] !== "string") return null;
  const { reason, open, match, source, attended } = d;
  if (!isStringOrNull(reason) || !isStringOrNull(match) || (source !== null && !SOURCES.includes(source))) return null;
  if (!Array.isArray(open) || !open.every((x) => typeof x === "string") || typeof v["observe"] !== "boolean") {
    return null;
  }
  const decision: RecentDecision["decision"] = {
    action: d["action"],
    rule: d["rule"],
    reason,
    open: [...open],
    match,
    source: source as RecentDecision["decision"]["source"],
  };
  if (Object.hasOwn(d, "attended")) {
    if (typeof attended !== "boolean") return null;
    decision.attended = attended;
  }
  return { fp: v["fp"], startedAt: v["startedAt"], finishedAt: v["finishedAt"], decision, observe: v["observe"] };
}

function stallState(v: unknown): StallState | null {
  if (v === undefined) return freshStallState();
  if (!isObj(v) || !isObj(v["retries"]) || Object.hasOwn(v["retries"], "__proto__")) return null;
  const retries: Record<string, number> = {};
  for (const [id, n] of Object.entries(v["retries"])) {
    if (!isCount(n)) return null;
    retries[id] = n;
  }
  const at = v["lastRecoveryAt"];
  return at === null || isNumber(at) ? { retries, lastRecoveryAt: at } : null;
}

/**
 * SessionStateSchema's output (state_schema.ts) for a file it accepts, or null when this check cannot vouch for
 * the file. The transcript index in it is left as it is: the reader validates it (transcript_index.ts).
 */
export function checkSessionState(raw: unknown): SessionState | null {
  if (!isObj(raw) || Object.hasOwn(raw, "__proto__") || raw["v"] !== 1 || !Object.hasOwn(raw, "index")) return null;
  const turn = raw["turn"];
  if (!isObj(turn) || !isStringOrNull(turn["key"]) || !isCount(turn["seq"]) || !isCount(turn["blocks"])) return null;
  if (!Array.isArray(raw["recent"])) return null;
  const recent: RecentDecision[] = [];
  for (const r of raw["recent"]) {
    const decision = recentDecision(r);
    if (decision === null) return null;
    recent.push(decision);
  }
  const stall = stallState(raw["stall"]);
  if (stall === null) return null;
  const out: Obj = {
    v: 1,
    turn: { key: turn["key"], seq: turn["seq"], blocks: turn["blocks"] },
    recent,
    stall,
    index: raw["index"],
  };
  for (const key of Object.keys(raw)) if (!STATE_KEYS.includes(key)) out[key] = raw[key];
  return out as SessionState;
}

const SESSION_STATE_FILE = {
  check: checkSessionState,
  // only for a file the check cannot vouch for: to decide, and to word the problem
  schema: async () => (await import("./state_schema.ts")).SessionStateSchema,
  fresh: freshState,
  label: "state file",
};

export function readSessionState(path: string): Promise<LoadedState> {
  return readStateFileLazy(path, SESSION_STATE_FILE);
}

export async function writeSessionState(path: string, state: SessionState): Promise<void> {
  // losing the last update of a counter on power loss is harmless; an fsync on every stop is not free
  await writeJsonAtomic(path, state, { fsync: false, label: "state file" });
}
