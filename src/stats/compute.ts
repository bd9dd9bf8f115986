/** Stats over log.jsonl lines: pure, so tests and replay feed it lines directly. */
import { counts, plain } from "../counts.ts";
import { type LogLine, LogLineSchema, type StallLogLine, StallLogLineSchema } from "../store/log.ts";
import { type LoopStats, LoopStatsAccumulator } from "./loops.ts";
import { type PromptStats, PromptStatsAccumulator } from "./prompts.ts";
import { type RelayStats, RelayStatsAccumulator } from "./relay.ts";
import { PromptLogLineSchema } from "../hooks/prompt/log_line.ts";
import { DAY_MS, inWindow, type StatsWindow, statsWindow, utcDay } from "./window.ts";

/** The stall stage's numbers: stalls found (by kind), nudged, held back (by gate), and healthy stops. */
export interface StallStats {
  /** Stops where at least one stall was found. */
  stopsWithStalls: number;
  /** Stalls found, by kind (one per tool call and stop). */
  byKind: Record<string, number>;
  /** Stalls a recovery nudge was sent for. */
  recovered: number;
  /** Stalls a nudge would have been sent for in observe mode (logged, not sent); not in `recovered`. */
  recoveredObserved: number;
  /** Stalls past their retry cap (logged, not nudged). */
  capped: number;
  /** Stops where a guardrail held the nudge back, by gate. */
  suppressed: Record<string, number>;
  /** Stops checked and found healthy. */
  healthy: number;
}

export interface StatsOptions {
  now: Date;
  /** Window length in whole UTC days, today included. */
  days: number;
}

export interface DayCount {
  /** YYYY-MM-DD (UTC). */
  date: string;
  caught: number;
  allowed: number;
}

export interface Stats {
  days: number;
  since: string;
  until: string;
  /** Stops blocked (or, in observe mode, that would have been blocked). */
  caught: number;
  /** Of those, logged in observe mode (not actually blocked), and not held for a person at the keyboard. */
  caughtObserved: number;
  /**
   * Of those, early-stop phrase rules held back because a person was at the keyboard (`attended: true`: the stop
   * went through). Counted apart from the observe-mode ones: a line that is both counts here only.
   */
  caughtAttended: number;
  sessionsWithCatch: number;
  sessions: number;
  byRule: Record<string, number>;
  allowed: number;
  allowedBy: Record<string, number>;
  perDay: DayCount[];
  stalls: StallStats;
  /** The anti-loop guard (`hook pretool`): warned, blocked, by tool and pattern. */
  loops: LoopStats;
  /** The prompt hook: nudges by band, quirks applied. */
  prompts: PromptStats;
  /** The relay stage: waits, turns taken, deadlines, STOP exits. */
  relay: RelayStats;
  /** Lines that were not valid log lines. */
  skippedLines: number;
}

export class StatsAccumulator {
  #window: StatsWindow;
  #stats: Stats;
  #sessions = new Set<string>();
  #caughtSessions = new Set<string>();
  #perDay = new Map<string, DayCount>();
  #loops: LoopStatsAccumulator;
  #prompts: PromptStatsAccumulator;
  #relay: RelayStatsAccumulator;

