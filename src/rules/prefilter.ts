/**
 * A pattern's required literals: strings one of which every match must contain. A message that contains none of them
 * cannot match, so the pattern is neither compiled nor run for it (V8 compiles a regex the first time it runs, and a
 * Stop hook reads one message: compiling is most of the closing analysis' cost).
 *
 * Sound by construction, for what it takes: a case-insensitive ASCII letter matches only the same ASCII letter in
 * either case (and, in `u` mode, `ſ` for `s` and the Kelvin sign for `k`: foldForPrefilter puts both in the text it
 * searches), a Cyrillic letter the same letter in either case or an old variant of it (foldForPrefilter reads those as
 * the letter), and a kana, a CJK ideograph, a Hangul syllable or jamo, a Hebrew, Arabic or Devanagari character, `¿`
 * or `¡` only itself. A `v` source is not read. Only those characters outside any class, group quantified to zero or
 * lookaround count; anything it does not read plainly (a class, an escape of a letter, a backreference, a quantifier
 * that may repeat zero times, a `{` that is not a quantifier) ends a run of literals and requires nothing.
 * prefilter_test.ts holds every built-in pattern to it over every labelled message and rule example.
 */

/** null: no requirement (always run the pattern). */
export type Needs = readonly string[] | null;

/** Strings shorter than this are not worth a test: the pattern runs. */
const MIN_LITERAL = 3;
/** More alternatives than this are not worth testing: the pattern runs. */
const MAX_ALTERNATIVES = 16;

/** The literals one of which a match of `source` must contain (lowercased under `i`), or null. */
export function requiredLiterals(source: string, flags: string): Needs {
  if (flags.includes("v")) return null;
  try {
    const parser = new Parser(source, flags.includes("u"));
    const needs = parser.alternation();
    if (parser.at < source.length) return null; // an unmatched ")": not a source this reads
    if (needs === null) return null;
    const reduced = fewest(flags.includes("i") ? needs.map((s) => s.toLowerCase()) : needs);
    if (reduced.length > MAX_ALTERNATIVES || reduced.some((s) => !worthTesting(s))) return null;
    return reduced;
  } catch {
    return null;
  }
}

/**
 * The same requirement in fewer strings: each once, and none that holds another (a text with "serves" has "serve").
 */
function fewest(needs: readonly string[]): string[] {
  const unique = [...new Set(needs)];
  return unique.filter((s) => !unique.some((t) => t !== s && s.includes(t)));
}

/**
 * The text an `i` pattern's literals are looked for in: lowercased, `ſ` (U+017F) read as `s`, and the old Cyrillic
 * letter variants U+1C80-U+1C87 read as the letters they vary (`ᲀ` as `в`). Under `iu` a pattern's `s` matches `ſ` and
 * its `k` the Kelvin sign (U+212A), which lowercases to `k`; they are the only characters outside ASCII that `u` case
 * folding matches with an ASCII letter. Under `i` and `iu` a Cyrillic letter (U+0400-U+04FF) matches the letters of the
 * block that lowercase as it does and the variant that uppercases as it does (prefilter_test.ts asks V8 about every code
 * point). Without `u`, `ſ` matches no `s`, and reading it as `s` only lets a pattern run that then fails.
 */
export function foldForPrefilter(text: string): string {
  let lowered = text.toLowerCase();
  if (lowered.includes("ſ")) lowered = lowered.replaceAll("ſ", "s");
  for (const [variant, letter] of CYRILLIC_VARIANTS) {
    if (lowered.includes(variant)) lowered = lowered.replaceAll(variant, letter);
  }
  return lowered;
}

/** U+1C80-U+1C87, each with the basic Cyrillic letter it uppercases to, lowercased. */
const CYRILLIC_VARIANTS: readonly (readonly [string, string])[] = Array.from({ length: 8 }, (_, i) => {
  const variant = String.fromCharCode(0x1c80 + i);
  return [variant, variant.toUpperCase().toLowerCase()] as const;
});

/** Whether `text` may match a pattern with these needs (`lowered`: foldForPrefilter of the text, for an `i` pattern). */
export function mayMatch(needs: Needs, text: string, lowered: string, ignoreCase: boolean): boolean {
  if (needs === null) return true;
  const hay = ignoreCase ? lowered : text;
  return needs.some((s) => hay.includes(s));
}

class Unreadable extends Error {}

/**
 * Kana and CJK ideographs (U+3040-U+30FF, U+3400-U+4DBF, U+4E00-U+9FFF, U+F900-U+FAFF): one UTF-16 code unit each, with
 * no case mapping, so that `i` matches each only as itself, as it does an ASCII digit.
 */
export function isCaselessCjk(code: number): boolean {
  return (code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff);
}

