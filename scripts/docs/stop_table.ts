/**
 * The Stop guard's decision table, generated from the stage list the Stop step runs (src/hooks/stop/stages.ts):
 * one row per deciding stage, in order, then the bookkeeping stages' notes. `deno run --allow-read
 * scripts/docs/stop_table.ts [--docs]` prints it (links relative to README, or to docs/ with --docs);
 * scripts/docs_test.ts requires README.md and docs/stop.md to hold exactly this table.
 */
import { STOP_STAGES } from "../../src/hooks/stop/stages.ts";

export type LinkBase = "readme" | "docs";

/** A cell's links as seen from README (as written in stages.ts) or from a file in docs/. */
function relink(text: string, base: LinkBase): string {
  if (base === "readme") return text;
  return text.replaceAll("](docs/stop.md#", "](#").replaceAll("](docs/", "](");
}

export interface StopRow {
  n: number;
  condition: string;
  decision: string;
  rule: string;
}

export function stopRows(base: LinkBase): StopRow[] {
  return STOP_STAGES.filter((s) => s.row !== undefined).map((s, i) => ({
    n: i + 1,
    condition: relink(s.row!.condition, base).replaceAll("|", "\\|"),
    decision: relink(s.row!.decision, base).replaceAll("|", "\\|"),
    rule: s.row!.rule.replaceAll("|", "\\|"),
  }));
}

export function stopNotes(base: LinkBase): string[] {
  return STOP_STAGES.flatMap((s) => (s.note === undefined ? [] : [relink(s.note, base)]));
}

export function renderStopRow(row: StopRow): string {
  return `| ${row.n} | ${row.condition} | ${row.decision} | ${row.rule} |`;
}

export function stopTable(base: LinkBase): string {
  return [
    "| # | condition | decision | logged rule |",
    "| - | --- | --- | --- |",
    ...stopRows(base).map(renderStopRow),
    "",
    ...stopNotes(base).map(wrap),
  ].join("\n");
}

function wrap(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > 120) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}

if (import.meta.main) {
  const { writeStdout } = await import("../../src/output.ts");
  writeStdout(stopTable(Deno.args.includes("--docs") ? "docs" : "readme") + "\n");
}
