/**
 * Matching a message against an ordered list of compiled rules. Pure and bounded: the text is cut
 * to its last `maxChars` characters before any regex runs, so a huge message costs no more than a
 * capped one and a slow pattern has a bounded input.
 */
import { caseFold } from "./case_fold.ts";
import { foldForPrefilter, mayMatch } from "./prefilter.ts";
import type { CompiledRule, RuleMatch } from "./schema.ts";
import { oncePerText } from "./text_memo.ts";

/** Default cap on the characters matched, used when the caller has no config value. */
export const DEFAULT_MATCH_MAX_CHARS = 16_000;

/** Longest phrase quoted back to the agent or written to the log. */
export const MAX_PHRASE_CHARS = 80;

export interface MatchOptions {
  /** Only the last `maxChars` characters of the text are searched. */
  maxChars: number;
}

/** The last `n` characters of `text`, never starting in the middle of a surrogate pair. */
export function tail(text: string, n: number): string {
  if (text.length <= n) return text;
  let start = text.length - Math.max(0, Math.floor(n));
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return text.slice(start);
}

/** Collapses whitespace, trims, and shortens to `MAX_PHRASE_CHARS` with a trailing ellipsis. */
export function quotablePhrase(raw: string): string {
  const flat = raw.replace(/\s+/g, " ").trim();
  if (flat.length <= MAX_PHRASE_CHARS) return flat;
  const cut = [...flat].slice(0, MAX_PHRASE_CHARS - 1).join("").trimEnd();
  return `${cut}…`;
}

/**
 * The earliest match of any of the rule's patterns in `text` (searched within the rule's
 * `tailChars`; the longest on a tie), or null. A zero-width match (a pattern of lookarounds) yields the text after it.
 */
export function matchRule(rule: CompiledRule, text: string): string | null {
  const scope = rule.tailChars === null ? text : tail(text, rule.tailChars);
  let best: { index: number; text: string } | null = null;
  const ignoreCase = rule.flags.includes("i");
  let lowered: string | null = null;
  const count = rule.regexAt ? rule.patterns.length : rule.regexes.length;
  for (let i = 0; i < count; i++) {
    // a text without any of the pattern's required literals cannot match it: it is not compiled or run
    const needs = rule.needs?.[i] ?? null;
    if (
      needs !== null && !mayMatch(needs, scope, lowered ??= ignoreCase ? foldedOnce(scope) : scope, ignoreCase)
    ) {
      continue;
    }
    // a pattern case_fold.ts can run without `i` runs on the folded text, which is the scope unit for unit
    const folded = rule.foldedAt?.(i) ?? null;
    const regex = folded ?? (rule.regexAt ? rule.regexAt(i) : rule.regexes[i]!);
    regex.lastIndex = 0; // compiled without g/y, but never trust a hand-built rule to be stateless
    const found = regex.exec(folded === null ? scope : caseFoldedOnce(scope));
    if (!found) continue;
    const hit = phraseOf(found, scope);
    if (best !== null && hit.index > best.index) continue;
    if (best === null || hit.index < best.index || hit.text.length > best.text.length) best = hit;
  }
  if (best === null) return null;
  return best.text || scope.slice(best.index, best.index + MAX_PHRASE_CHARS);
}

/** How many texts each fold keeps: a message's units, and the tails its message-scope rules read. */
const FOLDED_KEPT = 64;

/** foldForPrefilter of a text, once per text: the text an `i` pattern's required literals are looked for in. */
export const foldedOnce: (text: string) => string = oncePerText(foldForPrefilter, FOLDED_KEPT);
/** case_fold.ts caseFold of a text, once per text: what a pattern run without `i` reads. */
const caseFoldedOnce: (text: string) => string = oncePerText(caseFold, FOLDED_KEPT);

/**
 * The matched phrase: the whole match, or its `(?<phrase>…)` group when the pattern has one. A pattern anchored at
 * the start of the text (so that it is tried once, in linear time) skips ahead to the line it is about and names the
 * part to quote with that group, which must end the match.
 */
function phraseOf(found: RegExpExecArray, text: string): { index: number; text: string } {
  // sliced from the text itself: a match of the case-folded text quotes the text as written
  const phrase = found.groups?.["phrase"];
  if (phrase === undefined || !found[0].endsWith(phrase)) {
    return { index: found.index, text: text.slice(found.index, found.index + found[0].length) };
  }
  const index = found.index + found[0].length - phrase.length;
  return { index, text: text.slice(index, index + phrase.length) };
}

/** The first rule (in list order) that matches the capped text, with its phrase ready to quote. */
export function matchFirst(
  rules: readonly CompiledRule[],
  text: string,
  options: MatchOptions,
): RuleMatch | null {
  const capped = tail(text, options.maxChars);
  for (const rule of rules) {
    const raw = matchRule(rule, capped);
    if (raw !== null) return { rule, phrase: quotablePhrase(raw) };
  }
  return null;
}
