import assert from "node:assert/strict";
import fc from "fast-check";
import prefiltersFile from "../../rules/prefilters.json" with { type: "json" };
import { readFinals } from "../../scripts/eval/finals.ts";
import { BUILTIN_RULE_FILES } from "./builtin.ts";
import { expandGrammar } from "./load.ts";
import {
  foldForPrefilter,
  isCaselessAbjadIndic,
  isCaselessCjk,
  isCaselessHangul,
  isCyrillic,
  mayMatch,
  requiredLiterals,
} from "./prefilter.ts";
import { computePrefilters } from "./prefilter_data.ts";

Deno.test("rules/prefilters.json is what scripts/rules/prefilters.ts computes from the rule files", () => {
  assert.deepEqual(
    prefiltersFile,
    computePrefilters(BUILTIN_RULE_FILES),
    "out of date: deno run --allow-read --allow-write scripts/rules/prefilters.ts",
  );
});

Deno.test("requiredLiterals: what a match must contain, and nothing where it cannot tell", () => {
  assert.deepEqual(requiredLiterals("\\bwant\\s+(?:me|us)\\s+to\\b", "i"), ["want"]);
  assert.deepEqual(requiredLiterals("(?:shall|should) I", "i"), ["shall", "should"]);
  assert.deepEqual(requiredLiterals("Next steps?:", "i"), ["next step"]);
  // optional, repeated-from-zero and looked-around parts require nothing; a branch with nothing makes all nothing
  assert.equal(requiredLiterals("(?:maybe)?\\w+", "i"), null);
  assert.equal(requiredLiterals("(?=want)\\w+", "i"), null);
  assert.equal(requiredLiterals("want|\\w+", "i"), null);
  assert.deepEqual(
    requiredLiterals("(?:abc)+def", "i"),
    ["abc"].length ? ["abc"] : [],
    "a group repeated once or more",
  );
  // classes and escapes end a run; an escaped punctuation mark is itself
  assert.deepEqual(requiredLiterals("[abc]xyz\\.", "i"), ["xyz."]);
  assert.equal(requiredLiterals("\\x41bc", "i"), null, "bc is too short once \\x41 is not read");
  // a quantified last letter is not part of the run: "done" needs only "don"
  assert.deepEqual(requiredLiterals("done?", "i"), ["don"]);
  // Spanish's opening marks have no case: one alone is worth a test, and chosen over short words that are not
  assert.deepEqual(requiredLiterals("¿\\s*(?:te|le|os)\\s+\\w+", "i"), ["¿"]);
  assert.deepEqual(requiredLiterals("¡(?:ya|listo)", "i"), ["¡"]);
  assert.deepEqual(requiredLiterals("¿(?:quieres|prefieres)", "i"), ["quieres", "prefieres"]);
  // a question mark is worth a test alone: most final messages hold none
  assert.deepEqual(requiredLiterals("\\b(?:go|on)\\b[^?]{0,40}\\?\\s*$", "i"), ["?"]);
  assert.deepEqual(requiredLiterals("\\bwant\\b[^?]*\\?", "i"), ["want"]);
  // other non-ASCII letters have case rules under i this does not follow: they end a run
  assert.equal(requiredLiterals("ñu", "i"), null);
  // u: the same literals; its \p{…}, \P{…} and \u{…} escapes are read to their "}" and require nothing; v is not read
  assert.deepEqual(requiredLiterals("Status", "iu"), ["status"]);
  assert.deepEqual(requiredLiterals("\\p{Lu}xyz", "u"), ["xyz"]);
  assert.equal(requiredLiterals("\\p{Lowercase}\\P{Lu}", "u"), null);
  assert.deepEqual(requiredLiterals("\\u{1F600}abc", "u"), ["abc"]);
  assert.equal(requiredLiterals("want", "iv"), null);
  // a named backreference's name is not text to match
  assert.deepEqual(requiredLiterals("(?<x>a)\\k<x>bcd", ""), ["bcd"]);
  assert.deepEqual(requiredLiterals("(?<xyz>a)\\k<xyz>", "u"), null);
  // without u and without a named group, \k is the letter k and what follows it is read as ever
  assert.ok(new RegExp("abc\\k<|>").test(">"));
  assert.equal(requiredLiterals("abc\\k<|>", ""), null);
  assert.deepEqual(requiredLiterals("(?<=x)abcd\\k<wxyz>", ""), ["<wxyz>"]);
  assert.ok(new RegExp("(?<=x)abcd\\k<wxyz>").test("xabcdk<wxyz>"));
  // without i, u or not, a literal is matched as written
  assert.deepEqual(requiredLiterals("BLOCKED|NEEDS-YOU", "mu"), ["BLOCKED", "NEEDS-YOU"]);
  assert.equal(mayMatch(["BLOCKED"], "blocked", "blocked", false), false);
  // under iu, s matches ſ: the folded text has the literal
  assert.ok(/status/iu.test("ſtatuſ"));
  assert.equal(mayMatch(["status"], "ſtatuſ", foldForPrefilter("ſtatuſ"), true), true);
  assert.equal(mayMatch(["kit"], "\u212AIT", foldForPrefilter("\u212AIT"), true), true);
  // Hangul and Cyrillic are read: Hangul as itself (two syllables are worth a test), Cyrillic lowered under i and its
  // old variants folded into the text
  assert.deepEqual(requiredLiterals("(?:해\\s?)?드릴까요", "i"), ["드릴까요"]);
  assert.deepEqual(requiredLiterals("할까|볼까", "i"), ["할까", "볼까"]);
  assert.deepEqual(requiredLiterals("Хотите\\s+ли", "i"), ["хотите"]);
  assert.ok(/вы/i.test("\u1C80ы"));
  assert.equal(mayMatch(["вы"], "\u1C80ы", foldForPrefilter("\u1C80ы"), true), true);
  // each literal once, and none that holds another
  assert.deepEqual(requiredLiterals("serves|serve|Serve", "i"), ["serve"]);
  // a part with too many alternatives is passed over for one with few
  const many = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}x`).join("|");
  assert.deepEqual(requiredLiterals(`(?:${many})\\s\\?`, "i"), ["?"]);
  // case: lowered under i, as written without
  assert.deepEqual(requiredLiterals("Want", ""), ["Want"]);
  assert.equal(mayMatch(["want"], "I WANT", "i want", true), true);
  assert.equal(mayMatch(["Want"], "want", "want", false), false);
});

Deno.test("foldForPrefilter: only ſ and the Kelvin sign match ASCII from outside it; marks and CJK match themselves", () => {
  /** The code points outside `own` that `[class]` matches under `flags`. */
  const others = (cls: string, flags: string, own: (cp: number) => boolean) => {
    const re = new RegExp(`[${cls}]`, flags);
    const out: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || own(cp)) continue;
      if (re.test(String.fromCodePoint(cp))) out.push(cp);
    }
    return out;
  };
  const ascii = (cp: number) => cp < 0x80;
  assert.deepEqual(others("a-z0-9", "iu", ascii), [0x17f, 0x212a]);
  assert.deepEqual(others("a-z0-9", "i", ascii), []);
  // ASCII that is not a letter, the marks and the caseless CJK ranges match only themselves, in either mode
  const rest = " -@\\[-`{-~";
  assert.deepEqual(others(rest, "iu", (cp) => cp < 0x80 && !/[A-Za-z]/.test(String.fromCharCode(cp))), []);
  assert.deepEqual(others("¿¡", "iu", (cp) => cp === 0xbf || cp === 0xa1), []);
  assert.deepEqual(others("¿¡", "i", (cp) => cp === 0xbf || cp === 0xa1), []);
  const cjk = (cp: number) => isCaselessCjk(cp);
  assert.deepEqual(others("\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff", "iu", cjk), []);
  const abjadIndic = (cp: number) => isCaselessAbjadIndic(cp);
  assert.deepEqual(others("\\u0590-\\u06ff\\u0900-\\u097f", "iu", abjadIndic), []);
  assert.deepEqual(others("\\u0590-\\u06ff\\u0900-\\u097f", "i", abjadIndic), []);
  const hangul = (cp: number) => isCaselessHangul(cp);
  const hangulClass = "\\u1100-\\u11ff\\u3130-\\u318f\\ua960-\\ua97f\\uac00-\\ud7ff";
  assert.deepEqual(others(hangulClass, "iu", hangul), []);
  assert.deepEqual(others(hangulClass, "i", hangul), []);
  // a Cyrillic letter matches, from outside the block, only the old variants U+1C80-U+1C87; within it and from them,
  // only what folds to its own lowercase
  const cyrillic = (cp: number) => isCyrillic(cp);
  const variants = Array.from({ length: 8 }, (_, i) => 0x1c80 + i);
  for (const flags of ["i", "iu"]) {
    assert.deepEqual(others("\\u0400-\\u04ff", flags, cyrillic), variants);
    const seen = [...Array.from({ length: 0x100 }, (_, i) => 0x400 + i), ...variants].map((cp) =>
      String.fromCharCode(cp)
    );
    for (let p = 0x400; p <= 0x4ff; p++) {
      const letter = String.fromCharCode(p);
      const re = new RegExp(letter, flags);
      for (const c of seen) {
        if (re.test(c)) assert.equal(foldForPrefilter(c), letter.toLowerCase(), `${flags}: ${c} matches ${letter}`);
      }
    }
  }
  for (const [c, letter] of [["\u017F", "s"], ["\u212A", "k"]] as const) {
    assert.ok(new RegExp(letter, "iu").test(c));
    assert.equal(foldForPrefilter(c), letter);
  }
});

