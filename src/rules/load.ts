/**
 * Building the rule set: the embedded built-ins merged with the user's rule files. `buildRuleSet`
 * is pure (text in, RuleSet out); `readUserRuleFiles` is the only part that touches the disk.
 *
 * A user file loads whole or not at all: a JSONC syntax error, a schema error, a bad regex (one with a nested
 * quantifier included, nested_quantifiers.ts) or an id clash makes it an error entry in `RuleSet.files` and none of
 * its rules apply. Built-ins always do.
 */
import { readRegularText } from "../store/safe_file.ts";
import { join } from "../path.ts";
import { parse, type ParseError, parseProblem } from "../jsonc.ts";
import { suggestion } from "../did_you_mean.ts";
import type { BuiltinRuleFile, BuiltinSource, PrefilterData } from "./builtin.ts";
import type { CompiledRule, RuleFile, RuleFileReport, RuleFileSchema, RuleKind, RuleSet } from "./schema.ts";
import { foldable, mayFold } from "./case_fold.ts";
import { tolerateAccents } from "./accents.ts";
import type { nestedQuantifier } from "./nested_quantifiers.ts";

/** A user rule file as read from disk: its text, or why it could not be read. */
export type UserRuleSource = { origin: string; text: string } | { origin: string; error: string };

export interface BuildRuleSetOptions {
  /** User rule files in the order they apply (later files override earlier ones). */
  userFiles: readonly UserRuleSource[];
  /**
   * The built-in files: the embedded ones with their prefilter literals (full.ts for all of them, builtin_hot.ts for
   * a message's languages), or a list of files validated like a user's (tests).
   */
  builtins: BuiltinSource | readonly BuiltinRuleFile[];
  /**
   * The rule file schema (schema.ts `ruleSchemas().RuleFileSchema`), which validates every file that is not an
   * embedded built-in: required when there is one (a user's file, or `builtins`). loadRuleSet loads it only then.
   */
  fileSchema?: RuleFileSchema;
  /**
   * The nested-quantifier check (nested_quantifiers.ts), which every pattern of a user's file passes: required with
   * `fileSchema`. loadRuleSet loads it only then, as it does the schema: a Stop hook without a user file never needs it.
   */
  nestedQuantifier?: typeof nestedQuantifier;
}

export interface LoadRuleSetOptions {
  /**
   * Only the built-in rules a message of these languages can need (closing/languages.ts): the core and those
   * languages' packs (builtin_hot.ts). Without it, or when the user has a rule file (its ids are checked against
   * every built-in one), every built-in rule.
   */
  langs?: ReadonlySet<string>;
}

/**
 * The rule set of the embedded built-ins and the user's rule files in `dir`. The rule file schema (and zod with it)
 * is loaded only when there is a user's file to validate: a Stop hook without one builds no schema.
 */
export async function loadRuleSet(dir: string, options: LoadRuleSetOptions = {}): Promise<RuleSet> {
  const whole = () => import("./builtin.ts").then((m) => m.BUILTIN_SOURCE);
  const [userFiles, some] = await Promise.all([
    readUserRuleFiles(dir),
    options.langs === undefined ? whole() : import("./builtin_hot.ts").then((m) => m.builtinsFor(options.langs!)),
  ]);
  if (!userFiles.some((source) => "text" in source)) return buildRuleSet({ userFiles, builtins: some });
  // a user's file is checked against every built-in id (a clash, a `disable`, a replacement in place): the whole set
  const builtins = options.langs === undefined ? some : await whole();
  const [{ ruleSchemas }, { nestedQuantifier }] = await Promise.all([
    import("./schema.ts"),
    import("./nested_quantifiers.ts"),
  ]);
  return buildRuleSet({ userFiles, builtins, fileSchema: ruleSchemas().RuleFileSchema, nestedQuantifier });
}

/** User rule files larger than this are refused unread. */
export const MAX_RULE_FILE_BYTES = 1024 * 1024;

type Lists = Record<RuleKind, CompiledRule[]>;
type Loaded = { file: RuleFile; rules: CompiledRule[] };

