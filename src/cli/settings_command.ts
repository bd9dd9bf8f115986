/**
 * What `install` and `uninstall` share: the target flags, which file they name, running the edit and
 * printing the outcome (human lines, a diff, or one JSON object).
 */
import { isAbsolute, join, resolve } from "node:path";
import { type CommandSpec, type FlagSpec, parseCommandArgs, type Parsed } from "./args.ts";
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors.ts";
import { type ApplyResult, applySettingsEdit } from "../settings/apply.ts";
import { readCreatedRecord, updateCreatedRecord, withoutPath, withPath } from "../settings/created_record.ts";
import type { DroppedKey, EditResult } from "../settings/edit.ts";
import { removedBecause } from "../settings/handler_limits.ts";
import type { LauncherChange } from "../settings/launcher.ts";
import { HOOK_SUBCOMMANDS, type HookSubcommand, parseHookList } from "../settings/hook_command.ts";
import { hookNameHint } from "./event_hint.ts";

export type SettingsAction = "install" | "uninstall";

/** Flags both commands take. */
export const TARGET_FLAGS: Record<string, FlagSpec> = {
  settings: { type: "string", value: "PATH", help: "edit this settings file (default: the user settings)" },
  project: { type: "string", value: "DIR", help: "edit DIR/.claude/settings.json" },
  "dry-run": { type: "boolean", help: "print the change as a unified diff and write nothing" },
  json: { type: "boolean", help: "print one JSON object" },
};

/** The `--events LIST` flag (repeatable: the lists add up); `help` says what leaving it out means for the command. */
export function eventsFlag(help: string): FlagSpec {
  return { type: "string", value: "LIST", help, multiple: true };
}

/**
 * The hooks `--events` names (comma-separated `stop`, `prompt`, `pretool`; every copy of the flag adds its list), or
 * undefined when the flag is absent. An empty list or an unknown name is a usage error, with "did you mean" for a
 * typo or a Claude Code event name.
 */
export function parseEventsFlag(spec: CommandSpec, parsed: Parsed): HookSubcommand[] | undefined {
  const raw = parsed.values["events"];
  if (raw === undefined) return undefined;
  const known = HOOK_SUBCOMMANDS.join(", ");
  const lists = Array.isArray(raw) ? raw : [String(raw)];
  if (lists.some((list) => list.trim().replaceAll(",", "").trim() === "")) {
    throw new UsageError(`${spec.name}: --events needs at least one of ${known}`);
  }
  const result = parseHookList(lists.join(","));
  if (result.ok) return result.hooks;
  if ("empty" in result) throw new UsageError(`${spec.name}: --events needs at least one of ${known}`);
  throw new UsageError(
    `${spec.name}: unknown event "${result.unknown}" in --events${hookNameHint(result.unknown)}; known: ${known}`,
  );
}

/** Flags about the Stop guard alone. */
const STOP_FLAGS = ["no-subagent", "relay"] as const;

/** `--no-subagent` and `--relay` are about the Stop guard: with an `--events` list that leaves out stop, a mistake. */
export function checkStopFlags(spec: CommandSpec, parsed: Parsed, hooks: readonly HookSubcommand[] | undefined): void {
  if (hooks === undefined || hooks.includes("stop")) return;
  for (const flag of STOP_FLAGS) {
    if (parsed.values[flag] === true) {
      throw new UsageError(`${spec.name}: --${flag} applies to the stop hook, which --events leaves out`);
    }
  }
}

export const EXIT_CODES_HELP = "exit codes: 0 done (also when nothing changed), 1 settings file error, 2 usage error";

/** The edit a command makes, and a warning to print once it is done. */
export interface PreparedEdit {
  edit(text: string): EditResult;
  /**
   * Run before a real write, once the edit is known to go through (a trial run found no refusal): install writes its
   * launcher here, so the settings never name a launcher that is missing, and a refused install writes nothing. It
   * returns what that changed (null: the launcher was already so), which the output reports.
   */
  beforeWrite?: () => Promise<LauncherChange | null>;
  /** One line (no prefix) printed on stderr and returned as `warning` in --json, or null. */
  warning: string | null;
  /** A warning the edit itself found (asked after it ran), said like `warning`; absent or null: none. */
  editWarning?: () => string | null;
}

