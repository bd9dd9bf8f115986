/**
 * Per-session prompt state (`state/<session>.prompt.json`): when the session's first prompt came and when the
 * previous one did. Validated on read; a corrupt file is reported and reset. `advancePromptState` is pure.
 */
import { join } from "../../path.ts";
import * as z from "../../zod.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { sanitizeId } from "../../store/sanitize.ts";

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

export interface LoadedPromptState {
  state: PromptState | null;
  /** Set when the file existed but could not be used (it is then reset). */
  problem: string | null;
}

export async function readPromptState(path: string): Promise<LoadedPromptState> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { state: null, problem: null };
    if (e instanceof Deno.errors.NotCapable) throw e;
    await Deno.remove(path, { recursive: true }).catch(() => {});
    return { state: null, problem: `Unreadable state file "${path}": ${e instanceof Error ? e.message : e}; reset` };
  }
  return parsePromptState(text, path);
}

export function parsePromptState(text: string, path: string): LoadedPromptState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { state: null, problem: `Corrupt state file "${path}": not JSON; reset` };
  }
  const result = PromptStateSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { state: null, problem: `Corrupt state file "${path}": ${issue?.path.join(".")} ${issue?.message}; reset` };
  }
  return { state: result.data, problem: null };
}

export async function writePromptState(path: string, state: PromptState): Promise<void> {
  await writeJsonAtomic(path, state, { fsync: false });
}
