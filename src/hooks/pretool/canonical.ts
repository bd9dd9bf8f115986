/**
 * What makes two tool calls "the same": the tool name plus a canonical serialisation of its input, with object
 * keys sorted at every depth (key order never matters) and everything else kept exactly (any differing value,
 * array order, type or nesting makes a different call).
 */
import { textHash64 } from "../../store/text_hash.ts";

/** JSON with sorted keys at every depth. Values JSON cannot carry (undefined, functions) are dropped as JSON does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortKeys(record[key])]));
  }
  return value;
}

/** Past this many characters, the signature hashes the canonical input's head, tail and length only. */
export const SIGNED_MAX_CHARS = 1 << 20;

/**
 * A short stable id of the call: a 64-bit hash of tool name and canonical input (textHash64), 16 hex digits. A huge
 * input (a 20 MB command) is signed by its first and last half-MiB and its length, so hashing stays bounded.
 */
export function callSignature(tool: string, input: Record<string, unknown>): string {
  return signatureOf(tool, canonicalJson(input));
}

function signatureOf(tool: string, json: string): string {
  const half = SIGNED_MAX_CHARS / 2;
  const signed = json.length <= SIGNED_MAX_CHARS
    ? json
    : `${json.slice(0, half)}\u0000${json.length}\u0000${json.slice(-half)}`;
  return textHash64(`${tool}\u0000${signed}`);
}

/** Longest description of a call kept in state and quoted in a warning or denial. */
export const DESCRIPTION_MAX_CHARS = 60;

/**
 * A short human description of the call's input: the command for Bash, the description or prompt for Agent/Task,
 * the first question for AskUserQuestion, else the canonical input. Whitespace collapsed, cut at 60 characters.
 */
export function describeCall(tool: string, input: Record<string, unknown>): string {
  return descriptionOf(primaryText(tool, input, () => canonicalJson(input)));
}

/**
 * callSignature() and describeCall() of one call, its input serialised once: the hook signs and describes every call
 * it records, guarded or not, so that a loop through an unguarded tool is shown with what that call did.
 */
export function signAndDescribe(tool: string, input: Record<string, unknown>): { sig: string; desc: string } {
  const json = canonicalJson(input);
  return { sig: signatureOf(tool, json), desc: descriptionOf(primaryText(tool, input, () => json)) };
}

function descriptionOf(text: string): string {
  // cut before the O(n) steps: only the head of the text can reach the 60 characters shown
  return truncate(collapse(text.slice(0, DESCRIBED_MAX_CHARS)), DESCRIPTION_MAX_CHARS);
}

/** Characters of a call's text looked at to describe it: whitespace runs collapse, so more than the 60 shown. */
const DESCRIBED_MAX_CHARS = 64 * 1024;

/** The text a call is described by; `canonical()` gives the canonical input, for a call with no telling field. */
function primaryText(tool: string, input: Record<string, unknown>, canonical: () => string): string {
  const text = (key: string): string | null => {
    const v = input[key];
    return typeof v === "string" && v.trim() !== "" ? v : null;
  };
  if (tool === "Bash" || tool === "PowerShell") return text("command") ?? canonical();
  if (tool === "Agent" || tool === "Task") return text("description") ?? text("prompt") ?? canonical();
  if (tool === "AskUserQuestion") {
    const questions = input["questions"];
    if (Array.isArray(questions)) {
      const first = questions[0] as { question?: unknown } | undefined;
      if (typeof first?.question === "string" && first.question.trim() !== "") return first.question;
    }
  }
  return canonical();
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts at `max` characters (code points, so no surrogate half is left) and marks the cut with "…". */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