export interface SettingsCommandOptions {
  spec: CommandSpec;
  action: SettingsAction;
  /**
   * The pure edit for the parsed flags and the hooks `--events` names (undefined: the flag is absent; both
   * commands take `--events` and `--no-subagent`, checked before this is called). May throw CommandError.
   */
  makeEdit(
    parsed: Parsed,
    hooks: HookSubcommand[] | undefined,
    target: string,
  ): PreparedEdit | Promise<PreparedEdit>;
  /** Resolves relative --settings/--project paths (default: the process cwd). */
  cwd?: string | undefined;
}

/** The settings file the flags name, as an absolute path. */
export function settingsTarget(spec: CommandSpec, parsed: Parsed, userSettings: string, cwd: () => string): string {
  const settings = parsed.values["settings"];
  const project = parsed.values["project"];
  if (settings !== undefined && project !== undefined) {
    throw new UsageError(`${spec.name}: --settings and --project cannot be used together`);
  }
  if (settings === "" || project === "") throw new UsageError(`${spec.name}: an empty path is not a settings file`);
  if (typeof settings === "string") return isAbsolute(settings) ? settings : resolve(cwd(), settings);
  if (typeof project === "string") {
    return join(isAbsolute(project) ? project : resolve(cwd(), project), ".claude", "settings.json");
  }
  return userSettings;
}

/** Parse, edit, print. Usage and file errors are thrown (UsageError, CommandError) for the entry layer to print. */
export async function runSettingsCommand(
  ctx: CliContext,
  argv: string[],
  options: SettingsCommandOptions,
): Promise<number> {
  const { spec } = options;
  const parsed = parseCommandArgs(spec, argv);
  const settingsPath = settingsTarget(spec, parsed, ctx.paths.userSettings, () => options.cwd ?? ctx.cwd() ?? "/");
  const dryRun = parsed.values["dry-run"] === true;
  const hooks = parseEventsFlag(spec, parsed);
  checkStopFlags(spec, parsed, hooks);
  const { edit, warning: before, beforeWrite, editWarning } = await options.makeEdit(parsed, hooks, settingsPath);
  // uninstall: the settings files install created, which it removes again once only `{}` is left in them
  const record = options.action === "uninstall" ? await readCreatedRecord(ctx.paths.createdSettings) : null;
  const apply = { settingsPath, paths: ctx.paths, claudeDir: ctx.paths.claudeDir, edit, now: ctx.now() };
  let launcher: LauncherChange | null = null;
  if (!dryRun && beforeWrite) {
    await applySettingsEdit({ ...apply, dryRun: true });
    launcher = await beforeWrite();
  }
  const result = await applySettingsEdit({
    ...apply,
    dryRun,
    ...(record === null ? {} : { installCreated: (target: string) => record.paths.includes(target) }),
  });
  const recordWarning = dryRun ? null : await updateRecord(ctx, options.action, result, record?.paths ?? []);
  const warnings = [before, editWarning?.() ?? null, record?.warning ?? null, recordWarning].filter((w) => w !== null);
  const warning = warnings.length === 0 ? null : warnings.join("; also, ");
  if (warning !== null) ctx.err(`cliffhanger-bin: warning: ${warning}\n`);
  ctx.out(
    parsed.values["json"] === true
      ? renderJson(options.action, result, dryRun, warning, launcher)
      : renderText(options.action, result, launcher),
  );
  return 0;
}

/**
 * Keep the record of the settings files install created (created_record.ts) true to what the run did: install adds a
 * file it created; uninstall drops one it removed, or one that is gone. Returns a warning, or null.
 */
function updateRecord(
  ctx: CliContext,
  action: SettingsAction,
  result: ApplyResult,
  recorded: readonly string[],
): Promise<string | null> {
  if (action === "install" && result.changed && !result.existed) {
    return updateCreatedRecord(ctx.paths, (paths) => withPath(paths, result.target));
  }
  if (action === "uninstall" && recorded.includes(result.target) && (result.deleted || !result.existed)) {
    return updateCreatedRecord(ctx.paths, (paths) => withoutPath(paths, result.target));
  }
  return Promise.resolve(null);
}

