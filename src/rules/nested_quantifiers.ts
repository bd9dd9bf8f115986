/**
 * The classic shape of a pattern that backtracks for a very long time: a repeated group whose body can itself repeat
 * and can end with text that a next round could begin with, such as `(a+)+` or `(\w+\s?)*` (the `\s?` may be left
 * out, so a run of letters splits into rounds in exponentially many ways). Matching is synchronous, so the hook's time
 * budget cannot interrupt such a pattern on a text that almost matches; a user rule with one is refused at load
 * (load.ts), as is `(.+,)+`, whose `.+` can take the comma too. `(\w+\s+)*` passes: a round ends in a space, and
 * none starts with one. Pure: reads the source, and tries
 * its single characters and classes on sample characters to tell which may meet.
 */

/** A group repeated this many times or more counts: `*`, `+`, `{n,}`, or a bound this large. */
const OUTER_MAX = 10;

type Alt = Seq[];
type Seq = Element[];
interface Element {
  atom: Atom;
  min: number;
  max: number;
  /** The element's text with its quantifier, for the reason. */
  text: string;
}
type Atom = { kind: "chars"; text: string } | { kind: "group"; body: Alt; look: boolean } | { kind: "assert" };

/**
 * Characters tried against every single-character atom: ASCII, whitespace, letters and marks of other scripts (and
 * the pattern's own characters, added per pattern).
 */
const SAMPLES: readonly string[] = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  ..."\t\n\r\u00a0\u2028\u3000éÉßçñøжЖ中日ーあ한ά’‘“”—–…؟？！。、😀",
];

/**
 * The most steps one pattern's check may take (a step: a sample tried on a character or class, a sample added to or
 * looked up in a set, an element walked; about 50,000 a millisecond). The check is linear in the pattern's length: a
 * 64 KiB pattern (load.ts's cap) of ASCII takes about 200,000. Only a long pattern with thousands of distinct
 * characters inside repeated groups, each tried on each, goes past; it is refused rather than checked for longer than
 * a hook can wait. load.ts also bounds a file's patterns in all (`MAX_FILE_CHECK_STEPS`).
 */
export const MAX_CHECK_STEPS = 2_000_000;

export interface NestedQuantifierOptions {
  /** A smaller step budget than `MAX_CHECK_STEPS` (what is left of a file's, load.ts; tests make it small). */
  maxSteps?: number;
  /** Told the steps the check took, when it ends (tests count them). */
  onSteps?: (steps: number) => void;
}

/** Why the pattern has the shape, in words, or null. The source is read as JavaScript reads it. */
export function nestedQuantifier(source: string, flags = "", options: NestedQuantifierOptions = {}): string | null {
  const maxSteps = Math.max(0, Math.min(options.maxSteps ?? MAX_CHECK_STEPS, MAX_CHECK_STEPS));
  const { onSteps } = options;
  let parsed: Alt;
  try {
    parsed = parse(source);
  } catch {
    return null; // not a pattern we can read: the compiler has the last word
  }
  // and the pattern's own characters, so that a word in any script meets its own letters
  const samples = [...new Set([...SAMPLES, ...source])];
  const sets = new Map<string, Set<number>>();
  const ctx: Context = {
    steps: 0,
    step(n = 1) {
      ctx.steps += n;
      if (ctx.steps > maxSteps) throw new TooLong();
    },
    charsOf(text: string): Set<number> {
      let set = sets.get(text);
      if (set === undefined) {
        set = new Set();
        let regex: RegExp | null = null;
        try {
          regex = new RegExp(`^(?:${text})$`, flags.replace(/[gy]/g, ""));
        } catch {
          regex = null;
        }
        ctx.step(samples.length);
        for (const [i, sample] of samples.entries()) if (regex === null || regex.test(sample)) set.add(i);
        sets.set(text, set);
      }
      return set;
    },
    all: new Map(),
    first: new Map(),
    empty: new Map(),
  };
  try {
    return findIn(parsed, ctx);
  } catch (error) {
    if (!(error instanceof TooLong)) throw error;
    return `too large to check for nested quantifiers (more than ${maxSteps} steps): shorten the pattern or split it ` +
      "into several";
  } finally {
    onSteps?.(ctx.steps);
  }
}

class TooLong extends Error {}

interface Context {
  steps: number;
  /** Counts work, and throws TooLong past the budget. */
  step: (n?: number) => void;
  charsOf: (text: string) => Set<number>;
  /** Each element's allOf, firstOf and nullable, worked out once. */
  all: Map<Element, Set<number>>;
  first: Map<Element, Set<number>>;
  empty: Map<Element, boolean>;
}

