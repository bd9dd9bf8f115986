/**
 * Markdown task lists (`- [ ] item`, `* [x] item`, `1. [X] item`) in assistant text, and in a final message the
 * status lists drawn with box characters (`⬜ item`, `☐ item`, `✅ item`).
 */
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";

/** A list item whose body starts with a checkbox: bullet or number, `[ ]`/`[x]`/`[X]`, then the item text. */
export const CHECKBOX_ITEM = /^[ \t]{0,12}(?:[-*+]|\d{1,4}[.)])[ \t]+\[([ xX])\][ \t]+(\S.*)$/;

/**
 * Box characters drawn unticked: ballot box, large and medium white squares, white square button, white square; and
 * the mark of an item under way, the hourglass with flowing sand (a construction sign is as often a warning).
 */
const OPEN_BOXES = "\u2610\u2B1C\u25FB\u25FD\u25A1\u{1F532}\u23F3";
/** Box characters drawn ticked: ballot box with check or X, check mark button, heavy and plain check marks. */
const DONE_BOXES = "\u2611\u2612\u2705\u2714\u2713\u{1F5F9}";

/**
 * A line that starts with a box character (after an optional bullet or number), then the item text: the status list
 * an agent draws with ⬜ and ✅ instead of `[ ]` and `[x]`. Group 1 is the box, group 2 the text.
 */
export const BOX_CHAR_ITEM = new RegExp(
  `^[ \\t]{0,12}(?:(?:[-*+\u2022]|\\d{1,4}[.)])[ \\t]+)?([${OPEN_BOXES}${DONE_BOXES}])\\uFE0F?[ \\t]+(\\S.*)$`,
  "u",
);
const ANY_BOX_CHAR = new RegExp(`[${OPEN_BOXES}${DONE_BOXES}]`, "u");
const OPEN_BOX_CHAR = new RegExp(`^[${OPEN_BOXES}]$`, "u");

/** A line's box item: `[ ]`/`[x]` always; a box character only when `boxChars` is set. Null: no box item. */
export function boxItemOf(line: string, boxChars: boolean): { open: boolean; text: string; drawn: boolean } | null {
  const m = CHECKBOX_ITEM.exec(line);
  if (m) return { open: m[1] === " ", text: m[2]!, drawn: false };
  if (!boxChars) return null;
  const d = BOX_CHAR_ITEM.exec(line);
  return d ? { open: OPEN_BOX_CHAR.test(d[1]!), text: d[2]!, drawn: true } : null;
}

/** Whether a text has a box character anywhere (the cheap look before reading its lines for drawn boxes). */
export function hasBoxChar(text: string): boolean {
  return ANY_BOX_CHAR.test(text);
}

/** Whether a text has a line drawn with a box character ("✅ parser ported"), in or out of a list the agent owns. */
export function hasDrawnLine(text: string): boolean {
  if (!hasBoxChar(text)) return false;
  for (const line of text.split("\n")) {
    if (BOX_CHAR_ITEM.test(line.endsWith("\r") ? line.slice(0, -1) : line)) return true;
  }
  return false;
}

