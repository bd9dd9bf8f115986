/**
 * The final message read as Markdown structure: one linear pass over its lines that sorts them into blocks
 * (paragraphs, list items, headings, table rows, fenced code, block quotes). Only paragraphs, list items,
 * headings and table rows can be the agent's own prose; code and quotes are kept as blocks so that callers can
 * see they were there, but no rule reads them. Pure and linear in the text: each line is looked at once.
 */

export type BlockKind = "paragraph" | "item" | "heading" | "table" | "code" | "quote";

export interface Block {
  kind: BlockKind;
  /**
   * The block's lines joined with "\n", markers removed (list bullets, `#`, `>`, table pipes kept as " | "). A
   * block longer than `MAX_BLOCK_CHARS` keeps its last characters: the end of a paragraph is its closing.
   */
  text: string;
  /** For a list item: the text of the lead-in above its list (a heading or a line ending in ":"), or "". */
  lead: string;
  /** Offset of the block's first character in the message. */
  start: number;
  /** Offset just after the block's last character in the message. */
  end: number;
}

export interface Line {
  text: string;
  /** Offset of the line's first character in the message. */
  start: number;
}

/** The message's lines, split at every line break Markdown knows (`\r\n`, `\r`, `\n`, U+2028, U+2029). */
export function splitLines(message: string): Line[] {
  const out: Line[] = [];
  const breaks = /\r\n|\r|\n|\u2028|\u2029/g;
  let start = 0;
  for (let found = breaks.exec(message); found !== null; found = breaks.exec(message)) {
    out.push({ text: message.slice(start, found.index), start });
    start = found.index + found[0].length;
  }
  out.push({ text: message.slice(start), start });
  return out;
}

export const HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)/;
export const QUOTE = /^ {0,3}>/;
export const ITEM = /^[ \t]*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
export const TABLE = /^ {0,3}\|/;
export const TABLE_RULE = /^[\s|:-]+$/;
/**
 * A line that is only bold text, used as a heading ("**Remaining**", "**Next steps:**"). A bold sentence that ends
 * in `?`, `.` or `!` is prose ("**Want me to add CI?**").
 */
export const BOLD_LINE = /^ {0,3}(?:\*\*|__)[^*_\n]{0,119}[^*_\n?？.。!！](?:\*\*|__):?\s*$/;
/**
 * A changed prompt: a row of a table with a column before and one after a change ("before | after", "current |
 * proposed", "old text | new text", "antes | después", "vorher | nachher", "変更前 | 変更後", "было | стало") in which
 * both cells are questions. Such a row quotes the copy of a prompt, a dialog or a bot reply as it was and as it is
 * ("| `reminder.prompt` | Set reminder? | Want me to remind you tomorrow? |"), so it is read as a block quote. Any other
 * row of such a table is the agent's own and is read: a migration table's "| Settings | old layout | not touched —
 * shall I go ahead with this one too? |" still asks.
 */
const BEFORE_CELL = changeColumnName(
  "before|old|original|previous|current|antes|vorher|alt|alter|altes|alte|старый|avant|ancien|prima|voor|было|変更前|旧|" +
    "修改前|이전|변경\\s*전",
  "before|old|current",
);
const AFTER_CELL = changeColumnName(
  "after|new|updated|proposed|despu[ée]s|nachher|neu|neuer|neues|neue|apr[èe]s|nouveau|depois|dopo|na|стало|новый|" +
    "変更後|新|修改后|修改後|이후|변경\\s*후",
  "after|new|proposed",
);

/**
 * A column name of one side of a change: one of `words`, alone or before a noun for copy ("old text", "neuer Text"), or
 * such a noun with one of `inParentheses` ("copy (before)"); a note in parentheses and a colon may follow.
 */