function findIn(alt: Alt, ctx: Context): string | null {
  for (const seq of alt) {
    for (const element of seq) {
      ctx.step();
      if (element.atom.kind !== "group") continue;
      const inner = findIn(element.atom.body, ctx);
      if (inner !== null) return inner;
      if (element.max <= OUTER_MAX || element.atom.look) continue;
      const starts = firstOfAlt(element.atom.body, ctx);
      for (const round of element.atom.body) {
        const ends = endRepeats(round, ctx);
        if (ends === null) continue;
        ctx.step(ends.chars.size);
        if ([...ends.chars].some((c) => starts.has(c))) {
          return `nested quantifier: the group ${shown(element.text)} repeats, and ${shown(ends.text)} inside it ` +
            "repeats too and may end a round with what the next round begins with, so a text that almost matches " +
            "is tried in more ways than any time allows";
        }
      }
    }
  }
  return null;
}

function shown(text: string): string {
  return `\`${text.length > 48 ? `${text.slice(0, 45)}…` : text}\``;
}

function nullableAlt(alt: Alt, ctx: Context): boolean {
  return alt.some((seq) => seq.every((e) => nullable(e, ctx)));
}

function nullable(element: Element, ctx: Context): boolean {
  let known = ctx.empty.get(element);
  if (known === undefined) {
    ctx.step();
    if (element.min === 0 || element.atom.kind === "assert") known = true;
    else if (element.atom.kind === "group") known = element.atom.look || nullableAlt(element.atom.body, ctx);
    else known = false;
    ctx.empty.set(element, known);
  }
  return known;
}

/** Adds `from` to `to`, counting the steps. */
function addAll(to: Set<number>, from: Set<number>, ctx: Context): void {
  ctx.step(from.size);
  for (const c of from) to.add(c);
}

/** The sample characters a match of the group can begin with. */
function firstOfAlt(alt: Alt, ctx: Context): Set<number> {
  const out = new Set<number>();
  for (const seq of alt) {
    for (const element of seq) {
      addAll(out, firstOf(element, ctx), ctx);
      if (!nullable(element, ctx)) break;
    }
  }
  return out;
}

function firstOf(element: Element, ctx: Context): Set<number> {
  if (element.atom.kind === "chars") return ctx.charsOf(element.atom.text);
  if (element.atom.kind !== "group" || element.atom.look) return new Set();
  let set = ctx.first.get(element);
  if (set === undefined) ctx.first.set(element, set = firstOfAlt(element.atom.body, ctx));
  return set;
}

/** Every sample character any part of the element can match. */
function allOf(element: Element, ctx: Context): Set<number> {
  if (element.atom.kind === "chars") return ctx.charsOf(element.atom.text);
  let out = ctx.all.get(element);
  if (out === undefined) {
    out = new Set<number>();
    if (element.atom.kind === "group" && !element.atom.look) {
      for (const seq of element.atom.body) for (const e of seq) addAll(out, allOf(e, ctx), ctx);
    }
    ctx.all.set(element, out);
  }
  return out;
}

/**
 * The repeating elements a round can end with, and the characters they match; null when none. An element repeats when
 * its length can vary (`a+`, `a{1,3}`, not `a{2}`: a fixed count splits a text one way only). An element ends a round
 * when what follows it in the round may be left out, or is all characters it matches itself (`.+,`: the `.+` can take
 * the comma too, so a run of commas splits into rounds in every way). One walk from the round's end, carrying what
 * the elements after the current one must match: linear in the round's length.
 */
