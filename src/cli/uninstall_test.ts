import assert from "node:assert/strict";
import { commandHelp } from "./help.ts";
import { join } from "node:path";
import { inspectSettingsText } from "../settings/inspect.ts";
import { BINARY, exitCodeOf, type FakeContext, fakeContext, listDir, tempHome } from "../testing/settings_support.ts";
import { type InstallDeps, runInstall } from "./install.ts";
import { run, runUninstall, spec, type UninstallDeps } from "./uninstall.ts";
import { installPluginFixture, PYTHON_PLUGIN_HOOKS } from "../testing/plugin_fixture.ts";
import { backupPrefix } from "../settings/target.ts";

const THEIRS =
  '{\n  "hooks": {\n    "Stop": [\n      {"hooks": [{"type": "command", "command": "say hi"}]}\n    ]\n  }\n}\n';

/** Exit code of a run, as the entry layer reports it. */
function code(ctx: FakeContext, argv: string[]): Promise<number> {
  return exitCodeOf(ctx, () => run(ctx, argv));
}

function uninstallCode(ctx: FakeContext, argv: string[], deps: UninstallDeps): Promise<number> {
  return exitCodeOf(ctx, () => runUninstall(ctx, argv, deps));
}

function installCode(ctx: FakeContext, argv: string[], deps: InstallDeps): Promise<number> {
  return exitCodeOf(ctx, () => runInstall(ctx, argv, deps));
}

Deno.test("uninstall --help prints usage and exits 0", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  ctx.out(commandHelp({ spec }, ["-h"]));
  // the usage, wrapped at the help's width: its lines joined are the spec's
  const usage = ctx.stdout().split("\n\n")[0]!;
  assert.equal(usage.replace(/\n +/g, " "), `usage: cliffhanger-bin ${spec.usage}`);
  for (const flag of ["--settings PATH", "--project DIR", "--no-subagent", "--dry-run", "--json", "exit codes"]) {
    assert.ok(ctx.stdout().includes(flag), flag);
  }
});

Deno.test("uninstall rejects unknown flags with exit 2", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--no-subagents"]), 2);
  assert.match(
    ctx.stderr(),
    /^cliffhanger-bin: uninstall: unknown flag "--no-subagents" \(did you mean "--no-subagent"\?\)/,
  );
});

Deno.test("uninstall --no-subagent removes our handlers except the SubagentStop one", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, THEIRS);
  assert.equal(await installCode(fakeContext(home.dir), ["--settings", path], { hookCommand: BINARY }), 0);
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--settings", path, "--no-subagent", "--json"]), 0);
  const out = JSON.parse(ctx.stdout());
  assert.deepEqual([out.changed, out.events], [true, ["Stop"]]);
  assert.equal(ctx.stderr(), "");
  const report = inspectSettingsText(await Deno.readTextFile(path));
  assert.deepEqual(report.handlers.map((h) => h.event), ["SubagentStop"]);
  assert.ok((await Deno.readTextFile(path)).includes('"command": "say hi"'));

  const again = fakeContext(home.dir);
  assert.equal(await code(again, ["--settings", path, "--no-subagent"]), 0);
  assert.equal(again.stdout(), `Nothing to remove in ${path}\n`);
  assert.equal(await code(fakeContext(home.dir), ["--settings", path]), 0);
  assert.equal(await Deno.readTextFile(path), THEIRS);
});

Deno.test("uninstall removes our handlers and keeps theirs, with a backup", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, THEIRS);
  assert.equal(await installCode(fakeContext(home.dir), ["--settings", path], { hookCommand: BINARY }), 0);
  const ctx = fakeContext(home.dir, new Date("2026-08-22T11:00:00Z"));
  assert.equal(await uninstallCode(ctx, ["--settings", "s.json", "--json"], { cwd: home.dir }), 0);
  const out = JSON.parse(ctx.stdout());
  assert.deepEqual(out, {
    action: "uninstall",
    settings: path,
    changed: true,
    backup: join(home.dir, ".cliffhanger", "backups", `${backupPrefix(path)}.20260822T110000000Z.bak`),
    events: ["Stop", "SubagentStop"],
    dryRun: false,
  });
  assert.equal(await Deno.readTextFile(path), THEIRS);
});

Deno.test("uninstall with nothing to remove exits 0 and writes nothing", async () => {
  await using home = await tempHome();
  const missing = fakeContext(home.dir);
  assert.equal(await code(missing, []), 0);
  assert.equal(missing.stdout(), `Nothing to remove in ${home.settings} (no such file)\n`);
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, THEIRS);
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--settings", path]), 0);
  assert.equal(ctx.stdout(), `Nothing to remove in ${path}\n`);
  const dry = fakeContext(home.dir);
  assert.equal(await code(dry, ["--settings", path, "--dry-run"]), 0);
  assert.equal(dry.stdout(), `no change to ${path}\n`);
  assert.deepEqual(await listDir(home.dir), ["s.json"]);
});

Deno.test("uninstall --dry-run prints the removal as a diff", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, THEIRS);
  await installCode(fakeContext(home.dir), ["--settings", path, "--no-subagent"], { hookCommand: BINARY });
  const installed = await Deno.readTextFile(path);
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--settings", path, "--dry-run"]), 0);
  assert.match(ctx.stdout(), /^-\s+"command": "\/opt\/bin\/cliffhanger-bin",$/m);
  assert.equal(await Deno.readTextFile(path), installed);
});

