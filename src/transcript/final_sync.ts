/**
 * Whether the payload's `last_assistant_message` has reached the transcript. Stop can fire before Claude
 * Code flushes the final assistant line, so the reader compares it with the current turn's assistant texts.
 */
import type { ReducerState } from "./reducer_state.ts";
import { syncDigest, syncHashOf } from "./sync_hash.ts";

/**
 * The comparable form of a text: without any whitespace. How Claude Code joins the text blocks of one
 * response into `last_assistant_message` ("\n", "\n\n" or nothing) is not documented, so the comparison
 * ignores whitespace altogether (which also covers trimming).
 */
export function syncKey(text: string): string {
  return text.replace(/\s+/g, "");
}

/** The key to look for, or null when there is nothing to wait for (absent or blank). */
export function syncTarget(lastAssistantMessage: string | null | undefined): string | null {
  const key = syncKey(lastAssistantMessage ?? "");
  return key === "" ? null : key;
}

/**
 * True when an assistant text of the current turn equals the target (a single block or a whole message merged
 * over its lines, compared by sync hash: the same function whether the message was read in one piece or resumed
 * from a stored index), or the newest merged message contains it. Containment needs the text, which is kept in
 * memory only: it covers the lines read by this process (the flush-race wait polls in the same process).
 */
export function isFinalSynced(state: ReducerState, target: string | null): boolean {
  if (target === null) return false;
  if (state.textHashes.includes(syncDigest(syncHashOf(target)))) return true;
  return state.message !== null && state.messageText !== undefined && syncKey(state.messageText).includes(target);
}
