/**
 * Writes src/rules/closing/english_words.ts: the prose words of the English labelled finals, by which the Stop guard's
 * language check reads a terse English ending (src/rules/closing/languages.ts). src/rules/closing/english_words_test.ts
 * fails when the file is not what this computes, as after a labelled English final is added. Run:
 *   npx -y deno@2.9.6 run --allow-read --allow-write scripts/rules/english_words.ts
 */
import { computeEnglishWords, englishTexts, englishWordsFile } from "../../src/rules/closing/english_words_data.ts";
import { readFinals } from "../eval/finals.ts";

const english = englishTexts(await readFinals());
await Deno.writeTextFile(
  new URL("../../src/rules/closing/english_words.ts", import.meta.url),
  englishWordsFile(computeEnglishWords(english)),
);
