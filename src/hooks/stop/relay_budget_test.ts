/**
 * The relay's time budget: it counts from the stop's start, as the guard's does, and so does the wait, so a stop whose
 * guard took long still ends its wait, hands over and exits inside the Stop hook's registered timeout (Claude Code
 * drops the answer of a hook it kills). The budget's timer is injected and the monotonic clock is a fake one, so no
 * test waits on the wall clock.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../../config.ts";
import { envFrom } from "../../env.ts";
import { makeSandbox, readText, removeSandbox } from "../../reliability/harness.ts";
import { relayPaths } from "../../relay/paths.ts";
import { STATE_LOCK_WAIT_MS } from "../../relay/state.ts";
import { RELAY_HOOK_TIMEOUT_S, RELAY_TIMEOUT_HEADROOM_S } from "../../relay/timeout.ts";
import { formatMessage } from "../../relay/turn_format.ts";
import { RELAY_STOP_TIMEOUT_S } from "../../settings/hook_command.ts";
import type { BudgetTimer } from "../contract.ts";
import { COMMITTED_GRACE_MS, ERROR_LINE_WAIT_MS } from "../fail_open.ts";
import { runHook } from "../runner.ts";
import { RELAY_BUDGET_SLACK_S } from "./relay_stage.ts";

Deno.test("relay budget: the hand-over and the exit fit well inside the Stop timeout install --relay registers", () => {
  // the last hand-over (two lock waits: the claim and the consumed mark) fits in the slack
  assert.ok(2 * STATE_LOCK_WAIT_MS < RELAY_BUDGET_SLACK_S * 1000);
  // the budget's end, the commit's grace and the fail-open line leave 10 s of the headroom status and doctor require
  assert.ok(
    RELAY_BUDGET_SLACK_S * 1000 + COMMITTED_GRACE_MS + ERROR_LINE_WAIT_MS + 10_000 <= RELAY_TIMEOUT_HEADROOM_S * 1000,
  );
  // and install --relay registers that headroom over the default wait
  assert.equal(RELAY_STOP_TIMEOUT_S, RELAY_HOOK_TIMEOUT_S);
  assert.ok(DEFAULT_CONFIG.relayMaxWaitS + RELAY_TIMEOUT_HEADROOM_S <= RELAY_STOP_TIMEOUT_S);
});

/** A timer that never fires by itself: it records each arm's ms (the budget's deadline, from now). */
function recordingTimer(): { timer: BudgetTimer; arms: number[] } {
  const arms: number[] = [];
  return { timer: (ms) => (arms.push(ms), () => {}), arms };
}

/**
 * One `hook stop` in process, as main.ts runs it, whose guard takes `guardMs` on the fake monotonic clock (it moves
 * while stdin is read), with the relay switched on in its project and a wait of `maxWaitS`.
 */
async function stopAfterSlowGuard(options: { guardMs: number; maxWaitS: number; instruction: boolean }) {
  const box = await makeSandbox({ CLIFFHANGER_RELAY_MAX_WAIT_S: String(options.maxWaitS) });
  const project = join(box.root, "project");
  const relay = relayPaths(join(project, "relay"));
  await Deno.mkdir(relay.dir, { recursive: true });
  await Deno.writeTextFile(relay.active, "");
  const now = Date.UTC(2026, 11, 1);
  if (options.instruction) {
    await Deno.writeTextFile(relay.toCode, formatMessage(1, "first task"));
    // written long before the stop: taken at once, without a second look
    await Deno.utime(relay.toCode, new Date(now - 60_000), new Date(now - 60_000));
  }
  let elapsed = 0;
  const timer = recordingTimer();
  let stdout = "";
  const payload = JSON.stringify({
    hook_event_name: "Stop",
    session_id: "slow-guard",
    cwd: project,
    stop_hook_active: false,
    last_assistant_message: "Done. Verify: 8 passed",
  });
  await runHook("stop", {
    env: envFrom(box.env),
    paths: box.paths,
    readStdin: () => {
      elapsed += options.guardMs;
      return Promise.resolve(payload);
    },
    writeStdout: (text) => void (stdout += text),
    now: () => now,
    startedAt: now,
    budgetStartedAt: 0,
    elapsed: () => elapsed,
    budgetTimer: timer.timer,
  });
  return { box, relay, stdout, arms: timer.arms };
}

Deno.test("relay budget: counted from the stop's start, and the wait ends that much sooner", async () => {
  const { box, relay, stdout, arms } = await stopAfterSlowGuard({ guardMs: 7000, maxWaitS: 7, instruction: false });
  try {
    assert.equal(stdout, "", "nothing arrived: the stop is allowed");
    // the guard's budget, its commit; then the relay's, armed with what is left of it after the guard's 7 s
    assert.equal(arms.length, 4, `${arms}`);
    assert.equal(arms[2], (7 + RELAY_BUDGET_SLACK_S) * 1000 - 7000);
    // the 7 s wait had been spent by the guard: it ends at once, and says so
    assert.match(await readText(relay.log), /hook: no new turn after 0 s - session allowed to end\n$/);
    assert.equal(await readText(box.paths.errors), "");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("relay budget: a turn handed over commits, so the hand-over has the grace past the budget", async () => {
  const { box, relay, stdout, arms } = await stopAfterSlowGuard({ guardMs: 7000, maxWaitS: 600, instruction: true });
  try {
    assert.match(JSON.parse(stdout).reason, /--- instruction, turn 1 ---\nfirst task$/);
    const budget = (600 + RELAY_BUDGET_SLACK_S) * 1000;
    assert.deepEqual(arms.slice(2), [budget - 7000, budget + COMMITTED_GRACE_MS - 7000], `${arms}`);
    const state = JSON.parse(await readText(relay.state));
    assert.equal(state.last_code_turn_consumed, 1);
    assert.equal(await readText(box.paths.errors), "");
  } finally {
    await removeSandbox(box);
  }
});
