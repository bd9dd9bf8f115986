/**
 * Minimal text edits on a parsed JSONC document: add a member at the end of an object or array, remove one,
 * replace one value. Every byte outside the edited member stays as it was, comments included: a member on
 * its own lines is added or removed as whole lines, one-line containers stay on one line, and a trailing
 * comma style is kept. (jsonc-parser's `modify` re-formats the neighbouring lines and can drop their
 * comments, so only its parser, scanner and `applyEdits` are used.)
 */
import type { Edit, Node } from "jsonc-parser";
import {
  commaAfter,
  lineEnd,
  lineIndent,
  lineStart,
  nextLineStart,
  renderInline,
  renderValue,
  restOfLineIsTrivia,
  startsLine,
  type TextFormat,
} from "./jsonc_format.ts";

/** A new member: a property (with `key`) for objects, an element for arrays. */
export interface NewMember {
  key?: string;
  value: unknown;
}

/** Edits that append `member` to the object or array `container`. */
export function insertMember(text: string, container: Node, member: NewMember, format: TextFormat): Edit[] {
  const prefix = member.key === undefined ? "" : `${JSON.stringify(member.key)}: `;
  const render = (base: string) => prefix + renderValue(member.value, base, format);
  const { eol } = format;
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const children = container.children ?? [];
  const last = children[children.length - 1];

  if (!last) {
    const base = lineIndent(text, open);
    const inner = base + format.indent;
    if (/^\s*$/.test(text.slice(open + 1, close))) {
      return [{ offset: open + 1, length: close - open - 1, content: eol + inner + render(inner) + eol + base }];
    }
    // Only comments inside: the member goes on its own line just before the closing bracket.
    if (startsLine(text, close)) {
      return [{ offset: lineStart(text, close), length: 0, content: inner + render(inner) + eol }];
    }
    return [{ offset: close, length: 0, content: eol + inner + render(inner) + eol + base }];
  }

  const lastEnd = last.offset + last.length;
  const comma = commaAfter(text, lastEnd);
  if (!startsLine(text, last.offset)) {
    return [{ offset: lastEnd, length: 0, content: `, ${prefix}${renderInline(member.value)}` }];
  }
  const base = lineIndent(text, last.offset);
  const anchor = comma === null ? lastEnd : comma + 1;
  const trailing = comma === null ? "" : ",";
  const line = eol + base + render(base) + trailing;
  if (restOfLineIsTrivia(text, anchor)) {
    // Keep a comment that ends the last member's line with that member.
    const at = lineEnd(text, anchor);
    if (comma !== null) return [{ offset: at, length: 0, content: line }];
    if (at === lastEnd) return [{ offset: at, length: 0, content: "," + line }];
    return [{ offset: lastEnd, length: 0, content: "," }, { offset: at, length: 0, content: line }];
  }
  return [{ offset: anchor, length: 0, content: (comma === null ? "," : "") + line }];
}

/** Edits that remove member `index` of `container` with its separator, as whole lines when it has its own. */
export function removeMember(text: string, container: Node, index: number): Edit[] {
  const children = container.children ?? [];
  const node = children[index];
  if (!node) throw new RangeError(`Cannot remove member ${index}: the container has ${children.length}`);
  const start = node.offset;
  const end = node.offset + node.length;
  const comma = commaAfter(text, end);
  const removeEnd = comma === null ? end : comma + 1;
  const open = container.offset;
  const close = container.offset + container.length - 1;
  if (children.length === 1 && /^\s*$/.test(text.slice(open + 1, start) + text.slice(removeEnd, close))) {
    // Nothing but blanks would be left: close up to `{}` / `[]`.
    return [{ offset: open + 1, length: close - open - 1, content: "" }];
  }
  const edits: Edit[] = [];
  let removeStart = start;

  const previous = children[index - 1];
  if (comma === null && previous) {
    // The last member: the comma after the previous member goes too.
    const previousComma = commaAfter(text, previous.offset + previous.length);
    if (previousComma !== null) {
      if (!startsLine(text, start) && /^\s*$/.test(text.slice(previousComma + 1, start))) removeStart = previousComma;
      else edits.push({ offset: previousComma, length: 1, content: "" });
    }
  }

  if (removeStart === start && startsLine(text, start) && restOfLineIsTrivia(text, removeEnd)) {
    const from = lineStart(text, start);
    edits.push({ offset: from, length: nextLineStart(text, removeEnd) - from, content: "" });
  } else {
    let from = removeStart;
    let to = removeEnd;
    if (comma !== null) { while (text[to] === " " || text[to] === "\t") to++; }
    if (to === close) {
      // A trailing comma before the closing bracket: drop the blanks before the member instead.
      to = removeEnd;
      while (text[from - 1] === " " || text[from - 1] === "\t") from--;
    }
    edits.push({ offset: from, length: to - from, content: "" });
  }
  return edits;
}

/** An edit that replaces the value `node`, on one line if the old value was on one line. */
export function replaceValue(text: string, node: Node, value: unknown, format: TextFormat): Edit {
  const old = text.slice(node.offset, node.offset + node.length);
  const content = old.includes("\n") ? renderValue(value, lineIndent(text, node.offset), format) : renderInline(value);
  return { offset: node.offset, length: node.length, content };
}