export function buildRuleSet(options: BuildRuleSetOptions): RuleSet {
  const lists: Lists = { escape: [], blocker: [], "early-stop": [], counter: [] };
  const files: RuleFileReport[] = [];
  const builtinIds = new Set<string>();

  const listed = Array.isArray(options.builtins);
  const source = options.builtins as BuiltinSource;
  for (const builtin of listed ? options.builtins as readonly BuiltinRuleFile[] : source.files) {
    // the embedded files are valid (load_test.ts validates each with the schema): their defaults are filled in by hand
    const prefilters = listed ? null : source.prefilters;
    const loaded = loadData(
      { origin: builtin.origin, data: builtin.data, trusted: true, prefilters },
      options,
    );
    if ("error" in loaded) {
      files.push(report({ origin: builtin.origin, kind: null, error: loaded.error }));
      continue;
    }
    for (const rule of loaded.rules) builtinIds.add(rule.id);
    lists[loaded.file.kind].push(...loaded.rules);
    files.push(report({ origin: builtin.origin, kind: loaded.file.kind, rules: loaded.rules.length }));
  }

  for (const source of options.userFiles) {
    if ("error" in source) {
      files.push(report({ origin: source.origin, kind: null, error: source.error }));
      continue;
    }
    const parsed = parseJsonc(source.text);
    const loaded = "error" in parsed
      ? parsed
      : loadData({ origin: source.origin, data: parsed.data, trusted: false }, options);
    const clash = "error" in loaded ? null : kindClash(lists, loaded);
    if ("error" in loaded || clash !== null) {
      const kind = "error" in loaded ? null : loaded.file.kind;
      files.push(report({ origin: source.origin, kind, error: "error" in loaded ? loaded.error : clash }));
      continue;
    }
    const warnings = applyUserFile({ lists, loaded, builtinIds });
    files.push(report({ origin: source.origin, kind: loaded.file.kind, rules: loaded.rules.length, warnings }));
  }

  return {
    escape: lists.escape,
    blocker: lists.blocker,
    earlyStop: lists["early-stop"],
    counter: lists.counter,
    files,
  };
}

function report(
  fields: { origin: string; kind: RuleKind | null; rules?: number; error?: string | null; warnings?: string[] },
): RuleFileReport {
  return {
    origin: fields.origin,
    kind: fields.kind,
    rules: fields.rules ?? 0,
    error: fields.error ?? null,
    warnings: fields.warnings ?? [],
  };
}

/** Applies `disable`, then replaces same-id rules in place and appends new ones. Returns warnings. */
function applyUserFile(
  { lists, loaded, builtinIds }: { lists: Lists; loaded: Loaded; builtinIds: ReadonlySet<string> },
): string[] {
  const warnings: string[] = [];
  for (const id of loaded.file.disable) {
    if (!builtinIds.has(id)) {
      warnings.push(`disable: "${id}" is not a built-in rule id${suggestion(id, [...builtinIds])}`);
      continue;
    }
    for (const kind of Object.keys(lists) as RuleKind[]) {
      lists[kind] = lists[kind].filter((rule) => rule.id !== id);
    }
  }
  const list = lists[loaded.file.kind];
  for (const rule of loaded.rules) {
    const at = list.findIndex((existing) => existing.id === rule.id);
    if (at === -1) {
      list.push(rule);
      continue;
    }
    const replaced = list[at];
    if (replaced && !replaced.origin.startsWith("builtin:")) {
      warnings.push(`rule "${rule.id}" replaces the one from ${replaced.origin}`);
    }
    list[at] = rule;
  }
  return warnings;
}

/** An error when a rule reuses the id of a rule of another kind (ids are unique across kinds). */
function kindClash(lists: Lists, loaded: Loaded): string | null {
  for (const rule of loaded.rules) {
    for (const kind of Object.keys(lists) as RuleKind[]) {
      if (kind === loaded.file.kind) continue;
      const other = lists[kind].find((existing) => existing.id === rule.id);
      if (other) {
        return `rule "${rule.id}" is already a ${kind} rule (from ${other.origin}); ` +
          `a ${loaded.file.kind} file cannot replace it`;
      }
    }
  }
  return null;
}

/** The data, or the first parse error in words ("1:3: invalid JSON: comma expected"; later ones mostly follow from it). */
function parseJsonc(text: string): { data: unknown } | { error: string } {
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0 ? { data } : { error: parseProblem(text, errors[0]!) };
}