/** Every built-in pattern with literals, compiled, and the literals: a text it matches has one of them. */
function builtinPatterns(): { id: string; regex: RegExp; needs: readonly string[]; flags: string }[] {
  const out: { id: string; regex: RegExp; needs: readonly string[]; flags: string }[] = [];
  const data = computePrefilters(BUILTIN_RULE_FILES);
  for (const file of BUILTIN_RULE_FILES) {
    const f = file.data as {
      grammar?: Record<string, string>;
      rules: { id: string; flags?: string; patterns: string[] }[];
    };
    for (const rule of f.rules) {
      rule.patterns.forEach((p, i) => {
        const needs = data[file.origin]![rule.id]![i];
        const flags = rule.flags ?? "iu";
        if (needs) {
          out.push({ id: rule.id, regex: new RegExp(expandGrammar(p, f.grammar ?? {}).text, flags), needs, flags });
        }
      });
    }
  }
  return out;
}

function assertSound(texts: readonly string[], what: string): number {
  let matched = 0;
  for (const { id, regex, needs, flags } of builtinPatterns()) {
    for (const text of texts) {
      if (!regex.test(text)) continue;
      matched++;
      assert.ok(
        mayMatch(needs, text, foldForPrefilter(text), flags.includes("i")),
        `${what}: /${regex.source.slice(0, 80)}/ of "${id}" matches ${JSON.stringify(text.slice(0, 120))} without ${
          JSON.stringify(needs)
        }`,
      );
    }
  }
  return matched;
}

