/**
 * When a tool_result counts as empty for the stall check: its content is empty in every form, and nothing
 * shows that the tool ran normally and simply printed nothing. The rules are an ordered table (first match
 * wins) so they can be amended from what the real client writes; `emptyRuleFor` names the rule that decided.
 */

/** What one tool_result tells about its output. */
export interface ResultForm {
  /** The block's `content` (undefined when missing). */
  content: unknown;
  /** The block's `is_error`. */
  isError: boolean;
  /** The line's `toolUseResult`, only when the line holds this one result; undefined otherwise. */
  structured: unknown;
}

export interface EmptyRule {
  name: string;
  verdict: "empty" | "output";
  when: (result: ResultForm) => boolean;
}

/**
 * What the client writes as content when a tool printed nothing (observed with the real client in
 * testdata/e2e/observed/empty_results.jsonl): `(Bash completed with no output)`, `(mcp__x__y completed with
 * no output)`. It stands for a normal run: the e2e scenario stall_empty_results treats none as a stall.
 */
export const NO_OUTPUT_PLACEHOLDER = /^\(\S+ completed with no output\)$/;

export const EMPTY_RESULT_RULES: readonly EmptyRule[] = [
  {
    name: "the client's no-output placeholder",
    verdict: "output",
    when: (r) => typeof r.content === "string" && NO_OUTPUT_PLACEHOLDER.test(r.content.trim()),
  },
  {
    // Text (an error message too), an image, or a block type the reader does not know.
    name: "content has output",
    verdict: "output",
    when: (r) => !isBlankContent(r.content),
  },
  {
    // Clients ≤2.1.x write content "" with {stdout:"", stderr:"", interrupted:false, isImage:false, …}.
    name: "Bash ran and printed nothing",
    verdict: "output",
    when: (r) => isSilentBash(r.structured),
  },
  {
    // Edit/Write/Glob/Grep/Task results and "Error: …" strings: the tool ran. An MCP tool's structured
    // result is its content list, blank when the server sent nothing.
    name: "structured result is not blank",
    verdict: "output",
    when: (r) => !isBlankStructured(r.structured),
  },
  { name: "blank content and nothing structured", verdict: "empty", when: () => true },
];

/** The rule that decides for this result. */
export function emptyRuleFor(result: ResultForm): EmptyRule {
  return EMPTY_RESULT_RULES.find((rule) => rule.when(result)) ?? EMPTY_RESULT_RULES[EMPTY_RESULT_RULES.length - 1]!;
}

/** True when the result is empty in every form and not a legitimate empty output. */
export function isEmptyResult(result: ResultForm): boolean {
  return emptyRuleFor(result).verdict === "empty";
}

/** null/missing, a whitespace-only string, or a list whose items are all blank text. Other shapes are output. */
export function isBlankContent(content: unknown): boolean {
  if (content == null) return true;
  if (typeof content === "string") return content.trim() === "";
  if (Array.isArray(content)) return content.every(isBlankItem);
  return false;
}

/** Like content, and also an object with no keys. */
export function isBlankStructured(value: unknown): boolean {
  if (isRecord(value)) return Object.keys(value).length === 0;
  return isBlankContent(value);
}

/** A text block with blank (or no) text, or a blank string. Images and unknown blocks are not blank. */
function isBlankItem(item: unknown): boolean {
  if (typeof item === "string") return item.trim() === "";
  if (!isRecord(item) || item["type"] !== "text") return false;
  const text = item["text"];
  return text == null || (typeof text === "string" && text.trim() === "");
}

function isSilentBash(structured: unknown): boolean {
  return isRecord(structured) && structured["stdout"] === "" && typeof structured["stderr"] === "string" &&
    structured["interrupted"] === false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