/**
 * `{action, settings, changed, backup, events, added?, updated?, timeouts?, deduplicated?, dropped?, removed?,
 * keptTimeouts?, replacedPython?, launcher?, deleted?, dryRun, diff?, warning?}` on one line (`deleted`: uninstall removed the
 * file, or on a dry run would).
 */
export function renderJson(
  action: SettingsAction,
  result: ApplyResult,
  dryRun: boolean,
  warning: string | null = null,
  launcher: LauncherChange | null = null,
): string {
  const some = <T>(key: string, list: readonly T[]) => (list.length > 0 ? { [key]: list } : {});
  // what a run changed; a dry run's changes are in its diff
  const done = result.changed && !dryRun;
  const body: Record<string, unknown> = {
    action,
    settings: result.settings,
    changed: result.changed,
    backup: result.backup,
    events: result.events,
    ...(done ? some("added", result.added) : {}),
    ...(done ? some("updated", result.updated) : {}),
    ...(done ? some("timeouts", result.timeouts) : {}),
    ...(done ? some("deduplicated", result.deduplicated) : {}),
    ...(done ? some("dropped", result.dropped) : {}),
    ...some("removed", result.removed),
    ...some("keptTimeouts", result.keptTimeouts),
    ...(result.replacedPython !== null ? { replacedPython: result.replacedPython } : {}),
    ...(launcher === null ? {} : { launcher }),
    ...(result.deleted ? { deleted: true } : {}),
    dryRun,
  };
  if (dryRun) body["diff"] = result.diff ?? "";
  if (warning !== null) body["warning"] = warning;
  return JSON.stringify(body) + "\n";
}

/** Short lines for people: what changed, and "Already installed" only when nothing did. */
export function renderText(
  action: SettingsAction,
  result: ApplyResult,
  launcher: LauncherChange | null = null,
): string {
  if (result.diff !== null) {
    if (result.diff === "") return `no change to ${result.settings}\n`;
    return result.deleted ? `${result.diff}${deletedLine(result, "Would remove")}\n` : result.diff;
  }
  const events = result.events.join(", ");
  const lines: string[] = [];
  if (action === "install") {
    if (!result.changed) {
      lines.push(
        launcher === null
          ? `Already installed in ${result.settings} (${events})`
          : `Already registered in ${result.settings} (${events}); only the launcher changed`,
      );
    } else if (!result.existed) lines.push(`Created ${result.settings} with cliffhanger hooks for ${events}`);
    else lines.push(...handlerChanges(result));
    if (launcher !== null) lines.push(describeLauncher(launcher));
    if (result.changed && result.removed.length > 0) {
      lines.push(`Removed the cliffhanger handler for ${result.removed.join(", ")}`);
    }
    const python = result.changed ? result.replacedPython : null;
    if (python !== null && python.events.length > 0) {
      lines.push(`Removed the Python cliffhanger's handlers for ${python.events.join(", ")}`);
    }
    if (python !== null && python.plugins.length > 0) {
      lines.push(`Set enabledPlugins to false for the Python cliffhanger plugin ${python.plugins.join(", ")}`);
    }
    for (const kept of result.keptTimeouts) {
      lines.push(
        `Kept the ${kept.event} timeout of ${kept.seconds} s (longer than install's; uninstall first to set it back)`,
      );
    }
  } else if (!result.changed) {
    lines.push(`Nothing to remove in ${result.settings}${result.existed ? "" : " (no such file)"}`);
  } else {
    lines.push(`Removed cliffhanger hooks for ${events} from ${result.settings}`);
  }
  if (result.changed && result.target !== result.settings) lines.push(`Edited the symlink target ${result.target}`);
  if (result.deleted) lines.push(deletedLine(result, "Removed"));
  if (result.backup) lines.push(`Backup of the previous file: ${result.backup}`);
  return lines.join("\n") + "\n";
}

