/**
 * Pruning inside `hook stop`, in process with the budget's start injected: a stop with its budget spent leaves
 * pruning (and the day's claim) to a later stop; one with budget left prunes idle sessions' state, keeping fresh
 * and locked state. The once-a-day run through the CLI is in housekeeping_cli_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../../config.ts";
import { envFrom } from "../../env.ts";
import { homePaths } from "../../store/paths.ts";
import { agedFile, dirNames } from "../../testing/files.ts";
import { type HeldLock, holdLock } from "../../testing/held_lock.ts";
import { withTempHome } from "../../testing/run_cli.ts";
import { STOP_HOOK } from "./hook.ts";
import { runDefinedHook } from "../runner.ts";

const STOP = JSON.stringify({
  hook_event_name: "Stop",
  session_id: "now",
  last_assistant_message: "Done: all tests pass.",
});

async function seed(home: string): Promise<{ state: string; locks: string; busy: HeldLock }> {
  const root = join(home, ".cliffhanger");
  const state = join(root, "state");
  const locks = join(root, "locks");
  await Deno.mkdir(state, { recursive: true });
  await Deno.mkdir(locks, { recursive: true });
  for (const n of ["idle.json", "idle.prompt.json", "idle.loop.json", "idle.agent-a1.json", "busy.json"]) {
    await agedFile(join(state, n), 60);
  }
  await agedFile(join(state, "fresh.json"), 3);
  const busy = await holdLock(join(locks, "busy.lock")); // a hook of session "busy" is running
  return { state, locks, busy };
}

function stop(home: string, budgetStartedAt: number) {
  const env = envFrom({ HOME: home, CLIFFHANGER_HOME: join(home, ".cliffhanger") });
  const now = Date.now();
  return runDefinedHook(STOP_HOOK, {
    env,
    paths: homePaths(env),
    config: DEFAULT_CONFIG,
    stdinText: STOP,
    now: () => now,
    startedAt: now,
    budgetStartedAt,
  });
}

Deno.test("hook stop: with its budget spent, pruning waits and the day is not claimed", () =>
  withTempHome(async (home) => {
    const { state, busy } = await seed(home);
    // the budget started budgetMs ago: nothing is left of it, however fast or slow this machine is
    const outcome = await stop(home, performance.now() - DEFAULT_CONFIG.budgetMs).finally(busy.release);
    assert.equal(outcome.exitCode, 0);
    assert.equal(outcome.stdout, "", "a finished turn is allowed");
    assert.ok(dirNames(state).includes("idle.json"), "nothing pruned");
    assert.ok(!dirNames(state).includes(".pruned"), "the day is not claimed");
  }));

Deno.test("hook stop: with budget left, idle sessions' state is pruned; fresh and locked state stays", () =>
  withTempHome(async (home) => {
    const { state, locks, busy } = await seed(home);
    const outcome = await stop(home, performance.now()).finally(busy.release);
    assert.equal(outcome.exitCode, 0);
    assert.deepEqual(dirNames(state), [".pruned", "busy.json", "fresh.json", "now.json"]);
    assert.deepEqual(dirNames(locks), ["busy.lock"]);
    assert.equal(await Deno.readTextFile(join(home, ".cliffhanger", "errors.log")).catch(() => ""), "");
  }));
