/**
 * Settings from `$CLIFFHANGER_HOME/config.jsonc` and the environment, with documented defaults.
 * The environment wins over the file. Pure: the caller reads the file and passes its text.
 *
 * The hooks read the config through config_check.ts (the same defaults and environment keys, hand-written checks
 * equal to this schema) and come here only for the messages of a config with a problem.
 */
import { parse as parseJsonc, type ParseError, parseProblem, positionOf } from "./jsonc.ts";
import * as z from "./zod.ts";
import { didYouMean, suggestion } from "./did_you_mean.ts";
import { type EnvReader, OFF_WORDS, ON_WORDS } from "./env.ts";
import {
  coerceEnv,
  type ConfigValues,
  DEFAULT_CONFIG,
  ENV_KEYS,
  forceObserve,
  HELD_BY,
  HELD_SWITCH,
  type HeldBecause,
  LENIENT_KEYS,
} from "./config_check.ts";

export { DEFAULT_CONFIG, ENV_KEYS };

export const ContinueVia = z.enum(["block", "context"]);
export type ContinueVia = z.infer<typeof ContinueVia>;

/**
 * What an early-stop phrase rule does when a person is at the keyboard (src/hooks/stop/attended.ts): "observe"
 * lets the stop through and logs the would-be block with `attended: true`; "block" blocks as when nobody is there.
 */
export const AttendedMode = z.enum(["observe", "block"]);
export type AttendedMode = z.infer<typeof AttendedMode>;

