/**
 * Which languages' rules a message can need. A rule is compiled the first time it runs, so running only the rules
 * of the languages a message is written in keeps the hook's start small: an English report never compiles the
 * Japanese or German patterns. The check errs towards running more: CJK, Cyrillic and Hangul rules run whenever
 * the script appears (Cyrillic runs the `mul` rules too, for Ukrainian); the Spanish, German, French, Portuguese,
 * Italian and Dutch rules run when the text has one of their common words or accented letters, or when its Latin-script prose does not read as English: the whole text when
 * it has no other script, else what is left outside code spans, fenced code and URLs, when that holds a phrase of three
 * words. A Japanese report naming `npm test` and a file does not run them; a Dutch question about a key written in
 * Cyrillic does. Rules with lang `en` or `any` always run.
 * A blank message (only whitespace) needs no language's rules.
 *
 * Prose reads as English with three common English words, or when at least four in five of its words, and of its last
 * sentence's, are words of the labelled English endings (english_words.ts): a terse report ("Done: parser fixed. All 99
 * tests pass.") has few function words but is English all the same.
 */
import { ENGLISH_WORDS } from "./english_words.ts";
import { oncePerText } from "../text_memo.ts";

export const BLANK = /^\s*$/;
export const KANA = /[\u3040-\u30ff]/;
export const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
export const CYRILLIC = /[\u0400-\u04ff]/;
export const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;
/**
 * Hebrew, Arabic and Devanagari letters, the letters only Vietnamese writes (ơ, ư, đ and the Latin Extended
 * Additional block), and two Greek letters in a row (a lone "Δ" or "π" is English technical text): a text with them
 * runs the `mul` rules even when its few Latin words read as English ("REST").
 */
export const MORE_SCRIPTS =
  /[\u0590-\u05ff\u0600-\u06ff\u0900-\u097f\u1ea0-\u1ef9\u01a0\u01a1\u01af\u01b0\u0110\u0111]|[\u0370-\u03ff]{2}/;
/**
 * The rules of lang `mul`: the commonest closings of languages with no rules of their own (Polish, Turkish,
 * Vietnamese, Indonesian, Hindi, Arabic, Hebrew, Swedish, Danish, Norwegian, Finnish, Czech, Romanian, Ukrainian,
 * Greek, Hungarian).
 * They run on a text that does not read as English (the Latin-script gate above, which any text of another script with
 * no English words passes too) unless it shows one of the six European languages and no letter or word of theirs, or
 * that has Cyrillic letters or MORE_SCRIPTS' letters, or both a letter of MORE_LETTERS and a word of MORE_WORDS (a
 * Norwegian "Det som gjenstår for meg er … for ledere … for `X`" has three "for" and reads as English), or two
 * different words of MORE_WORDS (a Polish "jakby co to moge tez dorzucic to samo" typed plain); in a pack of
 * their own (packs.ts), they are never loaded for an English ending, nor for a Spanish or French one.
 */
export const MORE_LANGS = "mul";
/** The languages of Latin script whose rules run together when a text may be in one of them. */
const EUROPEAN_LANGS = ["es", "de", "fr", "pt", "it", "nl"] as const;
/** Common English words; three or more (whole words) make the text read as English. */
export const ENGLISH =
  /(?<![A-Za-z])(?:the|and|to|is|are|it|this|that|with|for|of|you|I|in|on|was|be|have|not)(?![A-Za-z])/g;
/**
 * Words common in Spanish, German, French, Portuguese, Italian or Dutch and rare in English prose; `¿`, `¡`, `ñ`, `ß`,
 * accents (a letter with one, anywhere: the word around it is not read, which on a long run of plain letters read it
 * again from every start).
 */
export const EUROPEAN =
  /[¿¡ñßãõçœáéíóúàèìòùâêîôûäöüë]|(?<![A-Za-zÀ-ÿ])(?:que|los|las|el|il|una|pero|para|con|está|ya|muy|puedo|quieres|und|der|die|das|ist|nicht|ich|mit|auch|soll|noch|les|des|est|pour|avec|je|pas|vous|une|dans|não|os|uma|com|você|posso|quer|eu|che|sono|anche|vuoi|della|questo|questa|gli|ancora|fatto|het|een|ik|niet|ook|wil|nog|wel|maar|zijn|naar|kun|jij|deze)(?![A-Za-zÀ-ÿ])/i;

/**
 * Latin letters of the sixteen `mul` languages that none of the six writes (Polish, Turkish, Nordic, Czech, Slovak,
 * Romanian, Hungarian).
 */
export const MORE_LETTERS = /[ąćęłńśźżĄĆĘŁŃŚŹŻğıİşŞĞőűŐŰåøæÅØÆěřůčšžďťňĚŘŮČŠŽĎŤŇșțăȘȚĂţ]/;
/**
 * Words common in the Latin-script `mul` languages and rare in English and the six (Indonesian has no letters of its
 * own, nor has Vietnamese typed without its marks: "khong", "xong"; the rest are read here as typed without their
 * letters too), not the six's words ("sie", "este", "nem").
 */
