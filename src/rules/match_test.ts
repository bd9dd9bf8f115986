import assert from "node:assert/strict";
import { compilePattern, emptyMatchProblem } from "./load.ts";
import fc from "fast-check";
import { foldedOnce, matchFirst, MAX_PHRASE_CHARS, quotablePhrase, tail } from "./match.ts";
import { foldForPrefilter } from "./prefilter.ts";
import type { CompiledRule } from "./schema.ts";

function compiled(id: string, patterns: string[], tailChars: number | null = null): CompiledRule {
  const regexes = patterns.map((p) => {
    const regex = compilePattern(p, "iu");
    if (typeof regex === "string") throw new Error(regex);
    return regex;
  });
  return {
    id,
    description: id,
    patterns,
    flags: "iu",
    tailChars,
    scope: "message",
    weight: 1,
    lang: "any",
    advice: "",
    examples: { match: ["x"], pass: ["y"] },
    kind: "early-stop",
    regexes,
    origin: "test",
  };
}

Deno.test("matchFirst() returns the first rule in list order, not the earliest position", () => {
  const rules = [compiled("late", ["zebra"]), compiled("early", ["apple"])];
  assert.equal(matchFirst(rules, "apple then zebra", { maxChars: 1000 })?.rule.id, "late");
  assert.equal(matchFirst(rules, "nothing here", { maxChars: 1000 }), null);
});

Deno.test("matchFirst() quotes the earliest match among a rule's patterns", () => {
  const rules = [compiled("r", ["zebra", "apple"])];
  assert.equal(matchFirst(rules, "an apple and a zebra", { maxChars: 1000 })?.phrase, "apple");
});

Deno.test("matchFirst() only searches the last maxChars characters", () => {
  const rules = [compiled("r", ["want me to"])];
  const text = "Want me to continue? " + "x".repeat(100);
  assert.equal(matchFirst(rules, text, { maxChars: 100 }), null);
  assert.equal(matchFirst(rules, text, { maxChars: 200 })?.phrase, "Want me to");
});

Deno.test("matchFirst() applies a rule's tailChars inside the capped text", () => {
  const rules = [compiled("r", ["shall i"], 30)];
  assert.equal(matchFirst(rules, "Shall I? " + "y".repeat(40), { maxChars: 1000 }), null);
  assert.equal(matchFirst(rules, "y".repeat(40) + " Shall I?", { maxChars: 1000 })?.phrase, "Shall I");
});

Deno.test("matchFirst() flattens whitespace and shortens the phrase for quoting", () => {
  const rules = [compiled("r", ["next steps:[\\s\\S]*"])];
  const hit = matchFirst(rules, `Next steps:\n\n  - ${"a".repeat(200)}`, { maxChars: 1000 });
  assert.ok(hit);
  assert.equal(hit.phrase.length, MAX_PHRASE_CHARS);
  assert.ok(hit.phrase.startsWith("Next steps: - aaa"));
  assert.ok(hit.phrase.endsWith("…"));
});

Deno.test("matchFirst() is not stateful across calls", () => {
  const rules = [compiled("r", ["offer"])];
  for (let i = 0; i < 3; i++) assert.equal(matchFirst(rules, "an offer", { maxChars: 100 })?.phrase, "offer");
});

Deno.test("quotablePhrase() keeps short phrases and never splits a surrogate pair", () => {
  assert.equal(quotablePhrase("  Want me to \n continue "), "Want me to continue");
  const emoji = "😀".repeat(100);
  const cut = quotablePhrase(emoji);
  assert.equal([...cut].length, MAX_PHRASE_CHARS);
  assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut), "no lone high surrogate");
});

Deno.test("tail() returns the last n characters without a lone low surrogate", () => {
  assert.equal(tail("abcdef", 3), "def");
  assert.equal(tail("abc", 10), "abc");
  assert.equal(tail("a😀b", 2), "b", "cutting into the pair drops its low half");
  assert.equal(tail("a😀b", 3), "😀b");
});

Deno.test("compilePattern() refuses g and y flags and bad syntax; emptyMatchProblem() empty matches", () => {
  assert.match(String(compilePattern("a", "g")), /may not contain g or y/);
  assert.match(String(compilePattern("(", "u")), /Invalid regular expression/);
  assert.match(String(emptyMatchProblem(/a?/u)), /empty string/);
  assert.equal(emptyMatchProblem(/a/u), null);
  assert.ok(compilePattern("a", "iu") instanceof RegExp);
});

Deno.test("matchFirst() prefers the longer phrase when two patterns match at the same place", () => {
  const rules = [compiled("r", ["would you like", "would you like me to"])];
  assert.equal(matchFirst(rules, "Would you like me to go on?", { maxChars: 100 })?.phrase, "Would you like me to");
});

Deno.test("foldedOnce gives foldForPrefilter's text, for texts seen again and after its memory is cleared", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 150 }), (texts) => {
      for (const text of [...texts, ...texts]) assert.equal(foldedOnce(text), foldForPrefilter(text));
    }),
  );
  for (const text of ["ſTOP", "\u1C80ОТ", "Hello"]) assert.equal(foldedOnce(text), foldForPrefilter(text));
});
