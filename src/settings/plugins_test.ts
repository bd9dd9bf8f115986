import assert from "node:assert/strict";
import { join } from "node:path";
import { enabledState, inspectPlugins, installedPluginsFile, parseInstalls } from "./plugins.ts";

const ours = (event: string, hook: string) => ({
  hooks: { [event]: [{ hooks: [{ type: "command", command: "cliffhanger-bin", args: ["hook", hook], timeout: 60 }] }] },
});

Deno.test("parseInstalls: version 2 lists, version 1 objects, and text that is no plugin list", () => {
  assert.deepEqual(
    parseInstalls(JSON.stringify({
      version: 2,
      plugins: { "a@m": [{ scope: "user", installPath: "/p/a" }, { scope: "project", installPath: "/p/a2" }] },
    })),
    [{ plugin: "a@m", installPath: "/p/a" }, { plugin: "a@m", installPath: "/p/a2" }],
  );
  assert.deepEqual(parseInstalls(JSON.stringify({ version: 1, plugins: { "b@m": { installPath: "/p/b" } } })), [
    { plugin: "b@m", installPath: "/p/b" },
  ]);
  // an entry without an install path is skipped; a list that is not an object, or not JSON, is no list
  assert.deepEqual(parseInstalls(JSON.stringify({ plugins: { "c@m": [{ scope: "user" }] } })), []);
  assert.equal(parseInstalls("[1, 2]"), null);
  assert.equal(parseInstalls("{ not json"), null);
});

Deno.test("enabledState: the later settings file wins; a plugin no file names is null", () => {
  const user = { enabledPlugins: { "a@m": true } };
  const project = { enabledPlugins: { "a@m": false } };
  assert.equal(enabledState("a@m", [user]), true);
  assert.equal(enabledState("a@m", [user, project]), false);
  assert.equal(enabledState("a@m", [project, {}, user]), true);
  assert.equal(enabledState("z@m", [user, project]), null);
});

Deno.test("inspectPlugins: hooks/hooks.json and plugin.json's hooks (inline or a path) that run ours", async () => {
  const claude = await Deno.makeTempDir();
  try {
    const a = join(claude, "plugins", "cache", "m", "a", "1.0");
    const b = join(claude, "plugins", "cache", "m", "b", "1.0");
    const c = join(claude, "plugins", "cache", "m", "c", "1.0");
    await Deno.mkdir(join(a, "hooks"), { recursive: true });
    // a hook file is not a settings file: a settings key in it ("model": 5) is not read as one
    await Deno.writeTextFile(join(a, "hooks", "hooks.json"), JSON.stringify({ ...ours("Stop", "stop"), model: 5 }));
    await Deno.mkdir(join(b, ".claude-plugin"), { recursive: true });
    await Deno.writeTextFile(
      join(b, ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "b", ...ours("PreToolUse", "pretool") }),
    );
    await Deno.mkdir(join(c, ".claude-plugin"), { recursive: true });
    await Deno.mkdir(join(c, "extra"), { recursive: true });
    await Deno.writeTextFile(join(c, "extra", "h.json"), JSON.stringify(ours("UserPromptSubmit", "prompt")));
    await Deno.writeTextFile(
      join(c, ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "c", hooks: "./extra/h.json" }),
    );
    await Deno.writeTextFile(
      installedPluginsFile(claude),
      JSON.stringify({
        version: 2,
        plugins: {
          "a@m": [{ installPath: a }],
          "b@m": [{ installPath: b }],
          "c@m": [{ installPath: c }],
          "gone@m": [{ installPath: join(claude, "nowhere") }],
        },
      }),
    );
    const { reports, problem } = await inspectPlugins(claude, [{
      path: "/u.json",
      enabledPlugins: { "a@m": true, "b@m": false },
    }]);
    assert.equal(problem, null);
    const seen = reports.map((r) => [r.plugin, r.enabled, r.events.join(","), r.path]);
    assert.deepEqual(seen, [
      ["a@m", true, "Stop", join(a, "hooks", "hooks.json")],
      ["b@m", false, "PreToolUse", join(b, ".claude-plugin", "plugin.json")],
      ["c@m", null, "UserPromptSubmit", join(c, "extra", "h.json")],
    ]);
  } finally {
    await Deno.remove(claude, { recursive: true });
  }
});

Deno.test("inspectPlugins: no plugin list is no plugin; a damaged one is a problem, never a throw", async () => {
  const claude = await Deno.makeTempDir();
  try {
    assert.deepEqual(await inspectPlugins(claude, []), { reports: [], problem: null });
    await Deno.mkdir(join(claude, "plugins"));
    await Deno.writeTextFile(installedPluginsFile(claude), "{ torn");
    const damaged = await inspectPlugins(claude, []);
    assert.deepEqual(damaged.reports, []);
    assert.match(damaged.problem ?? "", /not a plugin list/);
    await Deno.remove(installedPluginsFile(claude));
    await Deno.mkdir(installedPluginsFile(claude));
    assert.match((await inspectPlugins(claude, [])).problem ?? "", /cannot read/);
  } finally {
    await Deno.remove(claude, { recursive: true });
  }
});
