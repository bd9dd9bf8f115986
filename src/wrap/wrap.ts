/**
 * One `wrap` run: start the command (child.ts), decide the exit code (verdict.ts), count it (health.ts) and, when
 * it failed open, say why in errors.log and in one stderr line. Never throws: an internal error fails open too.
 *
 * The file work after the command ended (errors.log, the health file under its lock) is bounded: at most
 * FILE_TIME_LIMIT_MS, and no later than --timeout plus WRAP_MARGIN_MS from wrap's start (the health lock's wait
 * shrinks to fit), so wrap answers inside the hook's own time limit; and a stop signal (SIGTERM, SIGINT, SIGHUP)
 * that comes once the command has ended cuts it short. wrap then answers with the verdict's exit code and leaves the
 * health file as it was.
 */
import { shellWord } from "../settings/handler_words.ts";
import { appendError } from "../store/errors_log.ts";
import { type ByteSink, type ChildSpec, runChild } from "./child.ts";
import { HEALTH_LOCK_WAIT_MS, type HealthRecord, recordRun } from "./health.ts";
import type { KillOptions } from "./kill.ts";
import type { WrapRequest } from "./options.ts";
import { decide, type Verdict } from "./verdict.ts";
import { within } from "./within.ts";

/**
 * Longest wrap spends on errors.log and the health file once the command has ended: the health lock's wait
 * (HEALTH_LOCK_WAIT_MS) and two seconds for the rest.
 */
export const FILE_TIME_LIMIT_MS = HEALTH_LOCK_WAIT_MS + 2000;
/** Of the file work's time, what is kept for errors.log and the health file's read and write besides the lock. */
const FILE_REST_MS = FILE_TIME_LIMIT_MS - HEALTH_LOCK_WAIT_MS;

/**
 * How long past --timeout, counted from wrap's start, wrap may still work on files: the default 25 s timeout and this
 * stay under the 30 s a UserPromptSubmit hook is often given (options.ts). A command killed at its limit (two seconds
 * for the group to go at most, child.ts) leaves the health update what is left.
 */
export const WRAP_MARGIN_MS = 4000;
/** Longest wait for the errors.log line that says the file work was given up. */
const GIVE_UP_LINE_WAIT_MS = 250;

export interface WrapDeps {
  paths: { root: string; locks: string; errors: string };
  stdin: ChildSpec["stdin"];
  stdout: ByteSink;
  stderr: ByteSink;
  /** One line of wrap's own on stderr (why it failed open). */
  notice(line: string): void;
  now(): Date;
  signal?: AbortSignal;
  cwd?: string;
  kill?: KillOptions;
  graceMs?: number;
  /**
   * Longest wait for errors.log and the health file after the command ended (default FILE_TIME_LIMIT_MS); less when
   * --timeout plus WRAP_MARGIN_MS from wrap's start comes first.
   */
  fileTimeLimitMs?: number;
  /** A monotonic clock in ms (default performance.now; a test moves it by hand). */
  clock?: () => number;
  /** Counts the run in the health file (default recordRun; a test gives one that never answers). */
  record?: typeof recordRun;
}

export interface WrapResult {
  exit: 0 | 2;
  verdict: Verdict;
  /** The health record after this run; null when it could not be written (the reason is in errors.log). */
  health: HealthRecord | null;
}

