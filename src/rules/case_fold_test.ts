import assert from "node:assert/strict";
import fc from "fast-check";
import { BUILTIN_RULE_FILES } from "./builtin.ts";
import { caseFold, foldable, foldUnit } from "./case_fold.ts";
import { expandGrammar } from "./load.ts";

const EVERY_UNIT = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code));
/** The letters a foldable pattern may hold: ASCII and basic Cyrillic lowercase. */
const PATTERN_LETTERS = [
  ..."abcdefghijklmnopqrstuvwxyz",
  ...Array.from({ length: 0x30 }, (_, i) => String.fromCharCode(0x430 + i)),
];
/** Units whose case V8 treats unlike their plain lowercase: Kelvin, long s, Cyrillic variants, dotted I, final sigma. */
const AWKWARD = [
  "\u212a",
  "\u017f",
  "\u1c80",
  "\u1c81",
  "\u1c86",
  "\u1c88",
  "\u0130",
  "\u0131",
  "\u03c2",
  "\u1e9e",
  "\u2126",
  "\u212b",
];

Deno.test("caseFold folds every UTF-16 unit as foldUnit does, one unit for one", () => {
  for (const unit of EVERY_UNIT) {
    const folded = caseFold(unit);
    assert.equal(folded.length, 1, `U+${unit.charCodeAt(0).toString(16)}`);
    assert.equal(folded, foldUnit(unit), `U+${unit.charCodeAt(0).toString(16)}`);
  }
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...AWKWARD, "A", "Z", "Я", "ё", "Ё", "q", " ", "ß", "é", "\ud83d", "\ude00")),
      (units) => {
        const text = units.join("");
        assert.equal(caseFold(text), units.map(foldUnit).join(""));
      },
    ),
  );
});

Deno.test("a folded unit equals a pattern letter exactly when V8's case-insensitive match says so", () => {
  for (const letter of PATTERN_LETTERS) {
    const insensitive = new RegExp(`^${letter}$`, "i");
    for (const unit of EVERY_UNIT) {
      assert.equal(
        foldUnit(unit) === letter,
        insensitive.test(unit),
        `${letter} and U+${unit.charCodeAt(0).toString(16)}`,
      );
    }
  }
  // and the classes and escapes the Russian patterns use
  for (const source of ["[а-яё]", "[^а-яё]", "[а-яёa-z0-9_]", "[^.?!]", "\\w", "\\s", "[^,.?!]"]) {
    const insensitive = new RegExp(`^${source}$`, "i");
    const sensitive = new RegExp(`^${source}$`);
    for (const unit of EVERY_UNIT) {
      assert.equal(
        sensitive.test(foldUnit(unit)),
        insensitive.test(unit),
        `${source} and U+${unit.charCodeAt(0).toString(16)}`,
      );
    }
  }
});

Deno.test("foldable takes lowercase Cyrillic sources under i alone", () => {
  assert.ok(foldable("(?<![а-яё])могу\\s+сделать", "i"));
  assert.ok(!foldable("(?<![а-яё])могу\\s+сделать", "iu"), "u folds otherwise");
  assert.ok(!foldable("(?<![а-яё])могу\\s+сделать", ""), "nothing to fold");
  assert.ok(!foldable("\\bcould\\s+also\\b", "i"), "no Cyrillic letter: not a measured win");
  assert.ok(!foldable("могу\\S+", "i"), "an uppercase escape");
  assert.ok(!foldable("Могу", "i"), "an uppercase letter");
  assert.ok(!foldable("могу[\\u0410-\\u042f]", "i"), "a \\u escape");
  assert.ok(!foldable("(могу)\\s+\\1", "i"), "a backreference");
  assert.ok(!foldable("могу ς", "i"), "a cased letter outside basic Cyrillic");
});

/** Every foldable built-in pattern, expanded, with its rule's examples. */
function foldablePatterns(): { id: string; source: string; texts: string[] }[] {
  const out: { id: string; source: string; texts: string[] }[] = [];
  for (const file of BUILTIN_RULE_FILES) {
    const data = file.data as {
      grammar?: Record<string, string>;
      rules: { id: string; patterns: string[]; flags?: string; examples: { match: string[]; pass: string[] } }[];
    };
    for (const rule of data.rules) {
      for (const [i, pattern] of rule.patterns.entries()) {
        const source = expandGrammar(pattern, data.grammar ?? {}).text;
        if (foldable(source, rule.flags ?? "i")) {
          out.push({ id: `${rule.id}[${i}]`, source, texts: [...rule.examples.match, ...rule.examples.pass] });
        }
      }
    }
  }
  return out;
}

function sameMatch(source: string, text: string, where: string): void {
  const insensitive = new RegExp(source, "i").exec(text);
  const folded = new RegExp(source, "").exec(caseFold(text));
  assert.equal(folded?.index, insensitive?.index, where);
  assert.equal(folded?.[0].length, insensitive?.[0].length, where);
  assert.equal(folded?.groups?.["phrase"]?.length, insensitive?.groups?.["phrase"]?.length, where);
}

Deno.test("every foldable built-in pattern matches the folded text where its i form matches the text", () => {
  const patterns = foldablePatterns();
  assert.ok(patterns.length >= 70, `the Russian patterns are foldable (${patterns.length})`);
  const shouting = (t: string) => t.toUpperCase();
  const titled = (t: string) => t.replace(/(^|\s)(\S)/g, (_, a: string, b: string) => a + b.toUpperCase());
  for (const { id, source, texts } of patterns) {
    for (const text of texts) {
      for (const variant of [text, shouting(text), titled(text)]) sameMatch(source, variant, `${id}: ${variant}`);
    }
    // generated texts from the examples' words, in any case, with the awkward units among them
    const words = [...new Set(texts.flatMap((t) => t.split(/\s+/)).filter((w) => w !== ""))];
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...words),
            fc.constantFrom(...words).map(shouting),
            fc.constantFrom(...AWKWARD, ",", "—", "?", ".", "ё", "Ё"),
          ),
          { maxLength: 24 },
        ),
        (tokens) => sameMatch(source, tokens.join(" "), `${id}: ${tokens.join(" ")}`),
      ),
      { numRuns: 60 },
    );
  }
});

Deno.test("foldable refuses a class range that could span capitals", () => {
  assert.ok(!foldable("[ -а]", "i"), "space to а holds А-Я");
  assert.ok(!foldable("[@-[]а", "i"), "@ to [ holds A-Z");
  assert.ok(foldable("(?<![а-яёa-z0-9_])могу", "i"));
  assert.ok(foldable("[^а-яё][\\w-]могу", "i"), "a class escape then a plain -");
  // the reviewer's cases, where the two forms would differ
  assert.ok(new RegExp("[ -а]", "i").test("Б") && !new RegExp("[ -а]", "").test(caseFold("Б")));
});
