/** A Claude Code plugin installed the way Claude Code installs one: its files in the cache, listed, enabled or not. */
import { join } from "node:path";

export interface PluginFixture {
  /** `name@marketplace`. */
  id: string;
  /** The plugin's hooks/hooks.json content. */
  hooks: unknown;
  /** Written to enabledPlugins in `settings` (merged into what is there); absent: not named. */
  enabled?: boolean;
  /** The settings file that enables it (default `<claudeDir>/settings.json`). */
  settings?: string;
}

/** Our plugin/hooks/hooks.json: cliffhanger-bin on PATH for every event. */
export async function ourPluginHooks(): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(new URL("../../plugin/hooks/hooks.json", import.meta.url)));
}

/** Installs the plugin under `claudeDir`; returns its hooks.json path. */
export async function installPluginFixture(claudeDir: string, plugin: PluginFixture): Promise<string> {
  const [name, marketplace] = plugin.id.split("@");
  const root = join(claudeDir, "plugins", "cache", marketplace ?? "mkt", name ?? plugin.id, "1.0.0");
  await Deno.mkdir(join(root, "hooks"), { recursive: true });
  const hooksFile = join(root, "hooks", "hooks.json");
  await Deno.writeTextFile(hooksFile, JSON.stringify(plugin.hooks));
  const list = join(claudeDir, "plugins", "installed_plugins.json");
  const listed = JSON.parse(await Deno.readTextFile(list).catch(() => '{"version":2,"plugins":{}}'));
  listed.plugins[plugin.id] = [{ scope: "user", installPath: root, version: "1.0.0" }];
  await Deno.writeTextFile(list, JSON.stringify(listed));
  if (plugin.enabled !== undefined) {
    const settings = plugin.settings ?? join(claudeDir, "settings.json");
    const doc = JSON.parse(await Deno.readTextFile(settings).catch(() => "{}"));
    doc.enabledPlugins = { ...doc.enabledPlugins, [plugin.id]: plugin.enabled };
    await Deno.writeTextFile(settings, JSON.stringify(doc));
  }
  return hooksFile;
}

/** The Python cliffhanger's plugin hooks: its script for Stop and SubagentStop. */
export const PYTHON_PLUGIN_HOOKS = (() => {
  const py = { type: "command", command: 'python3 "${CLAUDE_PLUGIN_ROOT}/hooks/cliffhanger.py"', timeout: 30 };
  return { hooks: { Stop: [{ hooks: [py] }], SubagentStop: [{ hooks: [py] }] } };
})();
