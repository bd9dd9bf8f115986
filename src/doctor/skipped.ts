/**
 * Handlers of ours that Claude Code does not run although they are registered (settings/client_schema.ts): it skips a
 * handler or matcher group that does not fit what it loads, and ignores a whole file for an entry under PreToolUse or
 * PermissionRequest that does not load (anyone's) or a top-level key it knows given a value that does not fit (a
 * `disableAllHooks` that is not true or false, `"model": 5`). Said per file, with the fix: install again for what
 * install writes (type, command, args, timeout), an edit by hand for the rest, and for a plugin's hook file, the
 * plugin.
 */
import type { SettingsFileReport } from "../settings/inspect.ts";

/** The files that hold a handler of ours Claude Code does not run. */
export function filesWithSkipped(files: readonly SettingsFileReport[]): SettingsFileReport[] {
  return files.filter((f) => (f.skipped ?? []).length > 0);
}

/** One line per file: what Claude Code does not run there, and why (`named`: the line names the file). */
export function describeSkipped(f: SettingsFileReport, named = true): string {
  const skipped = f.skipped ?? [];
  if (f.ignored !== undefined) {
    const events = [...new Set(skipped.map((s) => s.event))].join(", ");
    const why = topLevel(f.ignored)
      ? f.ignored.problem
      : `${f.ignored.key}: ${f.ignored.problem} (under PreToolUse or PermissionRequest one entry that does not load ` +
        "makes it ignore the file)";
    return `Claude Code ignores the whole file${
      named ? ` ${f.path}` : ""
    }, our handlers for ${events} included: ${why}`;
  }
  const where = named ? ` in ${f.path}` : "";
  return skipped.map((s) => `Claude Code skips our ${s.event} handler${where} (${s.key}): ${s.problem}`).join("; ");
}

/** What puts one file right: install for what it writes, the edits by hand, or the plugin. */
export function skippedFix(f: SettingsFileReport): string {
  if ("plugin" in f && typeof f.plugin === "string") {
    return `update or disable the plugin (claude plugin disable ${f.plugin}): its hook file ${f.path} is not ours to ` +
      "edit";
  }
  const skipped = f.skipped ?? [];
  if (f.ignored !== undefined) {
    if (f.ignored.byInstall && f.ignored.hook !== null) return installFix(f, [f.ignored.hook]);
    if (f.ignored.key === "disableAllHooks") {
      return `in ${f.path}, set "disableAllHooks" to true or false (false, or no key, lets hooks run)`;
    }
    return topLevel(f.ignored)
      ? `in ${f.path}, fix or remove "${f.ignored.key}": while it does not fit, Claude Code ignores the whole file`
      : `in ${f.path}, fix or remove ${f.ignored.key}: while it does not load, Claude Code ignores the whole file`;
  }
  const fixes: string[] = [];
  const hooks = [...new Set(skipped.filter((s) => s.byInstall).map((s) => s.hook))];
  if (hooks.length > 0) fixes.push(installFix(f, hooks));
  const edits = [...new Set(skipped.flatMap((s) => s.edits))];
  if (edits.length > 0) fixes.push(`in ${f.path}, ${edits.join(", ")} (install leaves these keys as they are)`);
  return fixes.join("; ");
}

/** Whether the file is ignored for a top-level key (`model`, `permissions.allow`), not an entry of `hooks`. */
function topLevel(ignored: { key: string }): boolean {
  return !ignored.key.startsWith("hooks.");
}

/**
 * `cliffhanger-bin install --settings P --events …`: install writes the handler's type, command, args and timeout for
 * the hooks named; `--no-subagent` keeps a file without a SubagentStop handler of ours without one.
 */
function installFix(f: SettingsFileReport, hooks: readonly string[]): string {
  const ours = [...f.handlers, ...(f.skipped ?? [])];
  const noSubagent = hooks.includes("stop") && !ours.some((h) => h.event === "SubagentStop");
  return `cliffhanger-bin install --settings ${f.path} --events ${hooks.join(",")}${
    noSubagent ? " --no-subagent" : ""
  }`;
}