  constructor(options: StatsOptions) {
    this.#relay = new RelayStatsAccumulator(options);
    this.#loops = new LoopStatsAccumulator(options);
    this.#prompts = new PromptStatsAccumulator(options);
    // whole UTC days, so the totals and the per-day chart always count the same lines
    this.#window = statsWindow(options.now, options.days);
    for (let i = options.days - 1; i >= 0; i--) {
      const date = new Date(this.#window.until - i * DAY_MS).toISOString().slice(0, 10);
      this.#perDay.set(date, { date, caught: 0, allowed: 0 });
    }
    this.#stats = {
      days: options.days,
      since: new Date(this.#window.since).toISOString(),
      until: new Date(this.#window.until).toISOString(),
      caught: 0,
      caughtObserved: 0,
      caughtAttended: 0,
      sessionsWithCatch: 0,
      sessions: 0,
      byRule: counts(),
      allowed: 0,
      allowedBy: counts(),
      perDay: [],
      stalls: {
        stopsWithStalls: 0,
        byKind: counts(),
        recovered: 0,
        recoveredObserved: 0,
        capped: 0,
        suppressed: counts(),
        healthy: 0,
      },
      loops: this.#loops.result(),
      prompts: this.#prompts.result(),
      relay: this.#relay.result(),
      skippedLines: 0,
    };
  }

  /** A line that could not be read at all (longer than a log line can be): counted as skipped. */
  addUnreadable(): void {
    this.#stats.skippedLines++;
  }

  addText(text: string): void {
    if (text.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.#stats.skippedLines++;
      return;
    }
    const kind = (raw as { kind?: unknown } | null)?.kind;
    if (kind === "loop") {
      if (!this.#loops.addValue(raw)) this.#stats.skippedLines++;
      return;
    }
    if (kind === "relay") {
      if (!this.#relay.addValue(raw)) this.#stats.skippedLines++;
      return;
    }
    if (kind === "prompt") {
      const prompt = PromptLogLineSchema.safeParse(raw);
      if (prompt.success) this.#prompts.add(prompt.data);
      else this.#stats.skippedLines++;
      return;
    }
    if (kind === "stall") {
      const stall = StallLogLineSchema.safeParse(raw);
      if (stall.success) this.addStall(stall.data);
      else this.#stats.skippedLines++;
      return;
    }
    const parsed = LogLineSchema.safeParse(raw);
    if (!parsed.success) {
      this.#stats.skippedLines++;
      return;
    }
    this.add(parsed.data);
  }

  add(line: LogLine): void {
    // a relay hand-over is not an early stop caught: the relay section counts it (turn_taken)
    if (line.rule === "relay-turn") return;
    if (!inWindow(line.ts, this.#window)) return;
    const s = this.#stats;
    this.#sessions.add(line.session);
    const day = this.#perDay.get(utcDay(line.ts));
    if (line.action === "block") {
      s.caught++;
      if (line.attended === true) s.caughtAttended++;
      else if (line.observe) s.caughtObserved++;
      s.byRule[line.rule] = (s.byRule[line.rule] ?? 0) + 1;
      this.#caughtSessions.add(line.session);
      if (day) day.caught++;
    } else {
      s.allowed++;
      s.allowedBy[line.rule] = (s.allowedBy[line.rule] ?? 0) + 1;
      if (day) day.allowed++;
    }
  }

  addStall(line: StallLogLine): void {
    if (!inWindow(line.ts, this.#window)) return;
    const s = this.#stats.stalls;
    switch (line.name) {
      case "healthy_stop":
        s.healthy++;
        break;
      case "stall_detected":
        s.stopsWithStalls++;
        for (const stall of line.stalls) s.byKind[stall.kind] = (s.byKind[stall.kind] ?? 0) + 1;
        break;
      case "recovery_dispatched":
        // in observe mode nothing was sent: counted apart
        if (line.observe) s.recoveredObserved += line.stalls.length;
        else s.recovered += line.stalls.length;
        break;
      case "retry_cap_hit":
        s.capped += line.stalls.length;
        if (line.gate) s.suppressed[line.gate] = (s.suppressed[line.gate] ?? 0) + 1;
        break;
      default:
        if (line.gate) s.suppressed[line.gate] = (s.suppressed[line.gate] ?? 0) + 1;
    }
  }

  result(): Stats {
    return {
      ...this.#stats,
      sessions: this.#sessions.size,
      sessionsWithCatch: this.#caughtSessions.size,
      byRule: sortByCount(this.#stats.byRule),
      allowedBy: sortByCount(this.#stats.allowedBy),
      perDay: [...this.#perDay.values()],
      stalls: {
        ...this.#stats.stalls,
        byKind: sortByCount(this.#stats.stalls.byKind),
        suppressed: plain(this.#stats.stalls.suppressed),
      },
      loops: this.#loops.result(),
      prompts: this.#prompts.result(),
      relay: this.#relay.result(),
    };
  }
}

export function computeStats(lines: Iterable<string>, options: StatsOptions): Stats {
  const acc = new StatsAccumulator(options);
  for (const line of lines) acc.addText(line);
  return acc.result();
}

function sortByCount(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
