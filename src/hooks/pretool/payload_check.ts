/**
 * The PreToolUse payload checked by hand: payload.ts's schemas' output for a payload they accept, without building
 * them (payload_check_test.ts holds the two equal). A payload this cannot vouch for (a field missing or of another
 * type, a `tool_use_id` or `prompt_id` the schema would replace) is left to payload.ts, which the hook then loads for
 * its message.
 */
import type { PretoolPayload } from "./payload.ts";

/** PretoolPayloadSchema's keys, in its order: its output lists them first, then the payload's other keys. */
const SHAPE = [
  "hook_event_name",
  "session_id",
  "tool_name",
  "tool_input",
  "agent_id",
  "tool_use_id",
  "cwd",
  "prompt_id",
];

const nullishString = (v: unknown) => v === undefined || v === null || typeof v === "string";
const nonEmpty = (v: unknown) => typeof v === "string" && v.length > 0;
const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** parsePretoolHead then parsePretoolPayload, for a payload both accept as it is; null for any other. */
export function checkPretoolPayload(raw: Record<string, unknown>): PretoolPayload | null {
  if (Object.hasOwn(raw, "__proto__")) return null;
  const event = raw["hook_event_name"];
  if (event !== undefined && event !== "PreToolUse") return null;
  if (!nonEmpty(raw["session_id"]) || !nonEmpty(raw["tool_name"])) return null;
  const input = raw["tool_input"];
  if (!plainObject(input) || Object.hasOwn(input, "__proto__")) return null;
  for (const key of ["agent_id", "tool_use_id", "cwd", "prompt_id"]) if (!nullishString(raw[key])) return null;
  const out: Record<string, unknown> = {};
  for (const key of SHAPE) if (Object.hasOwn(raw, key)) out[key] = key === "tool_input" ? { ...input } : raw[key];
  for (const key of Object.keys(raw)) if (!SHAPE.includes(key)) out[key] = raw[key];
  return out as PretoolPayload;
}
