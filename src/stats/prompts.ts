/**
 * Stats over the `kind: "prompt"` lines of log.jsonl (hook prompt): prompts seen, nudges by band, why prompts
 * went un-nudged, quirks applied by id, models. Pure: lines in, numbers and text out. Other lines are ignored.
 */
import { counts } from "../counts.ts";
import { type PromptLogLine, PromptLogLineSchema } from "../hooks/prompt/log_line.ts";
import { inWindow, type StatsWindow, statsWindow } from "./window.ts";

export interface PromptStats {
  /** Prompts seen in the window. */
  prompts: number;
  sessions: number;
  /** Prompts that were the first of their session. */
  firstTurns: number;
  /** Prompts that got a length nudge. */
  nudged: number;
  /** Prompts by band: short, medium (nudged), silent, off. */
  byBand: Record<string, number>;
  /** Un-nudged prompts by reason (build, long, multiline, opt-out, …). */
  silentBy: Record<string, number>;
  /** Prompts with at least one quirk note. */
  withQuirks: number;
  /** Quirk entries applied, by id. */
  quirks: Record<string, number>;
  /** Models seen (null model counted as "unknown"). */
  models: Record<string, number>;
  /** `kind: "prompt"` lines that were not valid. */
  skippedLines: number;
}

export interface PromptStatsOptions {
  now: Date;
  /** Window length in whole UTC days, today included (as `stats --days`). */
  days: number;
}

export class PromptStatsAccumulator {
  #window: StatsWindow;
  #sessions = new Set<string>();
  #stats: PromptStats = {
    prompts: 0,
    sessions: 0,
    firstTurns: 0,
    nudged: 0,
    byBand: counts(),
    silentBy: counts(),
    withQuirks: 0,
    quirks: counts(),
    models: counts(),
    skippedLines: 0,
  };

  constructor(options: PromptStatsOptions) {
    this.#window = statsWindow(options.now, options.days);
  }

  /** One raw log line; anything but a `kind: "prompt"` line is ignored (not counted as skipped). */
  addText(text: string): void {
    if (text.trim() === "" || !text.includes('"prompt"')) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return; // not ours to judge: the main accumulator counts unreadable lines
    }
    if ((raw as { kind?: unknown } | null)?.kind !== "prompt") return;
    const parsed = PromptLogLineSchema.safeParse(raw);
    if (parsed.success) this.add(parsed.data);
    else this.#stats.skippedLines++;
  }

  add(line: PromptLogLine): void {
    if (!inWindow(line.ts, this.#window)) return;
    const s = this.#stats;
    s.prompts++;
    // a prompt typed by hand without a session_id is logged with "": one unknown session, as the Stop hook's
    // "unknown" is (never "1 prompt in 0 sessions")
    this.#sessions.add(line.session === "" ? "unknown" : line.session);
    if (line.firstTurn) s.firstTurns++;
    if (line.nudged) s.nudged++;
    bump(s.byBand, line.band);
    if (!line.nudged && line.reason) bump(s.silentBy, line.reason);
    if (line.quirks.length > 0) s.withQuirks++;
    for (const id of line.quirks) bump(s.quirks, id);
    bump(s.models, line.model ?? "unknown");
  }

  result(): PromptStats {
    const s = this.#stats;
    return {
      ...s,
      sessions: this.#sessions.size,
      byBand: sortByCount(s.byBand),
      silentBy: sortByCount(s.silentBy),
      quirks: sortByCount(s.quirks),
      models: sortByCount(s.models),
    };
  }
}

export function computePromptStats(lines: Iterable<string>, options: PromptStatsOptions): PromptStats {
  const acc = new PromptStatsAccumulator(options);
  for (const line of lines) acc.addText(line);
  return acc.result();
}

/** The prompt section of `stats`: "" when no prompt was seen, so the section only shows once the hook is in use. */
export function renderPromptStats(stats: PromptStats): string {
  if (stats.prompts === 0) return "";
  const short = stats.byBand["short"] ?? 0;
  const medium = stats.byBand["medium"] ?? 0;
  const lines = [
    `prompts: ${stats.prompts} in ${stats.sessions} ${plural(stats.sessions, "session")}; ` +
    `length nudges ${stats.nudged} (short ${short}, medium ${medium})`,
  ];
  for (const [reason, n] of Object.entries(stats.silentBy)) lines.push(`${String(n).padStart(6)}  no nudge: ${reason}`);
  if (stats.withQuirks > 0) {
    lines.push(`quirk notes added to ${stats.withQuirks} ${plural(stats.withQuirks, "prompt")}`);
    for (const [id, n] of Object.entries(stats.quirks)) lines.push(`${String(n).padStart(6)}  ${id}`);
  }
  if (stats.skippedLines > 0) {
    lines.push(`(${stats.skippedLines} unreadable prompt ${plural(stats.skippedLines, "line")} skipped)`);
  }
  return lines.join("\n") + "\n";
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function sortByCount(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
