/**
 * Accents a writer may leave out. People often type without accents or umlauts ("proximo paso", "naechster
 * Schritt", "a verifier"), so a pattern's accented letter also matches its plain letter (`ó` as `[óo]`), and German's
 * umlauts and `ß` their usual spellings too (`ä` as `(?:ä|ae|a)`, `ß` as `(?:ß|ss)`, `œ` as `(?:œ|oe)`). Only in
 * words of four letters or more: a short word without its accent is often another word (Italian `è` "is" and `e`
 * "and", Portuguese `já` and `ja`), and a pattern's short words stay as written. Character classes are left as they
 * are (they list what they take), and so are escapes. A pattern with no letter from U+00C0 up comes back unchanged.
 */

/** The umlauts, `ß` and `œ`: more than one spelling without the mark. */
const SPELLINGS: Readonly<Record<string, string>> = {
  "ä": "(?:ä|ae|a)",
  "ö": "(?:ö|oe|o)",
  "ü": "(?:ü|ue|u)",
  "Ä": "(?:Ä|AE|A)",
  "Ö": "(?:Ö|OE|O)",
  "Ü": "(?:Ü|UE|U)",
  "ß": "(?:ß|ss)",
  "œ": "(?:œ|oe)",
  "Œ": "(?:Œ|OE)",
};

/** Words shorter than this keep their accents. */
export const MIN_WORD_LETTERS = 4;

const ACCENTED = /[\u00c0-\u024f]/;

/** A letter, for telling where a word of the pattern starts and ends: ASCII, or a letter from U+00C0 up. */
function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 0xc0 && code !== 0xd7 && code !== 0xf7);
}

/** The pattern source with each accented letter of a long enough word also taking its plain spelling. */
export function tolerateAccents(source: string): string {
  if (!ACCENTED.test(source)) return source;
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const code = c.charCodeAt(0);
    if (c === "\\") {
      out += c + (source[i + 1] ?? "");
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c;
    } else if (c === "[") {
      inClass = true;
      out += c;
    } else if (code < 0xc0 || code > 0x24f || !isLetter(code) || wordLength(source, i) < MIN_WORD_LETTERS) {
      out += c;
    } else out += plainSpellings(c);
  }
  return out;
}

/** The letters of the word around `at`, not counting across an escape (`\s`, `\b`) or any other non-letter. */
function wordLength(source: string, at: number): number {
  let start = at;
  while (start > 0 && isLetter(source.charCodeAt(start - 1)) && source[start - 2] !== "\\") start--;
  let end = at + 1;
  while (end < source.length && isLetter(source.charCodeAt(end))) end++;
  return end - start;
}

/** `c` and its spellings without the mark, as a class or a group; `c` itself when it has no plain letter. */
function plainSpellings(c: string): string {
  const spelled = SPELLINGS[c];
  if (spelled !== undefined) return spelled;
  const base = c.normalize("NFD")[0]!;
  return base !== c && /^[A-Za-z]$/.test(base) ? `[${c}${base}]` : c;
}
