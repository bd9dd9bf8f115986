import assert from "node:assert/strict";
import { join } from "node:path";
import { ALLOW_SILENTLY, type BudgetTimer, type HookOutcome } from "./contract.ts";
import {
  BudgetExceededError,
  COMMITTED_GRACE_MS,
  ERROR_LINE_WAIT_MS,
  failOpen,
  type FailOpenOptions,
} from "./fail_open.ts";
import { HOOK_TIMEOUT_MARGIN_S } from "../settings/hook_command.ts";

async function withErrorsLog(body: (errorsLog: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-failopen-" });
  try {
    await body(join(dir, "errors.log"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const readLog = (path: string) => Deno.readTextFile(path).catch(() => "");

Deno.test("failOpen: a body that answers in time is returned as it is, and nothing is logged", async () => {
  await withErrorsLog(async (errorsLog) => {
    const outcome = { stdout: '{"decision":"block"}\n', exitCode: 0 as const };
    assert.deepEqual(
      await failOpen(() => Promise.resolve(outcome), { name: "hook t", budgetMs: 5000, errorsLog }),
      outcome,
    );
    assert.equal(await readLog(errorsLog), "");
  });
});

Deno.test("failOpen: a body that throws allows silently and the error goes to errors.log", async () => {
  await withErrorsLog(async (errorsLog) => {
    const outcome = await failOpen(() => Promise.reject(new Error("disk on fire")), {
      name: "hook t",
      budgetMs: 5000,
      errorsLog,
    });
    assert.deepEqual(outcome, ALLOW_SILENTLY);
    assert.match(await readLog(errorsLog), /hook t: .*disk on fire/);
  });
});

Deno.test("failOpen: a body that never settles, waiting on nothing, allows at the budget", async () => {
  await withErrorsLog(async (errorsLog) => {
    const started = performance.now();
    const outcome = await failOpen(() => new Promise(() => {}), { name: "hook t", budgetMs: 150, errorsLog });
    const elapsed = performance.now() - started;
    assert.deepEqual(outcome, ALLOW_SILENTLY);
    assert.ok(elapsed >= 140, `not before the budget (${elapsed} ms)`);
    assert.match(await readLog(errorsLog), /hook t: .*ran past its 150 ms budget; allowed/);
  });
});

/**
 * A budget's timer the test fires by hand, on a clock that stands still at 0: `arms` are the delays it was armed with;
 * `fire(i)` fires the i-th arm as its deadline coming would (nothing, once it was disarmed), whatever the wall time.
 */
function manualTimer(): { timer: BudgetTimer; arms: number[]; fire: (i: number) => void; now: () => number } {
  const arms: number[] = [];
  const fires: ((() => void) | null)[] = [];
  const timer: BudgetTimer = (ms, fire) => {
    const i = arms.push(ms) - 1;
    fires[i] = fire;
    return () => void (fires[i] = null);
  };
  return { timer, arms, fire: (i) => fires[i]?.(), now: () => 0 };
}

const BLOCK: HookOutcome = { stdout: '{"decision":"block"}\n', exitCode: 0 };

function options(errorsLog: string, manual: ReturnType<typeof manualTimer>): FailOpenOptions {
  return { name: "hook t", budgetMs: 1000, errorsLog, startedAt: 0, now: manual.now, timer: manual.timer };
}

Deno.test("failOpen: a deadline that comes after the commit point lets the call finish and answer", async () => {
  await withErrorsLog(async (errorsLog) => {
    const manual = manualTimer();
    const written: string[] = [];
    const outcome = await failOpen(async (budget) => {
      budget.commit();
      manual.fire(0); // the budget's end, while the state is being written
      await Promise.resolve();
      written.push("state");
      budget.commit(); // again: a no-op
      return BLOCK;
    }, options(errorsLog, manual));
    assert.deepEqual(outcome, BLOCK, "the decision written is the one answered");
    assert.deepEqual(written, ["state"]);
    assert.deepEqual(manual.arms, [1000, 1000 + COMMITTED_GRACE_MS], "the deadline moved to the budget and the grace");
    assert.equal(await readLog(errorsLog), "");
  });
});

Deno.test("failOpen: a deadline before the commit point fails open, and the body running on writes nothing", async () => {
  await withErrorsLog(async (errorsLog) => {
    const manual = manualTimer();
    const written: string[] = [];
    let ran: Promise<unknown> = Promise.resolve();
    const outcome = await failOpen((budget) => {
      const body = (async () => {
        await Promise.resolve();
        manual.fire(0); // the budget's end, while the transcript is read
        await Promise.resolve();
        budget.commit(); // throws: the call has failed open
        written.push("state");
        return BLOCK;
      })();
      ran = body.catch((e) => e);
      return body;
    }, options(errorsLog, manual));
    assert.deepEqual(outcome, ALLOW_SILENTLY);
    assert.ok(await ran instanceof BudgetExceededError, "commit refused");
    assert.deepEqual(written, [], "no state for a call that answered nothing");
    assert.match(await readLog(errorsLog), /hook t: .*ran past its 1000 ms budget; allowed/);
  });
});

Deno.test("failOpen: a call stuck after its commit point fails open at the budget plus the grace, and says so", async () => {
  await withErrorsLog(async (errorsLog) => {
    const manual = manualTimer();
    const outcome = await failOpen((budget) => {
      budget.commit();
      manual.fire(1); // the grace's end: the write never returned
      return new Promise(() => {});
    }, options(errorsLog, manual));
    assert.deepEqual(outcome, ALLOW_SILENTLY);
    assert.match(
      await readLog(errorsLog),
      new RegExp(`ran past its 1000 ms budget and ${COMMITTED_GRACE_MS} ms more after its state was written; allowed`),
    );
  });
});

Deno.test("failOpen: the grace after the commit point and the fail-open line fit in the registered timeouts' margin", () => {
  assert.ok(COMMITTED_GRACE_MS + ERROR_LINE_WAIT_MS < HOOK_TIMEOUT_MARGIN_S * 1000);
});
