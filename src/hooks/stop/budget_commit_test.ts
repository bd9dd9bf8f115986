/**
 * The commit point of `hook stop` (runner.ts, fail_open.ts): a stop whose budget ends after its state write still
 * answers the block it counted and logs it; one whose budget ends before it (while the transcript is read) fails open
 * and writes nothing, although its body runs on in the background. The budget's timer is fired by hand at those
 * points, through the real Stop definition (its state write wrapped), so no test waits on the wall clock.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../../config.ts";
import { envFrom } from "../../env.ts";
import { makeSandbox, readText, removeSandbox, type Sandbox } from "../../reliability/harness.ts";
import type { BudgetTimer, HookOutcome } from "../contract.ts";
import { failOpen } from "../fail_open.ts";
import { runDefinedHook, runHook } from "../runner.ts";
import { STOP_HOOK } from "./hook.ts";

const OFFER = "Step 1 is done. Want me to also add tests for part 1?";

const PAYLOAD = JSON.stringify({
  hook_event_name: "Stop",
  session_id: "be",
  cwd: "/tmp",
  stop_hook_active: false,
  last_assistant_message: OFFER,
});

/** A timer fired by hand: `fire(i)` fires the i-th arm, unless it was disarmed (the commit re-arms). */
function manualTimer(): { timer: BudgetTimer; arms: number[]; fire: (i: number) => void } {
  const arms: number[] = [];
  const fires: ((() => void) | null)[] = [];
  const timer: BudgetTimer = (ms, fire) => {
    const i = arms.push(ms) - 1;
    fires[i] = fire;
    return () => void (fires[i] = null);
  };
  return { timer, arms, fire: (i) => fires[i]?.() };
}

/**
 * One stop as runHook runs its body: under failOpen, its commit point the budget's. `body` is what the runner ran,
 * settled (it may run on after the call failed open).
 */
async function stopWith(
  box: Sandbox,
  def: typeof STOP_HOOK,
  manual: ReturnType<typeof manualTimer>,
): Promise<{ outcome: HookOutcome; body: unknown }> {
  const env = envFrom(box.env);
  let body: Promise<unknown> = Promise.resolve();
  const outcome = await failOpen((budget) => {
    const run = runDefinedHook(def, {
      env,
      paths: box.paths,
      config: DEFAULT_CONFIG,
      stdinText: PAYLOAD,
      now: () => Date.UTC(2026, 11, 1),
      startedAt: Date.UTC(2026, 11, 1),
      commit: budget.commit,
    });
    body = run.catch((e) => e);
    return run;
  }, { name: "hook stop", budgetMs: DEFAULT_CONFIG.budgetMs, errorsLog: box.paths.errors, timer: manual.timer });
  return { outcome, body: await body };
}

async function blocksInState(box: Sandbox): Promise<number | null> {
  const text = await readText(join(box.paths.state, "be.json"));
  return text === "" ? null : JSON.parse(text).turn.blocks;
}

Deno.test("hook stop: a budget that ends just after the state write still answers and logs the block it counted", async () => {
  const box = await makeSandbox();
  try {
    const manual = manualTimer();
    const def: typeof STOP_HOOK = {
      ...STOP_HOOK,
      state(payload, prepared, io) {
        const spec = STOP_HOOK.state(payload, prepared, io)!;
        return { ...spec, write: async (state) => (await spec.write(state), manual.fire(0)) };
      },
    };
    const { outcome } = await stopWith(box, def, manual);
    assert.equal(JSON.parse(outcome.stdout).decision, "block", `the block counted is sent: ${outcome.stdout}`);
    assert.equal(await blocksInState(box), 1);
    const log = (await readText(box.paths.log)).trim().split("\n");
    assert.equal(log.length, 1);
    assert.equal(JSON.parse(log[0]!).action, "block", `and logged: ${log[0]}`);
    assert.equal(await readText(box.paths.errors), "", "no budget error for a call that answered");
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("hook stop: a budget that ends before the state write fails open, and the body running on writes nothing", async () => {
  const box = await makeSandbox();
  try {
    const manual = manualTimer();
    const def: typeof STOP_HOOK = {
      ...STOP_HOOK,
      async load(payload, state, prepared, io) {
        const loaded = await STOP_HOOK.load!(payload, state, prepared, io);
        manual.fire(0); // the budget ends while the transcript is read
        return loaded;
      },
    };
    const { outcome, body } = await stopWith(box, def, manual);
    assert.equal(outcome.stdout, "", "allowed");
    assert.ok(body instanceof Error && body.name === "BudgetExceededError", `refused at the commit point: ${body}`);
    assert.equal(await blocksInState(box), null, "no block counted for a stop that answered nothing");
    assert.equal(await readText(box.paths.log), "", "none logged");
    assert.match(await readText(box.paths.errors), /hook stop: BudgetExceededError: ran past its \d+ ms budget/);
  } finally {
    await removeSandbox(box);
  }
});

Deno.test("runHook: a stop commits before its state write: the budget's deadline moves on by the grace, once", async () => {
  const box = await makeSandbox();
  try {
    const manual = manualTimer();
    let stdout = "";
    await runHook("stop", {
      env: envFrom(box.env),
      paths: box.paths,
      readStdin: () => Promise.resolve(PAYLOAD),
      writeStdout: (text) => void (stdout += text),
      now: () => Date.UTC(2026, 11, 1),
      startedAt: Date.UTC(2026, 11, 1),
      budgetTimer: manual.timer,
    });
    assert.equal(JSON.parse(stdout).decision, "block");
    assert.equal(manual.arms.length, 2, `armed at the start, and again at the commit point: ${manual.arms}`);
    // the arm before the commit is disarmed: its deadline coming now would change nothing
    manual.fire(0);
    assert.equal(await readText(box.paths.errors), "");
  } finally {
    await removeSandbox(box);
  }
});
