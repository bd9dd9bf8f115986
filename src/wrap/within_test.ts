import assert from "node:assert/strict";
import { within } from "./within.ts";

const never = () => new Promise<never>(() => {});

Deno.test("within() gives the work's value when it answers", async () => {
  assert.deepEqual(await within(Promise.resolve(7), { ms: 60_000 }), { done: true, value: 7 });
});

Deno.test("within() rejects as the work does when it fails in time", async () => {
  await assert.rejects(within(Promise.reject(new Error("boom")), { ms: 60_000 }), /boom/);
});

Deno.test("within() gives up on work that never answers once the time is up", async () => {
  assert.deepEqual(await within(never(), { ms: 1 }), { done: false, cause: "time" });
});

Deno.test("within() gives up at once when the signal is aborted, before or during the wait", async () => {
  const before = new AbortController();
  before.abort();
  assert.deepEqual(await within(never(), { ms: 60_000, signal: before.signal }), { done: false, cause: "signal" });
  const during = new AbortController();
  const waiting = within(never(), { ms: 60_000, signal: during.signal });
  during.abort();
  assert.deepEqual(await waiting, { done: false, cause: "signal" });
});

Deno.test("within(): a failure after the wait was given up is not an unhandled rejection", async () => {
  let fail: (e: Error) => void = () => {};
  const late = new Promise<never>((_, reject) => (fail = reject));
  const controller = new AbortController();
  const waiting = within(late, { ms: 60_000, signal: controller.signal });
  controller.abort();
  assert.equal((await waiting).done, false);
  fail(new Error("too late"));
  await Promise.resolve();
});
