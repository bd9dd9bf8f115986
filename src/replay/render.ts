/** The replay report as plain text. */
import type { ReplayExample, ReplayReport } from "./report.ts";
import { escapeControls } from "../controls.ts";

const LISTED = 10;

export function renderReplay(r: ReplayReport, labels: Record<string, string>): string {
  const out: string[] = [];
  const pct = (n: number) => (r.stops === 0 ? "0%" : `${Math.round((100 * n) / r.stops)}%`);
  out.push(
    `replayed ${plural(r.files, "transcript")} (${plural(r.sessions, "session")}, ${r.subagentFiles} subagent): ` +
      plural(r.stops, "stop point"),
  );
  const notes = [
    r.interrupted > 0 ? `${plural(r.interrupted, "interrupted turn")} skipped (no Stop hook runs)` : "",
    r.skippedBeforeSince > 0 ? `${plural(r.skippedBeforeSince, "stop point")} before --since skipped` : "",
    r.malformedLines > 0 ? `${plural(r.malformedLines, "malformed line")} skipped` : "",
    r.unreadable > 0 ? `${plural(r.unreadable, "file")} unreadable` : "",
  ].filter((n) => n !== "");
  if (notes.length > 0) out.push(`  (${notes.join("; ")})`);
  if (r.filesWithoutEntries > 0) {
    const one = r.filesWithoutEntries === 1;
    out.push(
      `  (${r.filesWithoutEntries} ${one ? "file holds" : "files hold"} no transcript entry: ` +
        `${one ? "not a Claude Code transcript" : "not Claude Code transcripts"} ` +
        "(~/.claude/projects/<project>/<session>.jsonl), or empty)",
    );
  }
  out.push(`would block ${r.blocked} (${pct(r.blocked)}):`);
  if (r.blockedAttended > 0) {
    out.push(`  (${r.blockedAttended} with a person at the keyboard: would be logged, not blocked)`);
  }
  out.push(...counts(r.blockedByRule, labels));
  if (Object.keys(r.blockedByStallKind).length > 0) {
    out.push("  by stall kind:");
    out.push(...counts(r.blockedByStallKind, {}, "  "));
  }
  out.push(`would allow ${r.allowed} (${pct(r.allowed)}):`);
  out.push(...counts(r.allowedByRule, labels));
  out.push("");
  out.push(`candidates for a wrong block (would block, the user's next prompt moved on): ${r.wrongBlockCandidates}`);
  out.push(...examples(r.examples.wrongBlock, r.wrongBlockCandidates));
  out.push(
    `candidates for a missed early stop (allowed, the user then said "continue"): ${r.missedEarlyStopCandidates}`,
  );
  out.push(...examples(r.examples.missedEarlyStop, r.missedEarlyStopCandidates));
  return out.join("\n") + "\n";
}

/** `1 file`, `2 files`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function counts(map: Record<string, number>, labels: Record<string, string>, indent = ""): string[] {
  return Object.entries(map)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([key, n]) =>
      `${indent}${String(n).padStart(6)}  ${Object.hasOwn(labels, key) ? `${labels[key]} (${key})` : key}`
    );
}

function examples(list: ReplayExample[], total: number): string[] {
  const lines: string[] = [];
  for (const e of list.slice(0, LISTED)) {
    lines.push(`  ${escapeControls(e.file)}:${e.line}  ${e.event}  ${e.rule}${e.match ? `  "${e.match}"` : ""}`);
    if (e.text) {
      if (e.text.message !== null) lines.push(...quote("final message", e.text.message));
      if (e.text.nextPrompt !== null) lines.push(...quote("next prompt", e.text.nextPrompt));
    }
  }
  if (total > Math.min(list.length, LISTED)) {
    lines.push(`  … and ${total - Math.min(list.length, LISTED)} more (--json lists up to 100)`);
  }
  return lines;
}

function quote(label: string, text: string): string[] {
  return [`    ${label}:`, ...text.split("\n").map((l) => `    | ${l}`)];
}