/** Whether a text may hold a box item (a `[`, or a box character when `boxChars` is set). */
export function mayHoldBoxes(text: string, boxChars: boolean): boolean {
  return text.includes("[") || (boxChars && hasBoxChar(text));
}
/** A code fence line (up to three spaces of indentation, as CommonMark reads one). */
const FENCE = /^[ \t]{0,3}(```|~~~)/;

/** The code fence open at some point of a text: its marker, or null outside a fenced block. */
export type Fence = "```" | "~~~" | null;

/**
 * The fence open after `line`, read from inside `open`: a fence line opens one, or closes the one open when it uses
 * the same marker (another marker inside a block is its text). undefined: `line` is no fence line.
 */
export function fenceAfter(open: Fence, line: string): Fence | undefined {
  const f = FENCE.exec(line);
  if (!f) return undefined;
  const marker = f[1] as "```" | "~~~";
  return open === null ? marker : open === marker ? null : open;
}

export interface MarkdownScan {
  items: ChecklistItem[];
  /** The fence open at the end of the text (a message continued on a later line starts inside it). */
  fence: Fence;
}

/**
 * Every checkbox item in `text`, in order, or null when there is none. Items inside fenced code blocks are
 * not the agent's own list (a quoted template, a diff) and are skipped. A final message's progress list drawn with box
 * characters counts too (drawnLeftOut below); the transcript's earlier messages are read for `[ ]` lists only, so a
 * list drawn in one message is never held open by a later message that ticks it off in prose.
 */
export function parseMarkdownChecklist(text: string): ChecklistItem[] | null {
  const { items } = scanMarkdownChecklist(text, null, { boxChars: true });
  // a final message's own list is capped like every list kept (open items kept first)
  return items.length > 0 ? capList(items, (item) => item.done, "first") : null;
}

/**
 * The lead-in of a drawn list that is not the agent's progress: a legend, a filled-in template, a scope, target or
 * support matrix, a sign-off, a list for the user or another team (in the languages the guard reads). Only a short
 * line that reads as a lead-in is matched (LEAD_IN): a paragraph above a list is the report, not the list's owner.
 */
const notOwnLead = lazyRegExp(() =>
  new RegExp(
    "\\b(?:legend|template|scope|targets?|support\\s+matrix|supported|compatibility|browsers?|platforms?|" +
      "sign-?offs?|approvals?|owners?|release\\s+checklist)\\b|\\bbefore\\s+you\\b|" +
      "\\bfor\\s+(?:you|the\\s+[\\w-]+\\s+team|ops|qa|the\\s+reviewers?)\\b|" +
      "\\byour\\s+(?:side|part|steps|turn|team|checklist|to-?dos?)\\b|\\b[\\w-]+\\s+team\\b|" +
      "f(?:ü|ue)r\\s+(?:dich|euch|Sie)\\b|po\\s+twojej|f(?:ö|o)r\\s+(?:er|dig)\\b|" +
      "de\\s+(?:tu|votre|ton)\\s+(?:lado|c[ôo]t[ée])|para\\s+(?:ti|usted|voc[êe])\\b|voor\\s+(?:jou|u)\\b|" +
      "per\\s+te\\b|для\\s+вас|给你|給你|ご担当|担当分|あなた",
    "iu",
  )
);
/** A lead-in: a short line that ends in a colon, or a heading or bold line (the line right above a list). */
const LEAD_IN = /^(?:#{1,6}\s+.{1,80}|\*\*.{1,80}\*\*:?|__.{1,80}__:?|.{1,80}[:：])$/;
/**
 * An open drawn box that says it is not to be done now, after a dash, a colon or in parentheses at its end: not
 * supported, not a target, not planned, owned elsewhere, blocked or waiting on someone, nothing to do or the user's
 * ("⬜ IE 11 — not supported", "⬜ deploy (waiting on the ops window)", "⬜ Security review (AppSec, booked for
 * Friday)", "⏳ Production deploy — needs your approval"). Bounded, so linear.
 */
const notOpenWork = lazyRegExp(() =>
  new RegExp(
    "(?:\\s[—–-]\\s|[—–:(]\\s*)[^—–:()]{0,60}?(?:\\bnot\\s+(?:supported|a\\s+target|planned|needed|applicable|in\\s+scope)" +
      "|\\bn/a\\b|\\bout\\s+of\\s+scope|\\bintentionally\\b|\\bdeliberately\\b|\\bwon[’']t\\s+(?:do|fix|be)\\b|" +
      "\\bskipped\\b|\\bowned\\s+by\\b|\\bbooked\\b|\\bscheduled\\b|\\bblocked\\b|\\bwaiting\\s+(?:on|for)\\b|" +
      "\\bon\\s+hold\\b|\\bnothing\\s+to\\s+do\\b|\\bneeds?\\s+your\\b|\\byour\\s+(?:approval|call|review|sign-?off)\\b)|" +
      "\\([^()]{0,60}\\b(?:team|ops|qa|appsec|security|legal|finance|release)\\)\\s*[.!]?\\s*$",
    "i",
  )
);
/** A regex built on its first use: these are needed only for a message with a drawn list. */
function lazyRegExp(build: () => RegExp): () => RegExp {
  let made: RegExp | null = null;
  return () => made ??= build();
}

/** A line that is a legend entry for a box character ("⬜ = open", "✅ means done"). */
const LEGEND_LINE = /^\s*(?:=|:|means\s|stands\s+for\s)/i;

interface DrawnList {
  lead: string | null;
  entries: { at: number; open: boolean; text: string }[];
}

/**
 * The indexes of drawn items to leave out: every item of a drawn list that is not a progress list of the agent's own,
 * and the open boxes that say they are not work. A drawn list is the agent's progress when it has an unticked box that
 * is work and its lead-in is not someone else's list, a legend, a template or a matrix; a report's ✅ lines alone are a
 * summary (a finished checklist would let an offer through), and so are ✅ lines beside "⬜ IE 11 — not supported".
 */
function drawnLeftOut(lists: readonly DrawnList[]): Set<number> {
  const out = new Set<number>();
  for (const list of lists) {
    const notWork = new Set(list.entries.filter((e) => e.open && notOpenWork().test(e.text)).map((e) => e.at));
    const ours = list.entries.some((e) => e.open && !notWork.has(e.at)) &&
      (list.lead === null || !notOwnLead().test(list.lead)) && !list.entries.some((e) => LEGEND_LINE.test(e.text));
    for (const entry of list.entries) if (!ours || notWork.has(entry.at)) out.add(entry.at);
  }
  return out;
}

/**
 * The items of `text` read from inside `fence`, and the fence open at its end. Scanning A from null and then B
 * from A's fence gives the items of A + "\n" + B: a message merged over several lines is read piece by piece
 * (without box characters: a drawn list is judged whole, in a final message).
 */
export function scanMarkdownChecklist(
  text: string,
  fence: Fence,
  options: { boxChars?: boolean } = {},
): MarkdownScan {
  // box characters are looked for only in a text that has one (most final messages have none)
  const boxChars = options.boxChars === true && hasBoxChar(text);
  if (!mayHoldBoxes(text, boxChars) && !text.includes("```") && !text.includes("~~~")) return { items: [], fence };
  const items: ChecklistItem[] = [];
  /** The drawn lists: runs of drawn box lines (blank lines inside a run allowed), each with the line above it. */
  const lists: DrawnList[] = [];
  let current: DrawnList | null = null;
  let lead: string | null = null;
  let open = fence;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const next = fenceAfter(open, line);
    if (next !== undefined) {
      open = next;
      current = null;
      lead = null;
      continue;
    }
    if (open !== null) continue;
    const box = boxItemOf(line, boxChars);
    if (box === null) {
      // an indented line continues the item above it; another line ends the run, and is the next list's lead-in
      // when it reads as one
      if (boxChars && line.trim() !== "" && !(current !== null && /^[ \t]{2,}\S/.test(line))) {
        const trimmed = line.trim();
        lead = LEAD_IN.test(trimmed) ? trimmed : null;
        current = null;
      }
      continue;
    }
    if (box.drawn) {
      if (current === null) lists.push(current = { lead, entries: [] });
      current.entries.push({ at: items.length, open: box.open, text: box.text.trim() });
    } else {
      current = null;
      lead = null;
    }
    items.push({ text: boundItemText(box.text.trim()), done: !box.open });
  }
  if (lists.length === 0) return { items, fence: open };
  const drop = drawnLeftOut(lists);
  return { items: items.filter((_, i) => !drop.has(i)), fence: open };
}
