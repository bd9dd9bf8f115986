/**
 * The Stop / SubagentStop payload, read tolerantly: unknown fields are ignored, and a field of the wrong type
 * reads as absent instead of failing the hook. The hook checks a usual payload by hand (payload_check.ts) and loads
 * this schema only for one with a field it would replace. The runner has already refused a payload whose session_id is
 * not a non-empty string or whose hook_event_name names another event (runner.ts, untrusted); the fallbacks below
 * serve other callers (replay).
 */
import * as z from "../../zod.ts";

const optionalString = z.catch(z.optional(z.nullable(z.string())), undefined);

export const StopPayloadSchema = z.looseObject({
  session_id: z.catch(z.string(), "unknown"),
  hook_event_name: z.catch(z.string(), "Stop"),
  transcript_path: optionalString,
  agent_transcript_path: optionalString,
  agent_id: optionalString,
  agent_type: optionalString,
  cwd: optionalString,
  prompt_id: optionalString,
  permission_mode: optionalString,
  stop_hook_active: z.catch(z.optional(z.nullable(z.boolean())), undefined),
  last_assistant_message: optionalString,
  background_tasks: z.catch(z.optional(z.nullable(z.array(z.unknown()))), undefined),
});
export type StopPayload = z.infer<typeof StopPayloadSchema>;

/** Parse the payload object; throws only when stdin is not a JSON object at all. */
export function parseStopPayload(raw: unknown): StopPayload {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError("Cannot read the hook payload: stdin is not a JSON object");
  }
  const id = (raw as Record<string, unknown>)["session_id"];
  if (id !== undefined && typeof id !== "string") {
    // never fold it into the shared "unknown" session: its count and state would be another session's
    throw new TypeError(`session_id is a ${id === null ? "null" : typeof id}, not a string; allowed`);
  }
  const payload = StopPayloadSchema.parse(raw);
  // another event is refused by the runner before this; a name that is not a string reads as Stop
  return payload.hook_event_name === "SubagentStop" ? payload : { ...payload, hook_event_name: "Stop" };
}
