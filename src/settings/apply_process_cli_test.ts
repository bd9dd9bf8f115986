import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { CONFIG_PATH, settingsLockFile, settingsTempPath } from "../permissions.ts";
import { inspectSettingsText } from "./inspect.ts";
import { assertOneSet, listDir, tempHome } from "../testing/settings_support.ts";

/** Runs `install` once through the command module, starting at a shared moment so the processes collide. */
function installScript(): string {
  const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  return `
import { runInstall } from ${url("../cli/install.ts")};
import { exitCodeOf, fakeContext } from ${url("../testing/settings_support.ts")};
const [home, command, startAt, ...argv] = Deno.args;
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const ctx = fakeContext(home);
const hookCommand = { command, prefixArgs: [] };
const code = await exitCodeOf(ctx, () => runInstall(ctx, [...argv, "--json"], { hookCommand, cwd: home }));
Deno.stdout.writeSync(new TextEncoder().encode(ctx.stdout()));
Deno.stderr.writeSync(new TextEncoder().encode(ctx.stderr()));
Deno.exit(code);
`;
}

Deno.test("install in several processes at once leaves valid settings with one set of handlers", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, '{\n  "model": "opus",\n  "keep": "me"\n}\n');
  const script = join(home.dir, "install_once.ts");
  await Deno.writeTextFile(script, installScript());
  const startAt = String(Date.now() + 2500);
  const commands = ["/a/cliffhanger-bin", "/b/cliffhanger-bin", "/a/cliffhanger-bin", "/b/cliffhanger-bin"];
  const outputs = await Promise.all(commands.map((command) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--no-prompt",
        `--config=${CONFIG_PATH}`,
        script,
        home.dir,
        command,
        startAt,
        "--settings",
        home.settings,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  for (const output of outputs) {
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, text);
    assert.equal(JSON.parse(text).action, "install");
  }
  await assertOneSet(home.settings, '"keep": "me"');
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"]);
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger", "locks")), []);
});

Deno.test("installs of different --events in several processes, each with its own home, all land, one handler each", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, '{\n  "model": "opus",\n  "keep": "me"\n}\n');
  const script = join(home.dir, "install_once.ts");
  await Deno.writeTextFile(script, installScript());
  const startAt = String(Date.now() + 2500);
  const lists = ["stop", "prompt", "pretool", "prompt,pretool", "stop"];
  const outputs = await Promise.all(lists.map((events) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--no-prompt",
        `--config=${CONFIG_PATH}`,
        script,
        home.dir,
        "/a/cliffhanger-bin",
        startAt,
        "--settings",
        home.settings,
        "--events",
        events,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output()
  ));
  for (const output of outputs) {
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, text);
  }
  const text = await Deno.readTextFile(home.settings);
  const report = inspectSettingsText(text);
  assert.equal(report.error, null);
  assert.deepEqual(report.handlers.map((h) => [h.event, h.hook]).sort(), [
    ["PreToolUse", "pretool"],
    ["Stop", "stop"],
    ["SubagentStop", "stop"],
    ["UserPromptSubmit", "prompt"],
  ]);
  assert.ok(text.includes('"keep": "me"'));
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"]);
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger", "locks")), []);
});

/** Runs install once in a child process allowed only `files` (read and write), the cliffhanger home and env. */
async function installScoped(home: string, files: string[], command: string, argv: string[]) {
  const script = join(home, "install_once.ts");
  await Deno.writeTextFile(script, installScript());
  const cliffhangerHome = join(home, ".cliffhanger");
  const allowed = [...files, cliffhangerHome].join(",");
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      `--config=${CONFIG_PATH}`,
      `--allow-read=${allowed}`,
      `--allow-write=${allowed}`,
      "--allow-env",
      script,
      home,
      command,
      "0",
      ...argv,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test("install under scoped permissions touches only the settings file, its temp and lock files and the home", async () => {
  await using home = await tempHome();
  const settings = join(home.dir, "project", "settings.json");
  await Deno.mkdir(dirname(settings), { recursive: true });
  await Deno.writeTextFile(settings, '{\n  "model": "opus",\n  "keep": "me"\n}\n');
  const files = [settings, settingsTempPath(settings), settingsLockFile(settings)];
  const run = async (command: string) => {
    const output = await installScoped(home.dir, files, command, ["--settings", settings]);
    assert.equal(output.code, 0, output.stdout + output.stderr);
    return JSON.parse(output.stdout);
  };
  assert.equal((await run("/a/cliffhanger-bin")).changed, true);
  const moved = await run("/b/cliffhanger-bin");
  assert.deepEqual([moved.changed, typeof moved.backup], [true, "string"]);
  assert.equal((await run("/b/cliffhanger-bin")).changed, false);
  await assertOneSet(settings, '"keep": "me"');
  assert.deepEqual(await listDir(dirname(settings)), ["settings.json"]);
});

Deno.test("install under scoped permissions into a missing folder says to create it and writes nothing", async () => {
  await using home = await tempHome();
  const project = join(home.dir, "project");
  await Deno.mkdir(project);
  const nested = join(home.dir, "elsewhere", "deeper", "settings.json");
  const cases: [string[], string][] = [
    [["--project", "project"], join(project, ".claude", "settings.json")],
    [["--settings", nested], nested],
  ];
  for (const [argv, settings] of cases) {
    const scoped = [settings, settingsTempPath(settings), settingsLockFile(settings)];
    // a dry run says the same: it does not promise a change the real run cannot make
    for (const dryRun of [[], ["--dry-run"]]) {
      const output = await installScoped(home.dir, scoped, "/a/cliffhanger-bin", [...argv, ...dryRun]);
      const dir = dirname(settings);
      assert.equal(output.code, 1, output.stdout + output.stderr);
      assert.equal(
        output.stderr,
        `cliffhanger-bin: Cannot create "${settings}": its folder "${dir}" does not exist and this binary may not ` +
          `create it; run: mkdir -p "${dir}"\n`,
      );
      assert.equal(output.stdout, "");
    }
  }
  assert.deepEqual(await listDir(project), []);
  assert.deepEqual(await listDir(home.dir), ["install_once.ts", "project"], "nothing in the home, no lock left");
});
