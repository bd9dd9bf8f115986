/**
 * The UserPromptSubmit payload, read tolerantly: unknown fields are ignored, odd types fall back. The hook checks a
 * usual payload by hand (payload_check.ts) and loads this schema only for one with a field it would replace.
 */
import * as z from "../../zod.ts";

const optionalString = z.catch(z.optional(z.string()), undefined);

export const PromptPayloadSchema = z.looseObject({
  hook_event_name: optionalString,
  session_id: optionalString,
  prompt: z.catch(z.string(), ""),
  prompt_id: optionalString,
  transcript_path: optionalString,
  cwd: optionalString,
  permission_mode: optionalString,
  /** Not sent on UserPromptSubmit today; a string, or an object with an id as the status line gets it. */
  model: z.catch(z.optional(z.union([z.string(), z.looseObject({ id: z.string() })])), undefined),
});
export type PromptPayload = z.infer<typeof PromptPayloadSchema>;

export function parsePromptPayload(raw: unknown): PromptPayload {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError("Payload is not a JSON object; allowed");
  }
  return PromptPayloadSchema.parse(raw);
}

export { payloadModel } from "./payload_model.ts";
