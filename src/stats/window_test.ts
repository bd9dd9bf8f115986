import assert from "node:assert/strict";
import { DAY_MS, inWindow, statsWindow } from "./window.ts";

Deno.test("statsWindow(): whole UTC days, today included, up to now; inWindow() keeps its edges", () => {
  const now = new Date("2026-11-30T15:00:00Z");
  const w = statsWindow(now, 7);
  assert.equal(new Date(w.since).toISOString(), "2026-11-24T00:00:00.000Z");
  assert.equal(w.until, now.getTime());
  assert.equal(statsWindow(now, 1).since, Date.UTC(2026, 10, 30));
  assert.ok(inWindow("2026-11-24T00:00:00.000Z", w));
  assert.ok(inWindow("2026-11-30T15:00:00.000Z", w));
  assert.ok(!inWindow("2026-11-23T23:59:59.999Z", w));
  assert.ok(!inWindow(new Date(now.getTime() + 1).toISOString(), w), "not in the future");
  assert.ok(!inWindow("not a time", w));
  assert.equal(DAY_MS, 86_400_000);
});
