/**
 * The anti-loop guard's numbers from log.jsonl (`kind: "loop"` lines): calls warned and denied, by pattern and
 * by tool. Pure: the caller streams the lines in (addValue/addText) and renders the result.
 */
import { counts } from "../counts.ts";
import { type LoopLogLine, LoopLogLineSchema } from "../hooks/pretool/log_line.ts";
import { inWindow, type StatsWindow, statsWindow } from "./window.ts";

export interface LoopCounts {
  warned: number;
  blocked: number;
}

export interface LoopStats {
  /** Guarded calls that got a warning (or, in observe mode, would have). */
  warned: number;
  /** Guarded calls denied (or, in observe mode, that would have been). */
  blocked: number;
  /** Of those, logged in observe mode: nothing was printed. */
  warnedObserved: number;
  blockedObserved: number;
  /** Sessions with at least one warning or denial. */
  sessions: number;
  byPattern: { burst: LoopCounts; cycle: LoopCounts };
  /** By tool name, most denied first. */
  byTool: Record<string, LoopCounts>;
  /** `kind: "loop"` lines that did not match the schema. */
  skippedLines: number;
}

export interface LoopStatsOptions {
  now: Date;
  /** Window length in whole UTC days, today included (as in `stats --days`). */
  days: number;
}

export function isLoopLine(raw: unknown): boolean {
  return typeof raw === "object" && raw !== null && (raw as { kind?: unknown }).kind === "loop";
}

export class LoopStatsAccumulator {
  #window: StatsWindow;
  #sessions = new Set<string>();
  #stats: LoopStats = {
    warned: 0,
    blocked: 0,
    warnedObserved: 0,
    blockedObserved: 0,
    sessions: 0,
    byPattern: { burst: { warned: 0, blocked: 0 }, cycle: { warned: 0, blocked: 0 } },
    byTool: counts(),
    skippedLines: 0,
  };

  constructor(options: LoopStatsOptions) {
    this.#window = statsWindow(options.now, options.days);
  }

  /** Takes one parsed log line. Returns false when it is not a loop line (left for the other accumulators). */
  addValue(raw: unknown): boolean {
    if (!isLoopLine(raw)) return false;
    const parsed = LoopLogLineSchema.safeParse(raw);
    if (parsed.success) this.add(parsed.data);
    else this.#stats.skippedLines++;
    return true;
  }

  /** One line of log.jsonl as text; false when it is not a loop line (or not JSON). */
  addText(text: string): boolean {
    if (!text.includes('"loop"')) return false;
    try {
      return this.addValue(JSON.parse(text));
    } catch {
      return false;
    }
  }

  add(line: LoopLogLine): void {
    if (!inWindow(line.ts, this.#window)) return;
    const s = this.#stats;
    const tool = s.byTool[line.tool] ??= { warned: 0, blocked: 0 };
    const pattern = s.byPattern[line.pattern];
    if (line.action === "deny") {
      s.blocked++;
      if (line.observe) s.blockedObserved++;
      tool.blocked++;
      pattern.blocked++;
    } else {
      s.warned++;
      if (line.observe) s.warnedObserved++;
      tool.warned++;
      pattern.warned++;
    }
    this.#sessions.add(line.session);
  }

  result(): LoopStats {
    const byTool = Object.fromEntries(
      Object.entries(this.#stats.byTool).sort((a, b) =>
        b[1].blocked - a[1].blocked || b[1].warned - a[1].warned || a[0].localeCompare(b[0])
      ),
    );
    return {
      ...this.#stats,
      sessions: this.#sessions.size,
      byPattern: { burst: { ...this.#stats.byPattern.burst }, cycle: { ...this.#stats.byPattern.cycle } },
      byTool,
    };
  }
}

export function computeLoopStats(lines: Iterable<string>, options: LoopStatsOptions): LoopStats {
  const acc = new LoopStatsAccumulator(options);
  for (const line of lines) acc.addText(line);
  return acc.result();
}

const PATTERN_LABELS = {
  burst: "retry burst (the same call again and again)",
  cycle: "short cycle (A/B… loop)",
} as const;

/** The loops section of `stats` as text lines (none when the guard warned or denied nothing). */
export function renderLoopStats(stats: LoopStats, options: { color: boolean }): string[] {
  if (stats.warned === 0 && stats.blocked === 0) return [];
  const paint = (code: string, text: string) => options.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  const row = (c: LoopCounts, label: string) =>
    `${String(c.blocked).padStart(6)} denied ${String(c.warned).padStart(4)} warned  ${label}`;
  const lines = [
    `loops: ${stats.blocked} tool ${
      plural(stats.blocked, "call")
    } denied, ${stats.warned} warned, in ${stats.sessions} ${plural(stats.sessions, "session")}`,
  ];
  const observed = stats.blockedObserved + stats.warnedObserved;
  if (observed > 0) lines.push(`  (${observed} in observe mode: logged, nothing shown to the agent)`);
  for (const pattern of ["burst", "cycle"] as const) {
    const c = stats.byPattern[pattern];
    if (c.blocked + c.warned > 0) lines.push(row(c, PATTERN_LABELS[pattern]));
  }
  for (const [tool, c] of Object.entries(stats.byTool)) lines.push(row(c, paint("33", tool)));
  return lines;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
