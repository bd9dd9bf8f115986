/**
 * The guard's per-session history as the hook reads and writes it, without zod: a hand-written check equal to
 * loop_schema.ts's LoopStateSchema for a valid file (loop_state_test.ts holds them equal), and the schema only for
 * a file it cannot vouch for (loaded then, to decide and to word the problem).
 */
import { join } from "../../path.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { sanitizeId } from "../../store/sanitize.ts";
import { type LoadedStateFile, readStateFileLazy } from "../../store/state_file.ts";

export interface HistoryEntry {
  tool: string;
  /** callSignature(): tool + canonical input, hashed. */
  sig: string;
  /** describeCall(): a short description for warnings and denials (never logged). */
  desc: string;
  /** When the call was seen (ms since the epoch). */
  at: number;
  /** The guard denied it (it is still recorded: the loop stays visible). */
  denied: boolean;
}

export interface LoopState {
  v: 1;
  history: HistoryEntry[];
  /** Absent in files written before it existed. */
  answered?: { id: string; decision: unknown; finishedAt: number }[] | undefined;
  /** The prompt_id of the newest recorded call that carried one; absent before one did. */
  prompt?: string | undefined;
}

export function freshLoopState(): LoopState {
  return { v: 1, history: [] };
}

/** The session, plus the agent inside a subagent: a subagent's calls never mix with the main session's. */
export function loopKey(sessionId: string, agentId: string | null | undefined): string {
  return agentId ? `${sanitizeId(sessionId)}.${sanitizeId(agentId)}` : sanitizeId(sessionId);
}

export function loopStatePath(stateDir: string, key: string): string {
  return join(stateDir, `${key}.loop.json`);
}

export function loopLockPath(locksDir: string, key: string): string {
  return join(locksDir, `${key}.loop.lock`);
}

export type LoadedLoopState = LoadedStateFile<LoopState>;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
/** Only these keys, none missing (a strict object); `__proto__` is left to the schema. */
const exactly = (o: Obj, keys: readonly string[], optional: readonly string[] = []): boolean => {
  let n = 0;
  for (const key of Object.keys(o)) {
    if (!keys.includes(key) && !optional.includes(key)) return false;
    if (keys.includes(key)) n++;
  }
  return n === keys.length;
};
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const ENTRY_KEYS = ["tool", "sig", "desc", "at", "denied"] as const;

/** LoopStateSchema's output for a file it accepts, or null when this check cannot vouch for the file. */
export function checkLoopState(raw: unknown): LoopState | null {
  if (!isObj(raw) || !exactly(raw, ["v", "history"], ["answered", "prompt"]) || raw["v"] !== 1) return null;
  const history = raw["history"];
  if (!Array.isArray(history)) return null;
  const entries: HistoryEntry[] = [];
  for (const e of history) {
    if (!isObj(e) || !exactly(e, ENTRY_KEYS)) return null;
    const { tool, sig, desc, at, denied } = e;
    if (typeof tool !== "string" || typeof sig !== "string" || typeof desc !== "string") return null;
    if (!finite(at) || typeof denied !== "boolean") return null;
    entries.push({ tool, sig, desc, at, denied });
  }
  const out: LoopState = { v: 1, history: entries };
  if (Object.hasOwn(raw, "answered")) {
    const answered = raw["answered"];
    if (!Array.isArray(answered)) return null;
    out.answered = [];
    for (const a of answered) {
      // a plain object: other keys are dropped, as the schema drops them
      if (!isObj(a) || Object.hasOwn(a, "__proto__") || !Object.hasOwn(a, "decision")) return null;
      const { id, decision, finishedAt } = a;
      if (typeof id !== "string" || decision === undefined || !finite(finishedAt)) return null;
      out.answered.push({ id, decision, finishedAt });
    }
  }
  if (Object.hasOwn(raw, "prompt")) {
    const prompt = raw["prompt"];
    if (typeof prompt !== "string") return null;
    out.prompt = prompt;
  }
  return out;
}

const LOOP_STATE_FILE = {
  check: checkLoopState,
  schema: async () => (await import("./loop_schema.ts")).LoopStateSchema,
  fresh: freshLoopState,
  label: "loop state file",
};

export function readLoopState(path: string): Promise<LoadedLoopState> {
  return readStateFileLazy(path, LOOP_STATE_FILE);
}

export async function writeLoopState(path: string, state: LoopState): Promise<void> {
  // a lost entry on power loss costs one step of a count; an fsync on every tool call is not free
  await writeJsonAtomic(path, state, { fsync: false, label: "loop state file" });
}
