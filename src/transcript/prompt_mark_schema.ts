/** The schemas of the stored prompt marks (prompt_mark.ts), part of the reducer state's schema. */
import * as z from "../zod.ts";
import { MAX_MARK_CHARS } from "./prompt_mark.ts";

export const MarkSchema = z.nullable(z.string().check(z.maxLength(MAX_MARK_CHARS)));

/** The marks of the line that started a user turn; null where the line has none. */
export const PromptMarkSchema = z.object({
  entrypoint: MarkSchema,
  promptSource: MarkSchema,
  turnOrigin: MarkSchema,
});
export type PromptMarkOutput = z.infer<typeof PromptMarkSchema>;
