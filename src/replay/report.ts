/**
 * The replay report: counts over every stop point, and a bounded list of examples per finding, so memory stays
 * flat whatever the history size. Pure: fed one evaluated stop at a time.
 */
import type { StopDecision } from "../hooks/stop/decision.ts";
import { classifyNextPrompt, type NextPromptKind } from "./next_prompt.ts";

export const MAX_EXAMPLES = 100;
const MATCH_CHARS = 80;
const TEXT_CHARS = 600;

export interface ReplayExample {
  file: string;
  line: number;
  event: "Stop" | "SubagentStop";
  timestamp: string | null;
  rule: string;
  /** A phrase rule's block held back for a person at the keyboard (the hook would let the stop through). */
  attended: boolean;
  /** The short match: the rule's phrase, the first open item, or the stall signature. */
  match: string | null;
  next: NextPromptKind | null;
  /** Only with --show-text: the end of the final message and the head of the next prompt. */
  text?: { message: string | null; nextPrompt: string | null };
}

export interface ReplayReport {
  inputs: string[];
  files: number;
  sessions: number;
  subagentFiles: number;
  stops: number;
  /** Turns the user interrupted: Claude Code runs no Stop hook for them, so they are not evaluated. */
  interrupted: number;
  skippedBeforeSince: number;
  malformedLines: number;
  /** Files in which no line was a transcript entry (a user, assistant or system line): not transcripts, or empty. */
  filesWithoutEntries: number;
  unreadable: number;
  blocked: number;
  /** Of those, early-stop phrases the hook would let through because a person was at the keyboard. */
  blockedAttended: number;
  blockedByRule: Record<string, number>;
  blockedByStallKind: Record<string, number>;
  allowed: number;
  allowedByRule: Record<string, number>;
  wrongBlockCandidates: number;
  missedEarlyStopCandidates: number;
  examples: { blocked: ReplayExample[]; wrongBlock: ReplayExample[]; missedEarlyStop: ReplayExample[] };
}

export interface ReplayedPoint {
  file: string;
  line: number;
  subagent: boolean;
  timestamp: string | null;
  decision: StopDecision;
  stallKinds: string[];
  message: string | null;
  nextPrompt: string | null;
}

export class ReplayAccumulator {
  readonly report: ReplayReport;
  readonly #showText: boolean;

  constructor(inputs: string[], options: { showText: boolean }) {
    this.#showText = options.showText;
    this.report = {
      inputs,
      files: 0,
      sessions: 0,
      subagentFiles: 0,
      stops: 0,
      interrupted: 0,
      skippedBeforeSince: 0,
      malformedLines: 0,
      filesWithoutEntries: 0,
      unreadable: 0,
      blocked: 0,
      blockedAttended: 0,
      blockedByRule: {},
      blockedByStallKind: {},
      allowed: 0,
      allowedByRule: {},
      wrongBlockCandidates: 0,
      missedEarlyStopCandidates: 0,
      examples: { blocked: [], wrongBlock: [], missedEarlyStop: [] },
    };
  }

  addFile(subagent: boolean, lines: { malformed: number; entries: number }): void {
    const r = this.report;
    r.files++;
    r.malformedLines += lines.malformed;
    // a file with no transcript entry (a payload, notes, an empty file) is no session
    if (lines.entries === 0) r.filesWithoutEntries++;
    else if (subagent) r.subagentFiles++;
    else r.sessions++;
  }

  add(point: ReplayedPoint): void {
    const r = this.report;
    const { decision } = point;
    r.stops++;
    const next = point.nextPrompt === null ? null : classifyNextPrompt(point.nextPrompt);
    const example = (): ReplayExample => ({
      file: point.file,
      line: point.line,
      event: point.subagent ? "SubagentStop" : "Stop",
      timestamp: point.timestamp,
      rule: decision.rule,
      attended: decision.attended === true,
      match: shortMatch(decision, next?.match ?? null),
      next: next?.kind ?? null,
      ...(this.#showText ? { text: { message: tail(point.message), nextPrompt: head(point.nextPrompt) } } : {}),
    });
    if (decision.action === "block") {
      r.blocked++;
      if (decision.attended === true) r.blockedAttended++;
      bump(r.blockedByRule, decision.rule);
      for (const kind of point.stallKinds) bump(r.blockedByStallKind, kind);
      push(r.examples.blocked, example);
      // held for a person at the keyboard, the stop went through: not a wrong block
      if (next?.kind === "new-topic" && decision.attended !== true) {
        r.wrongBlockCandidates++;
        push(r.examples.wrongBlock, example);
      }
    } else {
      r.allowed++;
      bump(r.allowedByRule, decision.rule);
      if (next?.kind === "continue") {
        r.missedEarlyStopCandidates++;
        push(r.examples.missedEarlyStop, example);
      }
    }
  }
}

function shortMatch(decision: StopDecision, nextMatch: string | null): string | null {
  const raw = decision.action === "block" ? decision.match ?? decision.open[0] ?? null : nextMatch;
  if (raw === null) return null;
  const one = raw.replace(/\s+/g, " ").trim();
  return one.length > MATCH_CHARS ? `${one.slice(0, MATCH_CHARS - 1)}…` : one;
}

function tail(text: string | null): string | null {
  if (text === null) return null;
  return text.length > TEXT_CHARS ? `…${text.slice(-TEXT_CHARS)}` : text;
}

function head(text: string | null): string | null {
  if (text === null) return null;
  return text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS)}…` : text;
}

function bump(counts: Record<string, number>, key: string): void {
  // a rule id may be an Object property's name (`constructor`): only an own key is a count
  counts[key] = (Object.hasOwn(counts, key) ? counts[key]! : 0) + 1;
}

function push(list: ReplayExample[], make: () => ReplayExample): void {
  if (list.length < MAX_EXAMPLES) list.push(make());
}
