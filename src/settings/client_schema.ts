/**
 * What Claude Code 2.1.328 loads from a settings file's `hooks`, as measured with the real client (docs/doctor.md,
 * "What Claude Code skips"). It checks every handler against its type's fields and every matcher group's `matcher`
 * and `hooks`, and a handler or group that does not fit is skipped, silently:
 * - under most events only that handler (or that group) is skipped: the other handlers of the event still run, ours
 *   included, whoever's the bad one is;
 * - under PreToolUse and PermissionRequest one such entry, anyone's, makes it ignore the whole file: every hook in it,
 *   of every event;
 * - a handler with `if` runs only on the tool events (IF_EVENTS): on Stop, SubagentStop or UserPromptSubmit it never
 *   runs, although it loads.
 * A top-level key it knows given a value that does not fit (`"disableAllHooks": "yes"`, `"model": 5`) makes it ignore
 * the whole file too (TOP_LEVEL_KEYS). Unknown keys are fine everywhere. Pure: values in, problems out.
 */

/** The events where one entry that does not load makes Claude Code ignore the whole file. */
export const GUARD_EVENTS: readonly string[] = ["PreToolUse", "PermissionRequest"];

/** The events where a handler's `if` is evaluated; on any other a handler with `if` never runs. */
export const IF_EVENTS: readonly string[] = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
];

/**
 * The handler fields install puts right: those it writes (HOOK_REGISTRATIONS) and those it removes from our handler
 * (handler_limits.ts, handlerKeysInstallRemoves). A problem in one of these, install puts right.
 */
export const INSTALL_FIELDS: readonly string[] = ["type", "command", "args", "timeout", "async", "asyncRewake", "if"];

type FieldCheck = (value: unknown) => string | null;

const text: FieldCheck = (v) => typeof v === "string" ? null : "a string";
const nonEmpty: FieldCheck = (v) => typeof v === "string" && v.length > 0 ? null : "a string that is not empty";
const flag: FieldCheck = (v) => typeof v === "boolean" ? null : "true or false";
const seconds: FieldCheck = (v) => typeof v === "number" && v > 0 ? null : "a positive number";
const words: FieldCheck = (v) => Array.isArray(v) && v.every((w) => typeof w === "string") ? null : "a list of strings";
const oneOf = (...values: string[]): FieldCheck => (v) =>
  typeof v === "string" && values.includes(v) ? null : values.map((x) => `"${x}"`).join(" or ");
const textMap: FieldCheck = (v) =>
  isObject(v) && Object.values(v).every((x) => typeof x === "string") ? null : "an object of strings";
const anyMap: FieldCheck = (v) => isObject(v) ? null : "an object";
const url: FieldCheck = (v) => typeof v === "string" && URL.canParse(v) ? null : "a URL";
const number: FieldCheck = (v) => typeof v === "number" ? null : "a number";
const count: FieldCheck = (v) => Number.isInteger(v) && (v as number) > 0 ? null : "a whole number over 0";
const list: FieldCheck = (v) => Array.isArray(v) ? null : "a list";
/** `check`, or null, which Claude Code drops from a file before it reads it (for the keys it treats as policy). */
const orNull = (check: FieldCheck): FieldCheck => (v) => v === null ? null : check(v);
/** A list of strings, or one name of letters, digits, `_` and `-`, which Claude Code reads as a list of that name. */
const serverNames: FieldCheck = (v) => typeof v === "string" && /^[A-Za-z0-9_-]+$/.test(v) ? null : words(v);
const pluginSwitches: FieldCheck = (v) =>
  isObject(v) && Object.values(v).every((x) => typeof x === "boolean" || words(x) === null)
    ? null
    : "an object of true, false or lists of strings";
const flagOrObject: FieldCheck = (v) => typeof v === "boolean" || isObject(v) ? null : "true or false, or an object";

/** An object's fields: required ones, then optional ones (absent is fine); other keys are fine. */
interface Fields {
  required: Record<string, FieldCheck>;
  optional: Record<string, FieldCheck>;
}

/** Each handler type's fields. */
const HANDLER_TYPES: Record<string, Fields> = {
  command: {
    required: { command: text },
    optional: {
      args: words,
      if: text,
      shell: oneOf("bash", "powershell"),
      timeout: seconds,
      onFailure: oneOf("continue", "block"),
      statusMessage: text,
      once: flag,
      async: flag,
      asyncRewake: flag,
      rewakeMessage: nonEmpty,
      rewakeSummary: nonEmpty,
    },
  },
  prompt: {
    required: { prompt: text },
    optional: { if: text, timeout: seconds, model: text, continueOnBlock: flag, statusMessage: text, once: flag },
  },
  agent: {
    required: { prompt: text },
    optional: { if: text, timeout: seconds, model: text, statusMessage: text, once: flag },
  },
  http: {
    required: { url },
    optional: {
      if: text,
      timeout: seconds,
      onFailure: oneOf("continue", "block"),
      headers: textMap,
      allowedEnvVars: words,
      statusMessage: text,
      once: flag,
    },
  },
  mcp_tool: {
    required: { server: text, tool: text },
    optional: { input: anyMap, if: text, timeout: seconds, statusMessage: text, once: flag },
  },
};

