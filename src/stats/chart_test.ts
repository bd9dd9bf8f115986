import assert from "node:assert/strict";
import { chartRows, chartUnit, DAILY_MAX_DAYS, WEEKLY_MAX_DAYS } from "./chart.ts";
import type { DayCount } from "./compute.ts";
import { computeStats } from "./compute.ts";
import { renderStats } from "./render.ts";

/** `days` days ending 2026-12-07 (UTC), with `caught` (and `allowed`) on the days given by how long ago they were. */
function window(days: number, caught: Record<number, number>, allowed: Record<number, number> = {}): DayCount[] {
  const end = Date.UTC(2026, 11, 7);
  return Array.from({ length: days }, (_, i) => {
    const ago = days - 1 - i;
    const date = new Date(end - ago * 86_400_000).toISOString().slice(0, 10);
    return { date, caught: caught[ago] ?? 0, allowed: allowed[ago] ?? 0 };
  });
}

Deno.test("chartUnit(): a day per row up to a month, a week up to half a year, a month past it", () => {
  assert.deepEqual([1, 7, DAILY_MAX_DAYS].map(chartUnit), ["day", "day", "day"]);
  assert.deepEqual([DAILY_MAX_DAYS + 1, WEEKLY_MAX_DAYS].map(chartUnit), ["week", "week"]);
  assert.deepEqual([WEEKLY_MAX_DAYS + 1, 3650].map(chartUnit), ["month", "month"]);
});

Deno.test("chartRows(): a week's window is every day, days with nothing included", () => {
  const chart = chartRows(window(7, { 0: 3, 3: 1 }));
  assert.equal(chart.unit, "day");
  assert.deepEqual(chart.rows.map((r) => `${r.label} ${r.caught}`), [
    "2026-12-01 0",
    "2026-12-02 0",
    "2026-12-03 0",
    "2026-12-04 1",
    "2026-12-05 0",
    "2026-12-06 0",
    "2026-12-07 3",
  ]);
});

Deno.test("chartRows(): weeks end today and start at the first with a stop; an allowed stop counts as a start", () => {
  const chart = chartRows(window(60, { 0: 2, 6: 1, 7: 4, 40: 1 }, { 50: 1 }));
  assert.equal(chart.unit, "week");
  assert.deepEqual(chart.rows.map((r) => `${r.label} ${r.caught}`), [
    // 50 days ago (2026-10-18) had an allowed stop: its week is the first row
    "2026-10-13 0",
    "2026-10-20 0",
    "2026-10-27 1",
    "2026-11-03 0",
    "2026-11-10 0",
    "2026-11-17 0",
    "2026-11-24 4",
    "2026-12-01 3",
  ]);
});

Deno.test("chartRows(): ten years are months from the first with a stop; nothing at all is the last month's 0", () => {
  const chart = chartRows(window(3650, { 0: 1, 1: 1, 10: 2, 400: 5 }));
  assert.equal(chart.unit, "month");
  assert.equal(chart.rows[0]!.label, "2025-11");
  assert.equal(chart.rows.at(-1)!.label, "2026-12");
  assert.equal(chart.rows.length, 14);
  assert.deepEqual(chart.rows.filter((r) => r.caught > 0).map((r) => `${r.label} ${r.caught}`), [
    "2025-11 5",
    "2026-11 2",
    "2026-12 2",
  ]);
  assert.deepEqual(chartRows(window(3650, {})).rows, [{ label: "2026-12", caught: 0 }]);
});

Deno.test("renderStats(): --days 3650 prints a chart of months, not a line per day", () => {
  const now = new Date(Date.UTC(2026, 11, 7, 12));
  const stats = computeStats([], { now, days: 3650 });
  const text = renderStats({ ...stats, perDay: window(3650, { 0: 1, 400: 5 }) }, { color: false, labels: {} });
  const chart = text.slice(text.indexOf("caught per"));
  assert.match(chart, /^caught per month \(from the first with a stop\):\n {2}2025-11 {2}#{30} 5\n/);
  assert.equal(chart.trimEnd().split("\n").length, 1 + 14);
});
