/**
 * The shape of a rule file. Built-in rules live in `rules/*.json` (embedded through static imports);
 * users add or override rules with `$CLIFFHANGER_HOME/rules/*.json` or `*.jsonc`.
 */
import * as z from "../zod.ts";

/** What a rule file's rules are used for. */
export const RuleKind = z.enum([
  /** A line that lets the stop through at once (BLOCKED:, NEEDS-YOU:, Status: partial … Next step:). */
  "escape",
  /** A prose blocker ("cannot proceed without", "credentials"): allows the stop when there is no checklist. */
  "blocker",
  /** An early-stop pattern: blocks the stop when there is no checklist. */
  "early-stop",
]);
export type RuleKind = z.infer<typeof RuleKind>;

/** Unknown keys are refused so that a misspelt field (`tailchars`) is an error, not a silent no-op. */
export const RuleSchema = z.strictObject({
  /** Kebab-case id, unique across all files; a user rule with a built-in's id replaces it. */
  id: z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "id must be kebab-case")),
  description: z.string().check(z.minLength(1)),
  /**
   * JavaScript regular expression sources; the rule matches when any of them matches. A pattern
   * that matches the empty string is refused (it would match every message).
   */
  patterns: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  /** RegExp flags for every pattern; `g` and `y` are refused because they make `test` stateful. */
  flags: z._default(z.string().check(z.regex(/^[imsu]*$/, "flags may only contain i, m, s and u")), "iu"),
  /**
   * Only the last `tailChars` characters of the message are searched (null: the whole message,
   * already capped by the config's matchMaxChars).
   */
  tailChars: z._default(z.nullable(z.int().check(z.positive())), null),
  /** What the agent should do; early-stop rules put it in the block reason. `{match}` is the quoted phrase. */
  advice: z._default(z.string(), ""),
  /** Short label for stats, e.g. "offered to continue". */
  label: z.optional(z.string()),
  examples: z.strictObject({
    /** Messages this rule must match (for early-stop rules: messages that must block). */
    match: z.array(z.string()).check(z.minLength(1)),
    /** Messages this rule must not match (for early-stop rules: messages that must pass). */
    pass: z.array(z.string()).check(z.minLength(1)),
  }),
});
export type RuleInput = z.input<typeof RuleSchema>;
export type Rule = z.output<typeof RuleSchema>;

export const RuleFileSchema = z.strictObject({
  /** Editors' JSON schema hint; ignored. */
  $schema: z.optional(z.string()),
  kind: RuleKind,
  /**
   * Ids of built-in rules this file switches off (user files only). Applied before the file's own
   * rules, so a file can disable a built-in and add a differently shaped rule under a new id.
   */
  disable: z._default(z.array(z.string()), []),
  rules: z._default(z.array(RuleSchema), []),
});
export type RuleFile = z.output<typeof RuleFileSchema>;

/** A rule with its patterns compiled, and where it came from. */
export interface CompiledRule extends Rule {
  kind: RuleKind;
  regexes: RegExp[];
  /** "builtin:<file>" or the user file's path. */
  origin: string;
}

/** One rule file as loaded: how many rules it contributed, and what went wrong. */
export interface RuleFileReport {
  origin: string;
  /** null when the file could not be read, parsed or validated. */
  kind: RuleKind | null;
  /** Rules this file added or replaced (0 when it has an error). */
  rules: number;
  /** Why the whole file was ignored, or null. */
  error: string | null;
  /** Problems that did not stop the file from loading (e.g. `disable` naming an unknown id). */
  warnings: string[];
}

/** The rules in force: built-ins merged with the user's, in match order, plus load problems. */
export interface RuleSet {
  escape: CompiledRule[];
  blocker: CompiledRule[];
  earlyStop: CompiledRule[];
  /** Files read (built-in and user), each with its error if it failed to load. */
  files: RuleFileReport[];
}

/** The result of matching a message against one kind of rule. */
export interface RuleMatch {
  rule: CompiledRule;
  /** The matched phrase, trimmed and shortened for quoting. */
  phrase: string;
}
