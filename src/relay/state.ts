/**
 * The two counters, one file per writer: state.json (the hook: last turn of to-code.md consumed) and
 * manager-state.json (the manager: last turn of to-agent.md consumed). A file with one writer cannot lose an
 * update; on top of that every write re-reads the file under its lock and merges into what is there now (unknown
 * keys survive, counters never go down), so a snapshot taken before a minutes-long wait is never written back.
 */
import * as z from "../zod.ts";
import { writeJsonAtomic } from "../store/atomic.ts";
import { withLock } from "../store/lock.ts";
import { readRegularText, UnsafeFileError } from "../store/safe_file.ts";
import { dirname } from "../path.ts";
import { MAX_TURN } from "./turn_format.ts";

/** A turn counter: no larger than a turn line can say, so a counter never points past every message (turn_format.ts). */
const turn = z.int().check(z.minimum(0), z.maximum(MAX_TURN));

/**
 * A turn handed over but not yet recorded as consumed: the stop that took it writes this before it answers and
 * replaces it with the counter once its answer is out (docs/relay.md, "Delivered, or still in the mailbox").
 */
const TakingSchema = z.looseObject({
  turn,
  /** The session whose stop took it (for the record). */
  session: z.string(),
  /** When it was taken (ISO). */
  at: z.string(),
});

export const HookStateSchema = z.looseObject({
  last_code_turn_consumed: z._default(turn, 0),
  taking: z.optional(TakingSchema),
  /**
   * The queue file the last consumed turn came from (`queue/2.md`): the consumed mark is a stop's last write, so the
   * file is removed by the next stop, not by the one that took it.
   */
  consumed_from: z.optional(z.string()),
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

/** Largest counter file read: a few counters and a mark, far under a kilobyte when the relay writes it. */
export const MAX_RELAY_STATE_BYTES = 64 * 1024;

/**
 * A state file: missing = defaults; unreadable JSON or a schema error = a problem naming the file. Read only as a
 * regular file of at most MAX_RELAY_STATE_BYTES in its own folder: a FIFO, a device (a planted link to /dev/zero), a
 * folder, an over-size file or a link out of the relay folder is a problem too, never opened.
 */
export async function readStateFile<S extends z.ZodMiniType>(
  path: string,
  schema: S,
): Promise<ReadResult<z.output<S>>> {
  let text: string | null;
  try {
    text = await readRegularText(path, {
      maxBytes: MAX_RELAY_STATE_BYTES,
      within: dirname(path),
      label: "relay state",
    });
  } catch (e) {
    if (e instanceof UnsafeFileError) return { ok: false, problem: e.message };
    throw e;
  }
  if (text === null) return { ok: true, value: schema.parse({}), exists: false };
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

/**
 * The longest a state file's write waits for its lock. Past it the write throws: a stop's claim then waits for its next
 * poll (stage.ts), its consumed mark leaves the turn to come again.
 */
export const STATE_LOCK_WAIT_MS = 5000;

/** Re-read under the lock, apply `update` to the fresh value, write atomically. */
export async function mergeStateFile<T>(options: MergeOptions<T>): Promise<MergeResult<T>> {
  return await withLock(options.lockPath, async () => {
    const read = await readStateFile(options.path, options.schema);
    if (!read.ok) return read;
    const next = options.update(read.value);
    if (next === null) return { ok: true, before: read.value, after: read.value, written: false };
    await writeJsonAtomic(options.path, next, { mode: 0o644, label: "relay state file" });
    return { ok: true, before: read.value, after: next, written: true };
  }, { waitMs: STATE_LOCK_WAIT_MS });
}

/**
 * How long a turn a stop has taken is left to it: that stop writes its answer and records the turn within
 * milliseconds; past this it was cut off (killed), and the turn is taken again.
 */
export const TAKING_LEASE_MS = 30_000;

/**
 * Whether a `taking` mark made at `at` (ISO) still holds its turn at `now` (ms): taken less than TAKING_LEASE_MS ago.
 * A mark past the lease, from the future past it, or with an unreadable time is stale.
 */
export function takingHolds(at: string, now: number): boolean {
  return Math.abs(now - Date.parse(at)) < TAKING_LEASE_MS;
}

export type ClaimResult =
  | { ok: true; claimed: true; again: boolean; current: number }
  | { ok: true; claimed: false; current: number }
  | { ok: false; problem: string };

/**
 * The hook's claim of turn `turn`, before it answers: the counter does not move yet (`taking` marks the turn as being
 * handed over). Not claimed when the fresh state.json has already consumed it, or when a stop took it less than
 * TAKING_LEASE_MS ago. One taken longer ago was not recorded after its answer (that stop was cut off): claimed
 * `again`. Everything else in the file is kept.
 */
export async function claimCodeTurn(
  path: string,
  lockPath: string,
  claim: { turn: number; session: string; now: Date },
): Promise<ClaimResult> {
  let again = false;
  const result = await mergeStateFile<HookState>({
    path,
    lockPath,
    schema: HookStateSchema as z.ZodMiniType<HookState>,
    update: (current) => {
      if (current.last_code_turn_consumed >= claim.turn) return null;
      const taking = current.taking;
      if (taking !== undefined && taking.turn === claim.turn) {
        // a stop handing it over now (its answer and mark are milliseconds apart), even of this session: a copy of
        // the same stop may run in parallel. A mark from the future, past the lease, or unreadable is stale too.
        if (takingHolds(taking.at, claim.now.getTime())) return null;
        again = true;
      }
      const at = claim.now.toISOString();
      return { ...current, taking: { turn: claim.turn, session: claim.session, at }, updated: at };
    },
  });
  if (!result.ok) return result;
  const current = result.after.last_code_turn_consumed;
  return result.written ? { ok: true, claimed: true, again, current } : { ok: true, claimed: false, current };
}

/**
 * Records turn `turn` as consumed, the last thing a stop does once its answer is written: the counter moves up to it
 * (never down), the `taking` mark of it (or of an older turn) goes, and `from` (the queue file it came from, as
 * `queue/2.md`; null for to-code.md) is kept for the next stop to remove.
 */
export async function markCodeTurnConsumed(
  path: string,
  lockPath: string,
  turn: number,
  now: Date,
  from: string | null = null,
): Promise<MergeResult<HookState>> {
  return await mergeStateFile<HookState>({
    path,
    lockPath,
    schema: HookStateSchema as z.ZodMiniType<HookState>,
    update: (current) => {
      const { taking, consumed_from: _, ...rest } = current;
      const keep = taking !== undefined && taking.turn > turn ? { taking } : {};
      const moved = turn > current.last_code_turn_consumed;
      const record = moved ? from : current.consumed_from ?? null;
      return {
        ...rest,
        ...keep,
        last_code_turn_consumed: Math.max(current.last_code_turn_consumed, turn),
        ...(record === null ? {} : { consumed_from: record }),
        updated: now.toISOString(),
      };
    },
  });
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