/** One way a handler does not fit its type: the field (or null for the handler itself) and what is wrong. */
export interface FieldProblem {
  field: string | null;
  problem: string;
}

/** Every way `handler` does not fit what Claude Code loads; empty when it loads. */
export function handlerProblems(handler: unknown): FieldProblem[] {
  if (!isObject(handler)) return [{ field: null, problem: `is ${shown(handler)}, not an object` }];
  const type = handler["type"];
  if (type === undefined) return [{ field: "type", problem: 'has no "type"' }];
  const fields = typeof type === "string" ? HANDLER_TYPES[type] : undefined;
  if (fields === undefined) {
    return [{
      field: "type",
      problem: `"type" is ${shown(type)}, not one of ${Object.keys(HANDLER_TYPES).join(", ")}`,
    }];
  }
  const out: FieldProblem[] = [];
  for (const [field, check] of Object.entries(fields.required)) {
    const want = field in handler ? check(handler[field]) : null;
    if (!(field in handler)) out.push({ field, problem: `has no "${field}"` });
    else if (want !== null) out.push({ field, problem: `"${field}" is ${shown(handler[field])}, not ${want}` });
  }
  for (const [field, check] of Object.entries(fields.optional)) {
    if (!(field in handler)) continue;
    const want = check(handler[field]);
    if (want !== null) out.push({ field, problem: `"${field}" is ${shown(handler[field])}, not ${want}` });
  }
  return out;
}

/**
 * handlerProblems for a handler of ours, which runs a command: any other `type` is itself the problem (install writes
 * "command"), and the rest is checked as a command handler's fields.
 */
export function ourHandlerProblems(handler: Record<string, unknown>): FieldProblem[] {
  const type = handler["type"];
  const wrongType = type === "command" ? [] : [{
    field: "type",
    problem: type === undefined ? 'has no "type"' : `"type" is ${shown(type)}, not "command"`,
  }];
  return [...wrongType, ...handlerProblems({ ...handler, type: "command" })];
}

/** Why a matcher group is skipped whole (its `matcher` is not a string, its `hooks` not a list), or null. */
export function groupProblem(group: unknown): FieldProblem | null {
  if (!isObject(group)) return { field: null, problem: `is ${shown(group)}, not an object` };
  if (!Array.isArray(group["hooks"])) {
    return {
      field: "hooks",
      problem: "hooks" in group ? `"hooks" is ${shown(group["hooks"])}, not a list` : 'has no "hooks"',
    };
  }
  if ("matcher" in group && typeof group["matcher"] !== "string") {
    return { field: "matcher", problem: `"matcher" is ${shown(group["matcher"])}, not a string` };
  }
  return null;
}

/** Why a handler that loads still never runs under `event`: an `if` outside the tool events; else null. */
export function neverRuns(event: string, handler: Record<string, unknown>): FieldProblem | null {
  if (!("if" in handler) || IF_EVENTS.includes(event)) return null;
  return { field: "if", problem: `"if" is set, and on ${event} a handler with "if" never runs` };
}

/** An entry of `hooks` Claude Code does not load, with its key path (`hooks.PreToolUse[1].hooks[0]`). */
export interface Unloadable {
  event: string;
  key: string;
  problems: FieldProblem[];
}

/**
 * The first entry under PreToolUse or PermissionRequest that does not load (a handler that does not fit, or a group
 * whose matcher or hooks do not), for which Claude Code ignores the whole file; null when there is none. `hooks` is the
 * value of the file's `hooks`, as JSON.parse reads it (the last copy of a repeated key).
 */
export function guardEntryProblem(hooks: unknown): Unloadable | null {
  if (!isObject(hooks)) return null;
  for (const event of GUARD_EVENTS) {
    const groups = hooks[event];
    if (groups === undefined || groups === null) continue;
    if (!Array.isArray(groups)) {
      return { event, key: `hooks.${event}`, problems: [{ field: null, problem: `is ${shown(groups)}, not a list` }] };
    }
    for (const [g, group] of groups.entries()) {
      const bad = groupProblem(group);
      if (bad !== null) return { event, key: `hooks.${event}[${g}]`, problems: [bad] };
      for (const [h, handler] of (group as { hooks: unknown[] }).hooks.entries()) {
        const problems = handlerProblems(handler);
        if (problems.length > 0) return { event, key: `hooks.${event}[${g}].hooks[${h}]`, problems };
      }
    }
  }
  return null;
}

