/**
 * The shape of a rule file. Built-in rules live in `rules/*.json` (embedded through static imports);
 * users add or override rules with `$CLIFFHANGER_HOME/rules/*.json` or `*.jsonc`. A hook imports only this module's
 * types; it loads the module (and zod) only to validate a user's rule file (load.ts loadRuleSet).
 */
import * as z from "../zod.ts";
import { EARLY_STOP_ACTS } from "./acts.ts";

/**
 * The zod schemas of a rule file, built on first use: a hook validates only the user's rule files with them (the
 * built-ins are checked by the tests and filled in by hand, load.ts fillRuleFileDefaults), and building them costs a
 * hook process a few milliseconds.
 */
function buildSchemas() {
  /** What a rule file's rules are used for. */
  const RuleKind = z.enum([
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

  const Act = z.enum([
    ...EARLY_STOP_ACTS,
    "blocker",
    "courtesy",
    "remaining-none",
    "other-owner",
    "describes",
    /**
     * A counter that says the sentence waits on something ("until you confirm", "once access is granted", "备案通过后"):
     * it cancels nothing alone, but lets a blocker anywhere in the message excuse the sentence's hits (analyse.ts).
     */
    "waits",
    "report",
    "answer",
  ]);

  /**
   * Where a rule looks. `message`: the raw tail of the final message, as the first rule files did (`tailChars`
   * applies); `closing`: sentences of the agent's own prose in the closing; `question`: a question anywhere in the
   * agent's prose; `ending`: a closing sentence or a question anywhere; `closing-question`: a question in the
   * closing; `prose`: any sentence of the agent's prose; `lead`: a list's lead-in line or heading (a counter with
   * `lead` reads the lead-in and its items).
   */
  const Scope = z.enum(["message", "closing", "question", "ending", "closing-question", "prose", "lead"]);

  /** Unknown keys are refused so that a misspelt field (`tailchars`) is an error, not a silent no-op. */
  const RuleSchema = z.strictObject({
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
    /** The language of the patterns (`en`, `es`, `de`, `fr`, `pt`, `ja`, `zh-Hans`, `zh-Hant`, `it`, `nl`, `ru`, `ko`, or `any`). */
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

  const RuleFileSchema = z.strictObject({
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
  return { RuleKind, Act, Scope, RuleSchema, RuleFileSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | null = null;

/** The schema of a whole rule file (what buildRuleSet validates a file that is not embedded with). */
export type RuleFileSchema = Schemas["RuleFileSchema"];

/** The rule file schemas (built once per process, when first asked for). */
export function ruleSchemas(): Schemas {
  return built ??= buildSchemas();
}

export type RuleKind = z.infer<Schemas["RuleKind"]>;
export type Act = z.infer<Schemas["Act"]>;
export type Scope = z.infer<Schemas["Scope"]>;
export type RuleInput = z.input<Schemas["RuleSchema"]>;
export type Rule = z.output<Schemas["RuleSchema"]>;
export type RuleFile = z.output<Schemas["RuleFileSchema"]>;

/** A rule with its patterns compiled, and where it came from. */
export interface CompiledRule extends Rule {
  kind: RuleKind;
  regexes: RegExp[];
  /**
   * A built-in rule's patterns compiled one at a time, when first needed (absent: use `regexes`), and each one's
   * required literals: a text with none of them cannot match, so that pattern is not compiled for it.
   */
  regexAt?: (index: number) => RegExp;
  /**
   * A built-in pattern that case_fold.ts can run without `i` on the case-folded text (faster to compile, the same
   * matches), compiled that way when first needed; null for any other pattern.
   */
  foldedAt?: (index: number) => RegExp | null;
  needs?: readonly (readonly string[] | null)[];
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
