import assert from "node:assert/strict";
import { DAY_MS, inWindow, statsWindow, utcDay } from "./window.ts";

Deno.test("utcDay(): the UTC date of the instant, whatever offset the stamp carries", () => {
  assert.equal(utcDay("2026-11-30T23:59:59.999Z"), "2026-11-30");
  assert.equal(utcDay("2026-11-30T23:00:00-05:00"), "2026-12-01");
  assert.equal(utcDay("2026-12-01T00:30:00+05:00"), "2026-11-30");
  assert.equal(utcDay("2026-11-30T10:00:00+00:00"), "2026-11-30");
  for (let i = 0; i < 200; i++) {
    const t = Date.UTC(2026, 0, 1) + i * 7_777_777;
    const offset = (i % 27 - 13) * 60; // minutes
    const local = new Date(t + offset * 60_000).toISOString().slice(0, 19);
    const sign = offset < 0 ? "-" : "+";
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
    const stamp = `${local}${sign}${hh}:00`;
    assert.equal(utcDay(stamp), new Date(t).toISOString().slice(0, 10), stamp);
  }
});

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