Deno.test("uninstall still removes our handlers from a file with comments and trailing commas, keeping them", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, "{}\n");
  assert.equal(await installCode(fakeContext(home.dir), ["--settings", path], { hookCommand: BINARY }), 0);
  // a comment and a trailing comma added by hand afterwards: install refuses the file, uninstall does not
  const jsonc = (await Deno.readTextFile(path)).replace("{\n", '{\n  // mine\n  "model": "opus",\n');
  await Deno.writeTextFile(path, jsonc.replace(/\n}\n$/, ",\n}\n"));
  assert.equal(await installCode(fakeContext(home.dir), ["--settings", path], { hookCommand: BINARY }), 1);
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--settings", path]), 0, ctx.stderr());
  assert.equal(await Deno.readTextFile(path), '{\n  // mine\n  "model": "opus",\n}\n');
});

Deno.test("uninstall on a broken file exits 1", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, "{,}");
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--settings", path]), 1);
  assert.match(ctx.stderr(), new RegExp(`^cliffhanger-bin: Invalid settings file ${path}:1:2: invalid JSON: `));
});

Deno.test("uninstall removes every hook of ours, or with --events only those", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, THEIRS);
  const all = ["--settings", path, "--events", "stop,prompt,pretool"];
  assert.equal(await installCode(fakeContext(home.dir), all, { hookCommand: BINARY }), 0);
  const installed = await Deno.readTextFile(path);

  const prompt = fakeContext(home.dir);
  assert.equal(await code(prompt, ["--settings", path, "--events", "prompt"]), 0);
  assert.equal(prompt.stdout().split("\n")[0], `Removed cliffhanger hooks for UserPromptSubmit from ${path}`);
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(path)).events, ["Stop", "SubagentStop", "PreToolUse"]);
  const nothing = fakeContext(home.dir);
  assert.equal(await code(nothing, ["--settings", path, "--events", "prompt"]), 0);
  assert.equal(nothing.stdout(), `Nothing to remove in ${path}\n`);

  const stopKeepSub = fakeContext(home.dir);
  assert.equal(await code(stopKeepSub, ["--settings", path, "--events", "stop", "--no-subagent", "--json"]), 0);
  assert.deepEqual(JSON.parse(stopKeepSub.stdout()).events, ["Stop"]);
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(path)).events, ["SubagentStop", "PreToolUse"]);

  const rest = fakeContext(home.dir);
  assert.equal(await code(rest, ["--settings", path, "--json"]), 0);
  assert.deepEqual(JSON.parse(rest.stdout()).events, ["SubagentStop", "PreToolUse"]);
  assert.equal(await Deno.readTextFile(path), THEIRS);

  // --events given twice: the two lists add up
  await Deno.writeTextFile(path, installed);
  const twice = fakeContext(home.dir);
  assert.equal(await code(twice, ["--settings", path, "--events", "stop", "--events", "prompt", "--json"]), 0);
  assert.deepEqual(JSON.parse(twice.stdout()).events, ["Stop", "SubagentStop", "UserPromptSubmit"]);
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(path)).events, ["PreToolUse"]);

  // And from a full install, a plain uninstall takes everything back to the user's file.
  await Deno.writeTextFile(path, installed);
  assert.equal(await code(fakeContext(home.dir), ["--settings", path]), 0);
  assert.equal(await Deno.readTextFile(path), THEIRS);
});

Deno.test("uninstall --events rejects bad lists with exit 2 and touches nothing", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, THEIRS);
  const cases: [string[], RegExp][] = [
    [
      ["--events", "pretol"],
      /^cliffhanger-bin: uninstall: unknown event "pretol" in --events \(did you mean "pretool"\?\); known: stop, prompt, pretool\n$/,
    ],
    [["--events", ""], /^cliffhanger-bin: uninstall: --events needs at least one of stop, prompt, pretool\n$/],
    [["--events", "stop", "--events", " , "], /: uninstall: --events needs at least one of stop, prompt, pretool\n$/],
    [["--events", "stop", "--events", "stpo"], /unknown event "stpo" in --events \(did you mean "stop"\?\)/],
    [["--dry-run", "--dry-run"], /^cliffhanger-bin: uninstall: --dry-run is given more than once; give it once/],
    [["--events", "pretool", "--no-subagent"], /--no-subagent applies to the stop hook, which --events leaves out\n$/],
  ];
  for (const [argv, pattern] of cases) {
    const ctx = fakeContext(home.dir);
    assert.equal(await code(ctx, ["--settings", path, ...argv]), 2, argv.join(" "));
    assert.match(ctx.stderr(), pattern);
    assert.equal(ctx.stdout(), "");
  }
  assert.equal(await Deno.readTextFile(path), THEIRS);
  assert.deepEqual(await listDir(home.dir), ["s.json"]);
});

Deno.test("uninstall --replace-python says the Python plugin is still enabled, and how to turn it off", async () => {
  await using home = await tempHome();
  await Deno.mkdir(join(home.dir, ".claude"), { recursive: true });
  await installPluginFixture(join(home.dir, ".claude"), {
    id: "cliffhanger@mkt",
    hooks: PYTHON_PLUGIN_HOOKS,
    enabled: true,
  });
  const ctx = fakeContext(home.dir);
  assert.equal(await uninstallCode(ctx, ["--replace-python"], {}), 0, ctx.stderr());
  assert.match(ctx.stderr(), /still enabled as the plugin cliffhanger@mkt .*claude plugin disable cliffhanger@mkt/);
});
