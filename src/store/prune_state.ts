/**
 * Removes the state files of old sessions (config stateMaxAgeDays), at most once a day: the stop hook calls
 * pruneStateIfDue after its decision is logged. The decision of what to remove is planPrune (prune_plan.ts); this
 * module only lists and removes.
 *
 * - Only `state/` is listed, one level, with lstat: a symlink is never followed, a folder never entered.
 * - Each state file is removed under its own lock (`locks/<key>.lock`, tried once: a lock a hook holds keeps its
 *   file, and one whose holder was killed is free), after checking again that it is still an old regular file.
 *   A leftover temp file (a writer killed before its rename) has no lock, and goes once it is a minute old.
 * - Bounded: one time limit (`timeLimitMs`) covers listing `state/` and removing, and at most `limit` files go per
 *   run; the minimum batch below may overrun it by MIN_BATCH_GRACE_MS and one removal at most.
 *   A run cut short leaves the rest for the next day's run: a huge backlog costs each day one bounded run, never
 *   every stop. A listing cut short still removes a small batch of what it saw, so every run makes progress.
 * - Never throws: problems are returned in `errors` (for errors.log).
 */
import { join } from "../path.ts";
import { writeFileAtomic } from "./atomic.ts";
import { acquireLock, LockTimeoutError } from "./lock.ts";
import { DAY_MS, planPrune, PRUNE_MARKER, pruneDue, type StateEntry, TEMP_LEFTOVER_MS } from "./prune_plan.ts";

export interface PruneOptions {
  stateDir: string;
  locksDir: string;
  /** Config stateMaxAgeDays; 0 prunes nothing. */
  maxAgeDays: number;
  /**
   * Milliseconds since the epoch (default Date.now()). File times come from the real clock, so this is the real
   * clock too, not a hook's injected one.
   */
  now?: number;
  /** Most files removed in one run (default 500). */
  limit?: number;
  /** Listing and removing together stop after this long (default 500 ms); the rest waits for the next run. */
  timeLimitMs?: number;
  /** The monotonic clock the time limit is measured on, in milliseconds (default performance.now); for tests. */
  clock?: () => number;
}

export interface PruneReport {
  removed: string[];
  /** Old files kept because a hook holds their lock. */
  held: string[];
  /** Old files seen but left for the next run (limit or time limit reached). */
  deferred: number;
  /** The listing was cut short by the time limit: there may be more old files than it saw. */
  partial: boolean;
  errors: string[];
}

/** Prunes when the marker `state/.pruned` is a day old or missing; null when not due (or switched off). */
export async function pruneStateIfDue(options: PruneOptions): Promise<PruneReport | null> {
  if (options.maxAgeDays <= 0) return null;
  const now = options.now ?? Date.now();
  const marker = join(options.stateDir, PRUNE_MARKER);
  let markerMtime: number | null;
  let markerIsLink = false;
  try {
    const info = await Deno.lstat(marker);
    markerMtime = info.mtime?.getTime() ?? null;
    markerIsLink = !info.isFile;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return failed(`cannot read "${marker}": ${errorText(e)}`);
    markerMtime = null;
  }
  if (!pruneDue(markerMtime, now)) return null;
  try {
    // claimed before the work, so parallel stops do not all prune. A link (or anything but a file) at the marker's
    // name is removed, never followed: the write refuses links
    if (markerIsLink) await Deno.remove(marker, { recursive: true });
    await writeFileAtomic(marker, JSON.stringify({ prunedAt: new Date(now).toISOString() }) + "\n", {
      fsync: false,
      label: "prune marker",
    });
    await Deno.utime(marker, now / 1000, now / 1000);
  } catch (e) {
    return failed(`cannot write "${marker}": ${errorText(e)}`);
  }
  // the claim holds even for a run cut short: the rest waits a day rather than slowing every stop
  return await pruneState({ ...options, now });
}

