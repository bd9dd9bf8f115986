/**
 * The window every `stats` section counts over: whole UTC days, today included, up to now. One definition, so the
 * totals, the per-day chart and every section count the same lines.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface StatsWindow {
  /** Start of the first day (ms since the epoch, UTC midnight). */
  since: number;
  /** Now (ms since the epoch). */
  until: number;
}

export function statsWindow(now: Date, days: number): StatsWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { since: today - (days - 1) * DAY_MS, until: now.getTime() };
}

/**
 * The UTC day (YYYY-MM-DD) of a log line's instant: its first ten characters for a UTC stamp (ours), else the
 * instant read and put in UTC (a stamp with an offset, as another writer may leave).
 */
export function utcDay(ts: string): string {
  if (ts.endsWith("Z") && ts.length > 10) return ts.slice(0, 10);
  const t = Date.parse(ts);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : ts.slice(0, 10);
}

/** Whether an ISO timestamp falls inside the window (an unparseable one does not). */
export function inWindow(ts: string, window: StatsWindow): boolean {
  const t = Date.parse(ts);
  return Number.isFinite(t) && t >= window.since && t <= window.until;
}
