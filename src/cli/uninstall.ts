/** `uninstall`: remove this binary's hooks from a Claude Code settings file, and nothing else. */
import { claudeReadsHere } from "../settings/inspect.ts";
import { enabledPythonPlugins } from "../settings/plugins.ts";
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
    events: eventsFlag(
      "remove only these hooks, comma-separated: stop, prompt, pretool (default: all of ours); repeatable, the lists add up",
    ),
    "no-subagent": { type: "boolean", help: "keep the SubagentStop hook (remove only the others)" },
    "replace-python": { type: "boolean", help: "remove the Python cliffhanger's handlers (hooks/cliffhanger.py) too" },
  },
  details: [
    "A settings file install created (there was none) is removed once our hooks are out and only {} is left",
    "in it (the backup keeps what it held); one that was there before install, or holds anything else, stays.",
    "",
    EXIT_CODES_HELP,
  ].join("\n"),
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
    makeEdit: async (parsed, hooks) => {
      const keepEvents = parsed.values["no-subagent"] === true ? subagentEvents() : [];
      // the Python guard as a plugin is Claude Code's to turn off: say so, the edit cannot
      const plugins = parsed.values["replace-python"] === true
        ? await enabledPythonPlugins(ctx.paths, claudeReadsHere(ctx.paths, ctx.cwd()))
        : [];
      return {
        edit: (text) =>
          uninstallHooks(text, {
            keepEvents,
            removePython: parsed.values["replace-python"] === true,
            ...(hooks === undefined ? {} : { hooks }),
          }),
        warning: plugins.length === 0
          ? null
          : `the Python cliffhanger is still enabled as the plugin ${
            plugins.map((p) => `${p.plugin} (in ${p.by})`).join(", ")
          }: turn it off with claude plugin disable ${plugins[0]!.plugin}`,
      };
    },
  });
}
