/**
 * The agent's own words in a block: inline code, quoted strings, links and URLs are masked so that a rule never
 * reads text the agent is quoting ("the button now says 'Want me to save?'"), and the rest is cut into sentences.
 * Pure and linear: each mask is one regex pass without nested quantifiers.
 */
import { CJK_OR_HANGUL } from "./blocks.ts";
import { WORD_CLASS } from "./word_class.ts";

/** What a masked span becomes: a neutral word, so the sentence around it still reads as one. */
export const CODE_MARK = "‹code›";
export const QUOTE_MARK = "‹quote›";

export const INLINE_CODE = /(`+)[^`\n]{0,400}?\1/g;
export const LINK = /\[([^\]\n]{0,200})\]\([^)\s]{0,400}\)/g;
export const URL = /\bhttps?:\/\/[^\s)>\]]{1,400}/g;
/**
 * Double-quoted strings in the quote styles of the languages we read; each kind closes with its own mark, and a low
 * opening mark („) also with a straight one, as Czech, German or Polish text typed on a plain keyboard often does.
 * Finnish and Swedish open and close with the same mark (”…”, »…»), Danish and German also write »…«: such a mark
 * opens only at the start or after a space, `(`, `[` or `:`, and before a non-space, so a stray closing ” does not
 * open a span over the agent's own words.
 */
