/**
 * Which languages' rules a message can need. A rule is compiled the first time it runs, so running only the rules
 * of the languages a message is written in keeps the hook's start small: an English report never compiles the
 * Japanese or German patterns. The check errs towards running more: CJK rules run whenever the script appears;
 * the Spanish, German, French and Portuguese rules run unless the text reads as English and has none of their
 * common words. Rules with lang `en` or `any` always run.
 */

const KANA = /[\u3040-\u30ff]/;
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
/** Common English words; three or more (whole words) make the text read as English. */
const ENGLISH = /(?<![A-Za-z])(?:the|and|to|is|are|it|this|that|with|for|of|you|I|in|on|was|be|have|not)(?![A-Za-z])/g;
/** Words common in Spanish, German, French or Portuguese and rare in English prose; `¿`, `¡`, `ñ`, `ß`, accents. */
const EUROPEAN =
  /[¿¡ñßãõçœ]|[a-zà-ÿ]*[áéíóúàèìòùâêîôûäöüë][a-zà-ÿ]*|(?<![A-Za-zÀ-ÿ])(?:que|los|las|el|una|pero|para|con|está|ya|muy|puedo|quieres|und|der|die|das|ist|nicht|ich|mit|auch|soll|noch|les|des|est|pour|avec|je|pas|vous|une|dans|não|os|uma|com|você|posso|quer|eu)(?![A-Za-zÀ-ÿ])/i;

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
  ENGLISH.lastIndex = 0;
  let english = 0;
  while (english < 3 && ENGLISH.exec(sample) !== null) english++;
  if (english < 3 || EUROPEAN.test(sample)) { for (const lang of ["es", "de", "fr", "pt"]) langs.add(lang); }
  return langs;
}

/** True when a rule of this language runs on a text of these languages. */
export function runsFor(ruleLang: string, langs: ReadonlySet<string>): boolean {
  return ruleLang === "any" || ruleLang === "en" || langs.has(ruleLang);
}
