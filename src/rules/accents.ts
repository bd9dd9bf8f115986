/**
 * Accents a writer may leave out. People often type without accents or umlauts ("prochaine etape", "naechstes",
 * "migracion"), so a pattern's accented letter also matches its plain letter (`ó` as `[óo]`), an umlaut its spelling
 * with `e` (`ä` as `(?:ä|ae)`), `ß` as `ss` and `œ` as `oe`. Not everywhere, because without its accent a word is
 * often another word:
 * - a word of three letters or fewer keeps its accents (Italian `è` "is" and `e` "and", Portuguese `já` and `ja`);
 * - a word's last letter keeps its accent, which in these languages often marks a tense or a person (Spanish `probé`
 *   "I tested" and `probe` "that I test", `está` and `esta`); a final `ß` still takes `ss`;
 * - an umlaut is not read as its bare vowel (German `könnte` "could" and `konnte` "was able to", `würde` and `wurde`).
 * Those two limits are for the six languages' letters. A letter only the sixteen `mul` languages write (Polish `ę ą ł`,
 * Czech `ě ř ů`, Romanian `ă ș ț`, Turkish `ı ş ğ`, Hungarian `ő ű`, Vietnamese `đ ơ ư ĩ ũ` and its letters of U+1EA0-U+1EF9
 * such as `ể`, Greek vowels with a tonos or a dialytika such as `ώ`: MORE_ONLY, VIETNAMESE_PLAIN, GREEK_MARKED) also
 * matches its plain letter in a short word and as a word's last letter ("się" as "sie", "teď" as "ted", "să" as "sa",
 * "yapmadım" as "yapmadim", "zrobić" as "zrobic", "thể" as "the", "μπορώ" as "μπορω"), as people in those languages
 * type them, since no word of the six turns into another there; but a word's last `ę` marks the first person in Polish
 * ("zatrzymuję", "I stop"; "zatrzymuje", "it stops") and stays as written. In a word with a letter only Vietnamese
 * writes, its other accented letters are read so too ("đã" as "da"). `ł`, `ı` and `đ`, which have no canonical
 * decomposition, take `l`, `i` and `d`.
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
 * Letters only the sixteen `mul` languages write, none of the six (Spanish, German, French, Portuguese, Italian,
 * Dutch): read without their mark in every word and position.
 */
const MORE_ONLY = "ąćęłńśźżĄĆĘŁŃŚŹŻıİğĞşŞřŘůŮěĚťŤďĎňŇšŠčČžŽșȘțȚţŢăĂőŐűŰđĐơƠưƯĩĨũŨ";

/** Greek vowels with a tonos or a dialytika, and (at the same place in GREEK_PLAIN) the vowel without it. */
export const GREEK_MARKED = "ΆΈΉΊΌΎΏΐΪΫάέήίΰϊϋόύώ";
export const GREEK_PLAIN = "ΑΕΗΙΟΥΩιΙΥαεηιυιυουω";

/**
 * The plain letter of each code point from U+1EA0 to U+1EF9 (Vietnamese letters with a tone mark or two marks), as
 * PLAIN_LETTERS is for U+00C0 to U+024F.
 */
export const VIETNAMESE_PLAIN =
  "AaAaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIiIiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUuYyYyYyYy";

/**
 * Of MORE_ONLY, the last letters that mark a person: Polish `zatrzymuję` "I stop" and `zatrzymuje` "it stops", `piszę`
 * and `pisze`; kept as written at the end of a word of four letters or more and as a suffix alone (`[a-z]{3,}ę`), while
 * a short word still takes the plain letter (`się` as `sie`).
 */
const PERSON_MARKS = "ęĘ";

/** The plain letters of MORE_ONLY's letters that have no canonical decomposition. */
const MORE_PLAIN: Readonly<Record<string, string>> = { "ł": "l", "Ł": "L", "ı": "i", "İ": "I", "đ": "d", "Đ": "D" };

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

const ACCENTED = /[\u00c0-\u024f\u0386\u0388-\u038a\u038c\u038e-\u0390\u03aa-\u03b0\u03ca-\u03ce\u1ea0-\u1ef9]/;

/**
 * Everything up to the next accented letter that stands outside a character class: escapes (`\s`, `\u00e9`), group
 * names (`(?<name>`, `\k<name>`) and classes are taken whole, natively, so the loop below runs once for each such
 * letter, not for each character.
 */
const TO_NEXT_ACCENT =
  /(?:\\k<[^>]*>|\(\?<(?![=!])[^>]*>|\\[^]|\[(?:\\[^]|[^\\\]])*\]|[^\\[(\u00c0-\u024f\u0386\u0388-\u038a\u038c\u038e-\u0390\u03aa-\u03b0\u03ca-\u03ce\u1ea0-\u1ef9]|\((?!\?<(?![=!])))*/y;

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
    const short = word.length < MIN_WORD_LETTERS;
    // a Vietnamese word (`đã`, `được`): its letters the six write too are read without their marks as well
    const vietnamese = VIETNAMESE_WORD.test(word);
    for (let i = 0; i < word.length; i++) {
      const c = word[i]!;
      const more = vietnamese || readPlainAnywhere(c);
      const last = i === word.length - 1;
      // a person's mark ends a word of four letters or more, or is a suffix alone after a class (`[a-z]{3,}ę`)
      const personMark = last && PERSON_MARKS.includes(c) && (word.length === 1 || !short);
      const kept = personMark || (short ? !more : last && SPELLINGS[c] === undefined && !more);
      out += kept || c.charCodeAt(0) < 0xc0 ? c : plainSpellings(c);
    }
    at = end;
  }
  return out;
}

/**
 * A letter, for telling where a word of the pattern starts and ends: ASCII, a letter from U+00C0 to U+024F, a Greek
 * letter or a Vietnamese one of U+1EA0-U+1EF9.
 */
function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ||
    (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x386 && code <= 0x3ce && code !== 0x387) || (code >= 0x1ea0 && code <= 0x1ef9);
}

/** A letter only Vietnamese writes: `đ`, `ơ`, `ư`, `ĩ`, `ũ` and U+1EA0-U+1EF9. */
const VIETNAMESE_WORD = /[đĐơƠưƯĩĨũŨ\u1ea0-\u1ef9]/;

/** A letter only the sixteen `mul` languages write: read without its mark in a short word and at a word's end too. */
function readPlainAnywhere(c: string): boolean {
  const code = c.charCodeAt(0);
  return MORE_ONLY.includes(c) || GREEK_MARKED.includes(c) || (code >= 0x1ea0 && code <= 0x1ef9);
}

/** `c` and its spellings without the mark, as a class or a group; `c` itself when it has no plain letter. */
function plainSpellings(c: string): string {
  const spelled = SPELLINGS[c];
  if (spelled !== undefined) return spelled;
  const code = c.charCodeAt(0);
  const greek = GREEK_MARKED.indexOf(c);
  const plain = greek >= 0
    ? GREEK_PLAIN[greek]
    : code >= 0x1ea0
    ? VIETNAMESE_PLAIN[code - 0x1ea0]
    : MORE_PLAIN[c] ?? PLAIN_LETTERS[code - 0xc0];
  return plain === undefined || plain === "-" ? c : `[${c}${plain}]`;
}
