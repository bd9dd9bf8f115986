/** A read-only look at settings files for `status` and `doctor`: which of them run our hooks, and how. */
import { readRegularText, specialKind, TooLargeError, UnsafeFileError } from "../store/safe_file.ts";
import { MAX_SETTINGS_BYTES } from "./apply.ts";
import { join } from "node:path";
import { firstLine, scopeText } from "../errors.ts";
import type { HomePaths } from "../store/paths.ts";
import { getNodeValue, type Node } from "jsonc-parser";
import { strictJsonProblem } from "./strict_json.ts";
import { type HandlerLimit, handlerLimits } from "./handler_limits.ts";
import {
  describeProblems,
  groupProblem,
  guardEntryProblem,
  INSTALL_FIELDS,
  neverRuns,
  ourHandlerProblems,
  topLevelProblem,
} from "./client_schema.ts";
import {
  findOurHandlers,
  findPythonHandlers,
  type HandlerRef,
  parseSettings,
  propertyValue,
  type SettingsDoc,
  SettingsParseError,
} from "./settings_doc.ts";

/** One of our handlers as found in a settings file. */
export interface FoundHandler {
  event: string;
  /** The `hook` subcommand it runs: `stop`, `prompt` or `pretool`. */
  hook: string;
  command: string;
  args: string[];
  timeout: number | null;
  /** Where its timeout is (or would be) written, as a path of keys: `hooks.Stop[0].hooks[0].timeout`. */
  timeoutKey?: string;
  /**
   * What keeps Claude Code from using its answer (`"async": true`), or hides calls from it (a narrower `matcher`), each
   * with where it is (handler_limits.ts); absent: none. The handler runs, so it is still in `events`.
   */
  limits?: HandlerLimit[];
}

/**
 * One of our handlers that Claude Code does not run (client_schema.ts): it skips the handler or its matcher group, or
 * the handler has an `if` on an event that never evaluates one.
 */
export interface SkippedHandler {
  event: string;
  /** The `hook` subcommand it runs. */
  hook: string;
  /** Where it is, as a path of keys: `hooks.Stop[0].hooks[0]`. */
  key: string;
  /** What is wrong, in Claude Code's terms: `"timeout" is "60", not a positive number`. */
  problem: string;
  /**
   * install puts part of it right: a problem in a field it writes (type, command, args, timeout) or removes (async,
   * asyncRewake, if), or the matcher of its group.
   */
  byInstall: boolean;
  /** What is left to edit by hand, each as an instruction: `fix or remove "shell" in hooks.Stop[0].hooks[0]`. */
  edits: string[];
}

/** Why Claude Code ignores a whole settings file that parses: an entry of a guard event, or a top-level key. */
export interface IgnoredFile {
  /** The entry or key at fault: `hooks.PreToolUse[1].hooks[0]`, `disableAllHooks`. */
  key: string;
  problem: string;
  /** The entry is a handler of ours (its `hook`), which install puts right when `byInstall`; else null. */
  hook: string | null;
  byInstall: boolean;
}

export interface SettingsFileReport {
  path: string;
  /** Whether the file is there; null when that cannot be known (it is outside this binary's read scope). */
  exists: boolean | null;
  /** Why the file could not be read or parsed ("3:5: invalid JSON: comma expected"), else null. */
  error: string | null;
  /** The events that have our handlers, each once, in file order. */
  events: string[];
  handlers: FoundHandler[];
  /** The events the Python cliffhanger (hooks/cliffhanger.py) is registered for here (absent: none). */
  python?: string[];
  /** `enabledPlugins`: each plugin id set to true or false here (absent: none). */
  enabledPlugins?: Record<string, boolean>;
  /**
   * `hooks`, or one of its events, given twice ("2:3: \"hooks\" is given twice and only the last counts; merge them
   * into one"): Claude Code reads the last copy, which is what is reported here, and install and uninstall refuse the
   * file (absent: none).
   */
  repeated?: string;
  /**
   * Why a file that is there could not be read, for the fix (absent: it was read, or the cause has no fix of its own):
   * a folder, another file that is not a regular one (a FIFO, a socket, a device), one over MAX_SETTINGS_BYTES, or
   * one this user may not read.
   */
  readFault?: ReadFault;
  /** Our handlers Claude Code does not run, each with why (absent: none); they are not in `handlers` or `events`. */
  skipped?: SkippedHandler[];
  /**
   * Why Claude Code ignores this whole file although it parses (absent: it does not): then every handler of ours in it
   * is in `skipped`, and `enabledPlugins` is left out too.
   */
  ignored?: IgnoredFile;
  /** `disableAllHooks` when it is true or false here (absent: not set, or the file is ignored). */
  disableAllHooks?: boolean;
  /** `allowManagedHooksOnly` when it is true or false here (it counts only in managed settings). */
  allowManagedHooksOnly?: boolean;
}

