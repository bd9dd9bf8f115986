/** The PreToolUse payload, as far as the anti-loop guard reads it. */
import * as z from "../../zod.ts";

/** Just enough to tell whether the tool is guarded: an unguarded call is never validated further. */
export const PretoolHeadSchema = z.looseObject({
  hook_event_name: z.optional(z.string()),
  tool_name: z.string().check(z.minLength(1)),
});

export const PretoolPayloadSchema = z.looseObject({
  /** Missing in some hand-made payloads: treated as PreToolUse. Any other event is refused (fail open). */
  hook_event_name: z.optional(z.literal("PreToolUse")),
  session_id: z.string().check(z.minLength(1)),
  tool_name: z.string().check(z.minLength(1)),
  tool_input: z.record(z.string(), z.unknown()),
  /** Present only inside a subagent. */
  agent_id: z.nullish(z.string()),
  /** The call's id: two copies of one call (the hook registered twice) share it. */
  tool_use_id: z.catch(z.nullish(z.string()), undefined),
  cwd: z.nullish(z.string()),
  /** The user prompt the call belongs to (Claude Code 2.1.196 and later): a new one starts the counts fresh. */
  prompt_id: z.catch(z.nullish(z.string()), undefined),
});
export type PretoolPayload = z.infer<typeof PretoolPayloadSchema>;

export function parsePretoolHead(raw: unknown): z.infer<typeof PretoolHeadSchema> {
  return check(PretoolHeadSchema.safeParse(raw));
}

export function parsePretoolPayload(raw: unknown): PretoolPayload {
  const data = check(PretoolPayloadSchema.safeParse(raw));
  // the schema rebuilds the record by assignment, which turns an own `__proto__` key into the copy's prototype: the
  // call's input is kept as the payload gave it (a copy of its own keys), so that key still tells two calls apart
  return { ...data, tool_input: { ...(raw as { tool_input: Record<string, unknown> }).tool_input } };
}

/** A schema failure as an error that names the field, never its value (the payload may hold secrets). */
function check<T>(result: { success: true; data: T } | { success: false; error: z.core.$ZodError }): T {
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "payload";
  throw new TypeError(`Invalid PreToolUse payload: ${where}: ${issue?.message ?? "invalid"}; allowed`);
}

/** The payload as JSON; the error never quotes stdin. */
export function parseJsonPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError(`stdin is not valid JSON (${text.length} characters); allowed`);
  }
}