export const ConfigSchema = z.strictObject({
  /** Automatic continuations per user turn before a stop is let through (CLIFFHANGER_MAX). */
  max: z._default(z.int().check(z.minimum(0), z.maximum(100)), 3),
  /** Log what would be blocked, never block (CLIFFHANGER_OBSERVE). */
  observe: z._default(z.boolean(), false),
  /**
   * A person at the keyboard (an interactive session): "observe" lets an early-stop phrase rule's stop through and
   * logs it, "block" blocks it as in an unattended one. Open checklist items and stalls block either way
   * (CLIFFHANGER_ATTENDED).
   */
  attended: z._default(AttendedMode, "observe"),
  /** Skip every hook, log nothing (CLIFFHANGER_DISABLE). */
  disable: z._default(z.boolean(), false),
  /**
   * Longest wait for the final message (with none, pending calls' results) to reach the transcript
   * (CLIFFHANGER_SYNC_MS).
   */
  syncMs: z._default(z.int().check(z.minimum(0), z.maximum(30000)), 1500),
  /** How a Stop block is sent: a block decision, or Stop additionalContext (CLIFFHANGER_CONTINUE_VIA). */
  continueVia: z._default(ContinueVia, "block"),
  /** Past this, a hook gives up and allows (CLIFFHANGER_BUDGET_MS). */
  budgetMs: z._default(z.int().check(z.minimum(100), z.maximum(300000)), 10000),
  /** Only the last N characters of a message are matched against the rules. */
  matchMaxChars: z._default(z.int().check(z.minimum(200), z.maximum(100000)), 4000),
  /**
   * A call for the same stop (the hook registered twice) whose process started before the first call finished,
   * plus this slack (and at most 5 s before it started), gets the same answer and is not counted again (in a
   * transcript that counts its finished stops, up to 5 s after it).
   */
  dedupeWindowMs: z._default(z.int().check(z.minimum(0), z.maximum(60000)), 0),
  /** Switch the stall stage off (CLIFFHANGER_STALL_DISABLE; the file $CLIFFHANGER_HOME/stall-off does the same). */
  stallDisable: z._default(z.boolean(), false),
  /** After a stall nudge, no other stall nudge in this session for this many seconds; 0 = off (CLIFFHANGER_STALL_COOLDOWN_S). */
  stallCooldownS: z._default(z.number().check(z.minimum(0), z.maximum(86400)), 0),
  /** Stall nudges per tool_use_id, ever (CLIFFHANGER_STALL_MAX_RETRIES). */
  stallMaxRetries: z._default(z.int().check(z.minimum(0), z.maximum(100)), 3),
  /** `hook prompt`: no wall-clock block (CLIFFHANGER_NO_CLOCK). */
  noClock: z._default(z.boolean(), false),
  /** `hook prompt` and `now`: the wall clock's IANA time zone; "" = the system's, else UTC (CLIFFHANGER_TZ). */
  tz: z._default(z.string().check(z.maxLength(200)), ""),
  /** `hook prompt`: no answer-length nudge (CLIFFHANGER_NO_TERSE). */
  noTerse: z._default(z.boolean(), false),
  /** `hook prompt`: no model quirk notes (CLIFFHANGER_NO_QUIRKS). */
  noQuirks: z._default(z.boolean(), false),
  /** `hook prompt`: a single-line question of at most this many words gets the short nudge (0: no short band). */
  terseShortMaxWords: z._default(z.int().check(z.minimum(0), z.maximum(1000)), 15),
  /** `hook prompt`: a prompt of at most this many words gets the medium nudge; longer ones get none. */
  terseMediumMaxWords: z._default(z.int().check(z.minimum(0), z.maximum(10000)), 60),
  /** `hook prompt`: the short nudge; `{words}` is the prompt's word count. */
  terseShortText: z._default(
    z.string().check(z.minLength(1), z.maxLength(2000)),
    "The user asked a short question ({words} words): answer in one or two sentences, no headers, no bullets, no preamble.",
  ),
  /** `hook prompt`: the medium nudge; `{words}` is the prompt's word count. */
  terseMediumText: z._default(
    z.string().check(z.minLength(1), z.maxLength(2000)),
    "The user's message is {words} words: keep the answer tight and lead with the answer.",
  ),
  /** PreToolUse anti-loop guard: identical calls in a row allowed; the next one is denied (CLIFFHANGER_LOOP_MAX_RETRIES). */
  loopMaxRetries: z._default(z.int().check(z.minimum(1), z.maximum(100)), 3),
  /** Anti-loop guard: only calls within the last N minutes count (CLIFFHANGER_LOOP_WINDOW_MIN). */
  loopWindowMin: z._default(z.number().check(z.positive(), z.maximum(1440)), 5),
  /** Anti-loop guard: a short cycle repeated this many times gets a warning (CLIFFHANGER_LOOP_WARN). */
  loopWarn: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 3),
  /** Anti-loop guard: a short cycle repeated this many times is denied (CLIFFHANGER_LOOP_BLOCK). */
  loopBlock: z._default(z.int().check(z.minimum(1), z.maximum(50)), 5),
  /** Anti-loop guard: guarded tools, a comma list or an array; `*` = every tool (CLIFFHANGER_LOOP_TOOLS). */
  loopTools: z._default(z.union([z.string(), z.array(z.string())]), "Bash,Agent,Task,AskUserQuestion"),
  /** Turn the anti-loop guard off (CLIFFHANGER_LOOP_BYPASS). */
  loopBypass: z._default(z.boolean(), false),
  /**
   * The relay mailbox: absolute (in config.jsonc, every project's sessions then share it), or relative to the project;
   * "" = `<project>/relay` (CLIFFHANGER_RELAY_DIR).
   */
  relayDir: z._default(z.string().check(z.maxLength(4096)), ""),
  /** Relay: seconds between polls of to-code.md (CLIFFHANGER_RELAY_POLL_S). */
  relayPollS: z._default(z.number().check(z.minimum(0.05), z.maximum(600)), 5),
  /** Relay: longest wait for the next instruction; keep it under the hook's timeout (CLIFFHANGER_RELAY_MAX_WAIT_S). */
  relayMaxWaitS: z._default(z.number().check(z.minimum(0), z.maximum(86400)), 570),
  /** Relay: before waiting, append to PROGRESS.md and make a checkpoint commit with git (CLIFFHANGER_RELAY_CHECKPOINT). */
  relayCheckpoint: z._default(z.boolean(), false),
  /** log.jsonl is moved to log.jsonl.1 before it would pass this size; 0 = never (CLIFFHANGER_LOG_MAX_BYTES). */
  logMaxBytes: z._default(z.int().check(z.minimum(0), z.maximum(1024 ** 4)), 10 * 1024 * 1024),
  /** State files untouched this many days are removed (looked at daily); 0 = never (CLIFFHANGER_STATE_MAX_AGE_DAYS). */
  stateMaxAgeDays: z._default(z.int().check(z.minimum(0), z.maximum(36500)), 30),
});
export type Config = z.output<typeof ConfigSchema>;