/**
 * Spanish's opening marks `¿` (U+00BF) and `¡` (U+00A1), and the status marks `❌` (U+274C) and `⏳` (U+23F3) of a
 * progress table: symbols with no case mapping, so that `i` matches each only as itself, and rare in other text, so
 * that one alone is worth a test.
 */
function isCaselessMark(code: number): boolean {
  return code === 0xbf || code === 0xa1 || code === 0x274c || code === 0x23f3;
}

/**
 * Hangul jamo, compatibility jamo, syllables and the extended jamo (U+1100-U+11FF, U+3130-U+318F, U+A960-U+A97F,
 * U+AC00-U+D7FF): one UTF-16 code unit each, with no case mapping, like CJK.
 */
export function isCaselessHangul(code: number): boolean {
  return (code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f) ||
    (code >= 0xa960 && code <= 0xa97f) || (code >= 0xac00 && code <= 0xd7ff);
}

/**
 * The Cyrillic block (U+0400-U+04FF): under `i` a letter matches the letters of the block that lowercase as it does
 * and one of U+1C80-U+1C87, which foldForPrefilter reads as the letter; so its lowercase stands for it.
 */
export function isCyrillic(code: number): boolean {
  return code >= 0x400 && code <= 0x4ff;
}

/**
 * The Hebrew, Arabic and Devanagari blocks (U+0590-U+05FF, U+0600-U+06FF, U+0900-U+097F): scripts with no case, one
 * UTF-16 code unit each, so that `i` matches each only as itself, like CJK.
 */
export function isCaselessAbjadIndic(code: number): boolean {
  return (code >= 0x590 && code <= 0x6ff) || (code >= 0x900 && code <= 0x97f);
}

/** A character read as itself: ASCII, a caseless CJK, Hangul, Hebrew, Arabic or Devanagari one, a mark, or Cyrillic. */
function isPlainLiteral(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 128 || isCaselessCjk(code) || isCaselessHangul(code) || isCaselessAbjadIndic(code) ||
    isCaselessMark(code) || isCyrillic(code);
}

/** `?`: most final messages hold none (516 of the 659 labelled ones), so the question patterns need not run. */
const QUESTION_MARK = 0x3f;

/**
 * A literal worth a test: MIN_LITERAL characters, or fewer that hold a CJK or Hangul one (a two-character CJK or Korean
 * word is rare), a caseless mark or a question mark.
 */
function worthTesting(s: string): boolean {
  if (s.length >= MIN_LITERAL) return true;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (isCaselessCjk(code) || isCaselessHangul(code) || isCaselessMark(code) || code === QUESTION_MARK) return true;
  }
  return false;
}

/** One atom of a sequence: a literal ASCII character, or something else with what it requires. */
type Atom = { literal: string } | { needs: Needs; min: number };

