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
  /**
   * A sentence that is not evidence of an early stop although an early-stop rule matches it: a generic courtesy
   * closer, an empty "what's left", work owned by someone else. It cancels the hits on the same unit.
   */
  "counter",
]);
export type RuleKind = z.infer<typeof RuleKind>;

/** What a closing does (see docs): the acts an early-stop rule can name, and the acts that are fine endings. */
/** The acts that end a turn early, which early-stop rules name. */
export const EARLY_STOP_ACTS = [
  "offer",
  "permission",
  "announce",
  "choice",
  "pause",
  "unverified",
  "own-remaining",
] as const;

/**
 * The early-stop acts that ask the user something. Asked as a question they block even beside a blocker phrase;
 * after a finished checklist they do not (the other early-stop acts do: the agent says its own work goes on).
 */
export const ASKING_ACTS: ReadonlySet<string> = new Set(["offer", "permission", "choice"]);

export const Act = z.enum([
  ...EARLY_STOP_ACTS,
  "blocker",
  "courtesy",
  "remaining-none",
  "other-owner",
  "describes",
  "report",
  "answer",
]);
export type Act = z.infer<typeof Act>;

/**
 * Where a rule looks. `message`: the raw tail of the final message, as the first rule files did (`tailChars`
 * applies); `closing`: sentences of the agent's own prose in the closing; `question`: a question anywhere in the
 * agent's prose; `ending`: a closing sentence or a question anywhere; `closing-question`: a question in the
 * closing; `prose`: any sentence of the agent's prose; `lead`: a list's lead-in line or heading (a counter with
 * `lead` reads the lead-in and its items).
 */
export const Scope = z.enum(["message", "closing", "question", "ending", "closing-question", "prose", "lead"]);
export type Scope = z.infer<typeof Scope>;

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
  /** Short label for stats, e.g. "offered more work". */
  label: z.optional(z.string()),
  /** The act this rule recognises (early-stop and counter rules of the closing analysis). */
  act: z.optional(Act),
  /** Where the rule looks (default `message`, the raw tail, for rule files written before the closing analysis). */
  scope: z._default(Scope, "message"),
  /** Evidence weight of one hit; a stop is blocked when the strongest hit, or the closing's hits together, reach 1. */
  weight: z._default(z.number().check(z.positive(), z.maximum(10)), 1),
  /** The language of the patterns (`en`, `es`, `de`, `fr`, `pt`, `ja`, `zh-Hans`, `zh-Hant`, or `any`). */
  lang: z._default(z.string().check(z.regex(/^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$|^any$/)), "any"),
  /** Counter rules: the acts whose hits on the same unit it cancels (default: every act). */
  cancels: z.optional(z.array(Act)),
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
  /**
   * Named pattern parts: `{NAME}` in a pattern (upper-case name) is replaced by `(?:<part>)`. A part may use
   * parts defined before it. Shared by the file's rules, so that a new subject or verb serves every rule.
   */
  grammar: z._default(z.record(z.string().check(z.regex(/^[A-Z][A-Z0-9_]*$/)), z.string()), {}),
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
  counter: CompiledRule[];
  /** Files read (built-in and user), each with its error if it failed to load. */
  files: RuleFileReport[];
}

/** The result of matching a message against one kind of rule. */
export interface RuleMatch {
  rule: CompiledRule;
  /** The matched phrase, trimmed and shortened for quoting. */
  phrase: string;
}