export const MORE_WORDS = new RegExp(
  "(?<![A-Za-z\\u00C0-\\u024F])(?:saya|sudah|yang|untuk|tidak|bisa|dengan|kalau|jika|jag|och|inte|klart|" +
    "jeg|ikke|hvis|ferdig|og|det|meg|deg|khong|xong|duoc|chua|minä|olen|että|voin|jos|haluat|haluatte|valmis|" +
    "myös|vielä|kanssa|bir|için|icin|değil|degil|" +
    "istersen|isterseniz|bitti|tamam|jest|nie|się|też|tez|już|juz|jeśli|jesli|chcesz|mogę|moge|gotowe|jsem|není|" +
    "neni|také|jsou|pokud|chceš|chces|můžu|muzu|hotovo|pentru|și|dacă|daca|vrei|gata|acum|sunt|trebuie|urmatorul|" +
    "următorul|şimdi|simdi|henüz|henuz|és|hogy|egy|" +
    "szeretnéd|szeretned|kész|kesz|tudom|skal|ogsaa|aldri|ikkje)(?![A-Za-z\\u00C0-\\u024F])",
  "gi",
);
/**
 * The six European languages' own words (not their accents, which Finnish, Swedish or Czech write too, nor words the
 * sixteen also use: "el", "una", "mit", "des", "kun", "com"); read in prose outside code and URLs.
 */
export const SIX_WORDS =
  /(?<![A-Za-zÀ-ÿ])(?:que|los|las|pero|está|muy|puedo|quieres|und|der|das|ist|nicht|ich|auch|soll|noch|les|pour|avec|pas|vous|dans|não|você|posso|quer|che|sono|anche|vuoi|della|questo|questa|gli|ancora|fatto|het|een|niet|ook|wil|nog|maar|zijn|naar|jij|deze)(?![A-Za-zÀ-ÿ])/i;

/**
 * The languages of rules worth running on this text (besides `en` and `any`), once per text: a Stop hook asks for a
 * final message's languages when it loads the rules, in the escape check and in the analysis.
 */
export const languagesOf: (text: string) => ReadonlySet<string> = oncePerText(computeLanguages, 4);

function computeLanguages(text: string): ReadonlySet<string> {
  const langs = new Set<string>();
  // a blank message (a turn that ended on a tool call, a stop before any text) has no language to load rules for
  if (BLANK.test(text)) return langs;
  const sample = text.length > 8000 ? text.slice(-8000) : text;
  if (KANA.test(sample)) langs.add("ja");
  if (HAN.test(sample)) {
    langs.add("zh-Hans");
    langs.add("zh-Hant");
    langs.add("ja");
  }
  if (CYRILLIC.test(sample)) {
    langs.add("ru");
    langs.add(MORE_LANGS); // Ukrainian
  }
  if (HANGUL.test(sample)) langs.add("ko");
  // beside another script, only the prose outside code and URLs counts (`example.com` is not Portuguese)
  const otherScript = langs.size > 0;
  const prose = otherScript ? sample.replace(CODE_OR_URL, " ") : sample;
  // whether the prose reads as English is read outside code and URLs: a quoted error (`403: caller does not have
  // permission`) does not make a Norwegian report English
  const words = otherScript ? prose : sample.replace(CODE_OR_URL, " ");
  if (EUROPEAN.test(prose) || (otherScript ? latinProse(prose) : !readsAsEnglish(words))) {
    // the sixteen `mul` languages too, unless the text shows one of the six and none of theirs (read outside code
    // and URLs)
    for (const lang of EUROPEAN_LANGS) langs.add(lang);
    if (MORE_LETTERS.test(words) || hasMoreWord(words) || !SIX_WORDS.test(words)) langs.add(MORE_LANGS);
  }
  // after the Latin-script gate, which it must not change
  if (MORE_SCRIPTS.test(sample)) langs.add(MORE_LANGS);
  // a letter and a word of theirs, even in prose that reads as English: a Norwegian report with "for" three times
  else if (!langs.has(MORE_LANGS) && MORE_LETTERS.test(words) && hasMoreWord(words)) langs.add(MORE_LANGS);
  // or two different words of theirs, typed without their letters: a Polish "jakby co to moge tez dorzucic to samo"
  // reads as English by its "to"s
  else if (!langs.has(MORE_LANGS) && moreWordCount(words, 2) >= 2) langs.add(MORE_LANGS);
  return langs;
}

/** Whether the text has one of the sixteen's common words. */
function hasMoreWord(text: string): boolean {
  MORE_WORDS.lastIndex = 0;
  return MORE_WORDS.test(text);
}