/** config_check.ts's hand-written `ConfigValues` is exactly this schema's output: a change to one must change both. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<Config, ConfigValues> = true;
void _sameShape;

export interface LoadedConfig {
  config: Config;
  /** Problems found (bad file, bad env value); each was replaced by its default. */
  problems: string[];
  /** Why observe mode is forced on (a file that cannot be parsed, a bad value of a lenient setting), or null. */
  observeBecause: string | null;
  /** What a bad value of a HELD_BY setting holds back, and why (config_check.ts). */
  heldBack: HeldBecause;
}

/** What a list of loopTools holds, for its message (the union's issue does not say). */
const UNION_WORDS: Readonly<Record<string, string>> = { loopTools: "a string or a list of tool names" };

/** How a bad value was given, for its problem's words (valueInWords). */
export interface GivenValue {
  /** The setting takes only whole numbers (a z.int()): "a whole number", not "a number", whatever the issue says. */
  whole?: boolean;
  /** A value the setting takes, given in quotes (`"3"`, `"true"`): the text between them, trimmed. */
  quoted?: string;
}

/**
 * A bad value's problem in words, from the schema's issue: `max must be a whole number`, `max must be at most 100`,
 * `attended must be "observe" or "block"`, `loopTools must be a string or a list of tool names`, never the
 * validator's own "Invalid input" or "expected int, received number". A number or true/false written in quotes says
 * so: `max must be a whole number, written without quotes (3)`. `key` is what the user wrote: the key, or the variable.
 */
export function valueInWords(key: string, issue: unknown, given: GivenValue = {}): string {
  const i = (issue ?? {}) as Record<string, unknown>;
  const n = (v: unknown) => String(v);
  switch (i["code"]) {
    case "invalid_type": {
      const expected = given.whole && i["expected"] === "number" ? "int" : String(i["expected"]);
      const what: Record<string, string> = {
        int: "a whole number",
        number: "a number",
        boolean: "true or false",
        string: "a string in double quotes",
        array: "a list",
      };
      const unquote = given.quoted === undefined ? "" : `, written without quotes (${given.quoted})`;
      return `${key} must be ${what[expected] ?? `a ${expected}`}${unquote}`;
    }
    case "too_small":
    case "too_big": {
      const small = i["code"] === "too_small";
      const bound = n(small ? i["minimum"] : i["maximum"]);
      if (i["origin"] === "string") {
        return `${key} must have ${small ? "at least" : "at most"} ${bound} character${bound === "1" ? "" : "s"}`;
      }
      const inclusive = i["inclusive"] !== false;
      return `${key} must be ${
        small ? (inclusive ? "at least" : "more than") : (inclusive ? "at most" : "less than")
      } ${bound}`;
    }
    case "invalid_value": {
      const values = Array.isArray(i["values"]) ? i["values"].map((v) => JSON.stringify(v)) : [];
      return values.length > 0 ? `${key} must be ${values.join(" or ")}` : `${key} is not a value it takes`;
    }
    case "invalid_union":
      return `${key} must be ${UNION_WORDS[key] ?? "one of the kinds docs/configuration.md lists"}`;
    default:
      return `${key} is not a value it takes`;
  }
}

/** A key's letters, lower case: `loop_bypass`, `LoopBypass` and `loopbypass` are one. */
const letters = (key: string) => key.toLowerCase().replace(/[^a-z]/g, "");

/**
 * The lenient setting an unknown key most likely meant (`obsrve`, `disabled`, `loop_bypass`, `observeMode`, not
 * `disableStall`), when its
 * value would have turned it on; null otherwise. A value that only says "off" (`"obsrve": false`) asks for nothing
 * more lenient, and a misspelled `attended` can ask for nothing more lenient than its default.
 */
