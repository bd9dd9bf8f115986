/**
 * The Stop / SubagentStop payload checked by hand: parseStopPayload's result (payload.ts) for a payload whose every
 * field it reads is absent or of its type, without building the schema (payload_check_test.ts holds the two equal).
 * A payload with a field the schema would replace (a number for `cwd`, a string for `stop_hook_active`) or a
 * session_id it refuses is left to payload.ts, which the hook then loads.
 */
import type { StopPayload } from "./payload.ts";

/** StopPayloadSchema's optional keys, in its order (after session_id and hook_event_name). */
const OPTIONAL = [
  "transcript_path",
  "agent_transcript_path",
  "agent_id",
  "agent_type",
  "cwd",
  "prompt_id",
  "permission_mode",
  "stop_hook_active",
  "last_assistant_message",
  "background_tasks",
];
/** The optional keys that hold a string. */
const STRINGS = OPTIONAL.filter((key) => key !== "stop_hook_active" && key !== "background_tasks");
/** All of the schema's keys: its output lists them first, then the payload's other keys. */
const SHAPE = ["session_id", "hook_event_name", ...OPTIONAL];

const nullish = (v: unknown) => v === undefined || v === null;

/** parseStopPayload's result for a payload object it takes as it is; null for any other. */
export function checkStopPayload(raw: Record<string, unknown>): StopPayload | null {
  if (Object.hasOwn(raw, "__proto__")) return null;
  const id = raw["session_id"];
  const event = raw["hook_event_name"];
  if ((id !== undefined && typeof id !== "string") || (event !== undefined && typeof event !== "string")) return null;
  for (const key of STRINGS) if (!nullish(raw[key]) && typeof raw[key] !== "string") return null;
  const active = raw["stop_hook_active"];
  const tasks = raw["background_tasks"];
  if ((!nullish(active) && typeof active !== "boolean") || (!nullish(tasks) && !Array.isArray(tasks))) return null;
  const out: Record<string, unknown> = {
    session_id: id ?? "unknown",
    // another event is refused by the runner before this; none (or any other name) reads as Stop
    hook_event_name: event === "SubagentStop" ? event : "Stop",
  };
  for (const key of OPTIONAL) {
    if (Object.hasOwn(raw, key)) out[key] = key === "background_tasks" && Array.isArray(tasks) ? [...tasks] : raw[key];
  }
  for (const key of Object.keys(raw)) if (!SHAPE.includes(key)) out[key] = raw[key];
  return out as StopPayload;
}
