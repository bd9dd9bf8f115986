/**
 * Health counters of wrapped commands: one small JSON file per name, `$CLIFFHANGER_HOME/wrap/<name>.json`,
 * updated under a lock (`locks/wrap/<name>.lock`) with an atomic rename, so parallel runs of one hook lose no
 * count and a reader never sees a torn file. `status` lists them.
 */
import { dirname, join } from "node:path";
import { writeJsonAtomic } from "../store/atomic.ts";
import { withLock } from "../store/lock.ts";
import { readRegularText, UnsafeFileError } from "../store/safe_file.ts";
import type { Policy } from "./options.ts";

/** How one run ended, from wrap's point of view. */
export type Outcome =
  /** exit 0 */
  | "ok"
  /** exit 2: forwarded under `hard`, turned into 0 under `advisory` */
  | "block"
  /** any other non-zero exit */
  | "failure"
  /** past --timeout: the process group was killed */
  | "timeout"
  /** could not start (not found, not executable), or died of a signal wrap did not send */
  | "crash"
  /** not started: outside the run scope (a crash too, for the counters) */
  | "not-allowed"
  /** wrap itself was told to stop (SIGTERM, SIGINT, SIGHUP) and killed the group */
  | "interrupted";

export interface HealthRecord {
  v: 1;
  name: string;
  /** The last run's command line (CMD and its arguments). */
  command: string[];
  policy: Policy;
  timeoutS: number;
  runs: number;
  ok: number;
  blocks: number;
  failures: number;
  timeouts: number;
  /** Spawn failures (not-allowed included) and deaths by signal. */
  crashes: number;
  interrupted: number;
  lastOutcome: Outcome;
  /** What wrap exited with. */
  lastExit: number;
  /** The command's own exit code; null when it never started or was killed on timeout. */
  lastExitCode: number | null;
  lastSignal: string | null;
  /** A short reason for the last run that was not ok or a block (at most 200 characters). */
  lastError: string | null;
  lastErrorAt: string | null;
  lastRunAt: string;
  lastDurationMs: number;
  firstRunAt: string;
}

export interface RunReport {
  command: string[];
  policy: Policy;
  timeoutMs: number;
  outcome: Outcome;
  exit: number;
  exitCode: number | null;
  signal: string | null;
  error: string | null;
  durationMs: number;
  at: Date;
}

const COUNTERS = ["runs", "ok", "blocks", "failures", "timeouts", "crashes", "interrupted"] as const;
const MAX_ERROR_CHARS = 200;
/** The command line kept in a record: its first 4,096 characters, so a record stays far below the read cap. */
export const MAX_COMMAND_CHARS = 4096;
/**
 * Largest health file read. A record is a few hundred bytes (its command line at most MAX_COMMAND_CHARS, its error
 * 200); a bigger file, a FIFO, a device or a link out of the wrap folder is refused, never opened.
 */
export const MAX_RECORD_BYTES = 64 * 1024;

export function healthDir(root: string): string {
  return join(root, "wrap");
}

export function healthFile(root: string, name: string): string {
  return join(healthDir(root), `${name}.json`);
}

export function healthLock(locks: string, name: string): string {
  return join(locks, "wrap", `${name}.lock`);
}

/** The record after one more run: pure, so the counting rules are tested without files. */
export function nextRecord(previous: HealthRecord | null, name: string, run: RunReport): HealthRecord {
  const at = run.at.toISOString();
  const counts = Object.fromEntries(COUNTERS.map((c) => [c, previous?.[c] ?? 0])) as Record<
    typeof COUNTERS[number],
    number
  >;
  counts.runs++;
  switch (run.outcome) {
    case "ok":
      counts.ok++;
      break;
    case "block":
      counts.blocks++;
      break;
    case "failure":
      counts.failures++;
      break;
    case "timeout":
      counts.timeouts++;
      break;
    case "crash":
    case "not-allowed":
      counts.crashes++;
      break;
    case "interrupted":
      counts.interrupted++;
      break;
  }
  const error = run.error === null ? null : shortError(run.error);
  return {
    v: 1,
    name,
    command: shortCommand(run.command),
    policy: run.policy,
    timeoutS: run.timeoutMs / 1000,
    ...counts,
    lastOutcome: run.outcome,
    lastExit: run.exit,
    lastExitCode: run.exitCode,
    lastSignal: run.signal,
    lastError: error ?? (previous?.lastError ?? null),
    lastErrorAt: error !== null ? at : (previous?.lastErrorAt ?? null),
    lastRunAt: at,
    lastDurationMs: run.durationMs,
    firstRunAt: previous?.firstRunAt ?? at,
  };
}

export function shortError(text: string): string {
  const one = text.replaceAll(/\s+/g, " ").trim();
  return one.length > MAX_ERROR_CHARS ? `${one.slice(0, MAX_ERROR_CHARS - 1)}…` : one;
}

/**
 * The command line cut to MAX_COMMAND_CHARS in all: the arguments that fit, the one that does not cut short. Each
 * argument also counts the three characters it takes in the file (its quotes and a comma), so thousands of empty
 * arguments cannot grow a record past the read cap.
 */
export function shortCommand(command: readonly string[]): string[] {
  const kept: string[] = [];
  let left = MAX_COMMAND_CHARS;
  for (const arg of command) {
    if (arg.length + 3 <= left) {
      kept.push(arg);
      left -= arg.length + 3;
      continue;
    }
    if (left > 1) kept.push(`${arg.slice(0, left - 1)}…`);
    break;
  }
  return kept;
}

