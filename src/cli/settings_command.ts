/**
 * What `install` and `uninstall` share: the target flags, which file they name, running the edit and
 * printing the outcome (human lines, a diff, or one JSON object).
 */
import { isAbsolute, join, resolve } from "node:path";
import { type CommandSpec, type FlagSpec, parseCommandArgs, type Parsed } from "./args.ts";
import type { CliContext } from "./context.ts";
import { UsageError } from "../errors.ts";
import { type ApplyResult, applySettingsEdit } from "../settings/apply.ts";
import type { EditResult } from "../settings/edit.ts";
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

/** The `--events LIST` flag; `help` says what leaving it out means for the command. */
export function eventsFlag(help: string): FlagSpec {
  return { type: "string", value: "LIST", help };
}

/**
 * The hooks `--events` names (comma-separated `stop`, `prompt`, `pretool`), or undefined when the flag is absent.
 * An empty list or an unknown name is a usage error, with "did you mean" for a typo or a Claude Code event name.
 */
export function parseEventsFlag(spec: CommandSpec, parsed: Parsed): HookSubcommand[] | undefined {
  const raw = parsed.values["events"];
  if (raw === undefined) return undefined;
  const known = HOOK_SUBCOMMANDS.join(", ");
  const result = parseHookList(String(raw));
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
   * launcher here, so the settings never name a launcher that is missing, and a refused install writes nothing.
   */
  beforeWrite?: () => Promise<void>;
  /** One line (no prefix) printed on stderr and returned as `warning` in --json, or null. */
  warning: string | null;
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
  const { edit, warning, beforeWrite } = await options.makeEdit(parsed, hooks, settingsPath);
  if (!dryRun && beforeWrite) {
    await applySettingsEdit({ settingsPath, paths: ctx.paths, edit, dryRun: true, now: ctx.now() });
    await beforeWrite();
  }
  const result = await applySettingsEdit({ settingsPath, paths: ctx.paths, edit, dryRun, now: ctx.now() });
  if (warning !== null) ctx.err(`cliffhanger-bin: warning: ${warning}\n`);
  ctx.out(
    parsed.values["json"] === true
      ? renderJson(options.action, result, dryRun, warning)
      : renderText(options.action, result),
  );
  return 0;
}

/** `{action, settings, changed, backup, events, removed?, dryRun, diff?, warning?}` on one line. */
export function renderJson(
  action: SettingsAction,
  result: ApplyResult,
  dryRun: boolean,
  warning: string | null = null,
): string {
  const body: Record<string, unknown> = {
    action,
    settings: result.settings,
    changed: result.changed,
    backup: result.backup,
    events: result.events,
    ...(result.removed.length > 0 ? { removed: result.removed } : {}),
    ...(result.keptTimeouts.length > 0 ? { keptTimeouts: result.keptTimeouts } : {}),
    ...(result.replacedPython !== null ? { replacedPython: result.replacedPython } : {}),
    dryRun,
  };
  if (dryRun) body["diff"] = result.diff ?? "";
  if (warning !== null) body["warning"] = warning;
  return JSON.stringify(body) + "\n";
}

/** Short lines for people. */
export function renderText(action: SettingsAction, result: ApplyResult): string {
  if (result.diff !== null) return result.diff === "" ? `no change to ${result.settings}\n` : result.diff;
  const events = result.events.join(", ");
  const lines: string[] = [];
  if (action === "install") {
    if (!result.changed) lines.push(`Already installed in ${result.settings} (${events})`);
    else if (!result.existed) lines.push(`Created ${result.settings} with cliffhanger hooks for ${events}`);
    else lines.push(`Installed cliffhanger hooks for ${events} in ${result.settings}`);
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
  if (result.backup) lines.push(`Backup of the previous file: ${result.backup}`);
  return lines.join("\n") + "\n";
}