/** `Removed P: install created it, and nothing is left in it but {}`, P the file itself (a link's target). */
function deletedLine(result: ApplyResult, verb: "Removed" | "Would remove"): string {
  const left = verb === "Removed" ? "nothing was left in it but {}" : "nothing would be left in it but {}";
  return `${verb} ${result.target}: install created it, and ${left}`;
}

/**
 * What install did to our handlers in an existing file, one line each: the events it added a handler to, the handlers
 * it pointed at another command, the timeouts it set, the extra copies it removed.
 */
function handlerChanges(result: ApplyResult): string[] {
  const where = result.settings;
  const lines: string[] = [];
  if (result.added.length > 0) lines.push(`Installed cliffhanger hooks for ${result.added.join(", ")} in ${where}`);
  // handlers changed the same way are said together: "for Stop, SubagentStop"
  const groups = new Map<string, string[]>();
  for (const u of result.updated) {
    const what = repairedWords(u.fields, u.command);
    groups.set(what, [...(groups.get(what) ?? []), u.event]);
  }
  for (const [what, list] of groups) lines.push(`The cliffhanger handler for ${list.join(", ")} in ${where} ${what}`);
  for (const t of result.timeouts) {
    const was = !("from" in t)
      ? "it had none, so Claude Code's 600 s applied"
      : typeof t.from === "number"
      ? `it was ${t.from} s`
      : `it was ${JSON.stringify(t.from)}, not a number`;
    lines.push(`Set the ${t.event} timeout in ${where} to ${t.to} s (${was})`);
  }
  if (result.deduplicated.length > 0) {
    lines.push(`Removed extra copies of the cliffhanger handler for ${result.deduplicated.join(", ")} from ${where}`);
  }
  for (const d of result.dropped) lines.push(droppedLine(d, where));
  // our handlers were right: the change (a handler removed, the Python guard replaced) has its own line below
  if (lines.length === 0) lines.push(`Cliffhanger hooks for ${result.events.join(", ")} were already in ${where}`);
  return lines;
}

/**
 * A key install removed from our handler or its group, and why: `Removed "async": true from the cliffhanger handler
 * for Stop in P: Claude Code ran the hook in the background and did not use its answer`; a group's matcher that other
 * handlers keep: `Moved the cliffhanger handler for PreToolUse in P out of its group with "matcher": "Bash" (the other
 * handlers there keep it) into a group of its own: …`.
 */
function droppedLine(d: DroppedKey, where: string): string {
  const key = `"${d.field}": ${JSON.stringify(d.value)}`;
  const why = removedBecause(d.field, d.event, d.value);
  if (d.moved) {
    return `Moved the cliffhanger handler for ${d.event} in ${where} out of its group with ${key} (the other handlers ` +
      `there keep it) into a group of its own: ${why}`;
  }
  const from = d.field === "matcher" ? "group" : "handler";
  return `Removed ${key} from the cliffhanger ${from} for ${d.event} in ${where}: ${why}`;
}

/**
 * What install set on a handler of ours, as the end of a sentence: `now runs /new/cliffhanger-bin`,
 * `now has "type": "command"`, `now runs /new/cliffhanger-bin and has "type": "command"`. The command and its args
 * are said as what it runs; `type` with the only value install writes; any other key by its name.
 */
export function repairedWords(fields: readonly string[], command: string): string {
  const runs = fields.includes("command") || fields.includes("args");
  const set = fields.filter((f) => f !== "command" && f !== "args").map((f) =>
    f === "type" ? '"type": "command"' : `its "${f}" set`
  );
  const has = set.length === 0
    ? []
    : [`has ${[set.slice(0, -1).join(", "), set.at(-1)].filter((p) => p).join(" and ")}`];
  return `now ${[...(runs ? [`runs ${command}`] : []), ...has].join(" and ")}`;
}

/** `Wrote the launcher P` or `Rewrote the launcher P: why`. */
function describeLauncher(launcher: LauncherChange): string {
  return launcher.change === "created"
    ? `Wrote the launcher ${launcher.path}`
    : `Rewrote the launcher ${launcher.path}: ${launcher.why.join("; ")}`;
}