/** What kept a settings file from being read: each has its own fix (doctor's settings-parse check). */
export type ReadFault = "folder" | "special" | "too-large" | "denied";

export interface InspectOptions {
  /**
   * Read the text as Claude Code reads a settings file: strict JSON, a comment or a trailing comma makes it ignore the
   * whole file, so then `error` says where and no handler is listed (strict_json.ts).
   */
  strict?: boolean;
  /**
   * What the file is, for the top-level keys checked (client_schema.ts, topLevelProblem): "settings" (the default: the
   * user, project, local and --settings files), every key Claude Code checks; "managed" (managed settings, where it
   * reads many keys leniently) and "plugin" (a plugin's hook file, not a settings file), only `disableAllHooks`, as
   * neither was measured.
   */
  source?: SettingsSource;
}

/** What a file inspected is (InspectOptions.source). */
export type SettingsSource = "settings" | "managed" | "plugin";

/** Inspect settings text (empty text reads as `{}`). */
export function inspectSettingsText(
  text: string,
  options: InspectOptions = {},
): Pick<
  SettingsFileReport,
  | "error"
  | "events"
  | "handlers"
  | "python"
  | "enabledPlugins"
  | "repeated"
  | "skipped"
  | "ignored"
  | "disableAllHooks"
  | "allowManagedHooksOnly"
> {
  if (text.trim() === "") return { error: null, events: [], handlers: [] };
  try {
    const json = text.replace(/^\uFEFF/, "");
    const doc = parseSettings(json);
    const strict = options.strict ? strictJsonProblem(json) : null;
    if (strict !== null) return { error: strict, events: [], handlers: [] };
    const ignored = ignoredBecause(doc, options.source ?? "settings");
    const handlers: FoundHandler[] = [];
    const skipped: SkippedHandler[] = [];
    for (const ref of findOurHandlers(doc)) {
      const key = `hooks.${ref.event}[${ref.groupIndex}].hooks[${ref.handlerIndex}]`;
      const skip = ignored !== null
        ? {
          event: ref.event,
          hook: ref.hook,
          key,
          problem: "Claude Code ignores the whole file",
          byInstall: false,
          edits: [],
        }
        : skippedBecause(ref, key);
      if (skip !== null) {
        skipped.push(skip);
        continue;
      }
      const groupKey = `hooks.${ref.event}[${ref.groupIndex}]`;
      const group = getNodeValue(ref.groups.children![ref.groupIndex]!);
      const limits = handlerLimits({ event: ref.event, group, handler: ref.value, groupKey, key });
      handlers.push({
        event: ref.event,
        hook: ref.hook,
        command: String(ref.value["command"]),
        args: Array.isArray(ref.value["args"]) ? ref.value["args"].map(String) : [],
        timeout: typeof ref.value["timeout"] === "number" ? ref.value["timeout"] : null,
        timeoutKey: `${key}.timeout`,
        ...(limits.length > 0 ? { limits } : {}),
      });
    }
    const python = [...new Set(findPythonHandlers(doc).map((r) => r.event))];
    // an ignored file enables no plugin either
    const enabledPlugins = ignored === null ? enabledPluginsOf(doc.root) : undefined;
    const off = ignored === null ? propertyValue(doc.root, "disableAllHooks")?.value : undefined;
    const managedOnly = ignored === null ? propertyValue(doc.root, "allowManagedHooksOnly")?.value : undefined;
    const repeated = repeatedHooks(json);
    return {
      error: null,
      events: [...new Set(handlers.map((h) => h.event))],
      handlers,
      ...(skipped.length > 0 ? { skipped } : {}),
      ...(ignored === null ? {} : { ignored }),
      ...(typeof off === "boolean" ? { disableAllHooks: off } : {}),
      ...(typeof managedOnly === "boolean" ? { allowManagedHooksOnly: managedOnly } : {}),
      ...(python.length > 0 ? { python } : {}),
      ...(enabledPlugins ? { enabledPlugins } : {}),
      ...(repeated === null ? {} : { repeated }),
    };
  } catch (e) {
    if (e instanceof SettingsParseError) return { error: e.message, events: [], handlers: [] };
    throw e;
  }
}

