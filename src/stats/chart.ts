/**
 * The rows of `stats`' chart of stops caught: one per day for a window of up to a month, else one per week (up to
 * half a year), else one per month, so that `--days 3650` is a chart to read, not 3,650 lines of 0. A bucketed
 * chart starts at the first bucket with a stop in it (caught or allowed): years before the log began are not drawn.
 * Pure; `--json` keeps every day (Stats.perDay).
 */
import type { DayCount } from "./compute.ts";

/** Longest window drawn day by day. */
export const DAILY_MAX_DAYS = 31;
/** Longest window drawn week by week; past it, month by month. */
export const WEEKLY_MAX_DAYS = 182;

export type ChartUnit = "day" | "week" | "month";

export interface ChartRow {
  /** The bucket's first day (`2026-11-24`) or its month (`2026-11`); the first bucket may begin mid-week or mid-month. */
  label: string;
  caught: number;
}

export interface Chart {
  unit: ChartUnit;
  rows: ChartRow[];
}

export function chartUnit(days: number): ChartUnit {
  return days <= DAILY_MAX_DAYS ? "day" : days <= WEEKLY_MAX_DAYS ? "week" : "month";
}

/**
 * The chart of `perDay` (oldest first, one entry per day of the window). Weeks are counted back from the window's
 * last day, so the last row ends today; months are calendar months (UTC).
 */
export function chartRows(perDay: readonly DayCount[]): Chart {
  const unit = chartUnit(perDay.length);
  if (unit === "day") return { unit, rows: perDay.map((d) => ({ label: d.date, caught: d.caught })) };
  const buckets: { label: string; caught: number; stops: number }[] = [];
  perDay.forEach((day, i) => {
    const fromEnd = perDay.length - 1 - i;
    const starts = unit === "week"
      ? buckets.length === 0 || fromEnd % 7 === 6
      : buckets.length === 0 || day.date.slice(0, 7) !== buckets.at(-1)!.label.slice(0, 7);
    if (starts) buckets.push({ label: unit === "week" ? day.date : day.date.slice(0, 7), caught: 0, stops: 0 });
    const bucket = buckets.at(-1)!;
    bucket.caught += day.caught;
    bucket.stops += day.caught + day.allowed;
  });
  const first = buckets.findIndex((b) => b.stops > 0);
  return {
    unit,
    rows: (first === -1 ? buckets.slice(-1) : buckets.slice(first)).map(({ label, caught }) => ({ label, caught })),
  };
}
