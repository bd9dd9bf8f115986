/**
 * The hook path's reading of the config: the defaults, the environment keys and a hand-written check of every key,
 * without zod. Building the zod schema (config.ts) costs a hook process about 4 ms before it has read anything, and
 * zod's core 1.5 ms more; a hook only needs to know that every value is valid. When one is not (or the file cannot
 * be parsed, or names an unknown key), `loadConfigFast` returns null and the caller runs config.ts's `loadConfig`,
 * so problems keep zod's messages. A property test (config_check_test.ts) holds the two equal on generated files and
 * environments: the same config whenever this returns one, and null exactly when `loadConfig` reports a problem.
 */
import { parse as parseJsonc, type ParseError } from "./jsonc.ts";
import { type EnvReader, OFF_WORDS, ON_WORDS } from "./env.ts";

/** The config's values; config.ts checks that this is exactly the zod schema's output type. */
export interface ConfigValues {
  max: number;
  observe: boolean;
  attended: "observe" | "block";
  disable: boolean;
  syncMs: number;
  continueVia: "block" | "context";
  budgetMs: number;
  matchMaxChars: number;
  dedupeWindowMs: number;
  stallDisable: boolean;
  stallCooldownS: number;
  stallMaxRetries: number;
  noClock: boolean;
  tz: string;
  noTerse: boolean;
  noQuirks: boolean;
  terseShortMaxWords: number;
  terseMediumMaxWords: number;
  terseShortText: string;
  terseMediumText: string;
  loopMaxRetries: number;
  loopWindowMin: number;
  loopWarn: number;
  loopBlock: number;
  loopTools: string | string[];
  loopBypass: boolean;
  relayDir: string;
  relayPollS: number;
  relayMaxWaitS: number;
  relayCheckpoint: boolean;
  logMaxBytes: number;
  stateMaxAgeDays: number;
}

/** The defaults, in the schema's key order (config_check_test.ts compares them with `ConfigSchema.parse({})`). */
export const DEFAULT_CONFIG: ConfigValues = {
  max: 3,
  observe: false,
  attended: "observe",
  disable: false,
  syncMs: 1500,
  continueVia: "block",
  budgetMs: 10000,
  matchMaxChars: 4000,
  dedupeWindowMs: 0,
  stallDisable: false,
  stallCooldownS: 0,
  stallMaxRetries: 3,
  noClock: false,
  tz: "",
  noTerse: false,
  noQuirks: false,
  terseShortMaxWords: 15,
  terseMediumMaxWords: 60,
  terseShortText:
    "The user asked a short question ({words} words): answer in one or two sentences, no headers, no bullets, no preamble.",
  terseMediumText: "The user's message is {words} words: keep the answer tight and lead with the answer.",
  loopMaxRetries: 3,
  loopWindowMin: 5,
  loopWarn: 3,
  loopBlock: 5,
  loopTools: "Bash,Agent,Task,AskUserQuestion",
  loopBypass: false,
  relayDir: "",
  relayPollS: 5,
  relayMaxWaitS: 570,
  relayCheckpoint: false,
  logMaxBytes: 10 * 1024 * 1024,
  stateMaxAgeDays: 30,
};

/** Environment variables and the config key each one sets. */
export const ENV_KEYS = {
  CLIFFHANGER_MAX: "max",
  CLIFFHANGER_OBSERVE: "observe",
  CLIFFHANGER_ATTENDED: "attended",
  CLIFFHANGER_DISABLE: "disable",
  CLIFFHANGER_SYNC_MS: "syncMs",
  CLIFFHANGER_CONTINUE_VIA: "continueVia",
  CLIFFHANGER_BUDGET_MS: "budgetMs",
  CLIFFHANGER_STALL_DISABLE: "stallDisable",
  CLIFFHANGER_STALL_COOLDOWN_S: "stallCooldownS",
  CLIFFHANGER_STALL_MAX_RETRIES: "stallMaxRetries",
  CLIFFHANGER_NO_CLOCK: "noClock",
  CLIFFHANGER_TZ: "tz",
  CLIFFHANGER_NO_TERSE: "noTerse",
  CLIFFHANGER_NO_QUIRKS: "noQuirks",
  CLIFFHANGER_LOOP_MAX_RETRIES: "loopMaxRetries",
  CLIFFHANGER_LOOP_WINDOW_MIN: "loopWindowMin",
  CLIFFHANGER_LOOP_WARN: "loopWarn",
  CLIFFHANGER_LOOP_BLOCK: "loopBlock",
  CLIFFHANGER_LOOP_TOOLS: "loopTools",
  CLIFFHANGER_LOOP_BYPASS: "loopBypass",
  CLIFFHANGER_RELAY_DIR: "relayDir",
  CLIFFHANGER_RELAY_POLL_S: "relayPollS",
  CLIFFHANGER_RELAY_MAX_WAIT_S: "relayMaxWaitS",
  CLIFFHANGER_RELAY_CHECKPOINT: "relayCheckpoint",
  CLIFFHANGER_LOG_MAX_BYTES: "logMaxBytes",
  CLIFFHANGER_STATE_MAX_AGE_DAYS: "stateMaxAgeDays",
} as const satisfies Record<string, keyof ConfigValues>;

