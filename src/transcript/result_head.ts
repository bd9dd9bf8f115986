/**
 * Tells a tool result line from its head, without parsing the line: the reader's first pass over a long transcript
 * leaves such lines unparsed in the turns before the last one (see transcript_reader.ts, "Old tool results").
 *
 * Claude Code writes a tool result line as one JSON object whose keys before `message` hold short values, `type`
 * among them, and whose message starts with its content's first block:
 *
 *   {"parentUuid":"…","isSidechain":false,"promptId":"…","type":"user","message":{"role":"user",
 *    "content":[{"tool_use_id":"toolu_…","type":"tool_result","content":…
 *
 * isToolResultHead reads the line that far, token by token, and says yes only when it has seen, outside every
 * string, a top-level `"type":"user"` before `"message"`, and in the message's content a first block with a string
 * `tool_use_id` and `"type":"tool_result"`. Such a line, if it parses at all, is one that classifyLine turns into
 * tool results (or ignores, as a skipped sidechain line): its first block is a valid tool_result block, so the
 * line's results are not empty. This rests on one thing the head cannot show: that no key is written twice (a later
 * `"type"` would win in JSON.parse). A line Claude Code writes is a JavaScript object through JSON.stringify, which
 * never repeats a key. Any other shape (whitespace, a key with an escape, another key order, a number or an object
 * before `message`, a head cut before the block's type) answers no, and the line is parsed as before.
 */

const QUOTE = 34; // "
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;

/**
 * How much of a line the reader decodes for the check when the line comes as bytes (a long one): in 2.1.328 the
 * block's type is within its first 400 bytes. A character cut at the end becomes U+FFFD in a string the check then
 * finds cut, so it answers no.
 */
export const RESULT_HEAD_BYTES = 1024;

/** The text being read, and where its next backslash is at or after the point reached (-1: none). */
interface Head {
  text: string;
  slash: number;
}

/** A string token read at `at` (a `"`): its end (just past the closing quote), and its text when it has no escape. */
interface StringToken {
  end: number;
  /** The string's characters, or null when it holds an escape (such a key or value is never one the check needs). */
  plain: string | null;
}

function readString(head: Head, at: number): StringToken | null {
  const text = head.text;
  if (text.charCodeAt(at) !== QUOTE) return null;
  const close = text.indexOf('"', at + 1);
  if (close === -1) return null; // cut before its end
  // the points read only move on, so each backslash is searched for once
  if (head.slash !== -1 && head.slash <= at) head.slash = text.indexOf("\\", at + 1);
  // no backslash before the first quote: that quote ends the string, which has no escape (most strings here)
  if (head.slash === -1 || head.slash > close) return { end: close + 1, plain: text.slice(at + 1, close) };
  for (let i = head.slash; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++; // the escaped character (a `\u` escape's digits are plain characters)
    else if (c === QUOTE) return { end: i + 1, plain: null };
  }
  return null;
}

const LITERALS = ["true", "false", "null"] as const;

/** A short value at `at`: a string, true, false or null (plain null but for a string). Anything else is null. */
function skipShortValue(head: Head, at: number): StringToken | null {
  if (head.text.charCodeAt(at) === QUOTE) return readString(head, at);
  for (const literal of LITERALS) {
    if (head.text.startsWith(literal, at)) return { end: at + literal.length, plain: null };
  }
  return null;
}

/** What a member's key and value tell membersOf: read on, stop here (the head is what was wanted), or fail. */
type Verdict = "on" | "done" | "fail";

/**
 * Reads the members of an object from `at` (just past its `{`) while their values are short, asking `seen` about
 * each, until the key `until` (returns the position just past its `:`, whatever its value) or "done". Null when the
 * head goes any other way: `seen` fails, the object ends, a value is not short, a key has an escape, the text is cut.
 */
function membersOf(
  head: Head,
  at: number,
  until: string | null,
  seen: (key: string, value: string | null) => Verdict,
): number | "done" | null {
  const text = head.text;
  let pos = at;
  for (;;) {
    const key = readString(head, pos);
    if (key === null || key.plain === null || text.charCodeAt(key.end) !== COLON) return null;
    if (key.plain === until) return key.end + 1;
    const value = skipShortValue(head, key.end + 1);
    if (value === null) return null;
    const verdict = seen(key.plain, value.plain);
    if (verdict !== "on") return verdict === "done" ? "done" : null;
    if (text.charCodeAt(value.end) !== COMMA) return null;
    pos = value.end + 1;
  }
}

/** Whether the line's head is that of a tool result line (see the module comment). `text` may be only its head. */
export function isToolResultHead(text: string): boolean {
  if (text.charCodeAt(0) !== OPEN_BRACE) return false;
  const head: Head = { text, slash: 0 };
  let typeUser = false;
  const message = membersOf(head, 1, "message", (key, value) => {
    if (key !== "type") return "on";
    typeUser = value === "user";
    return typeUser ? "on" : "fail";
  });
  if (typeof message !== "number" || !typeUser || text.charCodeAt(message) !== OPEN_BRACE) return false;
  const content = membersOf(head, message + 1, "content", () => "on");
  if (typeof content !== "number" || text.charCodeAt(content) !== OPEN_BRACKET) return false;
  if (text.charCodeAt(content + 1) !== OPEN_BRACE) return false;
  let id = false;
  let result = false;
  // the first block's members, up to the point both are seen: the block's own content is never read
  const block = membersOf(head, content + 2, null, (key, value) => {
    if (key === "tool_use_id") {
      if (value === null) return "fail"; // not a plain string: a literal, or a string with an escape
      id = true;
    } else if (key === "type") {
      if (value !== "tool_result") return "fail";
      result = true;
    }
    return id && result ? "done" : "on";
  });
  return block === "done";
}
