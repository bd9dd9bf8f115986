/**
 * Model quirks: model-id substrings mapped to a few corrective lines (rules/quirks.json, embedded), merged with
 * the user's own file. Pure: text in, a quirk set out; matching is a case-insensitive substring test.
 */
import { parse as parseJsonc, type ParseError, printParseErrorCode } from "../../jsonc.ts";
import * as z from "../../zod.ts";
import builtin from "../../../rules/quirks.json" with { type: "json" };
import { lineCol } from "../../config_check.ts";

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The quirk file schemas, built on first use: for a user's quirk file (the built-in one is filled in by hand). */
function buildQuirkSchemas() {
  const QuirkSchema = z.strictObject({
    /** kebab-case, unique; a user entry with a built-in's id replaces it. */
    id: z.string().check(z.regex(ID, "must be kebab-case (a-z, 0-9, -), at most 64 characters")),
    description: z.optional(z.string().check(z.maxLength(500))),
    /** Model-id substrings (case-insensitive); any one of them matching applies the entry. */
    match: z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.minLength(1), z.maxLength(50)),
    /** The corrective lines added to the context, one bullet each. */
    lines: z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))).check(z.minLength(1), z.maxLength(10)),
    /** Model ids that must match (`match`) and must not (`pass`): checked by the table test, and on load for user files. */
    examples: z.optional(z.strictObject({
      match: z._default(z.array(z.string()), []),
      pass: z._default(z.array(z.string()), []),
    })),
  });

  const QuirkFileSchema = z.strictObject({
    /** Built-in ids this file switches off. */
    disable: z._default(z.array(z.string()), []),
    quirks: z._default(z.array(QuirkSchema), []),
  });
  return { QuirkSchema, QuirkFileSchema };
}

type QuirkSchemas = ReturnType<typeof buildQuirkSchemas>;
let built: QuirkSchemas | null = null;

/** The quirk file schemas (built once, when first asked for). */
export function quirkSchemas(): QuirkSchemas {
  return built ??= buildQuirkSchemas();
}

export type Quirk = z.infer<QuirkSchemas["QuirkSchema"]>;
export type QuirkFile = z.infer<QuirkSchemas["QuirkFileSchema"]>;

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
    return out as Quirk;
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

/** Built-ins merged with the user's files, in order. A bad file is reported and ignored as a whole. */
export function buildQuirkSet(
  userFiles: readonly UserQuirkSource[],
  builtins: readonly Quirk[] = BUILTIN_QUIRKS,
): QuirkSet {
  let quirks = [...builtins];
  const problems: string[] = [];
  for (const source of userFiles) {
    const parsed = parseQuirkFile(source);
    if ("error" in parsed) {
      problems.push(`${source.origin}: ${parsed.error}; file ignored`);
      continue;
    }
    for (const id of parsed.file.disable) {
      if (!quirks.some((q) => q.id === id)) problems.push(`${source.origin}: disable: unknown quirk id "${id}"`);
    }
    quirks = quirks.filter((q) => !parsed.file.disable.includes(q.id));
    for (const quirk of parsed.file.quirks) {
      const at = quirks.findIndex((q) => q.id === quirk.id);
      if (at >= 0) quirks[at] = quirk;
      else quirks.push(quirk);
    }
  }
  return { quirks, problems };
}

export function parseQuirkFile(source: UserQuirkSource): { file: QuirkFile } | { error: string } {
  const errors: ParseError[] = [];
  const raw = parseJsonc(source.text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, col } = lineCol(source.text, first.offset);
    return { error: `invalid JSONC: ${printParseErrorCode(first.error)} at ${line}:${col}` };
  }
  const result = quirkSchemas().QuirkFileSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { error: `${issue?.path.join(".") || "(top level)"}: ${issue?.message ?? "invalid"}` };
  }
  const ids = new Set<string>();
  for (const quirk of result.data.quirks) {
    if (ids.has(quirk.id)) return { error: `quirk id "${quirk.id}" appears twice` };
    ids.add(quirk.id);
    const failure = exampleFailure(quirk);
    if (failure) return { error: failure };
  }
  return { file: result.data };
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
