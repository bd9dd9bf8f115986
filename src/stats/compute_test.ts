import assert from "node:assert/strict";
import { computeStats } from "./compute.ts";

const line = (ts: string, action: "block" | "allow", rule: string, session = "s", observe = false) =>
  JSON.stringify({ ts, session, event: "Stop", agent: null, action, observe, rule, open: [], match: null, source: null, continuation: 0, cwd: null });

Deno.test("computeStats() counts whole UTC days, so the chart and the totals agree", () => {
  const now = new Date("2026-11-30T10:00:00Z");
  const stats = computeStats([
    line("2026-11-24T00:00:01Z", "block", "offers-to-continue", "a"), // first day of a 7-day window
    line("2026-11-23T23:43:00Z", "block", "offers-to-continue", "b"), // the day before: outside
    line("2026-11-30T09:00:00Z", "allow", "no-pattern", "c"),
    line("2026-11-30T09:30:00Z", "block", "open-items", "c", true),
    "not json",
    "{}",
  ], { now, days: 7 });
  assert.equal(stats.caught, 2);
  assert.equal(stats.caughtObserved, 1);
  assert.equal(stats.sessions, 2);
  assert.equal(stats.sessionsWithCatch, 2);
  assert.deepEqual(stats.byRule, { "offers-to-continue": 1, "open-items": 1 });
  assert.deepEqual(stats.allowedBy, { "no-pattern": 1 });
  assert.equal(stats.skippedLines, 2);
  assert.equal(stats.perDay.length, 7);
  assert.equal(stats.perDay[0]!.date, "2026-11-24");
  assert.equal(stats.perDay.reduce((n, d) => n + d.caught, 0), stats.caught);
  assert.equal(stats.since, "2026-11-24T00:00:00.000Z");
});
