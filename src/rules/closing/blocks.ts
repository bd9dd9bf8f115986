/**
 * The final message read as Markdown structure: one linear pass over its lines that sorts them into blocks
 * (paragraphs, list items, headings, table rows, fenced code, block quotes). Only paragraphs, list items,
 * headings and table rows can be the agent's own prose; code and quotes are kept as blocks so that callers can
 * see they were there, but no rule reads them. Pure and linear in the text: each line is looked at once.
 */

export type BlockKind = "paragraph" | "item" | "heading" | "table" | "code" | "quote";

export interface Block {
  kind: BlockKind;
  /** The block's lines joined with "\n", markers removed (list bullets, `#`, `>`, table pipes kept as " | "). */
  text: string;
  /** For a list item: the text of the lead-in above its list (a heading or a line ending in ":"), or "". */
  lead: string;
  /** Offset of the block's first character in the message. */
  start: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)/;
const QUOTE = /^ {0,3}>/;
const ITEM = /^[ \t]*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
const TABLE = /^ {0,3}\|/;
const TABLE_RULE = /^[\s|:-]+$/;
/** A line that is only bold or italic text: used as a heading ("**Remaining**", "**Next steps:**"). */
const BOLD_LINE = /^ {0,3}(?:\*\*|__)[^*_\n]{1,120}(?:\*\*|__):?\s*$/;

/** Longest block text kept; the rest of a huge block is dropped (rules read sentences, not pages). */
export const MAX_BLOCK_CHARS = 8_000;

export function parseBlocks(message: string): Block[] {
  const blocks: Block[] = [];
  const lines = message.split(/\r\n|\r|\n|\u2028|\u2029/);
  const at: { current: Block | null } = { current: null };
  let offset = 0;
  let fence: { char: string; length: number } | null = null;

  const flush = () => {
    const block = at.current;
    at.current = null;
    if (block === null) return;
    if (block.kind !== "code" && block.kind !== "quote") block.text = block.text.trim();
    if (block.text !== "" || block.kind === "code") blocks.push(block);
  };
  const open = (kind: BlockKind, text: string, start: number, lead = "") => {
    flush();
    at.current = { kind, text: cap(text), lead, start };
  };
  const append = (text: string) => {
    const block = at.current;
    if (block !== null && block.text.length < MAX_BLOCK_CHARS) block.text = cap(`${block.text}\n${text}`);
  };

  for (const line of lines) {
    const start = offset;
    offset += line.length + 1;
    if (fence !== null) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && line.trim() === close[0].trim()) {
        fence = null;
        flush();
      } else {
        append(line);
      }
      continue;
    }
    const opened = FENCE.exec(line);
    if (opened) {
      fence = { char: opened[1]![0]!, length: opened[1]!.length };
      open("code", "", start);
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const current = at.current as Block | null;
    if (QUOTE.test(line)) {
      const text = line.replace(/^ {0,3}(?:>[ \t]?)+/, "");
      if (current?.kind === "quote") append(text);
      else open("quote", text, start);
      continue;
    }
    if (HEADING.test(line) || BOLD_LINE.test(line)) {
      open("heading", stripEmphasis(line.replace(HEADING, "")).replace(/[#\s]+$/, ""), start);
      flush();
      continue;
    }
    if (TABLE.test(line)) {
      if (TABLE_RULE.test(line)) continue;
      const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
      open("table", cells.join(" | "), start);
      flush();
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      open("item", line.slice(item[0].length), start, leadFor(current, blocks.at(-1)));
      continue;
    }
    if (current !== null && (current.kind === "paragraph" || current.kind === "item")) {
      append(line.trim());
      continue;
    }
    open("paragraph", line.trim(), start);
  }
  flush();
  return blocks;
}

/** The lead-in of a list item: the list's colon line or heading, carried from item to item. */
function leadFor(current: Block | null, last: Block | undefined): string {
  if (current?.kind === "item") return current.lead;
  const before = current ?? last;
  if (before === undefined) return "";
  if (before.kind === "item") return before.lead;
  if (before.kind === "heading") return before.text;
  if (before.kind === "paragraph" && /[:：]\s*$/.test(before.text.trim())) return before.text.trim();
  return "";
}

function cap(text: string): string {
  return text.length > MAX_BLOCK_CHARS ? text.slice(0, MAX_BLOCK_CHARS) : text;
}

function stripEmphasis(text: string): string {
  return text.replace(/\*\*|__/g, "").trim();
}

/**
 * The message with every fenced code block's lines (fences included) emptied, line breaks kept: what escape lines
 * are searched in, so that a `BLOCKED:` line inside a code sample is not an escape. Linear, one pass.
 */
export function withoutCode(message: string): string {
  if (!message.includes("```") && !message.includes("~~~")) return message;
  const lines = message.split("\n");
  let fence: { char: string; length: number } | null = null;
  for (const [i, line] of lines.entries()) {
    const mark = FENCE.exec(line);
    if (fence === null) {
      if (mark) {
        fence = { char: mark[1]![0]!, length: mark[1]!.length };
        lines[i] = "";
      }
      continue;
    }
    if (mark && mark[1]![0] === fence.char && mark[1]!.length >= fence.length && line.trim() === mark[0].trim()) {
      fence = null;
    }
    lines[i] = "";
  }
  return lines.join("\n");
}