/** A named group, `(?<name>`, not a lookbehind `(?<=` or `(?<!` (a pattern without one reads `\k` as the letter). */
const HAS_NAMED_GROUP = /\(\?<(?![=!])/;

class Parser {
  at = 0;
  /** `unicode`: a `u` source, whose `\p{…}`, `\P{…}` and `\u{…}` escapes run to their `}`. */
  constructor(readonly src: string, readonly unicode = false) {}

  /** branch ("|" branch)*: a match is a match of one branch. */
  alternation(): Needs {
    const branches: Needs[] = [this.sequence()];
    while (this.src[this.at] === "|") {
      this.at++;
      branches.push(this.sequence());
    }
    if (branches.some((b) => b === null)) return null;
    return branches.flatMap((b) => b as string[]);
  }

  /** The best requirement among the sequence's literal runs and its required groups. */
  sequence(): Needs {
    const candidates: string[][] = [];
    let run = "";
    const endRun = () => {
      if (run !== "") candidates.push([run]);
      run = "";
    };
    while (this.at < this.src.length && this.src[this.at] !== "|" && this.src[this.at] !== ")") {
      const atom = this.atom();
      const { min, max } = this.quantifier();
      if ("literal" in atom && min === 1 && max === 1) {
        run += atom.literal;
        continue;
      }
      endRun();
      if (min === 0) continue;
      const needs = "literal" in atom ? [atom.literal] : atom.needs;
      if (needs !== null && ("literal" in atom || atom.min > 0)) candidates.push(fewest(needs));
    }
    endRun();
    if (candidates.length === 0) return null;
    // the most selective: one worth testing (few enough alternatives, each worth a test), then the longest shortest
    // alternative, then the fewest alternatives
    const score = (c: string[]) =>
      (c.length <= MAX_ALTERNATIVES && c.every(worthTesting) ? 1_000_000 : 0) + Math.min(...c.map((s) =>
          s.length
        )) * 100 -
      c.length;
    return candidates.reduce((best, c) => (score(c) > score(best) ? c : best));
  }

  atom(): Atom {
    const c = this.src[this.at]!;
    if (c === "(") return this.group();
    if (c === "[") {
      this.skipClass();
      return { needs: null, min: 1 };
    }
    if (c === "\\") return this.escape();
    this.at++;
    if (c === "." || c === "^" || c === "$") return { needs: null, min: c === "." ? 1 : 0 };
    if (c === "*" || c === "+" || c === "?") throw new Unreadable(); // a quantifier with nothing before it
    if (c === "{" || c === "}" || c === "]") return { needs: null, min: 1 }; // Annex B literals: not read
    // ASCII, Cyrillic and caseless CJK, Hangul, Hebrew, Arabic and Devanagari only: under `i` another letter has case
    // rules this does not follow
    return isPlainLiteral(c) ? { literal: c } : { needs: null, min: 1 };
  }

  group(): Atom {
    this.at++; // (
    let zeroWidth = false;
    if (this.src.startsWith("?:", this.at)) this.at += 2;
    else if (this.src.startsWith("?=", this.at) || this.src.startsWith("?!", this.at)) {
      this.at += 2;
      zeroWidth = true;
    } else if (this.src.startsWith("?<=", this.at) || this.src.startsWith("?<!", this.at)) {
      this.at += 3;
      zeroWidth = true;
    } else if (this.src.startsWith("?<", this.at)) {
      const close = this.src.indexOf(">", this.at);
      if (close < 0) throw new Unreadable();
      this.at = close + 1;
    } else if (this.src[this.at] === "?") throw new Unreadable(); // a group kind this does not know
    const inner = this.alternation();
    if (this.src[this.at] !== ")") throw new Unreadable();
    this.at++;
    // a lookaround matches no characters of its own: it requires nothing of the match
    return zeroWidth ? { needs: null, min: 0 } : { needs: inner, min: 1 };
  }

  skipClass(): void {
    this.at++; // [
    if (this.src[this.at] === "^") this.at++;
    if (this.src[this.at] === "]") {
      this.at++; // [] or [^]: closes at once in JavaScript
      return;
    }
    while (this.at < this.src.length && this.src[this.at] !== "]") this.at += this.src[this.at] === "\\" ? 2 : 1;
    if (this.at >= this.src.length) throw new Unreadable();
    this.at++;
  }

  escape(): Atom {
    const c = this.src[this.at + 1];
    if (c === undefined) throw new Unreadable();
    this.at += 2;
    if (/[A-Za-z0-9]/.test(c)) {
      // classes, assertions, control and numeric escapes, backreferences: consume the whole escape, require nothing
      // (only what the escape really takes: \x41, \u0041, \cJ; else it is the letter itself, read as nothing)
      const rest = this.src.slice(this.at);
      if (this.unicode && (c === "p" || c === "P" || c === "u") && rest.startsWith("{")) {
        const close = this.src.indexOf("}", this.at);
        if (close < 0) throw new Unreadable();
        this.at = close + 1;
      } else if (c === "k" && rest.startsWith("<") && (this.unicode || HAS_NAMED_GROUP.test(this.src))) {
        // a named backreference, \k<name> (in a u source, or one with a named group; else \k is the letter k)
        const close = this.src.indexOf(">", this.at);
        if (close < 0) throw new Unreadable();
        this.at = close + 1;
      } else if (c === "x" && /^[0-9A-Fa-f]{2}/.test(rest)) this.at += 2;
      else if (c === "u" && /^[0-9A-Fa-f]{4}/.test(rest)) this.at += 4;
      else if (c === "c" && /^[A-Za-z]/.test(rest)) this.at += 1;
      else if (/[0-9]/.test(c)) { while (/[0-9]/.test(this.src[this.at] ?? "")) this.at++; }
      return { needs: null, min: c === "b" || c === "B" ? 0 : 1 };
    }
    return isPlainLiteral(c) ? { literal: c } : { needs: null, min: 1 };
  }

  /** The quantifier after an atom: {min, max}, max Infinity for unbounded; a lazy `?` after it is taken too. */
  quantifier(): { min: number; max: number } {
    const c = this.src[this.at];
    let q: { min: number; max: number } | null = null;
    if (c === "*") q = { min: 0, max: Infinity };
    else if (c === "+") q = { min: 1, max: Infinity };
    else if (c === "?") q = { min: 0, max: 1 };
    if (q !== null) this.at++;
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.at));
      if (m) {
        this.at += m[0].length;
        q = { min: Number(m[1]), max: m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]) };
      }
    }
    if (q === null) return { min: 1, max: 1 };
    if (this.src[this.at] === "?") this.at++;
    return q;
  }
}
