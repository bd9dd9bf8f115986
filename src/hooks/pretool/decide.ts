/**
 * The anti-loop decision, pure: (history, call, settings, clock) → allow, warn or deny.
 *
 * The sequence looked at is the guarded calls of the window (oldest first) followed by the current call.
 * At most one loop shape can hold at its end:
 *
 * - **burst** (period 1): the current call and the ones right before it are identical. `repeats` = identical
 *   calls in a row, the current one included. Denied when `repeats > maxRetries`; the call before that
 *   (`repeats == maxRetries`, at least 2) is warned.
 * - **cycle** (period p = 2..4): the last p calls are all different, and the calls before them follow the same
 *   order. `repeats` = how many times the loop has come back round to the current call without a break, the
 *   current call being the latest: A,B,A → 1; A,B,A,B,A → 2; A,B,A,B,A,B,A → 3 (and A,B,A,B,A,B → 2, for B).
 *   Warned from `warnRepeats`, denied from `blockRepeats`.
 *
 * A burst needs the current call to equal the one before it, a cycle needs them to differ, and a cycle of
 * distinct calls has exactly one period, so the shapes never overlap.
 */
import type { HistoryEntry } from "./history.ts";
import { historyCap, type LoopSettings, MAX_PERIOD, MIN_PERIOD } from "./settings.ts";

export interface LoopCall {
  tool: string;
  sig: string;
  desc: string;
}

export type LoopPattern = "burst" | "cycle";

export interface LoopShape {
  pattern: LoopPattern;
  /** 1 for a burst, 2-4 for a cycle. */
  period: number;
  /** burst: identical calls in a row (current included); cycle: times the loop came back round to the current call. */
  repeats: number;
}

export interface LoopFinding extends LoopShape {
  /** The loop's calls in loop order, the current call first (a burst: the current call alone). */
  calls: { tool: string; desc: string }[];
  /** `repeats` at which the loop is denied: maxRetries + 1 for a burst, blockRepeats for a cycle. */
  denyAt: number;
  windowMs: number;
}

export type LoopDecision =
  | { action: "allow"; finding: null }
  | { action: "warn" | "deny"; finding: LoopFinding };

export interface LoopInput {
  /** The stored history, oldest first (entries outside the window are ignored). */
  history: readonly HistoryEntry[];
  call: LoopCall;
  settings: LoopSettings;
  /** Milliseconds since the epoch. */
  now: number;
}

const ALLOW: LoopDecision = { action: "allow", finding: null };

/**
 * How far ahead of the clock an entry may be and still count. Calls are recorded under the session lock, each with
 * the clock read there, so a later call never sees an earlier one ahead of it unless the wall clock stepped back
 * (NTP, a resumed machine); an entry further ahead than this is from before such a step, and its age is unknown.
 */
export const AHEAD_SLACK_MS = 5_000;

/**
 * The entries still inside the window, oldest first. An entry more than AHEAD_SLACK_MS ahead of the clock is not
 * recent: it would otherwise never leave the window, and a call long after a loop would be denied as part of it.
 */
export function recentHistory(history: readonly HistoryEntry[], settings: LoopSettings, now: number): HistoryEntry[] {
  return history.filter((e) => now - e.at <= settings.windowMs && e.at - now <= AHEAD_SLACK_MS);
}

/**
 * The history a call is judged against and recorded after. A call of a new user prompt (a prompt_id other than the
 * one of the calls before it) starts the burst and cycle counts fresh: the user asked for what follows, so its first
 * call repeats nothing. A Stop hook's block goes on with the same prompt, so it changes nothing. A call or a history
 * without a prompt_id (a hand-made payload, a file written before) keeps the history, and the window alone ages it.
 */
export function historyOfPrompt(
  { history, historyPrompt, prompt }: {
    history: readonly HistoryEntry[];
    /** The prompt_id of the newest recorded call that carried one. */
    historyPrompt: string | undefined;
    /** The call's prompt_id, or null without one. */
    prompt: string | null;
  },
): readonly HistoryEntry[] {
  return prompt !== null && historyPrompt !== undefined && prompt !== historyPrompt ? [] : history;
}

/** The loop shape that ends the sequence (the current call last), if any. */
export function findLoop(sigs: readonly string[]): LoopShape | null {
  const n = sigs.length;
  if (n < 2) return null;
  let run = 1;
  while (run < n && sigs[n - 1 - run] === sigs[n - 1]) run++;
  if (run >= 2) return { pattern: "burst", period: 1, repeats: run };
  for (let p = MIN_PERIOD; p <= MAX_PERIOD; p++) {
    if (n < p + 1) break;
    if (new Set(sigs.slice(n - p)).size !== p) continue;
    let matched = 0;
    while (n - 1 - matched - p >= 0 && sigs[n - 1 - matched] === sigs[n - 1 - matched - p]) matched++;
    // the periodic run is matched + p calls long; the current call recurs every p calls within it
    if (matched >= 1) return { pattern: "cycle", period: p, repeats: Math.ceil(matched / p) };
  }
  return null;
}

export function decideLoop(input: LoopInput): LoopDecision {
  const { settings, call } = input;
  const seq: LoopCall[] = [...recentHistory(input.history, settings, input.now), call];
  const shape = findLoop(seq.map((e) => e.sig));
  if (!shape) return ALLOW;
  const finding = (denyAt: number): LoopFinding => ({
    ...shape,
    calls: loopCalls(seq, shape.period),
    denyAt,
    windowMs: settings.windowMs,
  });
  if (shape.pattern === "burst") {
    const denyAt = settings.maxRetries + 1;
    if (shape.repeats >= denyAt) return { action: "deny", finding: finding(denyAt) };
    if (shape.repeats === settings.maxRetries && shape.repeats >= 2) {
      return { action: "warn", finding: finding(denyAt) };
    }
    return ALLOW;
  }
  if (shape.repeats >= settings.blockRepeats) return { action: "deny", finding: finding(settings.blockRepeats) };
  if (shape.repeats >= settings.warnRepeats) return { action: "warn", finding: finding(settings.blockRepeats) };
  return ALLOW;
}

/** The last `period` calls, rotated so the current call comes first: …A,B,C,A → [A, B, C]. */
function loopCalls(seq: readonly { tool: string; desc: string }[], period: number): { tool: string; desc: string }[] {
  const last = seq.slice(seq.length - period).map((e) => ({ tool: e.tool, desc: e.desc }));
  return [last[last.length - 1]!, ...last.slice(0, -1)];
}

/**
 * The history after this call: the window's entries plus the call, bounded by historyCap(). A denied call is
 * recorded too (marked `denied`): the agent never ran it, but it asked for it, so the loop stays visible and a
 * retry of the same loop is denied again until the agent does something else or the window passes.
 */
export function recordCall(input: LoopInput, denied: boolean): HistoryEntry[] {
  const entry: HistoryEntry = {
    tool: input.call.tool,
    sig: input.call.sig,
    desc: input.call.desc,
    at: input.now,
    denied,
  };
  const next = [...recentHistory(input.history, input.settings, input.now), entry];
  return next.slice(-historyCap(input.settings));
}