export function lenientMeant(key: string, value: unknown): keyof ConfigValues | null {
  const typed = letters(key);
  if (typed === "") return null;
  const byLetters = new Map(LENIENT_KEYS.map((k) => [letters(k), k] as const));
  const near = byLetters.get(typed) ??
    byLetters.get(didYouMean(typed, [...byLetters.keys()]) ?? "") ??
    // "observeMode", "disableAll": the name and a word that says "on"; not "disableStall" (stallDisable) nor another
    // setting's name that starts with one (loopBypassTools)
    [...byLetters].find(([l]) =>
      typed.startsWith(l) && /^(?:mode|all|only|on|enabled?|always)$/.test(typed.slice(l.length))
    )
      ?.[1];
  if (near === undefined || near === "attended") return null;
  return value === false || value === null || value === 0 || value === "" ? null : near;
}

/** The field takes only whole numbers: z.int()'s own issue for a fraction is "expected int". */
function takesWhole(field: z.ZodMiniType): boolean {
  const issue = field.safeParse(0.5).error?.issues[0] as { expected?: unknown } | undefined;
  return issue?.expected === "int";
}

/**
 * Why a value in the file cannot be used (valueInWords). A number or true/false in quotes is judged as what it
 * spells: `"3"` for max is "a whole number, written without quotes (3)", `"2.5"` is "a whole number", `"-1"` is "at
 * least 0".
 */
function fileValueInWords(key: string, field: z.ZodMiniType, value: unknown, error: z.core.$ZodError): string {
  const whole = takesWhole(field);
  const text = typeof value === "string" ? value.trim() : "";
  const spelt = /^-?\d+(?:\.\d+)?$/.test(text)
    ? Number(text)
    : text === "true" || text === "false"
    ? text === "true"
    : null;
  if (spelt === null) return valueInWords(key, error.issues[0], { whole });
  const unquoted = field.safeParse(spelt);
  return unquoted.success
    ? valueInWords(key, error.issues[0], { whole, quoted: text })
    : valueInWords(key, unquoted.error.issues[0], { whole });
}

/**
 * Why a variable's value cannot be used, in the words a bad value in the file gets: `CLIFFHANGER_MAX must be a whole
 * number` (for `2.5` or `ten`), `CLIFFHANGER_MAX must be at least 0`, `CLIFFHANGER_ATTENDED must be "observe" or
 * "block"`, and for a switch the words it reads (`CLIFFHANGER_OBSERVE must be 1, true, yes or on, or 0, false, no or
 * off`).
 */
