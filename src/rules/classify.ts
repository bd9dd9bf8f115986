/**
 * The message checks of the Stop guard, and the block reason for an early stop. The stop pipeline calls them at
 * their places in the decision order (the escape first; the closing analysis, which finds blockers and early-stop
 * acts, only when there is no checklist or a finished one); `classifyMessage` runs them back to back for the case
 * with no checklist.
 */
import { analyseClosing, type ClosingAnalysis } from "./closing/analyse.ts";
import { withoutCode } from "./closing/blocks.ts";
import { languagesOf, runsFor } from "./closing/languages.ts";
import { DEFAULT_MATCH_MAX_CHARS, matchFirst } from "./match.ts";
import type { RuleMatch, RuleSet } from "./schema.ts";

/**
 * Escape lines (BLOCKED:, NEEDS-YOU:, a Status handover) count anywhere in the final message, not only in the
 * matched tail: they are line-anchored, so searching a long message stays cheap.
 */
export const ESCAPE_MAX_CHARS = 1_000_000;

export interface ClassifyOptions {
  /** Only the last `maxChars` characters are read as evidence (default `DEFAULT_MATCH_MAX_CHARS`). */
  maxChars?: number;
}

/**
 * A BLOCKED: / NEEDS-YOU: line or a Status handover: the stop goes through at once. Lines inside fenced code are
 * not searched: a sample is not the agent speaking.
 */
export function findEscape(text: string, set: RuleSet, options: ClassifyOptions = {}): RuleMatch | null {
  // like every rule, an escape of another language runs only on text that can be in it
  const langs = languagesOf(text);
  const escapes = set.escape.filter((rule) => runsFor(rule.lang, langs));
  return matchFirst(escapes, withoutCode(text), { maxChars: options.maxChars ?? DEFAULT_MATCH_MAX_CHARS });
}

/** The closing analysis of a message (blocker and early-stop acts), for a turn with no checklist. */
export function analyseMessage(text: string, set: RuleSet, options: ClassifyOptions = {}): ClosingAnalysis {
  return analyseClosing(text, set, { maxChars: options.maxChars ?? DEFAULT_MATCH_MAX_CHARS });
}

/** What the message checks decide on their own: escape → blocker → early-stop → nothing. */
export type MessageVerdict =
  | { stage: "escape"; match: RuleMatch }
  | { stage: "blocker"; match: RuleMatch }
  | { stage: "early-stop"; match: RuleMatch }
  | { stage: "none"; match: null };

/** The message checks in decision order, for a turn without a checklist. */
export function classifyMessage(text: string, set: RuleSet, options: ClassifyOptions = {}): MessageVerdict {
  const escape = findEscape(text, set, { maxChars: Math.max(options.maxChars ?? 0, ESCAPE_MAX_CHARS) });
  if (escape) return { stage: "escape", match: escape };
  const analysis = analyseMessage(text, set, options);
  if (analysis.early) return { stage: "early-stop", match: analysis.early };
  if (analysis.blocker) return { stage: "blocker", match: analysis.blocker };
  return { stage: "none", match: null };
}

const BLOCKED_WAY_OUT = "If something only the user can clear is in the way, write " +
  "BLOCKED: <what> <what you need> on its own line.";

/**
 * The block reason for an early stop: the rule's advice with `{match}` replaced by the quoted
 * phrase. Advice without `{match}` gets the phrase in a lead sentence; advice that never mentions
 * BLOCKED: (a user rule's, say) gets the standard way out appended, so every reason has both.
 */
export function renderEarlyStopReason(match: RuleMatch): string {
  const advice = match.rule.advice.trim();
  let reason: string;
  if (advice.includes("{match}")) {
    reason = advice.split("{match}").join(match.phrase);
  } else {
    const what = match.rule.label ?? match.rule.description;
    const lead = `Your last message ended the turn early (${what}: "${match.phrase}").`;
    reason = advice ? `${lead} ${advice}` : `${lead} If work the user asked for is still owed, do it now.`;
  }
  return reason.includes("BLOCKED:") ? reason : `${reason} ${BLOCKED_WAY_OUT}`;
}
