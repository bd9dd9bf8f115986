/**
 * The policy, in one place: what wrap exits with after the command ended one way or another. Only a deliberate
 * exit 2 under `hard` is passed on (Claude Code reads exit 2 as "block", with stderr as the reason); everything
 * else ends in 0, and every way of failing is also reported (errors.log, one stderr line, the health file).
 */
import type { ChildOutcome } from "./child.ts";
import type { Outcome } from "./health.ts";
import type { Policy } from "./options.ts";

export interface Verdict {
  exit: 0 | 2;
  outcome: Outcome;
  /** The command's exit code, when it exited on its own. */
  exitCode: number | null;
  signal: string | null;
  /** Why this run failed open, for errors.log and the health file; null for ok and a forwarded block. */
  error: string | null;
}

export function decide(policy: Policy, child: ChildOutcome, timeoutMs: number): Verdict {
  const seconds = `${timeoutMs / 1000} s`;
  switch (child.kind) {
    case "exit": {
      // its group already gone: what held the output had left it (setsid, a daemon), which no group kill reaches
      const lingering = !child.lingering
        ? ""
        : child.lingering.method === "gone"
        ? `; something it started still held its output at the ${seconds} limit, outside its process group (it ` +
          "escaped with setsid or as a daemon), so it was not killed"
        : `; something it started still held its output at the ${seconds} limit and was killed (${
          describeKill(child.lingering)
        })`;
      const said = child.stderrTail ? `: ${child.stderrTail}` : "";
      if (child.code === 0) {
        return { exit: 0, outcome: "ok", exitCode: 0, signal: null, error: lingering ? `exit 0${lingering}` : null };
      }
      if (child.code === 2) {
        if (policy === "hard") {
          return {
            exit: 2,
            outcome: "block",
            exitCode: 2,
            signal: null,
            error: lingering ? `exit 2${lingering}` : null,
          };
        }
        return {
          exit: 0,
          outcome: "block",
          exitCode: 2,
          signal: null,
          error:
            `exit 2 under the advisory policy, not passed on (use --policy hard to let it block)${said}${lingering}`,
        };
      }
      return {
        exit: 0,
        outcome: "failure",
        exitCode: child.code,
        signal: null,
        error: `exit ${child.code}${said}${lingering}`,
      };
    }
    case "signal":
      return {
        exit: 0,
        outcome: "crash",
        exitCode: null,
        signal: child.signal,
        error: `killed by ${child.signal}${child.stderrTail ? `: ${child.stderrTail}` : ""}`,
      };
    case "timeout":
      return {
        exit: 0,
        outcome: "timeout",
        exitCode: null,
        signal: "SIGKILL",
        error: `timed out after ${seconds}; ${describeKill(child.kill)}`,
      };
    case "interrupted":
      return {
        exit: 0,
        outcome: "interrupted",
        exitCode: null,
        signal: "SIGKILL",
        error: `wrap was told to stop; ${describeKill(child.kill)}`,
      };
    case "spawn-error":
      return {
        exit: 0,
        outcome: child.reason === "not-allowed" ? "not-allowed" : "crash",
        exitCode: null,
        signal: null,
        error: child.reason === "not-allowed"
          ? `not run: ${child.message}`
          : `could not start (${child.reason}): ${child.message}`,
      };
  }
}

export function describeKill(kill: { method: string; helper?: string; note?: string }): string {
  switch (kill.method) {
    case "process-group":
      return "process group killed";
    case "kill-helper":
      return `process group killed with ${kill.helper}`;
    case "gone":
      return "its process group had already ended";
    default:
      return `only the command itself was killed, processes it started may survive (${kill.note ?? "?"})`;
  }
}