function endRepeats(seq: Seq, ctx: Context): { text: string; chars: Set<number>; unbounded: boolean } | null {
  const chars = new Set<number>();
  let text: string | null = null;
  let unbounded = false;
  /** What the elements after `k` that may not be left out match, and whether one of them matches no sample. */
  const restChars = new Set<number>();
  let restMatchesNone = false;
  let restNullable = true;
  for (let k = seq.length - 1; k >= 0; k--) {
    ctx.step();
    const element = seq[k]!;
    // only an element whose length can vary splits a round more than one way: `[0-9a-f]{2}` takes two, always
    if (element.max > element.min) {
      const own = allOf(element, ctx);
      ctx.step(restChars.size);
      if (!restMatchesNone && [...restChars].every((c) => own.has(c))) {
        text ??= element.text;
        addAll(chars, own, ctx);
        if (element.max === Infinity) unbounded = true;
      }
    } else if (element.atom.kind === "group" && !element.atom.look) {
      // a group repeated a fixed number of times ends as its body does (`(?:a+){2}`), and like that body's own repeat
      // it ends the round when what follows it may be left out or is all characters it matches (`(?:(?:a+){2}a)+`)
      for (const inner of element.atom.body) {
        const found = endRepeats(inner, ctx);
        if (found === null) continue;
        ctx.step(restChars.size);
        // when something must follow it, only an unbounded repeat inside (`a+`, not an optional `(?:\s+on)?`) can take
        // what follows in more ways than one, round after round
        const covers = found.unbounded && !restMatchesNone && [...restChars].every((c) => found.chars.has(c));
        if (!restNullable && !covers) continue;
        text ??= found.text;
        addAll(chars, found.chars, ctx);
        if (found.unbounded) unbounded = true;
      }
    }
    if (!nullable(element, ctx)) {
      restNullable = false;
      const its = allOf(element, ctx);
      if (its.size === 0) restMatchesNone = true;
      addAll(restChars, its, ctx);
    }
  }
  return text === null ? null : { text, chars, unbounded };
}

/** A small reader of JavaScript regex syntax: alternatives, groups, classes, escapes, quantifiers. */
function parse(source: string): Alt {
  let i = 0;
  const readAlt = (): Alt => {
    const alt: Alt = [[]];
    while (i < source.length && source[i] !== ")") {
      if (source[i] === "|") {
        alt.push([]);
        i++;
        continue;
      }
      const start = i;
      const atom = readAtom();
      const q = quantifierAt(source, i);
      if (q !== null) i = q.end;
      alt[alt.length - 1]!.push({ atom, min: q?.min ?? 1, max: q?.max ?? 1, text: source.slice(start, i) });
    }
    return alt;
  };
  const readAtom = (): Atom => {
    const c = source[i]!;
    if (c === "(") {
      let look = false;
      i++;
      if (source[i] === "?") {
        const head = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>|[ims-]+:)/.exec(source.slice(i, i + 64));
        if (head === null) throw new SyntaxError("group");
        look = /^\?(?:=|!|<=|<!)/.test(head[0]);
        i += head[0].length;
      }
      const body = readAlt();
      if (source[i] !== ")") throw new SyntaxError("unclosed group");
      i++;
      return { kind: "group", body, look };
    }
    if (c === "^" || c === "$") {
      i++;
      return { kind: "assert" };
    }
    const start = i;
    if (c === "\\") {
      const next = source[i + 1];
      if (next === "b" || next === "B") {
        i += 2;
        return { kind: "assert" };
      }
      i = escapeEnd(source, i);
    } else if (c === "[") i = classEnd(source, i);
    else i++;
    return { kind: "chars", text: source.slice(start, i) };
  };
  const alt = readAlt();
  if (i < source.length) throw new SyntaxError("unbalanced )");
  return alt;
}

function escapeEnd(source: string, i: number): number {
  const next = source[i + 1];
  if (next === undefined) return i + 1;
  // \p{…}, \P{…}, \u{…}, \k<name>: the whole of it; \uXXXX, \xXX, \cX: their characters; anything else: one
  if ((next === "p" || next === "P" || next === "u") && source[i + 2] === "{") {
    const close = source.indexOf("}", i + 3);
    return close === -1 ? i + 2 : close + 1;
  }
  if (next === "k" && source[i + 2] === "<") {
    const close = source.indexOf(">", i + 3);
    return close === -1 ? i + 2 : close + 1;
  }
  if (next === "u") return i + 6;
  if (next === "x") return i + 4;
  if (next === "c") return i + 3;
  if (/[1-9]/.test(next)) {
    let j = i + 2;
    while (/\d/.test(source[j] ?? "")) j++;
    return j;
  }
  return i + 2;
}

function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === "^") j++;
  while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
  return j + 1;
}

/** The quantifier at `i`, or null (a `{` that is no quantifier is a literal, as JavaScript reads it without `u`). */
function quantifierAt(source: string, i: number): { min: number; max: number; end: number } | null {
  const c = source[i];
  let q: { min: number; max: number; end: number } | null = null;
  if (c === "*") q = { min: 0, max: Infinity, end: i + 1 };
  else if (c === "+") q = { min: 1, max: Infinity, end: i + 1 };
  else if (c === "?") q = { min: 0, max: 1, end: i + 1 };
  else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
    if (m) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      q = { min, max, end: i + m[0].length };
    }
  }
  if (q !== null && source[q.end] === "?") q = { ...q, end: q.end + 1 };
  return q;
}
