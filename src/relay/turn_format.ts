/**
 * The turn format of the mailbox messages (to-code.md, to-agent.md): the first non-blank line carries the turn
 * number, the rest is the message. Written as `turn: N`; read tolerantly:
 *
 *   turn: 3          Turn 3          TURN #3         turn 3 — fix the parser
 *   # Turn 3         ## turn: 3      # 3             3          3:
 *
 * A line with the word "turn" may carry a title after the number (kept as the first line of the body). A line
 * without the word must be the number alone (`3`, `3:`, `#3`, `# 3`), so a body that opens with a numbered list
 * item ("1. Do this") is never read as a turn. Anything else: no turn, and the message is ignored.
 */

export interface Message {
  turn: number;
  /** The text after the turn line, trimmed; "" when there is none. */
  body: string;
}

/** The largest turn a turn line (nine digits) or a queue file name holds; the counters may not pass it. */
export const MAX_TURN = 999_999_999;

const WITH_WORD = /^\s*(?:#{1,6}\s*)?turn\s*[:#-]?\s*#?\s*(\d{1,9})\b\s*(?:[:.)\-–—]\s*)?(.*)$/i;
const BARE = /^\s*(?:#{1,6}\s*)?#?\s*(\d{1,9})\s*:?\s*$/;

/** The turn number and body of a message, or null when its first non-blank line is not a turn line. */
export function parseMessage(text: string): Message | null {
  const normalized = text.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const lines = normalized.split("\n");
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first === -1) return null;
  const head = lines[first]!;
  const rest = lines.slice(first + 1).join("\n");
  const word = WITH_WORD.exec(head);
  if (word) {
    const title = (word[2] ?? "").trim();
    return { turn: Number(word[1]), body: [title, rest.trim()].filter((p) => p !== "").join("\n\n").trim() };
  }
  const bare = BARE.exec(head);
  if (bare) return { turn: Number(bare[1]), body: rest.trim() };
  return null;
}

/** A message in the canonical format: `turn: N`, a blank line, the body, a final newline. */
export function formatMessage(turn: number, body: string): string {
  return `turn: ${turn}\n\n${body.trim()}\n`;
}
