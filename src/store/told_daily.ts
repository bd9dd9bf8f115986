/**
 * errors.log lines that every hook call would repeat for as long as their cause lasts (a config problem): each is
 * written at most once a day. `state/.told.json` keeps a hash of each line written in the last day, with when; a line
 * whose hash is there and less than a day old is not written again. Every hook call is a process of its own, so the
 * file is what remembers.
 *
 * The runner loads this module (import()) only when it has such a line: a call with a good config reads nothing more.
 * Never throws. A file that cannot be read or written means the line is written (twice rather than never), and the
 * file is written before the lines, so parallel calls rarely both write them.
 */
import { join } from "../path.ts";
import { writeJsonAtomic } from "./atomic.ts";
import { appendError } from "./errors_log.ts";
import { readRegularText } from "./safe_file.ts";
import { textHash64 } from "./text_hash.ts";

/** The file in `state/` (a dot name: never a state file, never pruned; prune_plan.ts removes its temp files). */
export const TOLD_FILE = ".told.json";

/** How long a line written is not written again. */
export const TOLD_FOR_MS = 24 * 60 * 60 * 1000;

/** Most lines remembered (the newest are kept): a config has a few problems at a time. */
export const MAX_TOLD = 64;

/** A line's hash → when it was written (ms since the epoch). */
export type Told = Record<string, number>;

/** The hash a line is remembered by: `where` and the text, not the time. */
export function toldKey(where: string, line: string): string {
  return textHash64(`${where}\n${line}`);
}

/**
 * Pure: which of `lines` to write now, and the file's next content: the lines written less than a day ago are
 * skipped; entries older than a day (or ahead of the clock by more than a day) are dropped.
 */
export function planTold(
  told: Told,
  where: string,
  lines: readonly string[],
  now: number,
): { write: string[]; next: Told } {
  const fresh = (at: number) => now - at < TOLD_FOR_MS && at - now < TOLD_FOR_MS;
  const next: Told = {};
  for (const [key, at] of Object.entries(told)) if (fresh(at)) next[key] = at;
  const write: string[] = [];
  for (const line of lines) {
    const key = toldKey(where, line);
    if (Object.hasOwn(next, key)) continue;
    if (!write.includes(line)) write.push(line);
    next[key] = now;
  }
  const newest = Object.entries(next).sort((a, b) => b[1] - a[1]).slice(0, MAX_TOLD);
  return { write, next: Object.fromEntries(newest) };
}

/** The file's entries, when it is exactly a map of 16-hex-digit keys to times; else none (everything is written). */
export function checkTold(raw: unknown): Told {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const out: Told = {};
  for (const [key, at] of Object.entries(raw as Record<string, unknown>)) {
    if (!/^[0-9a-f]{16}$/.test(key) || typeof at !== "number" || !Number.isSafeInteger(at)) return {};
    out[key] = at;
  }
  return out;
}

export interface ToldDailyOptions {
  /** errors.log. */
  errorsLog: string;
  /** The state folder, where TOLD_FILE is. */
  stateDir: string;
  /** The cliffhanger home: the file must not be a link out of it. */
  root: string;
  /** errors.log's `where` for every line ("config"). */
  where: string;
  lines: readonly string[];
  /** Milliseconds since the epoch. */
  now: number;
}

/** Appends to errors.log each of `lines` not written in the last day. Never throws. */
export async function appendErrorsDaily(options: ToldDailyOptions): Promise<void> {
  const file = join(options.stateDir, TOLD_FILE);
  let told: Told = {};
  try {
    const text = await readRegularText(file, { maxBytes: 16 * 1024, within: options.root, label: "told file" });
    if (text !== null) told = checkTold(JSON.parse(text));
  } catch {
    // unreadable, a FIFO, a link out, not JSON: as if nothing had been written
  }
  const { write, next } = planTold(told, options.where, options.lines, options.now);
  if (write.length === 0) return;
  try {
    await writeJsonAtomic(file, next, { fsync: false, label: "told file" });
  } catch {
    // cannot be remembered: the lines are written on every call, as they would be without this file
  }
  for (const line of write) await appendError(options.errorsLog, options.where, line);
}
