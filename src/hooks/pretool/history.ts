/**
 * The guard's per-session history (`state/<session>[.<agent>].loop.json`): the recent guarded calls, newest last.
 * Validated on read; a corrupt or unreadable file is reported and replaced by an empty history, never fatal.
 */
import { join } from "../../path.ts";
import * as z from "../../zod.ts";
import { writeJsonAtomic } from "../../store/atomic.ts";
import { sanitizeId } from "../../store/sanitize.ts";
import { type LoadedStateFile, parseStateFile, readStateFile } from "../../store/state_file.ts";

export const HistoryEntrySchema = z.strictObject({
  tool: z.string(),
  /** callSignature(): tool + canonical input, hashed. */
  sig: z.string(),
  /** describeCall(): a short description for warnings and denials (never logged). */
  desc: z.string(),
  /** When the call was seen (ms since the epoch). */
  at: z.number(),
  /** The guard denied it (it is still recorded: the loop stays visible). */
  denied: z.boolean(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/**
 * The answers to the newest calls by tool_use_id, with when each was given: a second copy of one call (the hook
 * registered twice, both copies started together) gets the same answer.
 */
export const AnsweredSchema = z.object({ id: z.string(), decision: z.unknown(), finishedAt: z.number() });

export const LoopStateSchema = z.strictObject({
  v: z.literal(1),
  history: z.array(HistoryEntrySchema),
  /** Absent in files written before it existed. */
  answered: z.optional(z.array(AnsweredSchema)),
});
export type LoopState = z.infer<typeof LoopStateSchema>;

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

const LOOP_STATE_FILE = { schema: LoopStateSchema, fresh: freshLoopState, label: "loop state file" };

export function readLoopState(path: string): Promise<LoadedLoopState> {
  return readStateFile(path, LOOP_STATE_FILE);
}

export function parseLoopState(text: string, path: string): LoadedLoopState {
  return parseStateFile(text, path, LOOP_STATE_FILE);
}

export async function writeLoopState(path: string, state: LoopState): Promise<void> {
  // a lost entry on power loss costs one step of a count; an fsync on every tool call is not free
  await writeJsonAtomic(path, state, { fsync: false, label: "loop state file" });
}
