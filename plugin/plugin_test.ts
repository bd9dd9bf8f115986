/** The plugin folder: a manifest, hooks that match what `install` registers, the skill, the stats command. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { HOOK_REGISTRATIONS } from "../src/settings/hook_command.ts";

const at = (p: string) => fileURLToPath(new URL(p, import.meta.url));

Deno.test("plugin manifest names the plugin cliffhanger", async () => {
  const manifest = JSON.parse(await Deno.readTextFile(at("./.claude-plugin/plugin.json")));
  assert.equal(manifest.name, "cliffhanger");
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
});

Deno.test("plugin hooks: every event install knows, cliffhanger-bin on PATH in exec form, same args and timeouts", async () => {
  const hooks = JSON.parse(await Deno.readTextFile(at("./hooks/hooks.json"))).hooks as Record<string, unknown[]>;
  assert.deepEqual(Object.keys(hooks).sort(), HOOK_REGISTRATIONS.map((r) => r.event).sort());
  for (const r of HOOK_REGISTRATIONS) {
    const groups = hooks[r.event] as Array<{ matcher?: string; hooks: unknown[] }>;
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0]!.hooks, [{
      type: "command",
      command: "cliffhanger-bin",
      args: [...r.args],
      timeout: r.timeout,
    }]);
    assert.equal(groups[0]!.matcher, r.matcher);
  }
});

Deno.test("plugin skill is the repo's SKILL.md; the stats command runs cliffhanger-bin stats", async () => {
  assert.equal(
    await Deno.readTextFile(at("./skills/cliffhanger/SKILL.md")),
    await Deno.readTextFile(at("../SKILL.md")),
  );
  const stats = await Deno.readTextFile(at("./commands/stats.md"));
  assert.match(stats, /^---\ndescription: /);
  assert.match(stats, /!`cliffhanger-bin stats \$ARGUMENTS`/);
});
