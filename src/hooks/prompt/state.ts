/**
 * Per-session prompt state (`state/<session>.prompt.json`): when the session's first prompt came and when the
 * previous one did. Validated on read; a corrupt file is reported and reset. `advancePromptState` is pure.
 */
import { join } from "../../path.ts";
import * as z from "../../zod.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { sanitizeId } from "../../store/sanitize.ts";
import { type LoadedStateFile, parseStateFile, readStateFile } from "../../store/state_file.ts";

export const PromptStateSchema = z.looseObject({
  v: z.literal(1),
  /** When the first prompt of the session was seen (ms since the epoch). */
  openedAt: z.number(),
  /** The latest prompt. */
  lastPromptAt: z.number(),
  lastPromptId: z.nullable(z.string()),
  /** The prompt before the latest one: a second call for the same prompt (the hook registered twice) uses it. */
  prevPromptAt: z.nullable(z.number()),
  prompts: z.int().check(z.minimum(1)),
});
export type PromptState = z.infer<typeof PromptStateSchema>;

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

const PROMPT_STATE_FILE = { schema: PromptStateSchema, fresh: () => null, label: "state file" };

export function readPromptState(path: string): Promise<LoadedPromptState> {
  return readStateFile(path, PROMPT_STATE_FILE);
}

export function parsePromptState(text: string, path: string): LoadedPromptState {
  return parseStateFile(text, path, PROMPT_STATE_FILE);
}

export async function writePromptState(path: string, state: PromptState): Promise<void> {
  await writeJsonAtomic(path, state, { fsync: false, label: "prompt state file" });
}
