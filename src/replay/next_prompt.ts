/**
 * What the user's next prompt says about the stop before it. Pure and deliberately narrow: these are
 * candidates for review, not verdicts.
 *
 * - `continue`: a short "continue", "go on", "keep going" (the agent stopped and the user had to push it on)
 * - `agree`: a short yes / go ahead (the user accepted an offer the agent stopped on)
 * - `new-topic`: anything else (the user moved on)
 */
export type NextPromptKind = "continue" | "agree" | "new-topic";

const SHORT = 200;
const CONTINUE =
  /^(?:please[,\s]+|ok(?:ay)?[,\s]+|so[,\s]+)?(?:continue|go on|keep going|carry on|proceed|resume|keep at it|don'?t stop|finish (?:it|the rest|the job|up)|next step|you (?:stopped|didn'?t finish))\b/i;
const AGREE = /^(?:y|yes|yep|yeah|sure|ok|okay|do it|go ahead|please do|sounds good|lgtm|go for it)\b/i;

export function classifyNextPrompt(text: string): { kind: NextPromptKind; match: string | null } {
  const head = text.replace(/^<command-name>\/?/, "").trim();
  if (head.length <= SHORT) {
    const c = CONTINUE.exec(head);
    if (c) return { kind: "continue", match: c[0] };
    const a = AGREE.exec(head);
    if (a) return { kind: "agree", match: a[0] };
  }
  return { kind: "new-topic", match: null };
}
