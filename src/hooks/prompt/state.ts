/**
 * Per-session prompt state (`state/<session>.prompt.json`): when the session's first prompt came and when the
 * previous one did. Validated on read; a corrupt file is reported and reset. `advancePromptState` is pure.
 */
import { join } from "../../path.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { sanitizeId } from "../../store/sanitize.ts";
import { type LoadedStateFile, readStateFileLazy } from "../../store/state_file.ts";

/** A session's prompt state; state_schema.ts's PromptStateSchema is the schema of its file. */
export interface PromptState {
  v: 1;
  /** When the first prompt of the session was seen (ms since the epoch). */
  openedAt: number;
  /** The latest prompt. */
  lastPromptAt: number;
  lastPromptId: string | null;
  /** The prompt before the latest one: a second call for the same prompt (the hook registered twice) uses it. */
  prevPromptAt: number | null;
  prompts: number;
  /** The schema keeps keys it does not know (a newer version's), as it reads them. */
  [key: string]: unknown;
}

type Obj = Record<string, unknown>;
const STATE_KEYS = ["v", "openedAt", "lastPromptAt", "lastPromptId", "prevPromptAt", "prompts"];
const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** PromptStateSchema's output for a file it accepts, or null when this check cannot vouch for the file. */
export function checkPromptState(raw: unknown): PromptState | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || Object.hasOwn(raw, "__proto__")) return null;
  const o = raw as Obj;
  if (o["v"] !== 1 || !finite(o["openedAt"]) || !finite(o["lastPromptAt"])) return null;
  if (o["lastPromptId"] !== null && typeof o["lastPromptId"] !== "string") return null;
  if (o["prevPromptAt"] !== null && !finite(o["prevPromptAt"])) return null;
  const prompts = o["prompts"];
  if (typeof prompts !== "number" || !Number.isSafeInteger(prompts) || prompts < 1) return null;
  const out: Obj = {};
  for (const key of STATE_KEYS) out[key] = o[key];
  for (const key of Object.keys(o)) if (!STATE_KEYS.includes(key)) out[key] = o[key];
  return out as PromptState;
}

export interface SessionTiming {
  firstTurn: boolean;
  /** Since the session's first prompt. */
  openForMs: number;
  /** Since the user's previous prompt; null on the first turn. */
  sinceLastMs: number | null;
  /** The same prompt seen again (same prompt_id): not logged again, state not advanced. */
  duplicate: boolean;
}

export interface Advanced {
  state: PromptState;
  timing: SessionTiming;
}

export function advancePromptState(
  prior: PromptState | null,
  input: { now: number; promptId: string | null },
): Advanced {
  const { now, promptId } = input;
  if (!prior) {
    return {
      state: { v: 1, openedAt: now, lastPromptAt: now, lastPromptId: promptId, prevPromptAt: null, prompts: 1 },
      timing: { firstTurn: true, openForMs: 0, sinceLastMs: null, duplicate: false },
    };
  }
  const openForMs = Math.max(0, now - prior.openedAt);
  if (promptId !== null && promptId === prior.lastPromptId) {
    const previous = prior.prevPromptAt;
    return {
      state: prior,
      timing: {
        firstTurn: previous === null,
        openForMs,
        sinceLastMs: previous === null ? null : Math.max(0, now - previous),
        duplicate: true,
      },
    };
  }
  return {
    state: {
      ...prior,
      lastPromptAt: now,
      lastPromptId: promptId,
      prevPromptAt: prior.lastPromptAt,
      prompts: prior.prompts + 1,
    },
    timing: { firstTurn: false, openForMs, sinceLastMs: Math.max(0, now - prior.lastPromptAt), duplicate: false },
  };
}

export function promptStateKey(sessionId: string): string {
  return `${sanitizeId(sessionId)}.prompt`;
}

export function promptStatePath(stateDir: string, sessionId: string): string {
  return join(stateDir, `${promptStateKey(sessionId)}.json`);
}

export type LoadedPromptState = LoadedStateFile<PromptState | null>;

const PROMPT_STATE_FILE = {
  check: checkPromptState,
  // only for a file the check cannot vouch for: to decide, and to word the problem
  schema: async () => (await import("./state_schema.ts")).PromptStateSchema,
  fresh: () => null,
  label: "state file",
};

export function readPromptState(path: string): Promise<LoadedPromptState> {
  return readStateFileLazy(path, PROMPT_STATE_FILE);
}

export async function writePromptState(path: string, state: PromptState): Promise<void> {
  await writeJsonAtomic(path, state, { fsync: false, label: "prompt state file" });
}
