/**
 * Whether Claude Code runs any hook of ours at all in a session here, by its settings' `disableAllHooks` and the
 * managed `allowManagedHooksOnly`, with the precedence of docs/doctor.md ("Hooks turned off"), measured with 2.1.328:
 * - managed settings win over every other file: `disableAllHooks: true` there turns every hook off, and false there
 *   keeps them on whatever the other files say; `allowManagedHooksOnly: true` there runs only the managed files' own
 *   hooks;
 * - otherwise the last of the user, project and local settings (Claude Code's order, a later file wins) that sets it
 *   decides: the project's `false` beats the user's `true`, the local file's beats both. A project's files count only
 *   for a session started in its folder.
 * A file Claude Code ignores whole (a value of the wrong type) sets nothing (settings/inspect.ts leaves the key out).
 */
import type { SettingsFileReport } from "../settings/inspect.ts";

export interface HooksOff {
  /** The settings file whose key turns our hooks off. */
  file: string;
  key: "disableAllHooks" | "allowManagedHooksOnly";
  /** The file is managed settings: an administrator's, which no other file can override. */
  managed: boolean;
}

/**
 * `managed`: the managed settings files in the order Claude Code merges them; `reads`: the user, project and local
 * settings of this session's folder, in Claude Code's order. Null when hooks run.
 */
export function claudeHooksOff(
  managed: readonly SettingsFileReport[],
  reads: readonly SettingsFileReport[],
): HooksOff | null {
  const last = (files: readonly SettingsFileReport[], key: HooksOff["key"]) =>
    files.findLast((f) => typeof f[key] === "boolean");
  const managedOff = last(managed, "disableAllHooks");
  if (managedOff?.disableAllHooks === true) return { file: managedOff.path, key: "disableAllHooks", managed: true };
  const managedOnly = last(managed, "allowManagedHooksOnly");
  // a managed file that registers ours keeps those running
  if (managedOnly?.allowManagedHooksOnly === true && !managed.some((f) => f.events.length > 0)) {
    return { file: managedOnly.path, key: "allowManagedHooksOnly", managed: true };
  }
  if (managedOff !== undefined) return null;
  const decides = last(reads, "disableAllHooks");
  return decides?.disableAllHooks === true ? { file: decides.path, key: "disableAllHooks", managed: false } : null;
}

/** `"disableAllHooks" is true in FILE: …`, for status's first line and doctor's detail. */
export function describeHooksOff(off: HooksOff): string {
  const what = off.key === "disableAllHooks"
    ? "Claude Code runs no hook of settings files or plugins"
    : "Claude Code runs only the managed settings' own hooks, not ours";
  return `"${off.key}" is true in ${off.managed ? "the managed settings " : ""}${off.file}: ${what}`;
}

/** How to turn hooks back on: the key out of the user's file, or the administrator for managed settings. */
export function hooksOffFix(off: HooksOff): string {
  if (off.managed) {
    return `managed settings win over every other file, so only whoever manages this machine can change ${off.file}`;
  }
  return `remove "disableAllHooks" from ${off.file}, or set it to false (a later file Claude Code reads, such as a ` +
    "project's .claude/settings.local.json, can also set it to false for that project alone)";
}