export const DOUBLE_QUOTES =
  /"[^"\n]{1,300}"|“[^”\n]{1,300}”|„[^“”"\n]{1,300}[“”"]|«[^»\n]{1,300}»|「[^」\n]{1,300}」|『[^』\n]{1,300}』|‘[^’\n]{1,300}’|(?<=^|[\s(\[:])”(?=\S)[^”“\n]{1,300}”|(?<=^|[\s(\[:])»(?=\S)[^»«\n]{1,300}[»«]/g;
/**
 * Single quotes open only after a space, `(` or the start, and close before a non-letter: "don't" is safe. The
 * letters and numbers are WORD_CLASS, the same code points as `[\p{L}\p{N}]`: V8 builds a `\p{…}` class from
 * Unicode's tables each time it makes such a regex, about 3 M instructions for each of these two in every process,
 * and a class of written ranges for a fifth of that (docs/performance.md, the ninth pass).
 */
export const SINGLE_QUOTES = new RegExp(`(^|[\\s(\\[])'([^'\\n]{1,300}?)'(?=$|[^${WORD_CLASS}])`, "gu");
export const EMPHASIS = new RegExp(`\\*\\*|__|(?<![${WORD_CLASS}])[*_](?=\\S)|(?<=\\S)[*_](?![${WORD_CLASS}])`, "gu");

/**
 * The text with code, quotes, links and emphasis masked. Each mask runs only on a text holding a character every
 * match of it has: the same result (a text without one has no match), and a regex that is never run is never
 * compiled, which is most of a mask's cost in a hook process (the two `u` masks cost about 1 ms each to compile).
 */
export function maskInline(text: string): string {
  let out = text;
  if (out.includes("`")) out = out.replace(INLINE_CODE, CODE_MARK);
  if (out.includes("](")) out = out.replace(LINK, "$1");
  if (out.includes("http")) out = out.replace(URL, CODE_MARK);
  if (DOUBLE_QUOTE_OPENERS.some((q) => out.includes(q))) out = out.replace(DOUBLE_QUOTES, quoted);
  if (out.includes("'")) {
    out = out.replace(SINGLE_QUOTES, quotedAfter);
  }
  if (out.includes("*")) {
    out = out.replace(UI_BOLD, uiQuotedAfter);
  }
  if (out.includes("*") || out.includes("_")) out = out.replace(EMPHASIS, "");
  return out;
}

/**
 * A bold or italic span of two words or more that a user-interface word names a few words before, with no colon between
 * ("the last page now shows a **Let me choose the install folder** checkbox", "the button reads **Save and
 * continue**", "ends with a bold **Please confirm …** line", "i pulsanti *Sì, avvisami* e …"): copy shown to the user,
 * masked like a quotation. Bold the agent puts on its own words stays read: at a line's start ("**Notes:** Happy to
 * …"), after a label ("One open question: **should I …?**", "Bottom line: **I haven't run …**") or after a word that
 * is not the interface's ("in line with the ticket, **I can port …**"), or after a sentence's end or a dash ("The
 * button is debounced now — *happy to restyle …*", "… new banner. *Want me to add …?*"). Only spans in asterisks are
 * read. Bounded, so linear.
 */
export const UI_BOLD = new RegExp(
  `((?:^|[^${WORD_CLASS}])(?:shows?|displays?|reads?|says|labell?ed|titled|a\\s+bold|buttons?|checkbox(?:es)?|banner|` +
    `toast|tooltip|placeholder|dialog|modal|knopf|kn\u00f6pfe|schaltfl\u00e4chen?|boutons?|bot\u00f3n|botones|` +
    `bot\u00e3o|bot\u00f5es|pulsant[ei]|knop(?:pen)?|\u043a\u043d\u043e\u043f\u043a[\u0430\u0438])` +
    `(?![${WORD_CLASS}])[^*:.!?;\u2014\u2013\n]{0,40}?)\\*(\\*?)([^*\n]{3,120}?)\\*\\2`,
  "giu",
);

/** A match of SINGLE_QUOTES: what stands before the span, then the span as quoted() reads it. */
function quotedAfter(_all: string, before: string, inner: string): string {
  return `${before}${quoted(inner)}`;
}

/** A match of UI_BOLD: what stands before the span, then the span (bold or italic) as uiQuoted() reads it. */
function uiQuotedAfter(_all: string, before: string, _star: string, inner: string): string {
  return `${before}${uiQuoted(inner)}`;
}

/**
 * A span a user-interface word names is copy when it has two words or more ("Yes, notify me"): masked like a quotation.
 * One word ("**Save**") is a term, as quoted() reads it, and so is a short CJK label.
 */
export function uiQuoted(inner: string): string {
  return /\S\s+\S/.test(inner.trim()) ? QUOTE_MARK : quoted(inner);
}

/** The characters a DOUBLE_QUOTES match starts with. */
const DOUBLE_QUOTE_OPENERS = ['"', "“", "„", "«", "「", "『", "‘", "”", "»"];

/**
 * A quoted span is masked, except a short one of one or two words (in Chinese, Japanese or Korean, of at most eight
 * characters) with no stop, colon or comma in it: that is a term ("the 'retry' flag", 「启用」), and the sentence stays
 * readable. A quoted question, sentence or phrase (「TODO：之后再处理，先这样」) is someone else's words.
 */
export function quoted(span: string): string {
  const inner = span.replace(/^["“„«「『‘'”»]|["”“»«」』’']$/g, "");
  if (/[?？!！.。:：，;；、]/.test(inner)) return QUOTE_MARK;
  // Chinese, Japanese and Korean write a phrase without spaces: a term there is a few characters long
  const short = CJK_OR_HANGUL.test(inner)
    ? inner.length <= 8
    : inner.trim().split(/\s+/).length <= 2 && inner.length <= 24;
  return short ? inner : QUOTE_MARK;
}

/** Longest sentence a rule reads; a longer run without a stop is cut into pieces of this size. */
export const MAX_SENTENCE_CHARS = 600;

/**
 * Sentences of a masked block: cut after `.`, `!`, `?` (and `…`) followed by a space, and after the CJK stops
 * `。！？` anywhere. "e.g.", "i.e.", "vs." and numbered steps ("1. ") do not end a sentence.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const flat = text.replace(/\s+/g, " ").trim();
  let begin = 0;
  for (let i = 0; i < flat.length; i++) {
    const ch = flat[i]!;
    const cjk = ch === "。" || ch === "！" || ch === "？" || ch === "；";
    const latin =
      (ch === "." || ch === "!" || ch === "?" || ch === "…" || ch === ";" || ch === "؟" || ch === "\u037e") &&
      (i + 1 === flat.length || flat[i + 1] === " ");
    if (!cjk && !latin) {
      if (i - begin >= MAX_SENTENCE_CHARS && !isLowSurrogate(flat.charCodeAt(i))) {
        out.push(flat.slice(begin, i));
        begin = i;
      }
      continue;
    }
    // Keep runs of stops together ("?!", "...", "。」").
    let end = i + 1;
    while (end < flat.length && /[.!?…。！？」』)"”]/.test(flat[end]!)) end++;
    if (ch === "." && isAbbreviation(flat, begin, i)) continue;
    out.push(flat.slice(begin, end));
    begin = end;
    i = end - 1;
  }
  if (begin < flat.length) out.push(flat.slice(begin));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export const ABBREVIATIONS =
  /(?:^|\s)(?:e\.g|i\.e|vs|etc|cf|approx|incl|no|fig|z\.B|d\.h|bzw|usw|p\.ex|ex|p\.e|v\.g|ca)$/i;

function isAbbreviation(text: string, begin: number, dot: number): boolean {
  const before = text.slice(Math.max(begin, dot - 8), dot);
  if (ABBREVIATIONS.test(before)) return true;
  // A numbered step at the very start of a sentence ("1. Run the tests").
  return /^\s*\d{1,3}$/.test(text.slice(begin, dot));
}