/**
 * The top-level keys whose value, when it does not fit, makes Claude Code 2.1.328 ignore the whole file, each with what
 * it takes (an object's fields for `permissions` and `statusLine`; of `sandbox` and `attribution` only the type is
 * checked). Each was measured with the real client (docs/doctor.md, "What Claude Code skips"). Not listed, as it reads
 * them: keys it falls back from (`viewMode`, `effortLevel`, `theme`: a `.catch` in its schema), keys it drops alone
 * with a warning (`remoteControl`, `teammateMode`, `modelPricing`, `extraKnownMarketplaces`, `allowedMcpServers`,
 * `deniedModels`), `hooks` (guardEntryProblem) and keys it does not know.
 */
const TOP_LEVEL_KEYS: Record<string, FieldCheck | Fields> = {
  $schema: text,
  apiKeyHelper: text,
  awsCredentialExport: text,
  awsAuthRefresh: text,
  gcpAuthRefresh: text,
  otelHeadersHelper: text,
  model: text,
  outputStyle: text,
  language: text,
  agent: text,
  plansDirectory: text,
  fallbackModel: words,
  availableModels: words,
  companyAnnouncements: words,
  claudeMdExcludes: words,
  enabledMcpjsonServers: serverNames,
  disabledMcpjsonServers: serverNames,
  cleanupPeriodDays: count,
  autoUpdatesChannel: oneOf("latest", "stable", "rc"),
  defaultShell: oneOf("bash", "powershell"),
  disableAllHooks: flag,
  allowManagedHooksOnly: orNull(flag),
  enableAllProjectMcpServers: orNull(flag),
  includeCoAuthoredBy: flag,
  includeGitInstructions: flag,
  respectGitignore: flag,
  alwaysThinkingEnabled: flag,
  autoCompactEnabled: flag,
  spinnerTipsEnabled: flag,
  verbose: flag,
  env: anyMap,
  enabledPlugins: pluginSwitches,
  attribution: flagOrObject,
  sandbox: anyMap,
  statusLine: {
    required: { type: oneOf("command"), command: text },
    optional: { padding: number, hideVimModeIndicator: flag },
  },
  permissions: {
    required: {},
    optional: {
      // an entry that is not a rule is dropped alone; a value that is not a list drops the file
      allow: list,
      deny: list,
      ask: list,
      defaultMode: oneOf("default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions", "manual"),
      additionalDirectories: words,
      disableBypassPermissionsMode: oneOf("disable"),
      disableAutoMode: oneOf("disable"),
      blockReadsOutsideWorkingDirectories: flag,
      blockFileToolReadsOutsideWorkingDirectories: flag,
      blockWritesOutsideWorkingDirectories: flag,
      denyInsteadOfPrompting: flag,
    },
  },
};

/** The top-level keys topLevelProblem checks. */
export const TOP_LEVEL_CHECKED: readonly string[] = Object.keys(TOP_LEVEL_KEYS);

export interface TopLevelOptions {
  /** Check only these of TOP_LEVEL_CHECKED (default: all of them). */
  only?: readonly string[];
}

/**
 * Why Claude Code ignores the whole file for a top-level key it knows (TOP_LEVEL_KEYS), or null: the first such key in
 * the file, named in `field` (`permissions.allow` for a field of an object): `"model" is 5, not a string`.
 */
export function topLevelProblem(root: unknown, options: TopLevelOptions = {}): FieldProblem | null {
  if (!isObject(root)) return null;
  for (const [key, value] of Object.entries(root)) {
    const check = Object.hasOwn(TOP_LEVEL_KEYS, key) ? TOP_LEVEL_KEYS[key] : undefined;
    if (check === undefined || (options.only !== undefined && !options.only.includes(key))) continue;
    const problem = typeof check === "function" ? valueProblem(key, value, check) : objectProblem(key, value, check);
    if (problem !== null) return problem;
  }
  return null;
}

function valueProblem(key: string, value: unknown, check: FieldCheck): FieldProblem | null {
  const want = check(value);
  return want === null ? null : { field: key, problem: `"${key}" is ${shown(value)}, not ${want}` };
}

function objectProblem(key: string, value: unknown, fields: Fields): FieldProblem | null {
  if (!isObject(value)) return { field: key, problem: `"${key}" is ${shown(value)}, not an object` };
  for (const field of Object.keys(fields.required)) {
    if (!(field in value)) return { field: key, problem: `"${key}" has no "${field}"` };
  }
  for (const [field, check] of Object.entries({ ...fields.required, ...fields.optional })) {
    const problem = field in value ? valueProblem(`${key}.${field}`, value[field], check) : null;
    if (problem !== null) return problem;
  }
  return null;
}

/** The problems as one phrase: `"timeout" is "60", not a positive number; "async" is "no", not true or false`. */
export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map((p) => p.problem).join("; ");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value as JSON, cut to 40 characters. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
}
