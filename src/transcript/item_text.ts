/**
 * Checklist item texts (TaskCreate/TaskUpdate subjects, TodoWrite items, Markdown `- [ ]` items) are kept in the
 * session state and named by the block reason on a later stop, so they are the one piece of message and tool text
 * that is stored. Each is cut to a bounded length where it is read.
 */

/** The longest item text kept, in UTF-16 code units (a longer one keeps its head and ends with "…"). */
export const MAX_ITEM_TEXT_CHARS = 200;

export function boundItemText(text: string): string {
  if (text.length <= MAX_ITEM_TEXT_CHARS) return text;
  const head = text.slice(0, MAX_ITEM_TEXT_CHARS - 1);
  // never keep half of a surrogate pair
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/**
 * The most items a list keeps (a Markdown list, a TodoWrite list, the session's live tasks): what the state holds
 * stays bounded whatever the agent writes. See capList for which items go.
 */
export const MAX_LIST_ITEMS = 200;

/**
 * `items` cut to MAX_LIST_ITEMS without losing an open item while a done one can go instead: done items go
 * first, the earliest first. Only a list of more than MAX_LIST_ITEMS open items loses open ones (from the end for
 * `keep: "first"`, from the start for `keep: "last"`), and it still has MAX_LIST_ITEMS open items to name.
 */
export function capList<T>(items: readonly T[], isDone: (item: T) => boolean, keep: "first" | "last"): T[] {
  if (items.length <= MAX_LIST_ITEMS) return [...items];
  let excess = items.length - MAX_LIST_ITEMS;
  const kept = items.filter((item) => {
    if (excess > 0 && isDone(item)) {
      excess--;
      return false;
    }
    return true;
  });
  return keep === "first" ? kept.slice(0, MAX_LIST_ITEMS) : kept.slice(-MAX_LIST_ITEMS);
}

/** The longest tool id or tool name kept from a transcript (they reach the state, log lines and stall nudges). */
export const MAX_TOOL_ID_CHARS = 200;

/**
 * A tool id or name as we keep it: control characters (line breaks, terminal escapes) replaced by "?", and cut to
 * MAX_TOOL_ID_CHARS. The same text always gives the same result, so a tool_use and its tool_result still match.
 */
export function boundToolId(text: string): string {
  // deno-lint-ignore no-control-regex
  const clean = /[\u0000-\u001f\u007f-\u009f]/.test(text) ? text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?") : text;
  return clean.length <= MAX_TOOL_ID_CHARS ? clean : clean.slice(0, MAX_TOOL_ID_CHARS);
}
