/**
 * Installed Claude Code plugins whose hooks run cliffhanger-bin, for `status` and `doctor`. Claude Code lists the
 * plugins it installed in `<claudeDir>/plugins/installed_plugins.json` (each with its `installPath`, usually under
 * `<claudeDir>/plugins/cache/`); a plugin's hooks are in `<installPath>/hooks/hooks.json`, or named by `hooks` in
 * `<installPath>/.claude-plugin/plugin.json` (a path, a list of paths or an inline object). A plugin runs while
 * `enabledPlugins` in the user, project or local settings (the later wins) says true. A plugin loaded for one run
 * with `claude --plugin-dir DIR` is not listed anywhere and cannot be seen from here.
 */
import { firstLine, scopeText } from "../errors.ts";
import { join, resolve } from "../path.ts";
import { readRegularText } from "../store/safe_file.ts";
import * as z from "../zod.ts";
import type { HomePaths } from "../store/paths.ts";
import { inspectSettings, inspectSettingsText, type SettingsFileReport } from "./inspect.ts";

/** installed_plugins.json is a list of a few dozen entries; a plugin's hook file a few KiB. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;
const MAX_HOOKS_BYTES = 1024 * 1024;
/** A plugin's hook file is not a settings file: of its top-level keys only disableAllHooks is checked (inspect.ts). */
const PLUGIN = { source: "plugin" } as const;
/** More plugins than this are not looked at (each costs two file reads). */
const MAX_PLUGINS = 200;

/** The file Claude Code keeps its plugin installs in. */
export function installedPluginsFile(claudeDir: string): string {
  return join(claudeDir, "plugins", "installed_plugins.json");
}

/** Version 2 (`{plugins: {id: [install…]}}`) and version 1 (`{plugins: {id: install}}`). */
const InstallSchema = z.looseObject({ installPath: z.string() });
const ListSchema = z.looseObject({
  plugins: z.record(z.string(), z.union([z.array(z.unknown()), z.unknown()])),
});

export interface PluginHooksReport extends SettingsFileReport {
  /** `name@marketplace`. */
  plugin: string;
  /** What enabledPlugins says: true, false, or null when no settings file read names it. */
  enabled: boolean | null;
  /** The settings file whose enabledPlugins decides (the last that names it), or null. */
  enabledBy: string | null;
}

/** Each installed plugin's hook files (a plugin without any is left out), with whether it is enabled. */
export async function inspectPlugins(
  claudeDir: string,
  settings: readonly Pick<SettingsFileReport, "enabledPlugins" | "path">[],
): Promise<{ reports: PluginHooksReport[]; problem: string | null }> {
  let text: string | null;
  const list = installedPluginsFile(claudeDir);
  try {
    text = await readRegularText(list, { maxBytes: MAX_LIST_BYTES, label: "plugin list" });
  } catch (e) {
    return { reports: [], problem: scopeText(`${list}: cannot read: ${firstLine(e)}`, { claudeDir }) };
  }
  if (text === null) return { reports: [], problem: null };
  const installs = parseInstalls(text);
  if (installs === null) return { reports: [], problem: `${list}: not a plugin list Claude Code writes` };
  const reports: PluginHooksReport[] = [];
  for (const { plugin, installPath } of installs.slice(0, MAX_PLUGINS)) {
    const enabled = enabledState(plugin, settings);
    const enabledBy = settings.findLast((f) => typeof f.enabledPlugins?.[plugin] === "boolean")?.path ?? null;
    for (const file of await hookFiles(installPath)) reports.push({ ...file, plugin, enabled, enabledBy });
  }
  return { reports, problem: null };
}

/** The installs listed, in file order; null when the text is not such a list. */
export function parseInstalls(text: string): { plugin: string; installPath: string }[] | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ListSchema.safeParse(raw);
  if (!parsed.success) return null;
  const out: { plugin: string; installPath: string }[] = [];
  for (const [plugin, value] of Object.entries(parsed.data.plugins)) {
    for (const entry of Array.isArray(value) ? value : [value]) {
      const install = InstallSchema.safeParse(entry);
      if (install.success && install.data.installPath !== "") {
        out.push({ plugin, installPath: install.data.installPath });
      }
    }
  }
  return out;
}