Deno.test("prefilter soundness: every labelled final message and rule example a pattern matches has its literal", async () => {
  const finals = (await readFinals()).map((f) => f.text);
  const examples = BUILTIN_RULE_FILES.flatMap((file) =>
    (file.data as { rules: { examples?: { match?: string[]; pass?: string[] } }[] }).rules.flatMap((r) => [
      ...(r.examples?.match ?? []),
      ...(r.examples?.pass ?? []),
    ])
  );
  // every sentence and line on its own too, as the closing analysis reads them
  // and with the letters u case folding matches outside ASCII: ſ for s, the Kelvin sign for k
  // and the old Cyrillic variants that non-unicode i matches with в, д, о, с, т, ъ and ѣ
  const variants: Record<string, string> = { в: "ᲀ", д: "ᲁ", о: "ᲂ", с: "ᲃ", т: "ᲅ", ъ: "ᲆ", ѣ: "ᲇ" };
  const folded = examples.flatMap((t) => [
    t.replaceAll("s", "ſ"),
    t.replaceAll("k", "\u212A"),
    t.toUpperCase(),
    t.replace(/[вдостъѣ]/g, (c) => variants[c]!),
  ]);
  const pieces = [...finals, ...examples, ...folded].flatMap((t) => [t, ...t.split(/(?<=[.!?])\s+|\n+/)]);
  const matched = assertSound(pieces, "labelled text");
  assert.ok(matched > 500, `only ${matched} matches: the check saw too little`);
});

