/**
 * The benchmark's one table (Markdown, so docs/performance.md can show it as printed): every scenario with its median,
 * its cost over the runtime floor F (a hook's own work), min, max and peak RSS, and every target that applies to it
 * marked met or missed, by how much.
 */
import { overFloor, type Summaries, type TargetResult, verdictText } from "./stats.ts";

export interface ScenarioRow {
  id: string;
  label: string;
}

export function renderTable(
  rows: readonly ScenarioRow[],
  summaries: Summaries,
  targets: readonly TargetResult[],
  /** The race's sync wait: its cost over F is shown as `sync + N ms`. */
  syncMs = 0,
): string {
  const header = [
    "scenario",
    "median",
    "over F",
    "min",
    "max",
    "CPU",
    "peak RSS",
    "time target",
    "time",
    "RSS target",
    "RSS",
    "reads",
  ];
  const body: string[][] = [];
  for (const row of rows) {
    const s = summaries[row.id];
    if (!s) continue;
    const time = targets.find((t) => t.id === row.id && t.kind === "time");
    const rss = targets.find((t) => t.id === row.id && t.kind === "rss");
    const reads = targets.find((t) => t.id === row.id && t.kind === "reads");
    const floor = !time && !rss;
    const race = row.id.startsWith("race:") && syncMs > 0;
    const overRaw = overFloor(summaries, row.id);
    const over = overRaw === null ? null : race ? overRaw - syncMs : overRaw;
    body.push([
      row.label,
      fmtMs(s.medianMs),
      over === null ? "" : `${race ? "sync " : ""}${over < 0 ? "−" : "+"}${race ? " " : ""}${fmtMs(Math.abs(over))}`,
      fmtMs(s.minMs),
      fmtMs(s.maxMs),
      s.medianCpuMs === null ? "" : `${Math.round(s.medianCpuMs)} ms`,
      s.peakRssKiB === null ? "n/a" : `${(s.peakRssKiB / 1024).toFixed(1)} MiB`,
      floor ? "(floor)" : time?.target ?? "",
      time ? verdictText(time) : "",
      rss?.target.replace(/^.*= /, "≤ ") ?? "",
      rss ? verdictText(rss) : "",
      reads
        ? `${reads.actual === null ? "n/a" : mibShort(reads.actual)} of ${mibShort(reads.limit!)}: ${
          verdictText(reads)
        }`
        : "",
    ]);
  }
  // drop columns that are empty everywhere (no reads measured, no RSS)
  const keep = header.map((_, i) => body.some((r) => r[i] !== ""));
  const cols = (r: string[]) => r.filter((_, i) => keep[i]);
  const all = [cols(header), ...body.map(cols)];
  /** Right-aligned: the number columns after the scenario (median … peak RSS, whichever are kept). */
  const numeric = keep.slice(1, 7).filter(Boolean).length;
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => [...r[i]!].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c + " ".repeat(widths[i]! - [...c].length)).join(" | ")} |`;
  const rule = `|${
    widths.map((w, i) => (i >= 1 && i <= numeric ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|")
  }|`;
  return [line(all[0]!), rule, ...all.slice(1).map(line)].join("\n") + "\n";
}

function fmtMs(value: number): string {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

function mibShort(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** `met 7 / missed 12 / n/a 0`. */
export function tally(targets: readonly TargetResult[]): { met: number; missed: number; na: number } {
  return {
    met: targets.filter((t) => t.verdict === "met").length,
    missed: targets.filter((t) => t.verdict === "missed").length,
    na: targets.filter((t) => t.verdict === "n/a").length,
  };
}
