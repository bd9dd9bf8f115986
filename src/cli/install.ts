/** `install`: register this binary's hooks in a Claude Code settings file. */
import {
  inScope,
  type LauncherChange,
  launcherChange,
  launcherPathIn,
  launcherText,
  parseLauncher,
  readLauncher,
  readLauncherText,
} from "../settings/launcher.ts";
import type { HomePaths } from "../store/paths.ts";
import type { CommandSpec } from "./args.ts";
import type { CliContext } from "./context.ts";
import { CommandError } from "../errors.ts";
import { dirname, isAbsolute, join } from "../path.ts";
import { readConfigFile } from "../config_file.ts";
import { writeFileAtomic } from "../store/atomic.ts";
import { installHooks, pythonHandlerEvents } from "../settings/edit.ts";
import { claudeReadsHere, inspectSettingsText } from "../settings/inspect.ts";
import { describeSkipped, skippedFix } from "../doctor/skipped.ts";
import { otherMailboxNote } from "../doctor/shared_relay.ts";
import { STRICT_JSON_FIX, strictJsonProblem } from "../settings/strict_json.ts";
import { shellWord } from "../settings/handler_words.ts";
import { enabledOurPlugins, enabledPythonPlugins } from "../settings/plugins.ts";
import {
  currentHookCommand,
  describeHooks,
  type HookCommand,
  hookCommandWarning,
  runsBundle,
  selectRegistrations,
} from "../settings/hook_command.ts";
import { eventsFlag, EXIT_CODES_HELP, runSettingsCommand, TARGET_FLAGS } from "./settings_command.ts";

