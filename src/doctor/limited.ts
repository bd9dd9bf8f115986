/**
 * Handlers of ours that Claude Code runs without using their answer (`"async": true`), or that see fewer calls than
 * install registers them for (a narrower `matcher`, an `if` on PreToolUse): settings/handler_limits.ts. Said per file,
 * with the fix: install again for a settings file (it removes those keys, and moves our handler out of a group whose
 * matcher others' handlers keep), the plugin for a plugin's hook file.
 */
import type { HandlerLimit } from "../settings/handler_limits.ts";
import type { FoundHandler, SettingsFileReport } from "../settings/inspect.ts";

/** The files that hold a handler of ours with a limit. */
export function filesWithLimits(files: readonly SettingsFileReport[]): SettingsFileReport[] {
  return files.filter((f) => f.handlers.some((h) => (h.limits ?? []).length > 0));
}

/** A handler that can do nothing: Claude Code does not use its answer, or never runs it. */
export function answerUnused(h: FoundHandler): boolean {
  return (h.limits ?? []).some((l) => l.severity === "fail");
}

/**
 * The events where Claude Code uses the answer of no handler of ours, although one runs: every copy of the event in
 * `files` has a limit that fails it.
 */
export function eventsAnswerUnused(files: readonly SettingsFileReport[]): string[] {
  const handlers = files.flatMap((f) => f.handlers);
  const events = [...new Set(handlers.map((h) => h.event))];
  return events.filter((e) => handlers.filter((h) => h.event === e).every(answerUnused));
}

/**
 * One line per file: `our Stop handler in P (hooks.Stop[0].hooks[0].async): "async" is true: …` (`named`: the line
 * names the file).
 */
export function describeLimited(f: SettingsFileReport, named = true): string {
  const where = named ? ` in ${f.path}` : "";
  return f.handlers.flatMap((h) =>
    (h.limits ?? []).map((l: HandlerLimit) => `our ${h.event} handler${where} (${l.key}): ${l.problem}`)
  ).join("; ");
}

/** What puts one file right: install with the hooks concerned, or the plugin. */
export function limitedFix(f: SettingsFileReport): string {
  if ("plugin" in f && typeof f.plugin === "string") {
    return `update or disable the plugin (claude plugin disable ${f.plugin}): its hook file ${f.path} is not ours to ` +
      "edit";
  }
  const hooks = [...new Set(f.handlers.filter((h) => (h.limits ?? []).length > 0).map((h) => h.hook))];
  const noSubagent = hooks.includes("stop") && !f.handlers.some((h) => h.event === "SubagentStop") &&
    !(f.skipped ?? []).some((s) => s.event === "SubagentStop");
  const keys = [...new Set(f.handlers.flatMap((h) => (h.limits ?? []).map((l) => `"${l.field}"`)))];
  return `cliffhanger-bin install --settings ${f.path} --events ${hooks.join(",")}${
    noSubagent ? " --no-subagent" : ""
  } (it removes ${keys.join(", ")} from our ${keys.length === 1 ? "entry" : "entries"})`;
}
