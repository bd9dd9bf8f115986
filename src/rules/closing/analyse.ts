/**
 * The closing analysis: which acts the agent's own prose performs, and whether they make the stop early.
 *
 * 1. The message is read as structure (`units.ts`): code, quotes and quoted strings are not the agent speaking.
 * 2. Every early-stop rule is tried on the units its `scope` names (a language's rules only on text that can be in
 *    that language: `languages.ts`); each hit carries the rule's `weight`.
 * 3. A counter rule that matches the same unit cancels its hits (a courtesy closer, "Remaining: none").
 * 4. A blocker phrase in the prose excuses the hits of its own sentence and of the sentences right before and
 *    after it (`BLOCKER_REACH`): "No network here, so the live run is not done." A blocker further away does not
 *    excuse a hit: a feature described in blocker words ("jobs only start inside the maintenance window") does not
 *    hide a later offer. An offer, a permission request or a choice asked as a question is never excused: a blocker
 *    must not hide an offer. A hit whose own sentence waits on something (a counter of act `waits`: "I'll stop here
 *    until you confirm the deletion", "Next step: once access is granted, …") is excused by a blocker anywhere in the
 *    message. With no hit left, a blocker allows the stop.
 * 5. The stop is early when the strongest hit weighs 1 or more, or the closing's hits of different rules add up
 *    to 1. The hit that decided is the strongest (a rule that names the act before a bare question in the
 *    closing); of equals, the last in the message, and on one sentence the rule listed first. Its sentence is
 *    quoted.
 *
 * Pure, and bounded by the caller's `maxChars` and `MAX_UNITS`.
 */
import { matchRule, quotablePhrase, tail } from "../match.ts";
import { ASKING_ACTS } from "../acts.ts";
import type { Act, CompiledRule, RuleMatch, RuleSet } from "../schema.ts";
import { MAX_BLOCK_CHARS, withoutCode } from "./blocks.ts";
import { languagesOf, runsFor } from "./languages.ts";
import { readStructure, type Unit } from "./units.ts";

export interface Hit {
  rule: CompiledRule;
  /** The unit it matched in; null for a `message`-scope rule (the raw tail). */
  unit: Unit | null;
  /** What the pattern matched. */
  matched: string;
}

export interface ClosingAnalysis {
  units: Unit[];
  /** Hits that count (not cancelled). */
  hits: Hit[];
  /** Hits a counter rule cancelled, with the counter. */
  cancelled: { hit: Hit; by: CompiledRule }[];
  blocker: RuleMatch | null;
  /** The deciding early-stop hit, or null when the closing is fine. */
  early: RuleMatch | null;
}

export interface AnalyseOptions {
  /** Only the last `maxChars` characters are read as evidence. */
  maxChars: number;
}

/** Longest sentence quoted whole in a block reason; a longer one is quoted around the match. */
export const MAX_QUOTED_SENTENCE = 160;

/**
 * Most characters whose structure is read, from the end: fences are followed from here, so a fence opened
 * further back in a bigger message is not seen. Evidence is only the last `maxChars` of it anyway.
 */
export const MAX_STRUCTURE_CHARS = 256 * 1024;

export function analyseClosing(whole: string, set: RuleSet, options: AnalyseOptions): ClosingAnalysis {
  const message = tail(whole, MAX_STRUCTURE_CHARS);
  const { units } = readStructure(message, options);
  const rawTail = tail(message, options.maxChars);
  const hits: Hit[] = [];
  const cancelled: { hit: Hit; by: CompiledRule }[] = [];
  const langs = languagesOf(message);
  for (const rule of set.earlyStop) {
    if (!runsFor(rule.lang, langs)) continue;
    for (const hit of hitsOf(rule, units, rawTail)) {
      const by = hit.unit === null ? null : counterFor(hit, set.counter, langs);
      if (by) cancelled.push({ hit, by });
      else hits.push(hit);
    }
  }

  const blockers = set.blocker.filter((rule) => runsFor(rule.lang, langs));
  // each blocker's hits, found once: all of them only when there is an early stop for them to excuse, else up to the
  // first rule that has one (firstBlocker)
  const found: Hit[][] = [];
  const blockerHits = (i: number) => found[i] ??= hitsOf(blockers[i]!, units, rawTail);
  const waits = set.counter.filter((rule) => rule.act === "waits" && runsFor(rule.lang, langs));
  const early = decide(hits) === null
    ? null
    : decide(unexcused(hits, blockers.flatMap((_, i) => blockerHits(i)), waits));
  const blockerHit = early === null ? firstBlocker(blockers.length, blockerHits) : null;
  return {
    units,
    hits,
    cancelled,
    blocker: blockerHit ? toMatch(blockerHit) : null,
    early: early ? toMatch(early) : null,
  };
}

