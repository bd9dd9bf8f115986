/**
 * Every chunk of the bundle made ASCII: each character outside ASCII in a comment, a string literal or a regular
 * expression literal is written as its `\uXXXX` escape (an astral one as its two surrogates), the same string and the
 * same pattern.
 *
 * Why: `deno bundle` escapes the characters of string literals, but leaves those of regular expression literals and
 * comments as they are, and one such character makes Deno hand V8 the whole module as a two-byte string. Loading a
 * chunk then costs about twice as much per byte: the stop hook's transcript and analysis chunk (124 KB, eleven lines
 * with a character outside ASCII) loaded in 6.3-7.7 ms instead of 5.2-5.5 here, and touched about 90 more memory pages
 * (docs/performance.md, the twelfth pass).
 *
 * What it changes is what the escapes mean, and no more:
 * - in a string literal, `\uXXXX` is the character; in a regular expression literal it matches the character, with
 *   or without `u` (an astral character is two code units without `u` and one code point with it, and so is the
 *   escaped pair);
 * - a character already escaped by a backslash (`\é`: the character itself, in a string or a pattern without `u`)
 *   is replaced together with that backslash;
 * - a comment is not code.
 *
 * A character outside ASCII anywhere else (an identifier, a template literal, whose raw text a tag can read) leaves
 * that chunk as it is; the result names it. The source is tokenized with acorn; a chunk it cannot tokenize is an
 * error, and then no chunk is rewritten.
 */
import { type Token, tokenizer } from "acorn";
import { writeChunks } from "./bundle_eager.ts";

/** A chunk's source with every character outside ASCII escaped, or why it cannot be. */
export type AsciiResult = { source: string; escaped: number } | { error: string };

/** Whether every UTF-16 unit of `text` is ASCII. */
export function isAscii(text: string): boolean {
  return !/[^\x00-\x7f]/.test(text);
}

/** `\uXXXX` of one UTF-16 unit. */
function escapeUnit(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * The text of a token or comment with its characters outside ASCII escaped: each UTF-16 unit becomes `\uXXXX`, and a
 * backslash that escaped the character (an odd run of backslashes before it) is dropped, since `\é` is `é` (and `\🚀`
 * without `u` is its high surrogate escaped, then the low one).
 */
function escapeRange(text: string): { text: string; escaped: number } {
  let out = "";
  let escaped = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    let slashes = 0;
    while (i - 1 - slashes >= from && text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
    // an astral character's two units come one at a time: `\uD83D\uDE80`, the same pair
    out += text.slice(from, slashes % 2 === 1 ? i - 1 : i) + escapeUnit(code);
    escaped++;
    from = i + 1;
  }
  return { text: out + text.slice(from), escaped };
}

/** The ranges of a module's comments, string literals and regular expression literals, in source order. */
function escapableRanges(source: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  const tokens = tokenizer(source, {
    ecmaVersion: "latest",
    sourceType: "module",
    onComment: (_block, _text, start, end) => ranges.push({ start, end }),
  });
  for (const token of tokens as Iterable<Token>) {
    if (token.type.label === "string" || token.type.label === "regexp") {
      ranges.push({ start: token.start, end: token.end });
    }
  }
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
    const piece = escapeRange(source.slice(range.start, range.end));
    out += before + piece.text;
    escaped += piece.escaped;
    from = range.end;
  }
  const rest = source.slice(from);
  if (!isAscii(rest)) return { error: outsideMessage(source, from) };
  return { source: out + rest, escaped };
}

function outsideMessage(source: string, from: number): string {
  const at = source.slice(from).search(/[^\x00-\x7f]/) + from;
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
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isFile && e.name.endsWith(".js")) names.push(e.name);
  for (const name of names.sort()) {
    const source = await Deno.readTextFile(`${dir}/${name}`);
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
