/**
 * Recovery nudges: per-kind texts kept as data in rules/stall_nudges.json, assembled into one block reason:
 * a header, one bullet per stall (`- [kind] label: text`), a footer.
 */
import builtin from "../../../../rules/stall_nudges.json" with { type: "json" };
import type { NudgeFile } from "./nudges_schema.ts";
import type { StallSignature } from "./signature.ts";

export type { NudgeFile };

/**
 * The built-in nudges, as embedded: the file is valid (nudges_test.ts validates it with nudges_schema.ts's schema,
 * whose output is the file as it is), so a hook neither builds the schema nor parses the file.
 */
export function builtinNudges(): NudgeFile {
  return builtin;
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
