/**
 * Whether the payload's `last_assistant_message` has reached the transcript. Stop can fire before Claude
 * Code flushes the final assistant line, so the reader compares it with the current turn's assistant texts.
 */
import { hash53 } from "./bytes.ts";
import type { ReducerState } from "./reducer_state.ts";

/** The text to look for, or null when there is nothing to wait for (absent or blank). */
export function syncTarget(lastAssistantMessage: string | null | undefined): string | null {
  const t = lastAssistantMessage?.trim() ?? "";
  return t === "" ? null : t;
}

/**
 * True when an assistant text of the current turn equals the target (trimmed; a single block or a whole
 * message merged over its lines), or the newest merged message contains it.
 */
export function isFinalSynced(state: ReducerState, target: string | null): boolean {
  if (target === null) return false;
  if (state.textHashes.includes(hash53(target))) return true;
  return state.lastMessage !== null && state.lastMessage.text.includes(target);
}
