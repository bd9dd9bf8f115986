/**
 * One `wrap` run: start the command (child.ts), decide the exit code (verdict.ts), count it (health.ts) and, when
 * it failed open, say why in errors.log and in one stderr line. Never throws: an internal error fails open too.
 */
import { appendError } from "../store/errors_log.ts";
import { type ByteSink, type ChildSpec, runChild } from "./child.ts";
import { type HealthRecord, recordRun } from "./health.ts";
import type { KillOptions } from "./kill.ts";
import type { WrapRequest } from "./options.ts";
import { decide, type Verdict } from "./verdict.ts";

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
}

export interface WrapResult {
  exit: 0 | 2;
  verdict: Verdict;
  /** The health record after this run; null when it could not be written (the reason is in errors.log). */
  health: HealthRecord | null;
}

export async function wrap(request: WrapRequest, deps: WrapDeps): Promise<WrapResult> {
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
      verdict = {
        ...verdict,
        error: `${verdict.error}; to allow it, build with: deno task compile --allow-run ${shellWord(request.command)}`,
      };
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
  if (verdict.error !== null) {
    deps.notice(
      `cliffhanger-bin: ${where}: ${verdict.error} (${verdict.exit === 0 ? "failed open: exit 0" : "exit 2"})`,
    );
    await appendError(deps.paths.errors, where, verdict.error, deps.now());
  }
  let health: HealthRecord | null = null;
  try {
    health = await recordRun(deps.paths, request.name, {
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
    });
  } catch (e) {
    await appendError(deps.paths.errors, `${where} health`, e, deps.now());
  }
  return { exit: verdict.exit, verdict, health };
}

/** The command as a shell word, for the advice line. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
