/**
 * Which state files of old sessions to remove: a pure function of a listing of `state/`, the time and the config.
 * The I/O (listing, removing each file under its lock, which keeps a file whose lock a hook holds) is in
 * prune_state.ts.
 *
 * Only our own files are candidates: `<key>.json` (stop, subagent, prompt and loop state alike, each guarded by
 * `locks/<key>.lock`) once idle for the configured days, and the temp files of an atomic write that never finished
 * (`<name>.json.tmp-…`, left by a writer killed between its write and its rename) once a minute old. Folders,
 * symlinks, other names and the marker file are never touched.
 */
import { isTempName } from "./atomic.ts";

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A temp file older than this (ms) was left by a killed writer: a live one renames its temp file into place within
 * milliseconds of making it.
 */
export const TEMP_LEFTOVER_MS = 60_000;

/** The file whose mtime says when the state folder was last pruned. */
export const PRUNE_MARKER = ".pruned";

export interface StateEntry {
  name: string;
  /** From lstat: a symlink is a symlink, never what it points to. */
  kind: "file" | "dir" | "symlink" | "other";
  /** Modification time (ms since the epoch); null when unknown. */
  mtimeMs: number | null;
}

export interface PrunePlanInput {
  /** The entries directly inside `state/`. */
  entries: readonly StateEntry[];
  /** Milliseconds since the epoch, on the clock the mtimes come from. */
  now: number;
  /** Config stateMaxAgeDays; 0 (or less) prunes nothing. */
  maxAgeDays: number;
  /** At most this many candidates, oldest first (the rest wait for the next run). */
  limit: number;
}

export interface PruneCandidate {
  name: string;
  mtimeMs: number;
  /** The lock file (in `locks/`) to hold while removing it; null for a leftover temp file. */
  lock: string | null;
}

export interface PrunePlan {
  remove: PruneCandidate[];
  /** Old files left for the next run because of `limit`. */
  deferred: number;
}

/**
 * The temp files of our dot files: the zone cache's (src/hooks/prompt/zone_cache.ts ZONE_CACHE_FILE) and the lines
 * errors.log was told today (told_daily.ts TOLD_FILE; told_daily_test.ts holds the name equal). Written out, not
 * imported: told_daily.ts is loaded only when a hook has such a line.
 */
const DOT_FILE_TEMPS = [".zone.json.tmp-", ".told.json.tmp-"];

/** A name in `state/`: a state file and the lock guarding it, a leftover temp file, or not ours (never touched). */
export type StateName = { kind: "state"; lock: string } | { kind: "temp" } | { kind: "foreign" };

export function classifyStateName(name: string): StateName {
  if (name.includes("/")) return { kind: "foreign" };
  // our dot files (the prompt hook's zone cache `.zone.json`, `.told.json`) leave `<name>.tmp-…` when their writer is
  // killed; any other dot file is not ours to remove
  // a temp file is one atomic.ts tempPathFor names, of a `.json` file
  const temp = isTempName(name) && name.slice(0, name.lastIndexOf(".tmp-")).endsWith(".json");
  if (name.startsWith(".")) {
    return temp && DOT_FILE_TEMPS.some((t) => name.startsWith(t)) ? { kind: "temp" } : { kind: "foreign" };
  }
  if (temp) return { kind: "temp" };
  if (name.endsWith(".json") && name.length > ".json".length) {
    return { kind: "state", lock: `${name.slice(0, -".json".length)}.lock` };
  }
  return { kind: "foreign" };
}

export function isOld(mtimeMs: number, now: number, maxAgeDays: number): boolean {
  return maxAgeDays > 0 && now - mtimeMs > maxAgeDays * DAY_MS;
}

export function planPrune(input: PrunePlanInput): PrunePlan {
  const plan: PrunePlan = { remove: [], deferred: 0 };
  if (input.maxAgeDays <= 0) return plan;
  const old: PruneCandidate[] = [];
  for (const entry of input.entries) {
    if (entry.kind !== "file" || entry.name === PRUNE_MARKER || entry.mtimeMs === null) continue;
    const named = classifyStateName(entry.name);
    if (named.kind === "foreign") continue;
    const due = named.kind === "temp"
      ? input.now - entry.mtimeMs > TEMP_LEFTOVER_MS
      : isOld(entry.mtimeMs, input.now, input.maxAgeDays);
    if (!due) continue;
    old.push({ name: entry.name, mtimeMs: entry.mtimeMs, lock: named.kind === "state" ? named.lock : null });
  }
  old.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  plan.remove = old.slice(0, Math.max(0, input.limit));
  plan.deferred = old.length - plan.remove.length;
  return plan;
}

/** Whether the last prune (the marker's mtime; null: never) is a day or more ago. */
export function pruneDue(markerMtimeMs: number | null, now: number): boolean {
  return markerMtimeMs === null || now - markerMtimeMs >= DAY_MS || markerMtimeMs > now + DAY_MS;
}
