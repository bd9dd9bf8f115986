/**
 * Which languages' rules a message can need. A rule is compiled the first time it runs, so running only the rules
 * of the languages a message is written in keeps the hook's start small: an English report never compiles the
 * Japanese or German patterns. The check errs towards running more: CJK, Cyrillic and Hangul rules run whenever
 * the script appears; the Spanish, German, French, Portuguese, Italian and Dutch rules run when the text has one of
 * their common words or letters, or when it is in Latin script only and does not read as English. A text in another
 * script without any of those words (a Japanese report) does not run them. Rules with lang `en` or `any` always run.
 */

const KANA = /[\u3040-\u30ff]/;
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
const CYRILLIC = /[\u0400-\u04ff]/;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;
/** The languages of Latin script whose rules run together when a text may be in one of them. */
const EUROPEAN_LANGS = ["es", "de", "fr", "pt", "it", "nl"] as const;
/** Common English words; three or more (whole words) make the text read as English. */
const ENGLISH = /(?<![A-Za-z])(?:the|and|to|is|are|it|this|that|with|for|of|you|I|in|on|was|be|have|not)(?![A-Za-z])/g;
/**
 * Words common in Spanish, German, French, Portuguese, Italian or Dutch and rare in English prose; `¿`, `¡`, `ñ`, `ß`,
 * accents.
 */
const EUROPEAN =
  /[¿¡ñßãõçœ]|[a-zà-ÿ]*[áéíóúàèìòùâêîôûäöüë][a-zà-ÿ]*|(?<![A-Za-zÀ-ÿ])(?:que|los|las|el|una|pero|para|con|está|ya|muy|puedo|quieres|und|der|die|das|ist|nicht|ich|mit|auch|soll|noch|les|des|est|pour|avec|je|pas|vous|une|dans|não|os|uma|com|você|posso|quer|eu|che|sono|anche|vuoi|della|questo|questa|gli|ancora|fatto|het|een|ik|niet|ook|wil|nog|wel|maar|zijn|naar|kun|jij|deze)(?![A-Za-zÀ-ÿ])/i;

/** The languages of rules worth running on this text (besides `en` and `any`). */
export function languagesOf(text: string): ReadonlySet<string> {
  const langs = new Set<string>();
  const sample = text.length > 8000 ? text.slice(-8000) : text;
  if (KANA.test(sample)) langs.add("ja");
  if (HAN.test(sample)) {
    langs.add("zh-Hans");
    langs.add("zh-Hant");
    langs.add("ja");
  }
  if (CYRILLIC.test(sample)) langs.add("ru");
  if (HANGUL.test(sample)) langs.add("ko");
  if (EUROPEAN.test(sample) || (langs.size === 0 && !readsAsEnglish(sample))) {
    for (const lang of EUROPEAN_LANGS) langs.add(lang);
  }
  return langs;
}

/** Three or more common English words. */
function readsAsEnglish(text: string): boolean {
  ENGLISH.lastIndex = 0;
  let english = 0;
  while (english < 3 && ENGLISH.exec(text) !== null) english++;
  return english >= 3;
}

/** True when a rule of this language runs on a text of these languages. */
export function runsFor(ruleLang: string, langs: ReadonlySet<string>): boolean {
  return ruleLang === "any" || ruleLang === "en" || langs.has(ruleLang);
}
