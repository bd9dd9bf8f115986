/** Markdown task lists (`- [ ] item`, `* [x] item`, `1. [X] item`) in assistant text. */
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";

/** A list item whose body starts with a checkbox: bullet or number, `[ ]`/`[x]`/`[X]`, then the item text. */
export const CHECKBOX_ITEM = /^[ \t]{0,12}(?:[-*+]|\d{1,4}[.)])[ \t]+\[([ xX])\][ \t]+(\S.*)$/;
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
 * not the agent's own list (a quoted template, a diff) and are skipped.
 */
export function parseMarkdownChecklist(text: string): ChecklistItem[] | null {
  const { items } = scanMarkdownChecklist(text, null);
  // a final message's own list is capped like every list kept (open items kept first)
  return items.length > 0 ? capList(items, (item) => item.done, "first") : null;
}

/**
 * The items of `text` read from inside `fence`, and the fence open at its end. Scanning A from null and then B
 * from A's fence gives the items of A + "\n" + B: a message merged over several lines is read piece by piece.
 */
export function scanMarkdownChecklist(text: string, fence: Fence): MarkdownScan {
  if (!text.includes("[") && !text.includes("```") && !text.includes("~~~")) return { items: [], fence };
  const items: ChecklistItem[] = [];
  let open = fence;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const next = fenceAfter(open, line);
    if (next !== undefined) {
      open = next;
      continue;
    }
    if (open !== null) continue;
    const m = CHECKBOX_ITEM.exec(line);
    if (m) items.push({ text: boundItemText(m[2]!.trim()), done: m[1] !== " " });
  }
  return { items, fence: open };
}