export interface RecordedRun {
  record: HealthRecord;
  /** Why the previous file was not read (not a regular file, too big, a link out of the folder); counted as none. */
  refused: string | null;
}

/**
 * Longest wait for a name's health lock. Each holder keeps it for one read and one atomic write, but dozens of runs of
 * one hook started at once on a busy machine queue for it for seconds (48 parallel runs waited past 2 s and lost their
 * counts); wrap is past its command by then. wrap waits less when its command used most of --timeout: the whole of
 * its file work ends by --timeout plus WRAP_MARGIN_MS from its start (wrap.ts), inside the hook's own limit.
 */
export const HEALTH_LOCK_WAIT_MS = 10_000;

/**
 * Adds one run to `<root>/wrap/<name>.json` under its lock. A file the safe reader refuses counts as no record (the
 * counts start again) and is named in `refused`. Throws on a lock timeout (past `waitMs`, default
 * HEALTH_LOCK_WAIT_MS) or an unwritable home (a FIFO or a folder at the file's name is not replaced).
 */
export async function recordRun(
  paths: { root: string; locks: string },
  name: string,
  run: RunReport,
  { waitMs = HEALTH_LOCK_WAIT_MS }: { waitMs?: number } = {},
): Promise<RecordedRun> {
  const file = healthFile(paths.root, name);
  return await withLock(healthLock(paths.locks, name), async () => {
    let previous: HealthRecord | null = null;
    let refused: string | null = null;
    try {
      previous = await readRecord(file);
    } catch (e) {
      if (!(e instanceof UnsafeFileError)) throw e;
      refused = e.message;
    }
    const record = nextRecord(previous, name, run);
    try {
      await writeJsonAtomic(file, record, { label: "wrap health file" });
    } catch (e) {
      // a FIFO or a link is refused again by the write: say what the read refused first
      if (refused === null) throw e;
      throw new UnsafeFileError(`${refused}; not replaced: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { record, refused };
  }, { waitMs, under: dirname(paths.locks), folderMode: 0o700 });
}

/**
 * One health file, or null when it is missing or not a record (a damaged file starts the counts again). Read only
 * as a regular file of at most MAX_RECORD_BYTES that stays in the wrap folder; anything else throws UnsafeFileError.
 */
export async function readRecord(file: string): Promise<HealthRecord | null> {
  const text = await readRegularText(file, {
    maxBytes: MAX_RECORD_BYTES,
    within: dirname(file),
    label: "wrap health file",
  });
  if (text === null) return null;
  try {
    return coerceRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

export interface HealthListing {
  dir: string;
  records: HealthRecord[];
  /** Files that could not be read or parsed, with the reason. */
  problems: string[];
}

/** Every health record under `<root>/wrap`, sorted by name. A missing folder is an empty list. */
export async function listHealth(root: string): Promise<HealthListing> {
  const dir = healthDir(root);
  const records: HealthRecord[] = [];
  const problems: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      // a FIFO, a link or a folder by that name is not skipped: readRecord refuses it, and it is listed as a problem
      if (!entry.name.endsWith(".json")) continue;
      const file = join(dir, entry.name);
      try {
        const record = await readRecord(file);
        if (record) records.push(record);
        else problems.push(`${file}: not a wrap health record`);
      } catch (e) {
        // a refusal names the file itself
        problems.push(
          e instanceof UnsafeFileError ? e.message : `${file}: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) problems.push(`${dir}: ${e instanceof Error ? e.message : String(e)}`);
  }
  records.sort((a, b) => a.name.localeCompare(b.name));
  return { dir, records, problems };
}

function coerceRecord(value: unknown): HealthRecord | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v["name"] !== "string" || typeof v["lastRunAt"] !== "string") return null;
  const count = (key: string) => {
    const n = v[key];
    return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0;
  };
  const str = (key: string) => (typeof v[key] === "string" ? v[key] as string : null);
  const num = (key: string) => (typeof v[key] === "number" ? v[key] as number : null);
  const outcomes: Outcome[] = ["ok", "block", "failure", "timeout", "crash", "not-allowed", "interrupted"];
  return {
    v: 1,
    name: v["name"],
    command: Array.isArray(v["command"]) ? v["command"].filter((c): c is string => typeof c === "string") : [],
    policy: v["policy"] === "hard" ? "hard" : "advisory",
    timeoutS: num("timeoutS") ?? 0,
    runs: count("runs"),
    ok: count("ok"),
    blocks: count("blocks"),
    failures: count("failures"),
    timeouts: count("timeouts"),
    crashes: count("crashes"),
    interrupted: count("interrupted"),
    lastOutcome: outcomes.includes(v["lastOutcome"] as Outcome) ? v["lastOutcome"] as Outcome : "ok",
    lastExit: num("lastExit") ?? 0,
    lastExitCode: num("lastExitCode"),
    lastSignal: str("lastSignal"),
    lastError: str("lastError"),
    lastErrorAt: str("lastErrorAt"),
    lastRunAt: v["lastRunAt"],
    lastDurationMs: num("lastDurationMs") ?? 0,
    firstRunAt: str("firstRunAt") ?? v["lastRunAt"],
  };
}
