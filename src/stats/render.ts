/** The terminal form of Stats: a headline, counts by rule and by reason, and a bar chart by day, week or month. */
import { chartRows } from "./chart.ts";
import type { Stats } from "./compute.ts";
import { renderLoopStats } from "./loops.ts";
import { renderPromptStats } from "./prompts.ts";
import { renderRelayStats } from "./relay.ts";

export interface RenderStatsOptions {
  /** Use ANSI colour (only when stdout is a TTY and NO_COLOR is unset). */
  color: boolean;
  /** Labels for rule ids ("offers-to-continue" → "offered more work"). */
  labels: Record<string, string>;
}

const BAR_WIDTH = 30;

export function renderStats(stats: Stats, options: RenderStatsOptions): string {
  const period = stats.days === 7 ? "this week" : stats.days === 1 ? "today" : `in the last ${stats.days} days`;
  const paint = (code: string, text: string) => options.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  // rules that share a label in one list (offers in three languages) are told apart by their id, as replay does
  const shared = sharedLabels([...Object.keys(stats.byRule), ...Object.keys(stats.allowedBy)], options.labels);
  const label = (rule: string) => {
    const text = Object.hasOwn(options.labels, rule) ? options.labels[rule] : undefined;
    if (text === undefined) return rule;
    return shared.has(text) ? `${text} (${rule})` : text;
  };
  const lines: string[] = [];
  lines.push(
    `caught ${stats.caught} early ${
      plural(stats.caught, "stop")
    } ${period} in ${stats.sessionsWithCatch} of ${stats.sessions} ${plural(stats.sessions, "session")}`,
  );
  if (stats.caughtObserved > 0) lines.push(`  (${stats.caughtObserved} in observe mode: logged, not blocked)`);
  if (stats.caughtAttended > 0) {
    lines.push(`  (${stats.caughtAttended} with a person at the keyboard: logged, not blocked)`);
  }
  for (const [rule, n] of Object.entries(stats.byRule)) {
    lines.push(`${String(n).padStart(6)}  ${paint("33", label(rule))}`);
  }
  lines.push(`allowed ${stats.allowed} ${plural(stats.allowed, "stop")}`);
  for (const [rule, n] of Object.entries(stats.allowedBy)) lines.push(`${String(n).padStart(6)}  ${label(rule)}`);
  const stalls = stats.stalls;
  if (stalls.stopsWithStalls > 0 || stalls.healthy > 0) {
    lines.push(
      `stalls: ${stalls.stopsWithStalls} ${plural(stalls.stopsWithStalls, "stop")} with a silent tool stall; ` +
        `${stalls.recovered} recovered (nudged), ${stalls.capped} capped` +
        (stalls.recoveredObserved > 0 ? ` (${stalls.recoveredObserved} in observe mode: logged, not nudged)` : ""),
    );
    for (const [kind, n] of Object.entries(stalls.byKind)) lines.push(`${String(n).padStart(6)}  ${paint("33", kind)}`);
    for (const [gate, n] of Object.entries(stalls.suppressed)) {
      lines.push(`${String(n).padStart(6)}  held back: ${gate}`);
    }
  }
  lines.push(...renderLoopStats(stats.loops, { color: options.color }));
  const prompts = renderPromptStats(stats.prompts);
  if (prompts) lines.push(...prompts.trimEnd().split("\n"));
  lines.push(...renderRelayStats(stats.relay));
  if (stats.perDay.length > 1) {
    // a day per line up to a month; past it weeks, then months, from the first with a stop (chart.ts)
    const chart = chartRows(stats.perDay);
    const from = chart.unit === "day" ? "" : " (from the first with a stop)";
    lines.push("", `caught per ${chart.unit}${from}:`);
    const max = Math.max(1, ...chart.rows.map((r) => r.caught));
    const labelWidth = Math.max(...chart.rows.map((r) => r.label.length));
    for (const row of chart.rows) {
      const width = row.caught === 0 ? 0 : Math.max(1, Math.round((row.caught / max) * BAR_WIDTH));
      lines.push(
        `  ${row.label.padEnd(labelWidth)}  ${paint("32", "#".repeat(width))}${width > 0 ? " " : ""}${row.caught}`,
      );
    }
  }
  if (stats.skippedLines > 0) {
    lines.push("", `(${stats.skippedLines} unreadable log ${plural(stats.skippedLines, "line")} skipped)`);
  }
  return lines.join("\n") + "\n";
}

/** The labels that more than one of `rules` has. */
function sharedLabels(rules: string[], labels: Record<string, string>): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const rule of new Set(rules)) {
    const text = Object.hasOwn(labels, rule) ? labels[rule] : undefined;
    if (text === undefined) continue;
    if (seen.has(text)) shared.add(text);
    seen.add(text);
  }
  return shared;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/** Labels for the stages that are not rules from the rule files. */
export const STAGE_LABELS: Record<string, string> = {
  "open-items": "open checklist items",
  "checklist-done": "checklist complete",
  "blocker-token": "BLOCKED: or NEEDS-YOU: named",
  "status-handover": "Status: partial/blocked handover",
  "background-work": "background work still running",
  "plan-mode": "plan mode",
  "cap": "continuation cap reached",
  "blocker-phrase": "a blocker named in prose",
  "no-pattern": "no early-stop pattern",
  "stall-pending-tool-use": "silent tool stall: pending tool_use",
  "stall-hung-mcp-call": "silent tool stall: hung MCP call",
  "stall-empty-tool-result": "silent tool stall: empty tool_result",
  "stall-missing-followup": "silent tool stall: missing follow-up",
};
