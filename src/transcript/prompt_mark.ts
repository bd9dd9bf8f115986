/**
 * How the session runs, as Claude Code 2.1.x marks its transcript lines: `entrypoint` on every envelope line
 * ("cli" in the interactive terminal UI, "sdk-cli" under `claude -p`), and on prompt lines `promptSource`
 * ("typed", "queued", "sdk", …) and `turnOrigin` ("human", "sdk", …). What the real client writes is in
 * testdata/e2e/observed/README.md. The values are short client names, never message text, and are kept bounded.
 */

/** Longest mark kept; a longer value is cut (no client name seen comes near it). */
export const MAX_MARK_CHARS = 32;

/**
 * The marks of the line that started a user turn; null where the line has none. Its schema (prompt_mark_schema.ts)
 * is loaded only for a stored index the hand check cannot vouch for; transcript_index_test.ts holds the two types
 * equal.
 */
export interface PromptMark {
  entrypoint: string | null;
  promptSource: string | null;
  turnOrigin: string | null;
}

export const NO_MARK: PromptMark = { entrypoint: null, promptSource: null, turnOrigin: null };

/** A non-empty string cut to MAX_MARK_CHARS (never leaving half a surrogate pair), else null. */
export function boundedMark(value: unknown): string | null {
  if (typeof value !== "string" || value === "") return null;
  if (value.length <= MAX_MARK_CHARS) return value;
  const cut = value.slice(0, MAX_MARK_CHARS);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The marks of a line, bounded. */
export function promptMarkOf(
  line: { entrypoint?: unknown; promptSource?: unknown; turnOrigin?: unknown },
): PromptMark {
  return {
    entrypoint: boundedMark(line.entrypoint),
    promptSource: boundedMark(line.promptSource),
    turnOrigin: boundedMark(line.turnOrigin),
  };
}