/**
 * Validates parsed data against the schema and compiles its rules. An embedded built-in file skips the schema: its
 * defaults are filled in by `fillRuleFileDefaults`, which gives the schema's output for a valid file (load_test.ts).
 */
function loadData(
  { origin, data, trusted, prefilters = null }: {
    origin: string;
    data: unknown;
    trusted: boolean;
    /** An embedded built-in's prefilter literals: the file skips the schema, its rules compile when first matched. */
    prefilters?: PrefilterData | null;
  },
  { fileSchema, nestedQuantifier }: Pick<BuildRuleSetOptions, "fileSchema" | "nestedQuantifier">,
): Loaded | { error: string } {
  let file: RuleFile;
  const embedded = prefilters !== null;
  if (embedded) file = fillRuleFileDefaults(data as RuleFileInput);
  else {
    if (fileSchema === undefined) {
      throw new TypeError(`buildRuleSet: ${origin} needs the rule file schema (fileSchema)`);
    }
    if (!trusted && nestedQuantifier === undefined) {
      throw new TypeError(`buildRuleSet: ${origin} needs the nested-quantifier check (nestedQuantifier)`);
    }
    const result = fileSchema.safeParse(data);
    if (!result.success) {
      const shown = result.error.issues.slice(0, 5).map((issue) => `${issuePath(issue.path)}: ${issue.message}`);
      const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : "";
      return { error: `invalid rule file: ${shown.join("; ")}${more}` };
    }
    file = result.data;
  }
  const rules: CompiledRule[] = [];
  const seen = new Set<string>();
  let expanded = 0;
  let checked = 0;
  const shapeProblem = (source: string, flags: string): string | null => {
    const left = MAX_FILE_CHECK_STEPS - checked;
    // nestedQuantifier keeps to its own budget for one pattern too (MAX_CHECK_STEPS), whichever is less
    const problem = nestedQuantifier!(source, flags, { maxSteps: left, onSteps: (steps) => checked += steps });
    return problem !== null && checked > MAX_FILE_CHECK_STEPS && problem.startsWith("too large to check")
      ? `the file's patterns take more than ${MAX_FILE_CHECK_STEPS} steps in all to check for nested quantifiers`
      : problem;
  };
  for (const [index, rule] of file.rules.entries()) {
    const where = `rules[${index}] "${rule.id}"`;
    if (seen.has(rule.id)) return { error: `${where}: duplicate id in this file` };
    seen.add(rule.id);
    if (embedded) {
      const needs = prefilters[origin]?.[rule.id];
      rules.push(lazilyCompiled({ ...rule, kind: file.kind, regexes: [], origin }, file.grammar, needs));
      continue;
    }
    const regexes: RegExp[] = [];
    for (const [p, raw] of rule.patterns.entries()) {
      const left = MAX_EXPANDED_FILE_CHARS - expanded;
      const source = expandGrammar(raw, file.grammar, { maxChars: Math.min(MAX_EXPANDED_PATTERN_CHARS, left) });
      if (source.error) {
        const error = source.tooLong && left < MAX_EXPANDED_PATTERN_CHARS
          ? `the file's patterns expand past ${MAX_EXPANDED_FILE_CHARS} characters in all`
          : source.error;
        return { error: `${where} patterns[${p}]: ${error}` };
      }
      expanded += source.text.length;
      const compiled = compilePattern(source.text, rule.flags);
      const problem = typeof compiled === "string"
        ? compiled
        : trusted
        ? null
        : emptyMatchProblem(compiled) ?? shapeProblem(source.text, rule.flags);
      if (typeof compiled === "string" || problem) return { error: `${where} patterns[${p}]: ${problem}` };
      regexes.push(compiled);
    }
    rules.push({ ...rule, kind: file.kind, regexes, origin });
  }
  return { file, rules };
}

/**
 * An embedded rule whose patterns are expanded and compiled the first time it is matched: a message reaches only
 * its languages' rules (half the built-in patterns are for other languages than English), and building all 470
 * costs a Stop hook milliseconds. load_test.ts compiles every built-in eagerly and compares.
 */