/** How many sentences before and after a blocker's own sentence it excuses. */
export const BLOCKER_REACH = 1;

/**
 * The hits a blocker does not excuse: a hit more than `BLOCKER_REACH` units away from every blocker, and an offer, a
 * permission request or a choice asked as a question wherever it is. A blocker with no unit (a `message`-scope rule)
 * and a hit with none reach everything, as before units were read.
 */
function unexcused(hits: readonly Hit[], blockers: readonly Hit[], waits: readonly CompiledRule[]): Hit[] {
  if (blockers.length === 0) return [...hits];
  return hits.filter((hit) => {
    if (hit.unit?.question === true && ASKING_ACTS.has(hit.rule.act ?? "offer")) return true;
    const unit = hit.unit;
    const act = hit.rule.act;
    const waiting = (rule: CompiledRule) => reaches(rule, act) && matchRule(rule, counterText(unit!)) !== null;
    if (unit !== null && waits.some(waiting)) return false;
    return !blockers.some((b) => b.unit === null || unit === null || distance(b.unit.index, unit) <= BLOCKER_REACH);
  });
}

/**
 * Units between a blocker's sentence and a hit's. A list's lead-in line is read twice, as a sentence and then as the
 * lead (the next index), and its items follow it, so a lead spans its lead-in sentence to its last item.
 */
function distance(index: number, unit: Unit): number {
  const from = unit.kind === "lead" ? unit.index - 1 : unit.index;
  const to = unit.kind === "lead" ? unit.index + unit.items.length : unit.index;
  return index < from ? from - index : index > to ? index - to : 0;
}

function hitsOf(rule: CompiledRule, units: readonly Unit[], rawTail: string): Hit[] {
  if (rule.scope === "message") {
    const matched = matchRule(rule, rawTail);
    return matched === null ? [] : [{ rule, unit: null, matched }];
  }
  const out: Hit[] = [];
  for (const unit of units) {
    if (!inScope(rule, unit)) continue;
    const matched = matchRule(rule, unit.text);
    // a question the next sentence answers (units.ts answeredAtOnce) is not asked, and its question clause states
    // nothing: no match in that clause counts ("要不要给 token 加缓存？不需要——…", "¿Hace falta el `await`? Sí: …"); a
    // statement before it in the same sentence still does ("The e2e suite hasn't run yet — will old clients notice?")
    if (matched !== null && !(unit.answered && inQuestionClause(unit.text, matched))) out.push({ rule, unit, matched });
  }
  return out;
}

/** What ends a clause before a question: a dash, a semicolon, ", but", ", so", ", and". */
const CLAUSE_BREAKS = ["—", "–", ";", " - ", ", but ", ", so ", ", and "];

/**
 * Whether `matched` lies in the question clause of `text`, a question's sentence: the part after its last clause break
 * (the whole sentence when it has none). Plain searches, linear in the sentence.
 */
function inQuestionClause(text: string, matched: string): boolean {
  let start = 0;
  for (const mark of CLAUSE_BREAKS) {
    const at = text.lastIndexOf(mark);
    if (at !== -1) start = Math.max(start, at + mark.length);
  }
  return text.indexOf(matched, start) !== -1;
}

function inScope(rule: CompiledRule, unit: Unit): boolean {
  switch (rule.scope) {
    case "closing":
      return unit.kind === "sentence" && unit.closing;
    case "question":
      return unit.kind === "sentence" && unit.question;
    case "ending":
      return unit.kind === "sentence" && (unit.closing || unit.question);
    case "closing-question":
      return unit.kind === "sentence" && unit.closing && unit.question;
    case "prose":
      return unit.kind === "sentence";
    case "lead":
      return unit.kind === "lead";
    default:
      return false;
  }
}

/** The counter rule that cancels this hit, or null. A lead's counter reads the lead-in with its items. */
function counterFor(hit: Hit, counters: readonly CompiledRule[], langs: ReadonlySet<string>): CompiledRule | null {
  const unit = hit.unit!;
  const act = hit.rule.act;
  for (const counter of counters) {
    // a counter of another language than the message's is never compiled for it, like an early-stop rule; a `waits`
    // counter cancels nothing alone (unexcused)
    if (counter.act === "waits" || !runsFor(counter.lang, langs)) continue;
    if (!reaches(counter, act)) continue;
    if ((counter.scope === "lead") !== (unit.kind === "lead")) continue;
    if (matchRule(counter, counterText(unit)) !== null) return counter;
  }
  return null;
}