export function envValueInWords(name: string, key: keyof ConfigValues, raw: string): string {
  const field = (ConfigSchema.shape as Record<string, z.ZodMiniType>)[key]!;
  const defaultValue = DEFAULT_CONFIG[key];
  if (typeof defaultValue === "boolean") {
    const list = (words: readonly string[]) => `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
    return `${name} must be ${list(ON_WORDS)}, or ${list(OFF_WORDS)}`;
  }
  const value = coerceEnv(key, raw);
  if (typeof defaultValue === "number" && value === undefined) {
    // not written in plain digits: a number all the same (-1, 1e3) is judged as one, anything else is not a number
    const text = raw.trim();
    const number = text === "" ? NaN : Number(text);
    const issue = Number.isFinite(number) ? field.safeParse(number).error?.issues[0] : undefined;
    if (issue !== undefined) return valueInWords(name, issue, { whole: takesWhole(field) });
    return `${name} must be ${takesWhole(field) ? "a whole number" : "a number"}${
      Number.isFinite(number) ? `, written in plain digits (${number})` : ""
    }`;
  }
  return valueInWords(name, field.safeParse(value).error?.issues[0], { whole: takesWhole(field) });
}

/**
 * Merge defaults, the config file text (null: no file) and the environment. A bad value never stops a hook:
 * it is reported in `problems` and the default is used. A file that cannot be parsed, or a bad value of a setting
 * that makes the hooks more lenient (LENIENT_KEYS), or an unknown key that misspells one of them and would turn it on
 * (lenientMeant), also turns observe mode on, with `observeBecause` saying why. A bad value of a setting whose default
 * may block, deny or nudge more than the value meant (HELD_BY) holds back what it tunes, with `heldBack` saying why:
 * the stop or pretool hook (the runner puts it in observe mode), or stall nudges or a part of the prompt hook (off
 * here, in `config`).
 */
export function loadConfig(fileText: string | null, env: EnvReader, filePath = "config.jsonc"): LoadedConfig {
  const problems: string[] = [];
  // the first reason found to run the blocking hooks in observe mode
  let observeBecause: string | null = null;
  const heldBack: HeldBecause = {};
  // what a bad value (or a misspelled lenient key) of `key` holds back: both blocking hooks, or what it tunes
  const hold = (key: string, because: string) => {
    if (LENIENT_KEYS.includes(key as keyof ConfigValues)) observeBecause ??= because;
    const held = HELD_BY[key as keyof ConfigValues];
    if (held !== undefined) heldBack[held] ??= because;
  };
  // the file's, held once the environment is read: a good value of the same setting there wins, and holds nothing
  const fileHolds: { key: string; because: string }[] = [];
  let fromFile: Record<string, unknown> = {};
  if (fileText !== null && fileText.trim() !== "") {
    const errors: ParseError[] = [];
    const repeats: { key: string; offset: number }[] = [];
    // nesting past the parser's limit is one of its errors (NestingTooDeep), not a stack overflow
    const parsed = parseJsonc(fileText, errors, {
      allowTrailingComma: true,
      onDuplicateKey: (key, offset, depth) => void (depth === 1 && repeats.push({ key, offset })),
    });
    if (errors.length > 0) {
      problems.push(`Cannot parse "${filePath}": ${parseProblem(fileText, errors[0]!)}`);
      observeBecause = `"${filePath}" cannot be parsed`;
    } else if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      problems.push(`Cannot use "${filePath}": the top level must be an object`);
      observeBecause = `"${filePath}" is not an object`;
    } else {
      fromFile = parsed as Record<string, unknown>;
      // the last copy counts, as JSON.parse reads it (and Claude Code its settings): said, so it is not a surprise
      for (const { key, offset } of repeats.filter((r, i) => repeats.findIndex((o) => o.key === r.key) === i)) {
        const { line, column } = positionOf(fileText, offset);
        const value = JSON.stringify(fromFile[key]) ?? "";
        const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
        problems.push(
          `Key "${key}" is given more than once in "${filePath}" (again at ${line}:${column}): the last one counts ` +
            `(${shown}); remove the others`,
        );
      }
    }
  }
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fromFile)) {
    const shape = ConfigSchema.shape as Record<string, z.ZodMiniType>;
    const field = shape[key];
    if (!field) {
      problems.push(`Unknown key "${key}" in "${filePath}"${suggestion(key, Object.keys(shape))}`);
      const meant = lenientMeant(key, value);
      if (meant !== null) {
        fileHolds.push({
          key: meant,
          because: `"${key}" in "${filePath}" is not a setting (did you mean "${meant}"?)`,
        });
      }
      continue;
    }
    const result = field.safeParse(value);
    if (result.success) merged[key] = value;
    else {
      problems.push(`Bad value for "${key}" in "${filePath}": ${fileValueInWords(key, field, value, result.error)}`);
      fileHolds.push({ key, because: `"${key}" in "${filePath}" has a value it does not take` });
    }
  }
  const fromEnv = new Set<string>();
  const envHolds: { key: string; because: string }[] = [];
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env(name);
    if (raw === undefined || raw === "") continue;
    const value = coerceEnv(key, raw);
    const shape = ConfigSchema.shape as Record<string, z.ZodMiniType>;
    const result = value === undefined ? null : shape[key]!.safeParse(value);
    if (result?.success) {
      merged[key] = value;
      fromEnv.add(key);
    } else {
      problems.push(`Bad value for ${name}: "${raw}": ${envValueInWords(name, key, raw)}`);
      envHolds.push({ key, because: `${name} is set to a value it does not take` });
    }
  }
  for (const { key, because } of [...fileHolds, ...envHolds]) if (!fromEnv.has(key)) hold(key, because);
  const config = ConfigSchema.parse(merged);
  // stall nudges and the prompt hook's parts a bad value holds back are off for every reader (hooks, status, doctor)
  for (const [part, key] of Object.entries(HELD_SWITCH)) {
    if (heldBack[part as keyof typeof HELD_SWITCH] !== undefined) config[key] = true;
  }
  const loaded = { config, problems, observeBecause: null, heldBack };
  return observeBecause === null ? loaded : forceObserve(loaded, observeBecause);
}