type Check = (value: unknown) => boolean;

/** z.int() with minimum and maximum: a safe integer in [min, max]. */
const int = (min: number, max: number): Check => (v) =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max;
/** z.number() with minimum (or positive, `exclusiveMin`) and maximum: a finite number in range. */
const num = (min: number, max: number, exclusiveMin = false): Check => (v) =>
  typeof v === "number" && Number.isFinite(v) && (exclusiveMin ? v > min : v >= min) && v <= max;
const bool: Check = (v) => typeof v === "boolean";
const str = (minLength: number, maxLength: number): Check => (v) =>
  typeof v === "string" && v.length >= minLength && v.length <= maxLength;
const oneOf = (...options: string[]): Check => (v) => typeof v === "string" && options.includes(v);

/** One check per key, equal to config.ts's field schemas (undefined, as with zod's default, takes the default). */
export const CONFIG_CHECKS: Readonly<Record<keyof ConfigValues, Check>> = {
  max: int(0, 100),
  observe: bool,
  attended: oneOf("observe", "block"),
  disable: bool,
  syncMs: int(0, 30000),
  continueVia: oneOf("block", "context"),
  budgetMs: int(100, 300000),
  matchMaxChars: int(200, 100000),
  dedupeWindowMs: int(0, 60000),
  stallDisable: bool,
  stallCooldownS: num(0, 86400),
  stallMaxRetries: int(0, 100),
  noClock: bool,
  tz: str(0, 200),
  noTerse: bool,
  noQuirks: bool,
  terseShortMaxWords: int(0, 1000),
  terseMediumMaxWords: int(0, 10000),
  terseShortText: str(1, 2000),
  terseMediumText: str(1, 2000),
  loopMaxRetries: int(1, 100),
  loopWindowMin: num(0, 1440, true),
  loopWarn: int(1, 1000),
  loopBlock: int(1, 50),
  loopTools: (v) => typeof v === "string" || (Array.isArray(v) && v.every((item) => typeof item === "string")),
  loopBypass: bool,
  relayDir: str(0, 4096),
  relayPollS: num(0.05, 600),
  relayMaxWaitS: num(0, 86400),
  relayCheckpoint: bool,
  logMaxBytes: int(0, 1024 ** 4),
  stateMaxAgeDays: int(0, 36500),
};

/** The budget before the config file is read: CLIFFHANGER_BUDGET_MS when it is a valid value, else the default. */
export function envBudgetMs(raw: string | undefined): number {
  const value = raw === undefined ? undefined : Number(raw);
  return value !== undefined && CONFIG_CHECKS.budgetMs(value) ? value as number : DEFAULT_CONFIG.budgetMs;
}

/**
 * The settings that make the hooks more lenient. A config that cannot be read or parsed, or a value of one of these
 * that is not one the setting takes, could be hiding any of them: the blocking hooks then run in observe mode
 * (`observeBecause`), never stricter than the user asked (docs/configuration.md, "A broken config").
 */
export const LENIENT_KEYS: readonly (keyof ConfigValues)[] = ["observe", "disable", "loopBypass", "attended"];

/**
 * What a value a setting cannot use holds back until it is fixed, when the setting's default may block, deny or nudge
 * more than the value meant (HELD_BY): the stop or the pretool hook runs in observe mode (that hook alone: the runner
 * turns `observe` on for its calls), or stall nudges or a part of the prompt hook are off (HELD_SWITCH).
 */
export type HeldBack = "stop" | "pretool" | "stall" | "clock" | "terse" | "quirks";

/**
 * The settings whose default may block, deny or nudge more than a value of the user's that cannot be used (`"max":
 * "0"`, `"stallDisable": "true"`, `CLIFFHANGER_LOOP_MAX_RETRIES=ten`), and what such a value holds back. The others
 * only tune time, files or wording, or their default is already the lenient side (`dedupeWindowMs`, `tz`, the relay's):
 * a bad value of one of them is its default. LENIENT_KEYS hold back both blocking hooks (`observeBecause`).
 */