/** Whether a counter applies to a hit of this act: its `cancels` list names it, or it has none. */
function reaches(counter: CompiledRule, act: Act | undefined): boolean {
  return !counter.cancels || act === undefined || counter.cancels.includes(act);
}

/** What a counter reads: the sentence, or a lead-in with its items (capped at one block's length). */
function counterText(unit: Unit): string {
  return unit.kind === "lead" ? [unit.text, ...unit.items].join("\n").slice(0, MAX_BLOCK_CHARS) : unit.text;
}

/** The last hit of the first blocker rule (of `count`, in order) that has one. */
function firstBlocker(count: number, hitsOfRule: (index: number) => Hit[]): Hit | null {
  for (let i = 0; i < count; i++) {
    const found = hitsOfRule(i);
    if (found.length > 0) return found[found.length - 1]!;
  }
  return null;
}

function decide(counted: readonly Hit[]): Hit | null {
  let best: Hit | null = null;
  for (const hit of counted) {
    if (best === null || rank(hit) > rank(best) || (rank(hit) === rank(best) && position(hit) > position(best))) {
      best = hit;
    }
  }
  if (best === null) return null;
  if (best.rule.weight >= 1) return best;
  // Weak signals add up only in the closing, one per rule.
  const closing = new Map<string, number>();
  for (const hit of counted) if (hit.unit?.closing) closing.set(hit.rule.id, hit.rule.weight);
  let sum = 0;
  for (const weight of closing.values()) sum += weight;
  return sum >= 1 - 1e-9 ? best : null;
}

/**
 * Which hit names the stop: the heavier, and of equal weight a rule that names the act over the generic
 * question-in-the-closing rules (scope `closing-question`), whose only evidence is the question mark.
 */
function rank(hit: Hit): number {
  return hit.rule.weight * 2 + (hit.rule.scope === "closing-question" ? 0 : 1);
}

function position(hit: Hit): number {
  return hit.unit?.index ?? Number.MAX_SAFE_INTEGER;
}

function toMatch(hit: Hit): RuleMatch {
  if (hit.unit === null) return { rule: hit.rule, phrase: quotablePhrase(hit.matched) };
  return { rule: hit.rule, phrase: quoteSentence(hit.unit.text, hit.matched) };
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The sentence that decided, whole when short, else the part around what matched. */
export function quoteSentence(sentence: string, matched: string): string {
  const flat = sentence.replace(/\s+/g, " ").trim();
  if (flat.length <= MAX_QUOTED_SENTENCE) return flat;
  const at = Math.max(0, flat.indexOf(matched.replace(/\s+/g, " ").trim()));
  let start = Math.max(0, Math.min(at - 40, flat.length - MAX_QUOTED_SENTENCE + 1));
  let end = start + MAX_QUOTED_SENTENCE - 2;
  // never cut a surrogate pair (an emoji) in half
  if (isLow(flat.charCodeAt(start))) start += 1;
  if (isLow(flat.charCodeAt(end))) end -= 1;
  const cut = flat.slice(start, end).trim();
  return `${start > 0 ? "…" : ""}${cut}…`;
}

/**
 * Whether one rule finds what it looks for in a message, read the way the analysis reads it: an escape outside
 * fenced code, a `message`-scope rule in the raw tail, any other rule in the units of its scope (an early-stop
 * hit that a counter cancels does not count). The rule table test checks every example with it.
 */
export function ruleFinds(rule: CompiledRule, message: string, set: RuleSet, options: AnalyseOptions): string | null {
  if (rule.kind === "escape") return matchRule(rule, withoutCode(message));
  const { units } = readStructure(tail(message, MAX_STRUCTURE_CHARS), options);
  if (rule.kind === "counter") {
    for (const unit of units) {
      if ((rule.scope === "lead") !== (unit.kind === "lead")) continue;
      const found = matchRule(rule, counterText(unit));
      if (found !== null) return found;
    }
    return null;
  }
  const langs = languagesOf(tail(message, MAX_STRUCTURE_CHARS));
  for (const hit of hitsOf(rule, units, tail(message, options.maxChars))) {
    if (rule.kind !== "early-stop" || hit.unit === null || counterFor(hit, set.counter, langs) === null) {
      return hit.matched;
    }
  }
  return null;
}
