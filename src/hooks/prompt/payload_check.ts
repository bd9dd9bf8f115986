/**
 * The UserPromptSubmit payload checked by hand: payload.ts's schema's output for a payload whose every field it
 * reads is absent or of its type, without building the schema (payload_check_test.ts holds the two equal). A payload
 * with a field the schema would replace (a number for `prompt`, an object for `cwd`) is left to payload.ts.
 */
import type { PromptPayload } from "./payload.ts";

const STRINGS = ["hook_event_name", "session_id", "prompt", "prompt_id", "transcript_path", "cwd", "permission_mode"];
/** PromptPayloadSchema's keys, in its order: its output lists them first, then the payload's other keys. */
const SHAPE = [...STRINGS, "model"];

const plainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** parsePromptPayload's result for a payload object it takes as it is; null for any other. */
export function checkPromptPayload(raw: Record<string, unknown>): PromptPayload | null {
  if (Object.hasOwn(raw, "__proto__") || typeof raw["prompt"] !== "string") return null;
  for (const key of STRINGS) if (raw[key] !== undefined && typeof raw[key] !== "string") return null;
  const model = raw["model"];
  const modelObject = plainObject(model);
  if (model !== undefined && typeof model !== "string") {
    if (!modelObject || Object.hasOwn(model, "__proto__") || typeof model["id"] !== "string") return null;
  }
  const out: Record<string, unknown> = {};
  for (const key of SHAPE) {
    if (Object.hasOwn(raw, key)) out[key] = key === "model" && modelObject ? { ...model } : raw[key];
  }
  for (const key of Object.keys(raw)) if (!SHAPE.includes(key)) out[key] = raw[key];
  return out as PromptPayload;
}
