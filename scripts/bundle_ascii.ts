/**
 * Every chunk of the bundle made ASCII: each character outside ASCII in a comment, a string literal or a regular
 * expression literal is written as its `\uXXXX` escape (an astral one as its two surrogates), the same string and the
 * same pattern.
 *
 * Why: `deno bundle` escapes the characters of string literals, but leaves those of regular expression literals and
 * comments as they are, and one such character makes Deno hand V8 the whole module as a two-byte string. Loading a
 * chunk then costs more per byte: the stop hook's transcript and analysis chunk (124 KB, eleven lines with a character
 * outside ASCII) loaded in 6.3-7.7 ms instead of 5.2-5.5 here, and a process importing the stop's modules had about 90
 * more page faults (docs/performance.md, the twelfth pass).
 *
 * What it changes is how the characters are written, and no more:
 * - in a string literal, `\uXXXX` is the character; in a regular expression literal it matches the character, with
 *   or without `u` or `v` (an astral character is two code units without them and one code point with them, and so is
 *   the escaped pair), and names a group as the character does;
 * - a character already escaped by a backslash (`\é`: the character itself, in a string or a pattern without `u`) is
 *   replaced together with that backslash, except a line separator (U+2028, U+2029) after one in a string, a line
 *   continuation, which becomes a backslash and a line feed (a continuation still);
 * - in a comment, a line separator becomes a line feed (a line end either way, which automatic semicolon insertion
 *   reads in a block comment too), and any other character its escape; a backslash there is text.
 *
 * A character outside ASCII anywhere else (an identifier, a template literal, whose raw text a tag can read, a
 * hashbang) leaves that chunk as it is; the result names it. The source is parsed with acorn, so that a `/` is read
 * as a division or a pattern as the runtime reads it; a chunk it cannot parse is an error, and then no chunk is
 * rewritten.
 */
import { parse, type Token } from "acorn";
import { readChunks, writeChunks } from "./bundle_eager.ts";

/** A chunk's source with every character outside ASCII escaped, or why it cannot be. */
export type AsciiResult = { source: string; escaped: number } | { error: string };

/** A UTF-16 unit outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/** Whether every UTF-16 unit of `text` is ASCII. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** `\uXXXX` of one UTF-16 unit. */
function escapeUnit(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

type RangeKind = "comment" | "string" | "regexp";

interface Range {
  start: number;
  end: number;
  kind: RangeKind;
}

function isLineSeparator(code: number): boolean {
  return code === 0x2028 || code === 0x2029;
}

/**
 * The text of a token or comment with its characters outside ASCII escaped (see the module comment). In a string or
 * pattern, a backslash that escaped the character (an odd run of backslashes before it) goes with it, since `\é` is
 * `é` (and `\🚀` without `u` is its high surrogate escaped, then the low one).
 */
function escapeRange(text: string, kind: RangeKind): { text: string; escaped: number } {
  let out = "";
  let escaped = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    let slashes = 0;
    if (kind !== "comment") {
      while (i - 1 - slashes >= from && text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
    }
    const afterEscape = slashes % 2 === 1;
    if (isLineSeparator(code) && (kind === "comment" || afterEscape)) {
      // a line end in a comment, a line continuation in a string: a line feed is both, as the separator was
      out += text.slice(from, i) + "\n";
    } else {
      // an astral character's two units come one at a time: `\uD83D\uDE80`, the same pair
      out += text.slice(from, afterEscape ? i - 1 : i) + escapeUnit(code);
    }
    escaped++;
    from = i + 1;
  }
  return { text: out + text.slice(from), escaped };
}

/** The ranges of a module's comments, string literals and regular expression literals, in source order. */
function escapableRanges(source: string): Range[] {
  const ranges: Range[] = [];
  parse(source, {
    ecmaVersion: "latest",
    sourceType: "module",
    allowHashBang: true,
    onComment: (_block: boolean, _text: string, start: number, end: number) => {
      // a hashbang is reported as a comment, but the runtime reads it before the module's text: left as it is
      if (!(start === 0 && source.startsWith("#!"))) ranges.push({ start, end, kind: "comment" });
    },
    onToken: (token: Token) => {
      const label = token.type.label;
      if (label === "string" || label === "regexp") ranges.push({ start: token.start, end: token.end, kind: label });
    },
  });
  return ranges.sort((a, b) => a.start - b.start);
}

/** One chunk made ASCII (see the module comment); a chunk that is already ASCII comes back as it is. */
export function asciiChunk(source: string): AsciiResult {
  if (isAscii(source)) return { source, escaped: 0 };
  let out = "";
  let escaped = 0;
  let from = 0;
  for (const range of escapableRanges(source)) {
    const before = source.slice(from, range.start);
    if (!isAscii(before)) return { error: outsideMessage(source, from) };
    const piece = escapeRange(source.slice(range.start, range.end), range.kind);
    out += before + piece.text;
    escaped += piece.escaped;
    from = range.end;
  }
  const rest = source.slice(from);
  if (!isAscii(rest)) return { error: outsideMessage(source, from) };
  return { source: out + rest, escaped };
}

function outsideMessage(source: string, from: number): string {
  const at = source.slice(from).search(NON_ASCII) + from;
  const line = source.slice(0, at).split("\n").length;
  return `line ${line}: a character outside ASCII outside a comment, string or regular expression literal`;
}

/**
 * Makes every `.js` chunk in the bundle folder `dir` ASCII, each through a temp file and a rename. Chunks that cannot
 * be made ASCII are left as they are and listed.
 */
export async function makeBundleAscii(
  dir: string,
): Promise<{ chunks: number; escaped: number; left: { chunk: string; why: string }[] }> {
  const rewrites: [string, string][] = [];
  const left: { chunk: string; why: string }[] = [];
  let escaped = 0;
  for (const [name, source] of await readChunks(dir)) {
    const result = asciiChunk(source);
    if ("error" in result) left.push({ chunk: name, why: result.error });
    else if (result.escaped > 0) {
      rewrites.push([name, result.source]);
      escaped += result.escaped;
    }
  }
  await writeChunks(dir, rewrites, "ascii");
  return { chunks: rewrites.length, escaped, left };
}