export const spec: CommandSpec = {
  name: "install",
  usage: "install [--settings PATH | --project DIR] [--events LIST] [--no-subagent] [--relay] [--replace-python] " +
    "[--dry-run] [--json]",
  summary: "Add cliffhanger hooks to a Claude Code settings file (by default the Stop and SubagentStop guard). " +
    "Other settings and hooks are kept; the previous file is backed up.",
  flags: {
    ...TARGET_FLAGS,
    events: eventsFlag(
      "hooks to add, comma-separated: stop, prompt, pretool (default: stop); repeatable, the lists add up",
    ),
    "no-subagent": { type: "boolean", help: "leave out (or remove) the SubagentStop hook" },
    relay: { type: "boolean", help: "register Stop with a 600 s timeout, room for the relay's wait" },
    "replace-python": {
      type: "boolean",
      help: "remove the Python cliffhanger's handlers (hooks/cliffhanger.py) while adding ours",
    },
  },
  details: [
    "events (each runs `hook <name>`):",
    ...describeHooks().map((line) => `  ${line}`),
    "Hooks left out of --events are not touched: install again with another list to add to what is there.",
    'From our handlers of the hooks named it removes "async", "asyncRewake" and "if", and a matcher that hides',
    "calls from the hook: with them Claude Code does not use the answer, or the hook misses calls.",
    "A settings file that still runs the Python cliffhanger (hooks/cliffhanger.py) is not changed without",
    "--replace-python: two guards would both block every stop. --dry-run shows the replacement. The same goes",
    "for the Python cliffhanger installed as an enabled Claude Code plugin: --replace-python sets it to false",
    "in the file's enabledPlugins.",
    "With the cliffhanger plugin enabled (its hooks already run), install of the same hooks is refused: they",
    "would run twice. Turn the plugin off first (claude plugin disable <plugin>@<marketplace>).",
    "A settings file with a comment or a trailing comma is refused: Claude Code reads settings as strict JSON",
    "and ignores such a file whole, hooks included.",
    "",
    EXIT_CODES_HELP,
  ].join("\n"),
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
    cwd: deps.cwd,
    makeEdit: async (parsed, hooks, target) => {
      const direct = deps.hookCommand ?? await hookCommandFor(ctx);
      // from a checkout the command is a long deno line, which Claude Code shows the model with every Stop block:
      // register a short launcher in the home instead (written only when the edit will go through)
      const launcher = deps.hookCommand ? null : launcherFor(ctx, direct);
      const command = launcher?.command ?? direct;
      const registrations = selectRegistrations({
        ...(hooks === undefined ? {} : { hooks }),
        subagent: parsed.values["no-subagent"] !== true,
        relay: parsed.values["relay"] === true,
      });
      const replacePython = parsed.values["replace-python"] === true;
      const order = claudeReadsHere(ctx.paths, ctx.cwd());
      const pythonPlugins = await enabledPythonPlugins(ctx.paths, order);
      // our own plugin (plugin/) enabled: its hooks already run, and a settings entry beside it would run each twice
      const ourPlugins = await enabledOurPlugins(ctx.paths, order);
      // what the last edit left that Claude Code skips, said as a warning once the file is written
      let skipped: string | null = null;
      const edit = (text: string) => {
        const python = pythonHandlerEvents(text);
        // Claude Code ignores the whole file for one comment or trailing comma: a handler added there would never run
        const strict = strictJsonProblem(text);
        if (strict !== null) {
          throw new CommandError(
            `Invalid settings file ${target}: ${strict}; ${STRICT_JSON_FIX}, then install again; nothing was written`,
          );
        }
        // only the Stop guard doubles the Python one: installing only the other hooks leaves it alone
        const stopWanted = registrations.some((r) => r.hook === "stop");
        if (python.length > 0 && stopWanted && !replacePython) {
          throw new CommandError(
            `the Python cliffhanger (hooks/cliffhanger.py) is registered in ${target} for ${python.join(", ")}: ` +
              "with ours beside it two guards would block every stop. Run install again with --replace-python to replace it " +
              "(the file is backed up first; --dry-run shows the change)",
          );
        }
        const names = pythonPlugins.map((p) => p.plugin);
        if (names.length > 0 && stopWanted && !replacePython) {
          throw new CommandError(
            `the Python cliffhanger is enabled as the plugin ${names.join(", ")}: with ours beside it two guards ` +
              `would block every stop. Turn it off (claude plugin disable ${names[0]}), or run install again with ` +
              "--replace-python to set it to false in enabledPlugins here (--dry-run shows the change)",
          );
        }
        // false written here wins only over a file Claude Code reads before this one
        const above = pythonPlugins.find((p) => order.indexOf(p.by) > order.indexOf(target));
        if (above && stopWanted) {
          throw new CommandError(
            `the Python cliffhanger plugin ${above.plugin} is enabled in ${above.by}, which wins over ${target}: ` +
              `turn it off there (claude plugin disable ${above.plugin}), then install again`,
          );
        }
        const twice = ourPlugins.map((p) => ({
          ...p,
          events: p.events.filter((e) => registrations.some((r) => r.event === e)),
        })).find((p) => p.events.length > 0);
        if (twice) {
          throw new CommandError(
            `the cliffhanger plugin ${twice.plugin} is enabled (in ${twice.by}) and runs these hooks already ` +
              `(${twice.events.join(", ")}): installing them here too would run each twice. Turn it off ` +
              `(claude plugin disable ${twice.plugin}) and install again, or keep the plugin and skip install; ` +
              "nothing was written",
          );
        }
        const result = installHooks(text, {
          command,
          registrations,
          replacePython,
          ...(replacePython && stopWanted ? { disablePlugins: names } : {}),
        });
        // as Claude Code 2.1.328 loads the result: a file it ignores whole would run none of the handlers written
        const after = { path: target, exists: true, ...inspectSettingsText(result.newText) };
        if (after.ignored !== undefined) {
          throw new CommandError(
            `${describeSkipped(after)}, so the handlers install writes would never run; fix: ${skippedFix(after)}, ` +
              "then install again; nothing was written",
          );
        }
        // what install leaves as it is (a "shell" that is not bash or powershell, a "statusMessage" that is not a
        // string, …): the handler is written but skipped
        skipped = (after.skipped ?? []).length === 0 ? null : `${describeSkipped(after)}; fix: ${skippedFix(after)}`;
        return result;
      };
      const lost = launcher === null ? [] : await relayFoldersLost(launcher.path, launcher.text);
      const lostWarning = relayLostWarning(lost);
      const warnings = [hookCommandWarning(direct) ?? homeWarning(ctx.paths, launcher !== null), lostWarning]
        .filter((w) => w !== null);
      return {
        edit,
        warning: warnings.length === 0 ? null : warnings.join("; also, "),
        editWarning: () => skipped,
        ...(launcher ? { beforeWrite: launcher.write } : {}),
      };
    },
  });
}

