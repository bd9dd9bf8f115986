/**
 * `hook <event>` in process, through the same step main.ts runs (runHook with the environment, home paths and stdin
 * injected), answering in the shape of a black-box run: exit code 0 and what the binary would print on stdout.
 * The environment is the one runCli gives the child (childEnv), so a case reads the same config and home either way.
 */
import type { HookName } from "../hooks/events.ts";
import { runHook as runHookStep } from "../hooks/runner.ts";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import { childEnv, type CliRun, type RunCliOptions } from "./run_cli.ts";

let lastNow = 0;

/** The real clock, but strictly increasing: each call starts after the previous one finished, as separate processes do. */
function nextNow(): number {
  lastNow = Math.max(Date.now(), lastNow + 1);
  return lastNow;
}

export async function runHookInProcess(
  event: HookName,
  options: Pick<RunCliOptions, "home" | "stdin" | "env">,
): Promise<CliRun> {
  const env = envFrom(childEnv(options));
  const input = options.stdin ?? "";
  const stdin = typeof input === "string" ? input : new TextDecoder().decode(input);
  const startedAt = nextNow();
  const outcome = await runHookStep(event, {
    env,
    paths: homePaths(env),
    readStdin: (limit) =>
      stdin.length > limit
        ? Promise.reject(new RangeError(`Payload is larger than ${limit} bytes; allowed without deciding`))
        : Promise.resolve(stdin),
    // the answer is in the outcome too
    writeStdout: () => {},
    now: nextNow,
    startedAt,
  });
  return { code: outcome.exitCode, stdout: outcome.stdout ?? "", stderr: "" };
}
