import assert from "node:assert/strict";
import { sleep } from "./sleep.ts";

Deno.test("sleep() waits at least the time asked", async () => {
  const started = performance.now();
  await sleep(120);
  // a lower bound only: a loaded machine makes the wait longer, never shorter
  assert.ok(performance.now() - started >= 110, "waited");
});

Deno.test("sleep() of 0 or less does not throw and ends before any later deadline", async () => {
  const order: string[] = [];
  await Promise.all([
    sleep(50).then(() => order.push("50")),
    sleep(0).then(() => order.push("0")),
    sleep(-5).then(() => order.push("-5")),
  ]);
  assert.deepEqual(order.slice(0, 2).sort(), ["-5", "0"]);
  assert.equal(order[2], "50");
});