/** How many different words of the sixteen's common ones the text has, counted up to `most`. */
function moreWordCount(text: string, most: number): number {
  const seen = new Set<string>();
  MORE_WORDS.lastIndex = 0;
  for (let m = MORE_WORDS.exec(text); m !== null && seen.size < most; m = MORE_WORDS.exec(text)) {
    seen.add(m[0].toLowerCase());
  }
  return seen.size;
}

/** Code spans, fenced code and URLs: where a report in another script names things in Latin letters. */
export const CODE_OR_URL = /```[\s\S]*?(?:```|$)|`[^`\n]*`|\bhttps?:\/\/\S+/g;
/**
 * Three Latin-script words in a row, apart only by spaces and a little punctuation: a phrase, not names or paths. Tried
 * only where a word starts: from inside a long word every start would read the rest of it again (quadratic).
 */
export const LATIN_PHRASE =
  /(?<![A-Za-z\u00C0-\u024F])(?:[A-Za-z\u00C0-\u024F]{2,}[\s,;:'’]+){2}[A-Za-z\u00C0-\u024F]{2,}/;

/**
 * Prose (a text beside another script, outside code and URLs) in Latin script and not in English, as a Dutch question
 * about a key named in Cyrillic is: a phrase of three words, and the prose does not read as English.
 */
function latinProse(prose: string): boolean {
  return LATIN_PHRASE.test(prose) && !readsAsEnglish(prose);
}

/** Three or more common English words, or words that are mostly English ones, in the whole and in its last sentence. */
function readsAsEnglish(text: string): boolean {
  ENGLISH.lastIndex = 0;
  let english = 0;
  while (english < 3 && ENGLISH.exec(text) !== null) english++;
  if (english >= 3) return true;
  const words = proseWords(text);
  if (words.length === 0 || !mostlyEnglish(words)) return false;
  const last = proseWords(lastSentence(text));
  return last.length === 0 || mostlyEnglish(last);
}

/** Of a text's words, the share that must be English words for it to read as English. */
const ENGLISH_SHARE = 0.8;

function mostlyEnglish(words: readonly string[]): boolean {
  let known = 0;
  for (const word of words) if (isEnglishWord(word)) known++;
  return known >= ENGLISH_SHARE * words.length;
}

/**
 * A prose word (lowercase ASCII letters) among english_words.ts: one search of its first letter's string, where a Set
 * of the 3,000-odd words would take a new hook process 2-3 ms to build.
 */
export function isEnglishWord(word: string): boolean {
  return Object.hasOwn(ENGLISH_WORDS, word[0] ?? "") && ENGLISH_WORDS[word[0]!]!.includes(` ${word} `);
}

/**
 * Code and URLs (CODE_OR_URL), paths and identifiers: a token with `/`, `\` or `_` in it, or a dot between two characters. Each of the
 * last two starts where a token does (after white space or a backtick), so a long token is searched once, not from each
 * of its characters.
 */
export const NOT_PROSE = new RegExp(
  `${CODE_OR_URL.source}|(?<![^\\s\`])\\S*[\\/\\\\_]\\S*|(?<![^\\s\`])\\S+\\.\\S+`,
  "g",
);
/** A word of two or more ASCII letters, not part of a word with accented letters or of a name with digits (`ES2023`). */
export const LATIN_WORD = /(?<![A-Za-z0-9\u00C0-\u024F])[A-Za-z]{2,}(?![A-Za-z0-9\u00C0-\u024F])/g;

/** The prose words of a text, lowercased: words of ASCII letters outside code, URLs, paths and identifiers. */
export function proseWords(text: string): string[] {
  const words = text.replace(NOT_PROSE, " ").match(LATIN_WORD) ?? [];
  return words.map((word) => word.toLowerCase());
}

/**
 * The last sentence of the last line that holds two letters in a row, at most its last 200 characters: where an ending
 * asks or offers, also after a list of English terms on the same line ("Build, lint, tests: green. Redis oder
 * In-Memory-Cache, du entscheidest.").
 */
function lastSentence(text: string): string {
  const lines = text.trimEnd().split(/\r?\n|\r/);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!/[A-Za-z]{2}/.test(lines[i]!)) continue;
    // only the line's end: what is kept is at most 200 characters, and the searches stay short on a long line
    const parts = lines[i]!.slice(-400).replace(/[.!?;:\s]+$/, "").split(/[.!?;:](?:\s+|$)/);
    for (let j = parts.length - 1; j >= 0; j--) if (/[A-Za-z]{2}/.test(parts[j]!)) return parts[j]!.slice(-200);
  }
  return "";
}

/** True when the text has one of the European markers: a common word of those languages, `¿`, `¡` or an accent. */
export function hasEuropeanMarker(text: string): boolean {
  return EUROPEAN.test(text);
}

/** True when a rule of this language runs on a text of these languages. */
export function runsFor(ruleLang: string, langs: ReadonlySet<string>): boolean {
  return ruleLang === "any" || ruleLang === "en" || langs.has(ruleLang);
}