export const HELD_BY: Readonly<Partial<Record<keyof ConfigValues, HeldBack>>> = {
  max: "stop",
  matchMaxChars: "stop",
  stallDisable: "stall",
  stallCooldownS: "stall",
  stallMaxRetries: "stall",
  noClock: "clock",
  noTerse: "terse",
  terseShortMaxWords: "terse",
  terseMediumMaxWords: "terse",
  terseShortText: "terse",
  terseMediumText: "terse",
  noQuirks: "quirks",
  loopMaxRetries: "pretool",
  loopWindowMin: "pretool",
  loopWarn: "pretool",
  loopBlock: "pretool",
  loopTools: "pretool",
};

/** The switch a held-back part is turned off with (in `config`, so every reader sees it off). */
export const HELD_SWITCH = {
  stall: "stallDisable",
  clock: "noClock",
  terse: "noTerse",
  quirks: "noQuirks",
} as const satisfies Partial<Record<HeldBack, keyof ConfigValues>>;

/** Why each held-back hook or part is held back (the first reason found), for those that are. */
export type HeldBecause = Partial<Record<HeldBack, string>>;

export interface LoadedConfig {
  config: ConfigValues;
  /** Problems found (bad file, bad env value); each was replaced by its default. */
  problems: string[];
  /**
   * Why `config.observe` is true whatever the file and the environment say (the file cannot be read or parsed, or
   * a value of a LENIENT_KEYS setting is not one it takes), or null.
   */
  observeBecause: string | null;
  /**
   * What a value of a HELD_BY setting that cannot be used holds back, and why. The parts in HELD_SWITCH are already
   * off in `config`; "stop" and "pretool" are not in `config` (it is shared): the runner puts that hook's calls in
   * observe mode.
   */
  heldBack: HeldBecause;
}

/** The loaded config in observe mode, `because` said (the first reason found is kept). */
export function forceObserve<L extends LoadedConfig>(loaded: L, because: string): L {
  return {
    ...loaded,
    config: { ...loaded.config, observe: true },
    observeBecause: loaded.observeBecause ?? because,
  };
}

/**
 * config.ts's `loadConfig` for a file and environment without a single problem; null as soon as there is one (a
 * syntax error, a key given twice, a top level that is not an object, an unknown key, a bad value), so that the caller
 * runs `loadConfig` for its messages.
 */
export function loadConfigFast(fileText: string | null, env: EnvReader): LoadedConfig | null {
  const merged: Record<string, unknown> = {};
  if (fileText !== null && fileText.trim() !== "") {
    const errors: ParseError[] = [];
    let parsed: unknown;
    // a key given twice is a problem loadConfig reports
    let repeated = false;
    try {
      parsed = parseJsonc(fileText, errors, { allowTrailingComma: true, onDuplicateKey: () => void (repeated = true) });
    } catch {
      return null;
    }
    if (errors.length > 0 || repeated || typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return null;
    }
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!Object.hasOwn(CONFIG_CHECKS, key)) return null;
      if (value !== undefined && !CONFIG_CHECKS[key as keyof ConfigValues](value)) return null;
      merged[key] = value;
    }
  }
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env(name);
    if (raw === undefined || raw === "") continue;
    const value = coerceEnv(key, raw);
    if (value === undefined || !CONFIG_CHECKS[key](value)) return null;
    merged[key] = value;
  }
  const config = {} as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_CONFIG) as (keyof ConfigValues)[]) {
    const value = merged[key];
    // zod's output: arrays are copies, every other value is itself
    config[key] = value === undefined ? DEFAULT_CONFIG[key] : Array.isArray(value) ? [...value] : value;
  }
  return { config: config as unknown as ConfigValues, problems: [], observeBecause: null, heldBack: {} };
}

/** An environment value as the key's type: a boolean word, a decimal number, or the trimmed text. */
export function coerceEnv(key: keyof ConfigValues, raw: string): unknown {
  const defaultValue = DEFAULT_CONFIG[key];
  if (typeof defaultValue === "boolean") {
    const v = raw.trim().toLowerCase();
    if (ON_WORDS.includes(v)) return true;
    if (OFF_WORDS.includes(v)) return false;
    return undefined;
  }
  if (typeof defaultValue === "number") return /^\s*\d+(?:\.\d+)?\s*$/.test(raw) ? Number(raw) : undefined;
  return raw.trim();
}
