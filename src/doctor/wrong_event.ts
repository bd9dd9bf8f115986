/**
 * Handlers of ours registered under an event their `hook <name>` does not answer: `hook prompt` under Stop, or
 * `hook pretool` moved to PostToolUse. The hook reads the payload's event, finds it is not its own and fails open
 * (a line in errors.log), so every such call decides nothing. The mapping is install's
 * (HOOK_REGISTRATIONS): Stop and SubagentStop run `hook stop`, UserPromptSubmit `hook prompt`, PreToolUse
 * `hook pretool`.
 */
import { HOOK_REGISTRATIONS, HOOK_SUBCOMMANDS, RELAY_STOP_TIMEOUT_S } from "../settings/hook_command.ts";
import type { SettingsFileReport } from "../settings/inspect.ts";

export interface WrongEvent {
  /** The settings or plugin hook file that holds the handler. */
  path: string;
  /** The plugin whose hook file it is, when it is one. */
  plugin: string | null;
  event: string;
  /** The `hook` subcommand it runs. */
  hook: string;
  /** The events that hook answers. */
  answers: string[];
}

/** The events a `hook <name>` answers, in install's order. */
export function eventsOfHook(hook: string): string[] {
  return HOOK_REGISTRATIONS.filter((r) => r.hook === hook).map((r) => r.event);
}

/** Every handler whose hook does not answer the event it is registered under, in file order. */
export function wrongEvents(files: readonly SettingsFileReport[]): WrongEvent[] {
  const out: WrongEvent[] = [];
  for (const f of files) {
    const plugin = "plugin" in f && typeof f.plugin === "string" ? f.plugin : null;
    for (const h of f.handlers) {
      const answers = eventsOfHook(h.hook);
      if (!answers.includes(h.event)) out.push({ path: f.path, plugin, event: h.event, hook: h.hook, answers });
    }
  }
  return out;
}

/** `Stop runs \`hook prompt\` (in PATH), which answers only UserPromptSubmit`. */
export function describeWrongEvent(w: WrongEvent): string {
  return `${w.event} runs \`hook ${w.hook}\` (in ${w.path}), which answers only ${w.answers.join(" and ")}: every ` +
    `${w.event} call fails open (decides nothing) and logs "got a payload for ${w.event}" in errors.log`;
}

/**
 * The commands that put each file right: install adds what is missing but leaves a misplaced handler where it is,
 * so a settings file is cleared with uninstall (it removes every handler of ours, wherever it is) and installed
 * again with both the hooks it ran and those of the events they were under (which was meant cannot be told); a
 * plugin's files are not ours to edit.
 */
export function wrongEventFixes(wrong: readonly WrongEvent[], files: readonly SettingsFileReport[]): string[] {
  const fixes: string[] = [];
  for (const path of [...new Set(wrong.map((w) => w.path))]) {
    const plugin = wrong.find((w) => w.path === path)?.plugin ?? null;
    if (plugin !== null) {
      fixes.push(`update or disable the plugin (claude plugin disable ${plugin}); its hook file ${path} is not ours`);
      continue;
    }
    const handlers = files.find((f) => f.path === path)?.handlers ?? [];
    // which was meant, the event or the hook, cannot be told: both are installed
    const hooks = HOOK_SUBCOMMANDS.filter((h) =>
      handlers.some((x) => x.hook === h || eventsOfHook(h).includes(x.event))
    );
    // SubagentStop is written with Stop unless told not to: keep a file that had no SubagentStop handler without one
    const noSubagent = hooks.includes("stop") && !handlers.some((x) => x.event === "SubagentStop");
    // a Stop timeout written by `install --relay` is written again
    const relay = handlers.some((x) => x.hook === "stop" && x.timeout !== null && x.timeout >= RELAY_STOP_TIMEOUT_S);
    const flags = `${noSubagent ? " --no-subagent" : ""}${relay ? " --relay" : ""}`;
    fixes.push(
      `cliffhanger-bin uninstall --settings ${path}, then cliffhanger-bin install --settings ${path} --events ` +
        `${hooks.join(",")}${flags} (install alone keeps the misplaced handler)`,
    );
  }
  return fixes;
}
