/**
 * The two counters, one file per writer: state.json (the hook: last turn of to-code.md consumed) and
 * manager-state.json (the manager: last turn of to-agent.md consumed). A file with one writer cannot lose an
 * update; on top of that every write re-reads the file under its lock and merges into what is there now (unknown
 * keys survive, counters never go down), so a snapshot taken before a minutes-long wait is never written back.
 */
import * as z from "../zod.ts";
import { writeJsonAtomic } from "../store/atomic.ts";
import { withLock } from "../store/lock.ts";

const turn = z.int().check(z.minimum(0));

export const HookStateSchema = z.looseObject({
  last_code_turn_consumed: z._default(turn, 0),
  updated: z.optional(z.string()),
});
export type HookState = z.infer<typeof HookStateSchema>;

export const ManagerStateSchema = z.looseObject({
  last_agent_turn_consumed: z._default(turn, 0),
  /** The turn `relay send` last wrote to to-code.md. */
  last_sent_turn: z._default(turn, 0),
  updated: z.optional(z.string()),
});
export type ManagerState = z.infer<typeof ManagerStateSchema>;

export type ReadResult<T> = { ok: true; value: T; exists: boolean } | { ok: false; problem: string };

/** A state file: missing = defaults; unreadable JSON or a schema error = a problem naming the file. */
export async function readStateFile<S extends z.ZodMiniType>(
  path: string,
  schema: S,
): Promise<ReadResult<z.output<S>>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, value: schema.parse({}), exists: false };
    throw e;
  }
  if (text.trim() === "") return { ok: true, value: schema.parse({}), exists: true };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: `"${path}" is not valid JSON` };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `"${path}": ${issue?.path.join(".") || "top level"}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, value: parsed.data, exists: true };
}

export interface MergeOptions<T> {
  path: string;
  lockPath: string;
  schema: z.ZodMiniType<T>;
  /** The new value from the one just read (under the lock); return null to leave the file as it is. */
  update(current: T): T | null;
}

export type MergeResult<T> = { ok: true; before: T; after: T; written: boolean } | { ok: false; problem: string };

/** Re-read under the lock, apply `update` to the fresh value, write atomically. */
export async function mergeStateFile<T>(options: MergeOptions<T>): Promise<MergeResult<T>> {
  return await withLock(options.lockPath, async () => {
    const read = await readStateFile(options.path, options.schema);
    if (!read.ok) return read;
    const next = options.update(read.value);
    if (next === null) return { ok: true, before: read.value, after: read.value, written: false };
    await writeJsonAtomic(options.path, next, { mode: 0o644, label: "relay state file", folderMayBeLink: true });
    return { ok: true, before: read.value, after: next, written: true };
  }, { waitMs: 5000, staleMs: 10000 });
}

/**
 * The hook's claim of turn `turn`: taken only if the fresh state.json still has a lower counter (another copy of
 * the hook may have taken it meanwhile). Everything else in the file is kept.
 */
export async function claimCodeTurn(
  path: string,
  lockPath: string,
  turn: number,
  now: Date,
): Promise<MergeResult<HookState> & { claimed?: boolean }> {
  const result = await mergeStateFile<HookState>({
    path,
    lockPath,
    schema: HookStateSchema as z.ZodMiniType<HookState>,
    update: (current) =>
      current.last_code_turn_consumed >= turn
        ? null
        : { ...current, last_code_turn_consumed: turn, updated: now.toISOString() },
  });
  return result.ok ? { ...result, claimed: result.written } : result;
}

/** The manager's record of what it consumed or sent; counters only move up. */
export async function recordManager(
  path: string,
  lockPath: string,
  patch: { agentTurn?: number; sentTurn?: number },
  now: Date,
): Promise<MergeResult<ManagerState>> {
  return await mergeStateFile<ManagerState>({
    path,
    lockPath,
    schema: ManagerStateSchema as z.ZodMiniType<ManagerState>,
    update: (current) => ({
      ...current,
      last_agent_turn_consumed: Math.max(current.last_agent_turn_consumed, patch.agentTurn ?? 0),
      last_sent_turn: Math.max(current.last_sent_turn, patch.sentTurn ?? 0),
      updated: now.toISOString(),
    }),
  });
}