Deno.test("prefilter soundness: random text built from the patterns' own words, odd cases and Unicode", () => {
  const all = [...new Set(builtinPatterns().flatMap((p) => p.needs))];
  // the CJK, Hangul and Cyrillic literals all take part (the Cyrillic ones also with ᲀ-ᲇ for the letters they vary),
  // and the rest up to 400
  const cjk = all.filter((w) =>
    /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u1100-\u11ff\u3130-\u318f\uac00-\ud7ff]/.test(w)
  );
  assert.ok(cjk.length > 10, `only ${cjk.length} CJK and Hangul literals`);
  const cyr = all.filter((w) => /[\u0400-\u04ff]/.test(w));
  assert.ok(cyr.length > 10, `only ${cyr.length} Cyrillic literals`);
  const variants: Record<string, string> = { в: "ᲀ", д: "ᲁ", о: "ᲂ", с: "ᲃ", т: "ᲄ", ъ: "ᲆ", ѣ: "ᲇ" };
  const variant = (w: string) => w.replace(/[вдостъѣ]/g, (c) => variants[c]!);
  const words = [
    ...cjk,
    ...cyr,
    ...cyr.map(variant),
    ...all.filter((w) => !cjk.includes(w) && !cyr.includes(w)).slice(0, 400),
  ];
  const token = fc.oneof(
    fc.constantFrom(...words),
    fc.constantFrom(
      " ",
      "  ",
      "\n",
      ", ",
      ". ",
      "? ",
      "'",
      "\u2019",
      "I",
      "we",
      "you",
      "İ",
      "ſ",
      "K",
      "ß",
      "é",
      "¿",
      "¡",
    ),
    fc.constantFrom("。", "？", "！", "吗", "嗎", "か", "が", "を", "ない", "再", "下去", "ｷ", "Ａ", "\u{20000}"),
    // Cyrillic in both cases, with the old variants (ᲀ reads as в under i) and Ё/Ѐ; Hangul syllables and jamo
    fc.constantFrom("я", "Я", "в", "ВЫ", "ᲀ", "ᲁ", "ᲂ", "ᲃ", "ᲄ", "ᲅ", "ᲆ", "ᲇ", "ᲈ", "ё", "Ё", "Ѐ", "ӏ", "Ӏ", "ъ"),
    fc.constantFrom("요", "까", "드릴", "ᄀ", "ᅡ", "ㄱ", "ㅏ", "겠", "\ua960", "\ud7b0"),
    fc.string({ maxLength: 3 }),
  );
  const text = fc.array(token, { maxLength: 20 }).chain((parts) =>
    fc.constantFrom(parts.join(""), parts.join("").toUpperCase(), parts.join(" "))
  );
  fc.assert(
    fc.property(fc.array(text, { minLength: 20, maxLength: 20 }), (texts) => {
      assertSound(texts, "random text");
    }),
    { numRuns: 30 },
  );
});
