/** `uninstall`: remove this binary's hooks from a Claude Code settings file, and nothing else. */
import type { CommandSpec } from "./args.ts";
import type { CliContext } from "./context.ts";
import { uninstallHooks } from "../settings/edit.ts";
import { subagentEvents } from "../settings/hook_command.ts";
import { eventsFlag, EXIT_CODES_HELP, runSettingsCommand, TARGET_FLAGS } from "./settings_command.ts";

export const spec: CommandSpec = {
  name: "uninstall",
  usage:
    "uninstall [--settings PATH | --project DIR] [--events LIST] [--no-subagent] [--replace-python] [--dry-run] [--json]",
  summary: "Remove the cliffhanger hooks from a Claude Code settings file, with the matcher groups and event " +
    "lists that leaves empty. Everything else is kept; the previous file is backed up.",
  flags: {
    ...TARGET_FLAGS,
    events: eventsFlag("remove only these hooks, comma-separated: stop, prompt, pretool (default: all of ours)"),
    "no-subagent": { type: "boolean", help: "keep the SubagentStop hook (remove only the others)" },
    "replace-python": { type: "boolean", help: "remove the Python cliffhanger's handlers (hooks/cliffhanger.py) too" },
  },
  details: EXIT_CODES_HELP,
};

export interface UninstallDeps {
  /** Resolves relative paths (default: the process cwd). */
  cwd?: string;
}

export function run(ctx: CliContext, argv: string[]): Promise<number> {
  return runUninstall(ctx, argv, {});
}

export function runUninstall(ctx: CliContext, argv: string[], deps: UninstallDeps): Promise<number> {
  return runSettingsCommand(ctx, argv, {
    spec,
    action: "uninstall",
    cwd: deps.cwd,
    makeEdit: (parsed, hooks) => {
      const keepEvents = parsed.values["no-subagent"] === true ? subagentEvents() : [];
      return {
        edit: (text) =>
          uninstallHooks(text, {
            keepEvents,
            removePython: parsed.values["replace-python"] === true,
            ...(hooks === undefined ? {} : { hooks }),
          }),
        warning: null,
      };
    },
  });
}