/**
 * Why Claude Code ignores the whole of a file that parses: a top-level key it knows given a value that does not fit
 * (`disableAllHooks` that is not true or false, `"model": 5`), or an entry under PreToolUse or PermissionRequest that
 * does not load (anyone's: client_schema.ts); null when neither.
 */
function ignoredBecause(doc: SettingsDoc, source: SettingsSource): IgnoredFile | null {
  const only = source === "settings" ? {} : { only: ["disableAllHooks"] };
  const top = topLevelProblem(getNodeValue(doc.root), only);
  if (top !== null) return { key: top.field ?? "", problem: top.problem, hook: null, byInstall: false };
  const guard = guardEntryProblem(doc.hooks ? getNodeValue(doc.hooks) : undefined);
  if (guard === null) return null;
  // one of ours: install puts it right when every problem is in a field it writes or removes
  const ours = findOurHandlers(doc, guard.event).find((r) =>
    guard.key === `hooks.${r.event}[${r.groupIndex}].hooks[${r.handlerIndex}]`
  );
  // or the matcher of a group that holds only a handler of ours, which install removes
  const group = findOurHandlers(doc, guard.event).find((r) =>
    guard.key === `hooks.${r.event}[${r.groupIndex}]` && (r.handlers.children?.length ?? 0) === 1 &&
    guard.problems.every((p) => p.field === "matcher")
  );
  const problems = ours === undefined ? guard.problems : ourHandlerProblems(ours.value);
  const fixable = (p: { field: string | null }) => INSTALL_FIELDS.includes(p.field ?? "");
  const byInstall = ours !== undefined
    ? problems.every(fixable)
    : group !== undefined && ourHandlerProblems(group.value).every(fixable);
  return { key: guard.key, problem: describeProblems(problems), hook: (ours ?? group)?.hook ?? null, byInstall };
}

/** Why Claude Code does not run one of our handlers (its group or its own fields, or an `if`), or null when it does. */
function skippedBecause(ref: HandlerRef, key: string): SkippedHandler | null {
  const group = getNodeValue(ref.groups.children![ref.groupIndex]!);
  const groupKey = `hooks.${ref.event}[${ref.groupIndex}]`;
  const inGroup = groupProblem(group);
  const own = ourHandlerProblems(ref.value);
  const never = neverRuns(ref.event, ref.value);
  const problems = [...(inGroup === null ? [] : [inGroup]), ...own, ...(never === null ? [] : [never])];
  if (problems.length === 0) return null;
  // install takes our handler out of a group whose matcher is not a string, and removes an `if`
  const byInstall = inGroup?.field === "matcher" || never !== null ||
    own.some((p) => INSTALL_FIELDS.includes(p.field ?? ""));
  const edits = [
    ...(inGroup === null || inGroup.field === "matcher" ? [] : [`fix or remove "${inGroup.field}" in ${groupKey}`]),
    ...own.filter((p) => !INSTALL_FIELDS.includes(p.field ?? "")).map((p) => `fix or remove "${p.field}" in ${key}`),
  ];
  const where = (p: { field: string | null }) => p === inGroup ? `${groupKey}: ` : "";
  return {
    event: ref.event,
    hook: ref.hook,
    key,
    problem: problems.map((p) => `${where(p)}${p.problem}`).join("; "),
    byInstall,
    edits,
  };
}

