import assert from "node:assert/strict";
import { join } from "node:path";
import { ALLOW_SILENTLY } from "./contract.ts";
import { failOpen } from "./fail_open.ts";

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
