/** Markdown task lists (`- [ ] item`, `* [x] item`, `1. [X] item`) in assistant text. */
import type { ChecklistItem } from "./types.ts";

/** A list item whose body starts with a checkbox: bullet or number, `[ ]`/`[x]`/`[X]`, then the item text. */
const ITEM = /^[ \t]{0,12}(?:[-*+]|\d{1,4}[.)])[ \t]+\[([ xX])\][ \t]+(\S.*)$/;
const FENCE = /^[ \t]{0,3}(```|~~~)/;

/**
 * Every checkbox item in `text`, in order, or null when there is none. Items inside fenced code blocks are
 * not the agent's own list (a quoted template, a diff) and are skipped.
 */
export function parseMarkdownChecklist(text: string): ChecklistItem[] | null {
  if (!text.includes("[")) return null;
  const items: ChecklistItem[] = [];
  let fence: string | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (fence === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const m = ITEM.exec(line);
    if (m) items.push({ text: m[2]!.trim(), done: m[1] !== " " });
  }
  return items.length > 0 ? items : null;
}
