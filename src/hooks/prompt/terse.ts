/**
 * The terse nudge: measure the prompt and pick a band. A short single question gets "one or two sentences", a
 * medium prompt "keep it tight", and real work (long, multi-line, code, stacked questions, build-shaped words)
 * gets nothing. Pure.
 */

export type Band = "short" | "medium" | "silent" | "off";

/** Why a prompt got no nudge. */
export type SilentReason =
  | "opt-out"
  | "disabled"
  | "empty"
  | "slash-command"
  | "code"
  | "multiline"
  | "questions"
  | "build"
  | "go-ahead"
  | "long";

export interface TerseOptions {
  /** CLIFFHANGER_NO_TERSE / noTerse. */
  disabled: boolean;
  shortMaxWords: number;
  mediumMaxWords: number;
  shortText: string;
  mediumText: string;
}

export interface TerseResult {
  band: Band;
  /** Set for the bands "silent" and "off". */
  reason: SilentReason | null;
  words: number;
  /** The nudge to add, or null. */
  text: string | null;
}

/** `!detail`, `!long` or `!full` at the start of a prompt: no length nudge for this turn. */
export const OPT_OUT = /^\s*!(?:detail|long|full)\b/i;

/** Verbs that mean work wherever they stand ("why does the parser need a refactor?" is work). */
const BUILD_WORDS = (
  "implement refactor debug fix build migrate rewrite deploy optimize optimise scaffold investigate analyze " +
  "analyse audit integrate translate generate configure install upgrade fail crash"
).split(" ");
const IRREGULAR = ["built", "wrote", "written", "writing", "ran", "planning", "planned", "set up", "broken", "broke"];
/**
 * Words that are work only as a request (first word, or after please / can you / could you / would you):
 * "test the parser" is work, "what does this test check?" and "what port does the dev server use?" are questions.
 */
const REQUEST_WORDS = (
  "plan review write create add remove delete rename update design port test convert change edit modify run " +
  "setup profile benchmark document"
).split(" ");

/** Build-shaped words in their common forms (fix, fixes, fixed, fixing, …), whole words only. */
export const BUILD_RE = new RegExp(
  `\\b(?:(?:${BUILD_WORDS.join("|")})(?:s|es|ed|d|ing)?|${IRREGULAR.join("|")})\\b`,
  "i",
);

/** A request word opening the prompt (after an optional polite lead-in). */
export const REQUEST_RE = new RegExp(
  `^\\s*(?:(?:please|pls|can you|could you|would you|will you|now|then|also|and)[\\s,]+)*(?:${
    REQUEST_WORDS.join("|")
  })\\b`,
  "i",
);

/** Replies that tell the agent to carry on: the work goes on, so the answer should not be cut short. */
/** One go-ahead word or phrase; a go-ahead is one or more of them ("yes please", "ok, go ahead", "sure, do it"). */
const GO_AHEAD_WORD =
  "(?:y|yes|yep|yeah|ok|okay|sure|go|go ahead|go on|continue|proceed|do it|carry on|keep going|next|lgtm|please|please do|please continue|sounds good|ship it|thanks|thank you)";
const GO_AHEAD = new RegExp(`^${GO_AHEAD_WORD}(?:[\\s.,!]+${GO_AHEAD_WORD})*[\\s.,!]*$`, "i");

const QUESTION_START =
  /^(?:what|what's|whats|why|how|when|where|who|whom|whose|which|is|are|am|was|were|does|do|did|can|could|should|would|will|shall|may|might|has|have|had|isn't|aren't|doesn't|don't|didn't|can't|won't)\b/i;

export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/).length;
}

export function classifyPrompt(prompt: string, options: TerseOptions): TerseResult {
  const words = countWords(prompt);
  const silent = (band: "silent" | "off", reason: SilentReason): TerseResult => ({ band, reason, words, text: null });
  if (OPT_OUT.test(prompt)) return silent("off", "opt-out");
  if (options.disabled) return silent("off", "disabled");
  const trimmed = prompt.trim();
  if (trimmed === "") return silent("silent", "empty");
  if (trimmed.startsWith("/")) return silent("silent", "slash-command");
  if (hasCode(prompt)) return silent("silent", "code");
  if (trimmed.split(/\r?\n/).filter((l) => l.trim() !== "").length > 1) return silent("silent", "multiline");
  if ((trimmed.match(/\?/g) ?? []).length > 1) return silent("silent", "questions");
  if (BUILD_RE.test(trimmed) || REQUEST_RE.test(trimmed)) return silent("silent", "build");
  if (GO_AHEAD.test(trimmed)) return silent("silent", "go-ahead");
  // the long row before the short one, whatever the two limits are set to
  if (words > options.mediumMaxWords) return silent("silent", "long");
  if (words <= options.shortMaxWords && isQuestion(trimmed)) {
    return { band: "short", reason: null, words, text: fillWords(options.shortText, words) };
  }
  if (words <= options.mediumMaxWords) {
    return { band: "medium", reason: null, words, text: fillWords(options.mediumText, words) };
  }
  return silent("silent", "long");
}

function isQuestion(text: string): boolean {
  return text.endsWith("?") || QUESTION_START.test(text);
}

/** A fence (```) anywhere, or a line indented as code (four spaces or a tab). */
function hasCode(prompt: string): boolean {
  if (prompt.includes("```")) return true;
  return prompt.split(/\r?\n/).some((l) => /^(?: {4}|\t)\S/.test(l));
}

/** `{words}` → the count; `{words} words` reads `1 word` for a single word. */
export function fillWords(template: string, words: number): string {
  return template
    .replaceAll("{words} words", `${words} ${words === 1 ? "word" : "words"}`)
    .replaceAll("{words}", String(words));
}