function lazilyCompiled(
  rule: CompiledRule,
  grammar: Readonly<Record<string, string>>,
  needs: readonly (readonly string[] | null)[] | undefined,
): CompiledRule {
  const compiled: (RegExp | undefined)[] = [];
  const regexAt = (i: number) => compiled[i] ??= new RegExp(expandGrammar(rule.patterns[i]!, grammar).text, rule.flags);
  let all: RegExp[] | null = null;
  Object.defineProperty(rule, "regexes", {
    enumerable: true,
    configurable: true,
    get: () => all ??= rule.patterns.map((_, i) => regexAt(i)),
  });
  // not enumerable: the rule's fields stay those of an eagerly loaded one
  Object.defineProperty(rule, "regexAt", { value: regexAt, enumerable: false });
  const folded: (RegExp | null | undefined)[] = [];
  const foldedAt = (i: number) => {
    if (folded[i] !== undefined) return folded[i];
    // a source without a Cyrillic letter is never foldable: no need to expand it (most patterns a message reaches)
    if (!mayFold(rule.patterns[i]!, rule.flags)) return folded[i] = null;
    const source = expandGrammar(rule.patterns[i]!, grammar).text;
    return folded[i] = foldable(source, rule.flags) ? new RegExp(source, "") : null;
  };
  Object.defineProperty(rule, "foldedAt", { value: foldedAt, enumerable: false });
  // the generated literals belong to these very patterns (prefilter_test.ts): one per pattern, or none at all
  if (needs !== undefined && needs.length === rule.patterns.length) {
    Object.defineProperty(rule, "needs", { value: needs, enumerable: false });
  }
  return rule;
}

type RuleFileInput = Record<string, unknown> & { rules?: Record<string, unknown>[] };

/** The keys of a rule and of a rule file, in the schema's order (its output's key order), and their defaults. */
const RULE_KEYS = [
  "id",
  "description",
  "patterns",
  "flags",
  "tailChars",
  "advice",
  "label",
  "act",
  "scope",
  "weight",
  "lang",
  "cancels",
  "examples",
] as const;
const RULE_DEFAULTS: Readonly<Record<string, unknown>> = {
  flags: "iu",
  tailChars: null,
  advice: "",
  scope: "message",
  weight: 1,
  lang: "any",
};

/**
 * The schema's output for a rule file that is valid, without validating it: defaults filled in, keys in the
 * schema's order, arrays and objects copied as the schema copies them. Only for the embedded built-ins.
 */
export function fillRuleFileDefaults(data: RuleFileInput): RuleFile {
  const out: Record<string, unknown> = {};
  if (data["$schema"] !== undefined) out["$schema"] = data["$schema"];
  out["kind"] = data["kind"];
  out["disable"] = data["disable"] === undefined ? [] : [...(data["disable"] as string[])];
  out["grammar"] = data["grammar"] === undefined ? {} : { ...(data["grammar"] as Record<string, string>) };
  out["rules"] = (data.rules ?? []).map((rule) => {
    const filled: Record<string, unknown> = {};
    for (const key of RULE_KEYS) {
      const value = rule[key];
      if (value === undefined) {
        if (key in RULE_DEFAULTS) filled[key] = RULE_DEFAULTS[key];
      } else if (key === "examples") {
        const examples = value as { match: string[]; pass: string[] };
        filled[key] = { match: [...examples.match], pass: [...examples.pass] };
      } else filled[key] = Array.isArray(value) ? [...value] : value;
    }
    return filled;
  });
  return out as unknown as RuleFile;
}

const PART = /(?<!\\[pPu])\{([A-Z][A-Z0-9_]*)\}/g;

/**
 * The longest a pattern may grow to with its grammar parts in place (the longest built-in is about 3,200 characters).
 * Parts that use parts multiply: eight levels of a part written sixteen times is 16^8 copies from a few hundred bytes.
 */
export const MAX_EXPANDED_PATTERN_CHARS = 64 * 1024;

/**
 * The most steps the nested-quantifier check may take on all of a user file's patterns (nested_quantifiers.ts bounds
 * one pattern's at `MAX_CHECK_STEPS`): about 300 ms, once a file, so no file's check holds up a stop for long.
 */
