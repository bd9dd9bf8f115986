/**
 * How the session runs, as Claude Code 2.1.x marks its transcript lines: `entrypoint` on every envelope line
 * ("cli" in the interactive terminal UI, "sdk-cli" under `claude -p`), and on prompt lines `promptSource`
 * ("typed", "queued", "sdk", …) and `turnOrigin` ("human", "sdk", …). What the real client writes is in
 * testdata/e2e/observed/README.md. The values are short client names, never message text, and are kept bounded.
 */
import * as z from "../zod.ts";

/** Longest mark kept; a longer value is cut (no client name seen comes near it). */
export const MAX_MARK_CHARS = 32;

export const MarkSchema = z.nullable(z.string().check(z.maxLength(MAX_MARK_CHARS)));

/** The marks of the line that started a user turn; null where the line has none. */
export const PromptMarkSchema = z.object({
  entrypoint: MarkSchema,
  promptSource: MarkSchema,
  turnOrigin: MarkSchema,
});
export type PromptMark = z.infer<typeof PromptMarkSchema>;

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
