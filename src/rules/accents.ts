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

/**
 * Everything up to the next accented letter that stands outside a character class: escapes (`\s`, `\u00e9`) and
 * classes are taken whole, natively, so the loop below runs once for each such letter, not for each character.
 */
const TO_NEXT_ACCENT = /(?:\\[^]|\[(?:\\[^]|[^\\\]])*\]|[^\\[\u00c0-\u024f])*/y;

/** The pattern source with each accented letter of a long enough word also taking its plain spelling. */
export function tolerateAccents(source: string): string {
  if (!ACCENTED.test(source)) return source;
  let out = "";
  let at = 0;
  while (at < source.length) {
    TO_NEXT_ACCENT.lastIndex = at;
    TO_NEXT_ACCENT.exec(source);
    const accent = TO_NEXT_ACCENT.lastIndex;
    if (accent >= source.length || !ACCENTED.test(source[accent]!)) {
      // the rest has none outside a class (or an unclosed class runs to the end)
      out += source.slice(at);
      break;
    }
    // the word around it: letters, not counting an escape's letter (`\s` in `\sété`)
    let start = accent;
    while (start > at && isLetter(source.charCodeAt(start - 1)) && source[start - 2] !== "\\") start--;
    let end = accent + 1;
    while (end < source.length && isLetter(source.charCodeAt(end))) end++;
    out += source.slice(at, start);
    const word = source.slice(start, end);
    if (word.length < MIN_WORD_LETTERS) out += word;
    else for (const c of word) out += c.charCodeAt(0) < 0xc0 ? c : plainSpellings(c);
    at = end;
  }
  return out;
}

/** A letter, for telling where a word of the pattern starts and ends: ASCII, or a letter from U+00C0 up. */
function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 0xc0 && code !== 0xd7 && code !== 0xf7);
}

const spellings = new Map<string, string>();

/** `c` and its spellings without the mark, as a class or a group; `c` itself when it has no plain letter. */
function plainSpellings(c: string): string {
  let spelled = spellings.get(c);
  if (spelled === undefined) {
    const base = c.normalize("NFD")[0]!;
    spelled = SPELLINGS[c] ?? (base !== c && /^[A-Za-z]$/.test(base) ? `[${c}${base}]` : c);
    spellings.set(c, spelled);
  }
  return spelled;
}