/** enabledPlugins over the settings files, in order of precedence (user, project, local: the later wins). */
export function enabledState(
  plugin: string,
  settings: readonly Pick<SettingsFileReport, "enabledPlugins">[],
): boolean | null {
  let state: boolean | null = null;
  for (const s of settings) {
    const value = s.enabledPlugins?.[plugin];
    if (typeof value === "boolean") state = value;
  }
  return state;
}

/** A plugin's hook files: hooks/hooks.json, and what plugin.json's `hooks` names or holds. */
async function hookFiles(installPath: string): Promise<SettingsFileReport[]> {
  const out: SettingsFileReport[] = [];
  const standard = await inspectHooksFile(join(installPath, "hooks", "hooks.json"));
  if (standard.exists) out.push(standard);
  const manifestPath = join(installPath, ".claude-plugin", "plugin.json");
  let manifest: unknown;
  try {
    const text = await readRegularText(manifestPath, { maxBytes: MAX_HOOKS_BYTES, label: "plugin manifest" });
    if (text === null) return out;
    manifest = JSON.parse(text);
  } catch (e) {
    if (out.length === 0) out.push(unreadable(manifestPath, e));
    return out;
  }
  const hooks = typeof manifest === "object" && manifest !== null ? (manifest as { hooks?: unknown }).hooks : undefined;
  if (typeof hooks === "object" && hooks !== null && !Array.isArray(hooks)) {
    out.push({ path: manifestPath, exists: true, ...inspectSettingsText(JSON.stringify({ hooks }), PLUGIN) });
  }
  const named = typeof hooks === "string" ? [hooks] : Array.isArray(hooks) ? hooks.filter(isString) : [];
  for (const path of named) {
    const full = resolve(installPath, path.replaceAll("${CLAUDE_PLUGIN_ROOT}", installPath));
    if (out.some((r) => r.path === full)) continue;
    const report = await inspectHooksFile(full);
    if (report.exists) out.push(report);
  }
  return out;
}

async function inspectHooksFile(path: string): Promise<SettingsFileReport> {
  try {
    const text = await readRegularText(path, { maxBytes: MAX_HOOKS_BYTES, label: "plugin hook file" });
    if (text === null) return { path, exists: false, error: null, events: [], handlers: [] };
    return { path, exists: true, ...inspectSettingsText(text, PLUGIN) };
  } catch (e) {
    return unreadable(path, e);
  }
}

function unreadable(path: string, e: unknown): SettingsFileReport {
  return { path, exists: true, error: scopeText(`cannot read: ${firstLine(e)}`), events: [], handlers: [] };
}

function isString(v: unknown): v is string {
  return typeof v === "string";
}

/** Installed plugins that run the Python cliffhanger and that these settings enable, each with the file that does. */
export async function enabledPythonPlugins(
  paths: Pick<HomePaths, "claudeDir">,
  settingsFiles: readonly string[],
): Promise<{ plugin: string; by: string }[]> {
  const { reports } = await inspectPlugins(paths.claudeDir, await inspectSettings(settingsFiles));
  const found = reports.filter((r) => r.enabled === true && (r.python ?? []).length > 0 && r.enabledBy !== null);
  return [...new Map(found.map((r) => [r.plugin, { plugin: r.plugin, by: r.enabledBy! }])).values()];
}

/**
 * Installed plugins that run our hooks (plugin/, or a copy of it) and that these settings enable, each with the file
 * that does and the events it registers.
 */
export async function enabledOurPlugins(
  paths: Pick<HomePaths, "claudeDir">,
  settingsFiles: readonly string[],
): Promise<{ plugin: string; by: string; events: string[] }[]> {
  const { reports } = await inspectPlugins(paths.claudeDir, await inspectSettings(settingsFiles));
  const found = new Map<string, { plugin: string; by: string; events: string[] }>();
  for (const r of reports) {
    if (r.enabled !== true || r.enabledBy === null || r.events.length === 0) continue;
    const seen = found.get(r.plugin);
    const events = [...new Set([...(seen?.events ?? []), ...r.events])];
    found.set(r.plugin, { plugin: r.plugin, by: r.enabledBy, events });
  }
  return [...found.values()];
}
