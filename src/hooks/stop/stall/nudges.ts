/**
 * Recovery nudges: per-kind texts kept as data in rules/stall_nudges.json, assembled into one block reason:
 * a header, one bullet per stall (`- [kind] label: text`), a footer.
 */
import * as z from "../../../zod.ts";
import builtin from "../../../../rules/stall_nudges.json" with { type: "json" };
import type { StallSignature } from "./signature.ts";

function nudgeFileSchema() {
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

let parsed: NudgeFile | null = null;

/**
 * The built-in nudges, validated the first time a nudge is rendered: a stop without a stall never builds the schema
 * or parses the file (about 3 ms of every Stop hook's start).
 */
export function builtinNudges(): NudgeFile {
  return parsed ??= nudgeFileSchema().parse(builtin);
}

export function nudgeFor(signature: StallSignature, nudges: NudgeFile = builtinNudges()): string {
  const nudge = nudges.kinds[signature.kind] ?? nudges.default;
  const text = nudge.text
    .replaceAll("{tool}", signature.tool || "the tool")
    .replaceAll("{id}", signature.id || "<unknown id>")
    .replaceAll("{line}", String(signature.line));
  return `- [${signature.kind}] ${nudge.label}: ${text}`;
}

/** The block reason for a set of stalls ("" for none). */
export function recoveryReason(signatures: readonly StallSignature[], given?: NudgeFile): string {
  if (signatures.length === 0) return "";
  const nudges = given ?? builtinNudges();
  return [nudges.header, ...signatures.map((s) => nudgeFor(s, nudges)), nudges.footer].join("\n");
}
