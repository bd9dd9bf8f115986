/** `install`: register this binary's hooks in a Claude Code settings file. */
import type { CommandSpec } from "./args.ts";
import type { CliContext } from "./context.ts";
import { CommandError } from "./usage_error.ts";
import { installHooks } from "../settings/edit.ts";
import {
  currentHookCommand,
  type HookCommand,
  hookCommandWarning,
  selectRegistrations,
} from "../settings/hook_command.ts";
import { EXIT_CODES_HELP, runSettingsCommand, TARGET_FLAGS } from "../settings/settings_command.ts";

export const spec: CommandSpec = {
  name: "install",
  usage: "install [--settings PATH | --project DIR] [--no-subagent] [--dry-run] [--json]",
  summary: "Add the cliffhanger Stop and SubagentStop hooks to a Claude Code settings file. " +
    "Other settings, hooks and comments are kept; the previous file is backed up.",
  flags: {
    ...TARGET_FLAGS,
    "no-subagent": { type: "boolean", help: "leave out (or remove) the SubagentStop hook" },
  },
  details: EXIT_CODES_HELP,
};

export interface InstallDeps {
  /** The command to register (default: this binary, or deno running main.ts). */
  hookCommand?: HookCommand;
  /** Resolves relative paths (default: the process cwd). */
  cwd?: string;
}

export function run(ctx: CliContext, argv: string[]): Promise<number> {
  return runInstall(ctx, argv, {});
}

export function runInstall(ctx: CliContext, argv: string[], deps: InstallDeps): Promise<number> {
  return runSettingsCommand(ctx, argv, {
    spec,
    action: "install",
    ...(deps.cwd === undefined ? {} : { cwd: deps.cwd }),
    makeEdit: (parsed) => {
      const command = deps.hookCommand ?? hookCommandFor(ctx);
      const registrations = selectRegistrations({ subagent: parsed.values["no-subagent"] !== true });
      return { edit: (text) => installHooks(text, { command, registrations }), warning: hookCommandWarning(command) };
    },
  });
}

function hookCommandFor(ctx: CliContext): HookCommand {
  try {
    return currentHookCommand(ctx.env);
  } catch (e) {
    throw new CommandError(`Cannot work out the hook command: ${e instanceof Error ? e.message : String(e)}`);
  }
}
