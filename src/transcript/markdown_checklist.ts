/**
 * Markdown task lists (`- [ ] item`, `* [x] item`, `1. [X] item`) in assistant text, and in a final message the
 * status lists drawn with box characters (`⬜ item`, `☐ item`, `✅ item`).
 */
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";

/** A list item whose body starts with a checkbox: bullet or number, `[ ]`/`[x]`/`[X]`, then the item text. */
export const CHECKBOX_ITEM = /^[ \t]{0,12}(?:[-*+]|\d{1,4}[.)])[ \t]+\[([ xX])\][ \t]+(\S.*)$/;

/** Box characters drawn unticked: ballot box, large and medium white squares, white square button, white square. */
const OPEN_BOXES = "\u2610\u2B1C\u25FB\u25FD\u25A1\u{1F532}";
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

/** Whether a text may hold a box item (a `[`, or a box character when `boxChars` is set). */
export function mayHoldBoxes(text: string, boxChars: boolean): boolean {
  return text.includes("[") || (boxChars && ANY_BOX_CHAR.test(text));
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
 * not the agent's own list (a quoted template, a diff) and are skipped. A final message's box characters count too,
 * when one of them is unticked: a report's ✅ lines alone are a summary, not a checklist (a finished checklist lets an
 * offer through), while a ⬜ line is work the agent left open. (The transcript's earlier messages are read for
 * `[ ]` lists only, so a list drawn in one message is never held open by a later message that ticks it in prose.)
 */
export function parseMarkdownChecklist(text: string): ChecklistItem[] | null {
  const { items } = scanMarkdownChecklist(text, null, { boxChars: true });
  // a final message's own list is capped like every list kept (open items kept first)
  return items.length > 0 ? capList(items, (item) => item.done, "first") : null;
}

/**
 * The items of `text` read from inside `fence`, and the fence open at its end. Scanning A from null and then B
 * from A's fence gives the items of A + "\n" + B: a message merged over several lines is read piece by piece.
 */
export function scanMarkdownChecklist(
  text: string,
  fence: Fence,
  options: { boxChars?: boolean } = {},
): MarkdownScan {
  const boxChars = options.boxChars === true;
  if (!mayHoldBoxes(text, boxChars) && !text.includes("```") && !text.includes("~~~")) return { items: [], fence };
  const items: ChecklistItem[] = [];
  /** Whether a drawn box is unticked, and the indexes of the drawn ones in `items` (kept only if one is). */
  let drawnOpen = false;
  const drawn: number[] = [];
  let open = fence;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const next = fenceAfter(open, line);
    if (next !== undefined) {
      open = next;
      continue;
    }
    if (open !== null) continue;
    const box = boxItemOf(line, boxChars);
    if (box === null) continue;
    if (box.drawn) {
      drawn.push(items.length);
      drawnOpen ||= box.open;
    }
    items.push({ text: boundItemText(box.text.trim()), done: !box.open });
  }
  if (drawn.length === 0 || drawnOpen) return { items, fence: open };
  const drop = new Set(drawn);
  return { items: items.filter((_, i) => !drop.has(i)), fence: open };
}
