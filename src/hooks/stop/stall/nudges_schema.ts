/**
 * The schema of the recovery nudges file (rules/stall_nudges.json, read by nudges.ts). The embedded file is used as
 * it is: nudges_test.ts validates it with this schema, which a hook never loads.
 */
import * as z from "../../../zod.ts";

export function nudgeFileSchema() {
  const NudgeSchema = z.strictObject({
    label: z.string().check(z.minLength(1)),
    text: z.string().check(z.minLength(1)),
  });
  return z.strictObject({
    header: z.string().check(z.minLength(1)),
    footer: z.string().check(z.minLength(1)),
    kinds: z.record(z.string(), NudgeSchema),
    default: NudgeSchema,
    /** Rendered-text checks run by the table test: each signature's bullet must contain every string. */
    examples: z.array(z.object({
      signature: z.object({ kind: z.string(), tool: z.string(), id: z.string(), line: z.int() }),
      contains: z.array(z.string()).check(z.minLength(1)),
    })).check(z.minLength(1)),
  });
}
export type NudgeFile = z.infer<ReturnType<typeof nudgeFileSchema>>;