/**
 * install's warning when the launcher it writes may no longer read relay folders the one it replaces could (`lost`),
 * or null. The variable for that one install puts a folder back; one not named `<project>/relay` is a stop's mailbox
 * only through relayDir, which the warning says too.
 */
export function relayLostWarning(lost: readonly string[]): string | null {
  if (lost.length === 0) return null;
  const first = lost[0]!;
  return `the launcher it replaces could read the relay folder ${
    lost.join(", ")
  }, which the new one cannot, so a stop there would not wait: install again with CLIFFHANGER_RELAY_DIR=${
    shellWord(first)
  } set for that run (an absolute relayDir in config.jsonc would send every project's stops to it)${
    otherMailboxNote(first)
  }`;
}

/**
 * From a checkout or a bundle, `<home>/bin/cliffhanger-bin`: a short sh launcher that execs the long deno command
 * line, with the write to run just before the settings edit. The compiled binary, and Windows (no sh), register the
 * command itself; on Windows a bundle is refused (its deno line would not read back as ours).
 */
function launcherFor(
  ctx: CliContext,
  direct: HookCommand,
): { command: HookCommand; path: string; text: string; write: () => Promise<LauncherChange | null> } | null {
  if (direct.prefixArgs.length === 0) return null;
  if (Deno.build.os === "windows") {
    // a checkout's deno line is ours by its main.ts and deno.json (settings/ours.ts); a bundle's would not be
    if (runsBundle(direct)) {
      throw new CommandError(
        "install from a bundle registers a sh launcher, which Windows cannot run: install the compiled binary " +
          "(deno task compile), or run `deno task cli install` from a checkout",
      );
    }
    return null;
  }
  const launcher = launcherPathIn(ctx.paths.root);
  const text = launcherText([direct.command, ...direct.prefixArgs], { home: ctx.paths.root, path: launcher });
  return {
    command: { command: launcher, prefixArgs: [] },
    path: launcher,
    text,
    write: async () => {
      const before = await readLauncherText(launcher);
      // the home and bin/ are the user's alone, as every folder of the home (docs/reliability.md, "Modes")
      await Deno.mkdir(join(ctx.paths.root, "bin"), { recursive: true, mode: 0o700 });
      await writeFileAtomic(launcher, text, { mode: 0o755, label: "launcher" });
      return launcherChange(launcher, before, text);
    },
  };
}

/**
 * A compiled binary registered while CLIFFHANGER_HOME names another home than ~/.cliffhanger: its hooks use that home
 * only where Claude Code runs with the same variable (a checkout's launcher sets it itself).
 */
export function homeWarning(paths: HomePaths, launcher: boolean): string | null {
  if (launcher || paths.root === join(paths.home, ".cliffhanger")) return null;
  return `CLIFFHANGER_HOME is ${paths.root} here: the hooks use that home only if Claude Code runs with ` +
    `CLIFFHANGER_HOME=${paths.root} too (else ${join(paths.home, ".cliffhanger")})`;
}

async function hookCommandFor(ctx: CliContext): Promise<HookCommand> {
  // config.jsonc's relayDir when absolute: a stop waits on it, so the launcher's scope holds it
  const relayDir = (await readConfigFile(ctx.paths.config, ctx.env)).config.relayDir.trim();
  try {
    return currentHookCommand(ctx.env, undefined, isAbsolute(relayDir) ? [relayDir] : []);
  } catch (e) {
    throw new CommandError(`Cannot work out the hook command: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The relay folders the launcher at `path` may write and the new launcher text may not: a relay folder in scope comes
 * with the PROGRESS.md beside it (permissions.ts), so each such pair of the old scope that the new one lacks.
 */
async function relayFoldersLost(path: string, text: string): Promise<string[]> {
  const old = await readLauncher(path);
  const fresh = parseLauncher(text);
  if (old === null || fresh === null) return [];
  const progress = new Set(old.write.filter((p) => p.endsWith("/PROGRESS.md")).map((p) => dirname(p)));
  return old.write.filter((p) => !p.endsWith("/PROGRESS.md") && progress.has(dirname(p)) && !inScope(fresh.write, p));
}