function changeColumnName(words: string, inParentheses: string): RegExp {
  const noun = "copy|text|wording|string|label|message|prompt";
  return new RegExp(
    `^(?:(?:${words})(?:\\s+(?:${noun}|texte|testo|tekst|texto|текст))?|(?:${noun})\\s*\\((?:${inParentheses})\\))` +
      "(?:\\s*\\([^)]*\\))?\\s*:?$",
    "i",
  );
}
/** A cell that is a question (its emphasis, code marks and quotes aside). */
export const QUESTION_CELL = /[?？]\s*["”’»」』*_`]*\s*$/;

/** The columns before and after a change that a table's first row names, or null when it names no such pair. */
export function changeColumns(cells: readonly string[]): { before: number; after: number } | null {
  const names = cells.map((cell) => stripEmphasis(cell).replace(/[`*_]/g, "").trim());
  const before = names.findIndex((name) => BEFORE_CELL.test(name));
  const after = names.findIndex((name) => AFTER_CELL.test(name));
  return before >= 0 && after >= 0 && before !== after ? { before, after } : null;
}

/** Whether a row of a table with such columns quotes a changed prompt: a question before and a question after. */
export function isChangedPrompt(cells: readonly string[], columns: { before: number; after: number }): boolean {
  return QUESTION_CELL.test(cells[columns.before] ?? "") && QUESTION_CELL.test(cells[columns.after] ?? "");
}
/** A fence line: backticks or tildes at any indentation (agents indent code inside list items). */
export const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/** The block is a list item right after an item of the same list. */
export function isContinuation(blocks: readonly Block[], b: number): boolean {
  return b > 0 && blocks[b - 1]!.kind === "item" && blocks[b - 1]!.lead === blocks[b]!.lead;
}

/** Longest block text kept; a longer block keeps its end (rules read sentences, not pages). */
export const MAX_BLOCK_CHARS = 8_000;

/**
 * The fence a line opens or closes, or null. As in CommonMark, a backtick fence's info string may not contain a
 * backtick, so "```npm test``` passes" is inline code, not a fence.
 */
function fenceOf(line: string): { char: string; length: number; rest: string } | null {
  const found = FENCE_LINE.exec(line);
  if (!found) return null;
  const marks = found[1]!;
  const rest = found[2]!;
  if (marks[0] === "`" && rest.includes("`")) return null;
  return { char: marks[0]!, length: marks.length, rest };
}

function closes(line: string, fence: { char: string; length: number }): boolean {
  const mark = fenceOf(line);
  return mark !== null && mark.char === fence.char && mark.length >= fence.length && mark.rest.trim() === "";
}

export function parseBlocks(message: string): Block[] {
  const blocks: Block[] = [];
  const at: { current: Block | null } = { current: null };
  let fence: { char: string; length: number } | null = null;
  /** The table the last line belonged to (null: the last line was no table row): its columns before and after. */
  let table: { columns: { before: number; after: number } | null } | null = null as typeof table;

  const flush = () => {
    const block = at.current;
    at.current = null;
    if (block === null) return;
    block.text = keepEnd(block.text);
    if (block.kind !== "code" && block.kind !== "quote") block.text = block.text.trim();
    if (block.text !== "" || block.kind === "code") blocks.push(block);
  };
  const open = (kind: BlockKind, line: Line, text: string, lead = "") => {
    flush();
    at.current = { kind, text, lead, start: line.start, end: line.start + line.text.length };
  };
  const append = (line: Line, text: string) => {
    const block = at.current;
    if (block === null) return;
    block.text = `${block.text}\n${text}`;
    // amortised: trim only when the text has grown to twice the cap, so a long block stays linear
    if (block.text.length > 2 * MAX_BLOCK_CHARS) block.text = keepEnd(block.text);
    block.end = line.start + line.text.length;
  };

  for (const line of splitLines(message)) {
    const raw = line.text;
    const inTable = table;
    table = null;
    if (fence !== null) {
      if (closes(raw, fence)) {
        fence = null;
        if (at.current) at.current.end = line.start + raw.length;
        flush();
      } else {
        append(line, raw);
      }
      continue;
    }
    const opened = fenceOf(raw);
    if (opened) {
      fence = { char: opened.char, length: opened.length };
      open("code", line, "");
      continue;
    }
    if (raw.trim() === "") {
      flush();
      continue;
    }
    const current = at.current as Block | null;
    if (QUOTE.test(raw)) {
      const text = raw.replace(/^ {0,3}(?:>[ \t]?)+/, "");
      if (current?.kind === "quote") append(line, text);
      else open("quote", line, text);
      continue;
    }
    if (HEADING.test(raw) || BOLD_LINE.test(raw)) {
      open("heading", line, stripEmphasis(raw.replace(HEADING, "")).replace(/[#\s]+$/, ""));
      flush();
      continue;
    }
    if (TABLE.test(raw)) {
      const cells = raw.trim().replace(/^\||(?<!\\)\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim());
      // a table's first row names its columns; in a table with a column before and one after a change, a row that
      // puts a question before and a question after quotes a prompt's copy
      const columns = inTable === null ? changeColumns(cells) : inTable.columns;
      table = { columns };
      if (TABLE_RULE.test(raw)) continue;
      const quoted = inTable !== null && columns !== null && isChangedPrompt(cells, columns);
      open(quoted ? "quote" : "table", line, cells.join(" | "));
      flush();
      continue;
    }
    const item = ITEM.exec(raw);
    if (item) {
      open("item", line, raw.slice(item[0].length), leadFor(current, blocks.at(-1)));
      continue;
    }
    if (current !== null && (current.kind === "paragraph" || current.kind === "item")) {
      append(line, raw.trim());
      continue;
    }
    open("paragraph", line, raw.trim());
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
  if (before.kind !== "paragraph") return "";
  const text = before.text.trim();
  if (/[:：]\s*$/.test(text)) return keepEnd(text, 400);
  // a title alone on its line reads as the list's lead-in, as a heading would ("残作業", "Remaining")
  return isTitle(text) ? text : "";
}

/** The most words (Latin script) or characters (CJK, Hangul) a line has to title the list after it without a colon. */
const MAX_TITLE_WORDS = 2;
const MAX_TITLE_CJK = 6;
export const CJK_OR_HANGUL = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
/** Words that say a list is done or empty, in the guard's languages. */
export const DONE_WORDS =
  /(?<![\w\u00C0-\u024F])(?:none|nothing|done|n\/a|complete|completed|finished|merged|resolved|closed|ninguno|nada|hecho|resuelto|resueltos|keine|nichts|erledigt|aucun|rien|fait|nenhum|feito|resolvido|nessuno|niente|fatto|geen|niets|klaar|gedaan|нет|ничего|готово)(?![\w\u00C0-\u024F])|なし|無し|完了|済み|済|无|無|没有|沒有|已完成|完成|없음|완료/i;

/**
 * A short line with no closing mark, a name rather than a sentence: at most two words (or six CJK or Hangul
 * characters) before an optional parenthesis, and no participle after the first word ("Remaining", "Por fazer (da
 * minha parte)", "残作業"; not "Missing translations fixed", "Follow-ups closed", "剩余库存计算的修正").
 */
function isTitle(text: string): boolean {
  if (text.includes("\n") || /[.!?。！？…;；,，:：]$/.test(text)) return false;
  // a title that says the list is done or empty is no list of work ("Remaining (none)", "残作業なし", "Follow-ups done")
  if (DONE_WORDS.test(text)) return false;
  const core = text.replace(/\s*[(（][^)）]*[)）]\s*$/, "").replace(/^[#*_\s]+|[*_\s]+$/g, "");
  if (core === "") return false;
  if (CJK_OR_HANGUL.test(core)) return core.replace(/\s+/g, "").length <= MAX_TITLE_CJK;
  const words = core.split(/\s+/);
  return words.length <= MAX_TITLE_WORDS && !words.slice(1).some((w) => /ed$/i.test(w));
}

/** The last `max` characters, never starting inside a surrogate pair. */
function keepEnd(text: string, max = MAX_BLOCK_CHARS): string {
  if (text.length <= max) return text;
  let start = text.length - max;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return text.slice(start);
}

function stripEmphasis(text: string): string {
  return text.replace(/\*\*|__/g, "").trim();
}

/**
 * The message with every fenced code block's lines (fences included) emptied, one "\n" per line break: what
 * escape lines are searched in, so that a `BLOCKED:` line inside a code sample is not an escape. The same line
 * splitting and fences as `parseBlocks`. Linear, one pass.
 */
export function withoutCode(message: string): string {
  if (!message.includes("```") && !message.includes("~~~")) return message;
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const { text } of splitLines(message)) {
    if (fence === null) {
      const mark = fenceOf(text);
      if (mark) fence = { char: mark.char, length: mark.length };
      out.push(mark ? "" : text);
      continue;
    }
    if (closes(text, fence)) fence = null;
    out.push("");
  }
  return out.join("\n");
}
