/**
 * A case-insensitive pattern run as a case-sensitive one on a case-folded text, where V8 compiles that much faster: a
 * Cyrillic pattern under `i` costs V8 about twice the compile time of the same pattern without it (the Russian rules
 * an offer reaches: 28-32 ms against 17-18 ms, docs/performance.md, the fifteenth pass), and a regex is compiled in
 * every Stop process that reaches it.
 *
 * Exact for what it takes. Without `u`, `i` makes a text character match a pattern character when both canonicalize
 * alike (ECMAScript's Canonicalize: the character's one-character uppercase, unless that takes a character outside
 * ASCII into ASCII). `caseFold` maps each character to the lowercase of its canonical form when that lowercase
 * canonicalizes back to it, else leaves it: one UTF-16 unit for one, so a match's index and length are those in the
 * text. A pattern written in lowercase letters whose uppercase and back are themselves then matches the folded text
 * exactly where the `i` pattern matches the text. `foldable` takes only such sources: flags `i` alone, no uppercase
 * letter (so no `\S`, `\W`, `\D`, `\B`, `\P`), no `\u`, `\x`, `\c` or `\p` escape, no backreference, every
 * character outside ASCII one without case or a lowercase Cyrillic letter of U+0430-U+045F, and every class range
 * within `a-z`, `0-9` or U+0430-U+045F (a range such as `[ -а]` spans capitals no character of the source shows); and only a source with a
 * Cyrillic letter, where it measured as a win (Latin, CJK and Hangul sources compile within 20 % either way).
 * case_fold_test.ts holds every foldable built-in pattern to its `i` form on generated texts.
 */

/** ECMAScript's Canonicalize for a non-`u` case-insensitive regex, of one UTF-16 unit. */
function canonicalize(unit: string): string {
  const upper = unit.toUpperCase();
  if (upper.length !== 1) return unit;
  if (unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) return unit;
  return upper;
}

/** One unit folded: the lowercase of its canonical form, when that lowercase canonicalizes back to the same. */
export function foldUnit(unit: string): string {
  const canonical = canonicalize(unit);
  const lower = canonical.toLowerCase();
  return lower.length === 1 && canonicalize(lower) === canonical ? lower : unit;
}

/**
 * Runs of ASCII or basic Cyrillic capitals (each lowercases to one unit that folds the same), and each unit outside
 * ASCII and U+0400-U+045F (folded one by one). Everything else is already folded: ASCII and Cyrillic lowercase.
 */
const TO_FOLD = /[A-Z\u0400-\u042f]+|[\u0080-\u03ff\u0460-\uffff]/g;

/** The text with every UTF-16 unit folded (foldUnit): as long as the text, unit for unit. */
export function caseFold(text: string): string {
  return text.replace(TO_FOLD, (run) => {
    const first = run.charCodeAt(0);
    return first <= 0x5a || (first >= 0x0400 && first <= 0x042f) ? run.toLowerCase() : foldUnit(run);
  });
}

const CYRILLIC_LETTER = /[\u0430-\u045f]/;
const ESCAPE_REFUSED = /\\(?:[uxcp]|[1-9]|k<)/;

/** A cheap look at a pattern before its grammar is expanded: only one with a Cyrillic letter under `i` can fold. */
export function mayFold(pattern: string, flags: string): boolean {
  return flags === "i" && CYRILLIC_LETTER.test(pattern);
}

/** The spans a class range of a foldable source may lie in: a range elsewhere could hold capitals (`[ -а]`). */
const RANGE_SPANS: readonly (readonly [string, string])[] = [["a", "z"], ["0", "9"], ["\u0430", "\u045f"]];
/** Escapes that stand for a class, never for one character: not a range's end. */
const CLASS_ESCAPE = /[dDwWsS]/;

/** Every range in the source's classes lies within one of RANGE_SPANS (an escaped end counts as its character). */
function rangesFoldable(source: string): boolean {
  let inClass = false;
  /** The last single character read in the current class, the start a `-` would make a range from. */
  let last: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const unit = source[i]!;
    if (unit === "\\") {
      const next = source[i + 1] ?? "";
      if (inClass) last = CLASS_ESCAPE.test(next) ? null : next;
      i++;
      continue;
    }
    if (!inClass) {
      if (unit === "[") {
        inClass = true;
        last = null;
        if (source[i + 1] === "^") i++;
      }
      continue;
    }
    if (unit === "]") {
      inClass = false;
      continue;
    }
    if (unit === "-" && last !== null && source[i + 1] !== undefined && source[i + 1] !== "]") {
      let end = source[i + 1]!;
      let width = 1;
      if (end === "\\") {
        end = source[i + 2] ?? "";
        width = 2;
        if (CLASS_ESCAPE.test(end)) return false; // not a range V8 takes without u; refuse rather than reason about it
      }
      const start = last;
      if (!RANGE_SPANS.some(([low, high]) => start >= low && end <= high && start <= end)) return false;
      i += width;
      last = null;
      continue;
    }
    last = unit;
  }
  return true;
}

/** Whether an expanded pattern source with these flags can be run on a case-folded text without `i` (see above). */
export function foldable(source: string, flags: string): boolean {
  if (flags !== "i" || !CYRILLIC_LETTER.test(source) || ESCAPE_REFUSED.test(source)) return false;
  if (!rangesFoldable(source)) return false;
  for (let i = 0; i < source.length; i++) {
    const unit = source[i]!;
    const code = unit.charCodeAt(0);
    if (code < 128) {
      if (code >= 65 && code <= 90) return false; // an uppercase letter, or the escape it spells
      continue;
    }
    if (code >= 0x0430 && code <= 0x045f) continue;
    if (unit.toUpperCase() !== unit || unit.toLowerCase() !== unit) return false;
  }
  return true;
}