export const MAX_FILE_CHECK_STEPS = 16_000_000;

/** The longest a user file's patterns may grow to in all (the built-in early-stop file's are about 530,000). */
export const MAX_EXPANDED_FILE_CHARS = 4 * 1024 * 1024;

/**
 * A pattern with its `{NAME}` grammar parts replaced (parts may use parts; at most 8 levels), and its accented
 * letters also taking their plain spellings (accents.ts). Regex quantifiers (`{2,5}`) are digits, and Unicode
 * properties (`\p{L}`) and code points (`\u{FE0F}`) follow `\p` or `\u`, so none of them clashes with a part name.
 * Each level's length is counted before its text is built: a pattern that would grow past `maxChars` is an error
 * (`tooLong`), and so is one that the accents' spellings take past it, with grammar parts or without.
 */
export function expandGrammar(
  pattern: string,
  grammar: Readonly<Record<string, string>>,
  { maxChars = MAX_EXPANDED_PATTERN_CHARS }: { maxChars?: number } = {},
): { text: string; error: null } | { text: ""; error: string; tooLong: boolean } {
  let text = pattern;
  for (let depth = 0; depth < 8; depth++) {
    let length = text.length;
    let parts = 0;
    for (const [all, name] of text.matchAll(PART)) {
      const part = grammar[name!];
      if (part === undefined) return { text: "", error: `unknown grammar part {${name}}`, tooLong: false };
      parts++;
      length += part.length + "(?:)".length - all.length;
      if (length > maxChars) {
        return { text: "", error: `its grammar parts expand it past ${maxChars} characters`, tooLong: true };
      }
    }
    if (parts === 0) {
      // the accents' plain spellings lengthen it too (`ñ` is `[ñn]`), and a pattern without parts is counted as well
      const accented = tolerateAccents(text);
      if (accented.length > maxChars) {
        return {
          text: "",
          error: `with its accented letters taking their plain spellings it is longer than ${maxChars} characters`,
          tooLong: true,
        };
      }
      return { text: accented, error: null };
    }
    text = text.replace(PART, (_all, name: string) => `(?:${grammar[name]})`);
  }
  return { text: "", error: "grammar parts nest more than 8 levels deep", tooLong: false };
}

/** A compiled pattern, or why it was refused. */
export function compilePattern(source: string, flags: string): RegExp | string {
  if (/[gy]/.test(flags)) return `flags "${flags}" may not contain g or y`;
  try {
    return new RegExp(source, flags);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Why a compiled pattern is unusable, or null. Running it once on "" makes V8 compile it at once, so
 * built-ins skip this (the rule table test checks them) to keep the hook's start cheap.
 */
export function emptyMatchProblem(regex: RegExp): string | null {
  try {
    return regex.test("") ? "pattern matches the empty string, so it would match every message" : null;
  } catch (error) {
    // V8 compiles a pattern on its first run and may refuse it then ("Regular expression too large")
    return error instanceof Error
      ? error.message.replace(/^Invalid regular expression: \/.*\/\w*: /s, "")
      : String(error);
  }
}

function issuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(file)";
}

/**
 * The user's rule files: every `*.json` and `*.jsonc` in `dir` (dotfiles skipped), sorted by name.
 * A missing directory means no user rules. A file that cannot be read becomes an error entry, which
 * `buildRuleSet` reports in `files[].error`.
 */
export async function readUserRuleFiles(dir: string): Promise<UserRuleSource[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory || entry.name.startsWith(".") || !/\.jsonc?$/.test(entry.name)) continue;
      names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    return [{ origin: dir, error: `cannot list the rules directory: ${describe(error)}` }];
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sources: UserRuleSource[] = [];
  for (const name of names) {
    const origin = join(dir, name);
    try {
      const text = await readRegularText(origin, { maxBytes: MAX_RULE_FILE_BYTES, within: dir, label: "rule file" });
      // listed, yet nothing to read: a link to nothing
      sources.push(
        text === null ? { origin, error: "cannot read the file: it is a link to nothing" } : { origin, text },
      );
    } catch (error) {
      sources.push({ origin, error: `cannot read the file: ${describe(error)}` });
    }
  }
  return sources;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
