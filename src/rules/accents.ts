/**
 * Accents a writer may leave out. People often type without accents or umlauts ("prochaine etape", "naechstes",
 * "migracion"), so a pattern's accented letter also matches its plain letter (`ó` as `[óo]`), an umlaut its spelling
 * with `e` (`ä` as `(?:ä|ae)`), `ß` as `ss` and `œ` as `oe`. Not everywhere, because without its accent a word is
 * often another word:
 * - a word of three letters or fewer keeps its accents (Italian `è` "is" and `e` "and", Portuguese `já` and `ja`);
 * - a word's last letter keeps its accent, which in these languages often marks a tense or a person (Spanish `probé`
 *   "I tested" and `probe` "that I test", `está` and `esta`); a final `ß` still takes `ss`;
 * - an umlaut is not read as its bare vowel (German `könnte` "could" and `konnte` "was able to", `würde` and `wurde`).
 * Character classes, escapes and group names are taken as written, and so is a word split by a group (`permiss(?:ão|ões)`).
 * A negative lookaround with an accented word excludes its plain spelling too. To keep a letter as written, put it in a
 * class (`[é]`) or escape it (`\u00e9`).
 */

/** The umlauts, `ß` and `œ`: a spelling of more than one letter. */
const SPELLINGS: Readonly<Record<string, string>> = {
  "ä": "(?:ä|ae)",
  "ö": "(?:ö|oe)",
  "ü": "(?:ü|ue)",
  "Ä": "(?:Ä|AE)",
  "Ö": "(?:Ö|OE)",
  "Ü": "(?:Ü|UE)",
  "ß": "(?:ß|ss)",
  "œ": "(?:œ|oe)",
  "Œ": "(?:Œ|OE)",
};

/**
 * The plain letter of each code point from U+00C0 to U+024F, `-` for none: the first letter of its canonical
 * decomposition (NFD) when that is an ASCII letter. accents_test.ts holds it equal to `normalize("NFD")`, which a new
 * process would take 0.3-0.5 ms to start.
 */
export const PLAIN_LETTERS =
  "AAAAAA-CEEEEIIII-NOOOOO--UUUUY--aaaaaa-ceeeeiiii-nooooo--uuuuy-yAaAaAaCcCcCcCcDd--EeEeEeEeEe" +
  "GgGgGgGgHh--IiIiIiIiI---JjKk-LlLlLl----NnNnNn---OoOoOo--RrRrRrSsSsSsSsTtTt--UuUuUuUuUuUuWwYyYZzZzZz-------------" +
  "--------------------Oo-------------Uu----------------------------AaIiOoUuUuUuUuUu-AaAa----GgKkOoOo--j---Gg--NnAa" +
  "----AaAaEeEeIiIiOoOoRrRrUuUuSsTt--Hh------AaEeOoOoOoOoYy----------------------------";

/** Words shorter than this keep their accents. */
export const MIN_WORD_LETTERS = 4;

const ACCENTED = /[\u00c0-\u024f]/;

/**
 * Everything up to the next accented letter that stands outside a character class: escapes (`\s`, `\u00e9`), group
 * names (`(?<name>`, `\k<name>`) and classes are taken whole, natively, so the loop below runs once for each such
 * letter, not for each character.
 */
const TO_NEXT_ACCENT =
  /(?:\\k<[^>]*>|\(\?<(?![=!])[^>]*>|\\[^]|\[(?:\\[^]|[^\\\]])*\]|[^\\[(\u00c0-\u024f]|\((?!\?<(?![=!])))*/y;

/** The pattern source with each accented letter of a long enough word (but its last) also taking its plain spelling. */
export function tolerateAccents(source: string): string {
  if (!ACCENTED.test(source)) return source;
  let out = "";
  let at = 0;
  while (at < source.length) {
    TO_NEXT_ACCENT.lastIndex = at;
    TO_NEXT_ACCENT.exec(source);
    const accent = TO_NEXT_ACCENT.lastIndex;
    if (accent >= source.length || !ACCENTED.test(source[accent]!)) {
      // the rest has none outside a class or a name (or an unclosed class or name runs to the end)
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
    else {
      for (let i = 0; i < word.length; i++) {
        const c = word[i]!;
        const last = i === word.length - 1 && SPELLINGS[c] === undefined;
        out += last || c.charCodeAt(0) < 0xc0 ? c : plainSpellings(c);
      }
    }
    at = end;
  }
  return out;
}

/** A letter, for telling where a word of the pattern starts and ends: ASCII, or a letter from U+00C0 to U+024F. */
function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7);
}

/** `c` and its spellings without the mark, as a class or a group; `c` itself when it has no plain letter. */
function plainSpellings(c: string): string {
  const spelled = SPELLINGS[c];
  if (spelled !== undefined) return spelled;
  const plain = PLAIN_LETTERS[c.charCodeAt(0) - 0xc0];
  return plain === undefined || plain === "-" ? c : `[${c}${plain}]`;
}
