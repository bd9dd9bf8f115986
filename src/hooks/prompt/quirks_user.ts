/**
 * A user's quirk files, validated and merged with the built-ins: the quirk file schemas (zod) and the JSONC parse,
 * imported only when a user quirk file exists (the built-in file is filled in by hand, quirks.ts).
 */
import { parse as parseJsonc, type ParseError, parseProblem } from "../../jsonc.ts";
import * as z from "../../zod.ts";
import {
  BUILTIN_QUIRKS,
  exampleFailure,
  type Quirk,
  type QuirkFile,
  type QuirkSet,
  type UserQuirkSource,
} from "./quirks.ts";

export const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

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

/** The schema's output types, for quirks_test.ts to hold equal to quirks.ts's Quirk and QuirkFile. */
export type SchemaQuirk = z.infer<QuirkSchemas["QuirkSchema"]>;
export type SchemaQuirkFile = z.infer<QuirkSchemas["QuirkFileSchema"]>;

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
  if (errors.length > 0) return { error: parseProblem(source.text, errors[0]!) };
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
  return { file: result.data as QuirkFile };
}