/** One pruning run, regardless of the marker. */
export async function pruneState(options: PruneOptions): Promise<PruneReport> {
  const now = options.now ?? Date.now();
  const report: PruneReport = { removed: [], held: [], deferred: 0, partial: false, errors: [] };
  if (options.maxAgeDays <= 0) return report;
  const clock = options.clock ?? (() => performance.now());
  const deadline = clock() + (options.timeLimitMs ?? 500);
  const listing = await listOrReport(options.stateDir, () => true, deadline, clock, report.errors);
  if (listing === null) return report;
  report.partial = listing.partial;
  const entries = listing.entries;
  const plan = planPrune({ entries, now, maxAgeDays: options.maxAgeDays, limit: options.limit ?? 500 });
  report.deferred = plan.deferred;
  for (const [i, candidate] of plan.remove.entries()) {
    const at = clock();
    if (at > deadline && (i >= MIN_BATCH || at > deadline + MIN_BATCH_GRACE_MS)) {
      report.deferred += plan.remove.length - i;
      break;
    }
    const path = join(options.stateDir, candidate.name);
    try {
      const outcome = candidate.lock === null
        ? await removeIfStillOld(path, now, TEMP_LEFTOVER_MS)
        : await underLockIfFree(
          join(options.locksDir, candidate.lock),
          () => removeIfStillOld(path, now, options.maxAgeDays * DAY_MS),
        );
      if (outcome === "removed") report.removed.push(candidate.name);
      else if (outcome === "held") report.held.push(candidate.name);
    } catch (e) {
      report.errors.push(`cannot remove "${path}": ${errorText(e)}`);
    }
  }
  return report;
}

/**
 * Entries listed and files removed even past the time limit, so that every run makes progress however large the
 * folder (a few milliseconds at most).
 */
const MIN_LISTED = 200;
const MIN_BATCH = 20;
const MIN_BATCH_GRACE_MS = 50;

type Outcome = "removed" | "kept" | "held";

/** Runs `body` under the lock when it is free (a lock whose holder was killed is); "held" when a live hook has it. */
async function underLockIfFree(lockPath: string, body: () => Promise<Outcome>): Promise<Outcome> {
  let release: () => Promise<void>;
  try {
    release = await acquireLock(lockPath, { waitMs: 0, folderMode: 0o700 });
  } catch (e) {
    if (e instanceof LockTimeoutError) return "held";
    throw e;
  }
  try {
    return await body();
  } finally {
    await release();
  }
}

/** Removes `path` if it is still a regular file (not a symlink) older than `maxAgeMs`. */
async function removeIfStillOld(path: string, now: number, maxAgeMs: number): Promise<Outcome> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "kept";
    throw e;
  }
  if (!info.isFile || info.mtime === null || now - info.mtime.getTime() <= maxAgeMs) return "kept";
  await Deno.remove(path);
  return "removed";
}

interface Listing {
  entries: StateEntry[];
  /** Cut short at the deadline. */
  partial: boolean;
}

/** The entries of `dir` (one level, lstat) seen before `deadline` (on `clock`); none when it does not exist. */
async function listDir(
  dir: string,
  wanted: (name: string) => boolean,
  deadline: number,
  clock: () => number,
): Promise<Listing> {
  const entries: StateEntry[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (entries.length >= MIN_LISTED && clock() > deadline) return { entries, partial: true };
      if (!wanted(e.name)) continue;
      if (!e.isFile) {
        entries.push({ name: e.name, kind: e.isSymlink ? "symlink" : e.isDirectory ? "dir" : "other", mtimeMs: null });
        continue;
      }
      const info = await Deno.lstat(join(dir, e.name)).catch(() => null);
      if (info === null) continue; // removed meanwhile
      entries.push({
        name: e.name,
        kind: info.isFile ? "file" : info.isSymlink ? "symlink" : "other",
        mtimeMs: info.mtime?.getTime() ?? null,
      });
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { entries: [], partial: false };
    throw e;
  }
  return { entries, partial: false };
}

/** listDir, or null with the problem added to `errors`. */
async function listOrReport(
  dir: string,
  wanted: (name: string) => boolean,
  deadline: number,
  clock: () => number,
  errors: string[],
): Promise<Listing | null> {
  try {
    return await listDir(dir, wanted, deadline, clock);
  } catch (e) {
    errors.push(`cannot list "${dir}": ${errorText(e)}`);
    return null;
  }
}

function failed(error: string): PruneReport {
  return { removed: [], held: [], deferred: 0, partial: false, errors: [error] };
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
