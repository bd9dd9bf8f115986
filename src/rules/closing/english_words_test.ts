import assert from "node:assert/strict";
import { ENGLISH_WORDS } from "./english_words.ts";
import { computeEnglishWords, englishTexts, englishWordsFile } from "./english_words_data.ts";
import { readFinals } from "../../../scripts/eval/finals.ts";
import { hasEuropeanMarker, isEnglishWord, proseWords } from "./languages.ts";

/** The words of a generated file's constant, in order. */
const wordsOf = (constant: Readonly<Record<string, string>>) =>
  Object.values(constant).flatMap((letter) => letter.trim().split(" "));

Deno.test("english_words.ts is what scripts/rules/english_words.ts computes from the English labelled finals", async () => {
  const stored = await Deno.readTextFile(new URL("./english_words.ts", import.meta.url));
  assert.equal(
    stored,
    englishWordsFile(computeEnglishWords(englishTexts(await readFinals()))),
    "out of date: npx -y deno@2.9.6 run --allow-read --allow-write scripts/rules/english_words.ts",
  );
});

Deno.test("english_words: prose words only, under their first letter, none of them a European marker", () => {
  const words = wordsOf(ENGLISH_WORDS);
  assert.ok(words.length > 1000);
  for (const [letter, list] of Object.entries(ENGLISH_WORDS)) {
    assert.match(list, /^ (?:[a-z]{2,} )+$/);
    for (const word of list.trim().split(" ")) {
      assert.equal(word[0], letter);
      assert.ok(!hasEuropeanMarker(word), word);
      assert.ok(isEnglishWord(word), word);
    }
  }
  assert.ok(isEnglishWord("tests") && isEnglishWord("fixed"));
  // the words of the European examples in languages_test.ts are not English ones, nor parts of words
  for (const word of ["listo", "subo", "ahora", "klaar", "groen", "verdes", "pronto", "ixed", "ests", "", "x"]) {
    assert.ok(!isEnglishWord(word), word);
  }
});

Deno.test("computeEnglishWords(): words outside code, paths and URLs, lowercased, sorted, without marker words", () => {
  const words = computeEnglishWords([
    "Fixed `src/app.ts` and the Parser; see https://example.com/x. Tests pass.",
    "Pushed the fix_branch, que es todo. Déjà vu.",
  ]);
  // "que" marks Spanish; "es" and "todo" are short words of those languages
  assert.deepEqual(words, ["and", "fixed", "parser", "pass", "pushed", "see", "tests", "the", "vu"]);
  assert.deepEqual(proseWords("Done: `x_y` file.ts ok"), ["done", "ok"]);
  // a name with digits is not a word, nor is a token with a path or an identifier in it
  assert.deepEqual(proseWords("ES2023 target, v2beta, src/app.ts, fix_branch"), ["target"]);
});

Deno.test("englishWordsFile(): a string per first letter whose words read back as the list", async () => {
  const words = Array.from({ length: 400 }, (_, i) => `${String.fromCharCode(97 + Math.floor(i / 100))}w${i}`);
  const file = englishWordsFile(words);
  for (const line of file.split("\n")) assert.ok(line.length <= 120, line);
  const url = `data:text/typescript,${encodeURIComponent(file)}`;
  const { ENGLISH_WORDS: read } = await import(url);
  assert.deepEqual(Object.keys(read), ["a", "b", "c", "d"]);
  assert.deepEqual(wordsOf(read), words);
});
