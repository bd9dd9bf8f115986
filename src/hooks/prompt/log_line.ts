/** The `hook prompt` line in log.jsonl (`kind: "prompt"`): what was added, never the prompt's text. */
import * as z from "../../zod.ts";

export const PromptLogLineSchema = z.looseObject({
  ts: z.string(),
  session: z.string(),
  event: z.literal("UserPromptSubmit"),
  kind: z.literal("prompt"),
  /** "short" | "medium" (nudged), "silent" (real work), "off" (opt-out or switched off). */
  band: z.enum(["short", "medium", "silent", "off"]),
  /** Why there was no nudge (silent/off); null when nudged. */
  reason: z.nullable(z.string()),
  words: z.int().check(z.minimum(0)),
  nudged: z.boolean(),
  /** Ids of the quirk entries applied. */
  quirks: z.array(z.string()),
  model: z.nullable(z.string()),
  /** How the model was found: the payload, the transcript's tail, or not at all. */
  modelSource: z.enum(["payload", "transcript", "none"]),
  firstTurn: z.boolean(),
  clock: z.boolean(),
  zone: z.string(),
  cwd: z.nullable(z.string()),
});
export type PromptLogLine = z.infer<typeof PromptLogLineSchema>;