export async function wrap(request: WrapRequest, given: WrapDeps): Promise<WrapResult> {
  const deps = ownLines(given);
  const clock = deps.clock ?? (() => performance.now());
  const deadline = clock() + request.timeoutMs + WRAP_MARGIN_MS;
  const where = `wrap ${request.name}`;
  let verdict: Verdict;
  let durationMs = 0;
  try {
    const child = await runChild({
      command: request.command,
      args: request.args,
      timeoutMs: request.timeoutMs,
      stdin: deps.stdin,
      stdout: deps.stdout,
      stderr: deps.stderr,
      ...(deps.cwd ? { cwd: deps.cwd } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.kill ? { kill: deps.kill } : {}),
      ...(deps.graceMs !== undefined ? { graceMs: deps.graceMs } : {}),
    });
    durationMs = child.durationMs;
    verdict = decide(request.policy, child, request.timeoutMs);
    if (verdict.outcome === "not-allowed") {
      verdict = { ...verdict, error: `${verdict.error}; ${notAllowedFix(request.command)}` };
    }
  } catch (e) {
    // runChild does not throw; this is the backstop for a bug in wrap itself
    verdict = {
      exit: 0,
      outcome: "crash",
      exitCode: null,
      signal: null,
      error: `internal error: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const exitText = verdict.exit === 0 ? "failed open: exit 0" : "exit 2";
  if (verdict.error !== null) deps.notice(`cliffhanger-bin: ${where}: ${verdict.error} (${exitText})`);
  // a signal that interrupted the command is spent: the interrupted run is still counted, within the time limit
  const stop = verdict.outcome === "interrupted" ? undefined : deps.signal;
  const limitMs = fileLimitMs(deps.fileTimeLimitMs ?? FILE_TIME_LIMIT_MS, deadline - clock());
  const waitMs = Math.min(HEALTH_LOCK_WAIT_MS, Math.max(0, limitMs - FILE_REST_MS));
  const settled = await within(countRun(request, verdict, durationMs, deps, waitMs), {
    ms: limitMs,
    ...(stop ? { signal: stop } : {}),
  });
  if (settled.done) return { exit: verdict.exit, verdict, health: settled.value };
  const why = settled.cause === "signal"
    ? "wrap was told to stop after the command ended"
    : `no answer from errors.log or the health file within ${limitMs} ms`;
  deps.notice(`cliffhanger-bin: ${where}: health file not updated: ${why} (${exitText})`);
  await within(appendError(deps.paths.errors, `${where} health`, `not updated: ${why}`, deps.now()), {
    ms: GIVE_UP_LINE_WAIT_MS,
  });
  return { exit: verdict.exit, verdict, health: null };
}

/** The file work's limit: `limitMs`, or what is left before wrap's deadline when that is less (never below 0). */
export function fileLimitMs(limitMs: number, leftMs: number): number {
  return Math.max(0, Math.min(limitMs, Math.floor(leftMs)));
}

/**
 * The file work of one run: the verdict's errors.log line, then the health file (its lock waited for `waitMs`). A health file the safe reader
 * refused (its counts start again) or one that cannot be written is said on stderr and in errors.log.
 */
async function countRun(
  request: WrapRequest,
  verdict: Verdict,
  durationMs: number,
  deps: WrapDeps,
  waitMs: number,
): Promise<HealthRecord | null> {
  const where = `wrap ${request.name}`;
  if (verdict.error !== null) await appendError(deps.paths.errors, where, verdict.error, deps.now());
  try {
    const recorded = await (deps.record ?? recordRun)(deps.paths, request.name, {
      command: [request.command, ...request.args],
      policy: request.policy,
      timeoutMs: request.timeoutMs,
      outcome: verdict.outcome,
      exit: verdict.exit,
      exitCode: verdict.exitCode,
      signal: verdict.signal,
      error: verdict.error,
      durationMs,
      at: deps.now(),
    }, { waitMs });
    if (recorded.refused !== null) {
      const line = `${recorded.refused}; its counts start again`;
      deps.notice(`cliffhanger-bin: ${where}: ${line}`);
      await appendError(deps.paths.errors, `${where} health`, line, deps.now());
    }
    return recorded.record;
  } catch (e) {
    deps.notice(`cliffhanger-bin: ${where}: health file not updated: ${e instanceof Error ? e.message : String(e)}`);
    await appendError(deps.paths.errors, `${where} health`, e, deps.now());
    return null;
  }
}

/**
 * The deps with wrap's own lines kept apart from the command's: a notice after a stderr that ended mid-line starts
 * on a line of its own, so it is never glued to the command's last words.
 */
function ownLines(deps: WrapDeps): WrapDeps {
  let midLine = false;
  return {
    ...deps,
    stderr: async (chunk) => {
      if (chunk.length > 0) midLine = chunk[chunk.length - 1] !== 0x0a;
      await deps.stderr(chunk);
    },
    notice: (line) => {
      deps.notice(midLine ? `\n${line}` : line);
      midLine = false;
    },
  };
}

/**
 * The fix for a command outside the run scope: a build that allows it, except for a path that is not there (a build
 * would not help; docs/wrap.md) or, where this process may not look, the build on the condition that it is there.
 */
export function notAllowedFix(
  command: string,
  look: (path: string) => "there" | "missing" | "unknown" = lookAt,
): string {
  const build = `build with: deno task compile --allow-run ${shellWord(command)}`;
  if (!command.includes("/")) {
    return `to allow it, ${build} (the build resolves it on PATH, and stops if it is not there)`;
  }
  const state = look(command);
  if (state === "missing") return `${JSON.stringify(command)} does not exist: fix the path in the hook command`;
  return state === "there"
    ? `to allow it, ${build}`
    : `if it exists (this process may not look), to allow it, ${build}`;
}

function lookAt(path: string): "there" | "missing" | "unknown" {
  try {
    Deno.statSync(path);
    return "there";
  } catch (e) {
    return e instanceof Deno.errors.NotFound ? "missing" : "unknown";
  }
}
