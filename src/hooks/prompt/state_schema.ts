/**
 * The schema of a session's prompt state file (state.ts). The hook checks a valid file by hand and loads this module
 * only for one the check cannot vouch for; state_check_test.ts holds the two equal.
 */
import * as z from "../../zod.ts";
import { type LoadedStateFile, parseStateFile } from "../../store/state_file.ts";

export const PromptStateSchema = z.looseObject({
  v: z.literal(1),
  /** When the first prompt of the session was seen (ms since the epoch). */
  openedAt: z.number(),
  /** The latest prompt. */
  lastPromptAt: z.number(),
  lastPromptId: z.nullable(z.string()),
  /** The prompt before the latest one: a second call for the same prompt (the hook registered twice) uses it. */
  prevPromptAt: z.nullable(z.number()),
  prompts: z.int().check(z.minimum(1)),
});
export type PromptStateOutput = z.infer<typeof PromptStateSchema>;

/** A prompt state file's text, validated by the schema alone (tests; the hook reads through state.ts). */
export function parsePromptState(text: string, path: string): LoadedStateFile<PromptStateOutput | null> {
  return parseStateFile(text, path, { schema: PromptStateSchema, fresh: () => null, label: "state file" });
}