/** Why install would refuse a text that parses: `hooks` or one of its events given twice; null when neither is. */
function repeatedHooks(text: string): string | null {
  try {
    parseSettings(text, { refuseRepeated: true });
    return null;
  } catch (e) {
    if (e instanceof SettingsParseError) return e.message;
    throw e;
  }
}

/** `enabledPlugins` entries whose value is a boolean, or undefined when there are none. */
function enabledPluginsOf(root: Node): Record<string, boolean> | undefined {
  const node = propertyValue(root, "enabledPlugins");
  if (!node || node.type !== "object") return undefined;
  const out: Record<string, boolean> = {};
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key && typeof key.value === "string" && value && value.type === "boolean") out[key.value] = value.value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Inspect each settings file, in order, as Claude Code reads it (strict JSON); `source` says what the files are
 * (InspectOptions). Never throws for a missing, unreadable or invalid file.
 */
export async function inspectSettings(
  paths: readonly string[],
  options: Pick<InspectOptions, "source"> = {},
): Promise<SettingsFileReport[]> {
  return await Promise.all(paths.map((path) => inspectFile(path, options.source ?? "settings")));
}

async function inspectFile(path: string, source: SettingsSource): Promise<SettingsFileReport> {
  let text: string;
  try {
    const read = await readRegularText(path, { maxBytes: MAX_SETTINGS_BYTES, label: "settings file" });
    if (read === null) return { path, exists: false, error: null, events: [], handlers: [] };
    text = read;
  } catch (e) {
    // outside the read scope even whether the file is there is unknown
    const exists = e instanceof Deno.errors.NotCapable ? null : true;
    const fault = await readFaultOf(path, e);
    const why = fault?.text ?? scopeText(firstLine(e));
    return {
      path,
      exists,
      error: `cannot read: ${why}`,
      events: [],
      handlers: [],
      ...(fault === null ? {} : { readFault: fault.kind }),
    };
  }
  return { path, exists: true, ...inspectSettingsText(text, { strict: true, source }) };
}

/**
 * What kept `path` from being read, when the fix depends on it: a folder or another file that is not a regular one
 * (said as what it is: `is a FIFO, not a regular file`, `is a link to a folder`), one over the size cap, one this user
 * may not read. Null for anything else (outside the read scope, a read error).
 */
async function readFaultOf(path: string, e: unknown): Promise<{ kind: ReadFault; text: string | null } | null> {
  if (e instanceof TooLargeError) return { kind: "too-large", text: null };
  if (e instanceof Deno.errors.PermissionDenied) return { kind: "denied", text: null };
  if (!(e instanceof UnsafeFileError)) return null;
  try {
    const link = (await Deno.lstat(path)).isSymlink;
    const info = await Deno.stat(path);
    const what = info.isDirectory ? "a folder" : specialKind(info);
    const text = `settings file "${path}" is ${link ? `a link to ${what}` : what}, not a regular file; not read`;
    return { kind: info.isDirectory ? "folder" : "special", text };
  } catch {
    return { kind: "special", text: null };
  }
}

/**
 * The settings Claude Code reads for a session in `cwd`, in its order (user, project, local: a later file wins); just
 * the user's when the working directory is not known.
 */
export function claudeReadsHere(paths: Pick<HomePaths, "userSettings">, cwd: string | null): string[] {
  return cwd ? candidateSettingsFiles(paths, cwd) : [paths.userSettings];
}

/** The settings files Claude Code reads for a session started in `cwd`: user, project, project-local. */
export function candidateSettingsFiles(paths: Pick<HomePaths, "userSettings">, cwd: string): string[] {
  return [paths.userSettings, join(cwd, ".claude", "settings.json"), join(cwd, ".claude", "settings.local.json")];
}
