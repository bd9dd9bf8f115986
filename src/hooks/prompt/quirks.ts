/**
 * Model quirks: model-id substrings mapped to a few corrective lines (rules/quirks.json, embedded), merged with
 * the user's own file. Pure: text in, a quirk set out; matching is a case-insensitive substring test. This module
 * builds no schema and loads no zod: a user's quirk file is read by quirks_user.ts, which the prompt hook imports only
 * when such a file exists.
 */
import builtin from "../../../rules/quirks.json" with { type: "json" };

/** One quirk: the schema's output (quirks_user.ts; quirks_test.ts holds the two types equal). */
export interface Quirk {
  /** kebab-case, unique; a user entry with a built-in's id replaces it. */
  id: string;
  description?: string | undefined;
  /** Model-id substrings (case-insensitive); any one of them matching applies the entry. */
  match: string[];
  /** The corrective lines added to the context, one bullet each. */
  lines: string[];
  /** Model ids that must match (`match`) and must not (`pass`): checked by the table test, and on load for user files. */
  examples?: { match: string[]; pass: string[] } | undefined;
}

/** A quirk file as the schema gives it. */
export interface QuirkFile {
  /** Built-in ids this file switches off. */
  disable: string[];
  quirks: Quirk[];
}

export interface QuirkSet {
  quirks: Quirk[];
  /** Problems with user files (each such file was ignored) and warnings (unknown ids in `disable`). */
  problems: string[];
}

type QuirkInput = { id: string; description?: string; match: string[]; lines: string[]; examples?: QuirkExamples };
type QuirkExamples = { match?: string[]; pass?: string[] };

/**
 * The schema's output for a valid quirk file, without validating it: keys in the schema's order, `match` and `lines`
 * trimmed, the examples' defaults filled in. Only for the built-in file, which quirks_test.ts validates and compares.
 */
export function fillQuirkFile(data: { disable?: string[]; quirks?: QuirkInput[] }): QuirkFile {
  const quirks = (data.quirks ?? []).map((q) => {
    const out: Record<string, unknown> = { id: q.id };
    if (q.description !== undefined) out["description"] = q.description;
    out["match"] = q.match.map((m) => m.trim());
    out["lines"] = q.lines.map((l) => l.trim());
    if (q.examples !== undefined) {
      out["examples"] = { match: [...(q.examples.match ?? [])], pass: [...(q.examples.pass ?? [])] };
    }
    return out as unknown as Quirk;
  });
  return { disable: [...(data.disable ?? [])], quirks };
}

/** The built-in file; the table test checks it, so a parse failure here is a bug caught before release. */
export const BUILTIN_QUIRKS: Quirk[] = fillQuirkFile(builtin as Parameters<typeof fillQuirkFile>[0]).quirks;

/** A user quirk file as read from disk. */
export interface UserQuirkSource {
  origin: string;
  text: string;
}

export function quirkMatches(quirk: Quirk, model: string): boolean {
  const id = model.toLowerCase();
  return quirk.match.some((s) => id.includes(s.toLowerCase()));
}

/** Every entry that applies to the model, in set order (none for an unknown model). */
export function quirksFor(model: string | null, set: readonly Quirk[]): Quirk[] {
  if (!model) return [];
  return set.filter((q) => quirkMatches(q, model));
}

/** The first example of the entry that does not behave as labelled, as a message; null when all do. */
export function exampleFailure(quirk: Quirk): string | null {
  for (const [i, model] of (quirk.examples?.match ?? []).entries()) {
    if (!quirkMatches(quirk, model)) return `quirk "${quirk.id}" did not match examples.match[${i}] "${model}"`;
  }
  for (const [i, model] of (quirk.examples?.pass ?? []).entries()) {
    if (quirkMatches(quirk, model)) return `quirk "${quirk.id}" matched examples.pass[${i}] "${model}"`;
  }
  return null;
}
