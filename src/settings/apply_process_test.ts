import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { CONFIG_PATH, settingsTempPath } from "../permissions.ts";
import { assertOneSet, listDir, tempHome } from "./test_support.ts";

/** Runs `install` once through the command module, starting at a shared moment so the processes collide. */
function installScript(): string {
  const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  return `
import { runInstall } from ${url("../cli/install.ts")};
import { fakeContext } from ${url("./test_support.ts")};
const [home, settings, command, startAt] = Deno.args;
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const ctx = fakeContext(home);
const code = await runInstall(ctx, ["--settings", settings, "--json"], { hookCommand: { command, prefixArgs: [] } });
Deno.stdout.writeSync(new TextEncoder().encode(ctx.stdout() + ctx.stderr()));
Deno.exit(code);
`;
}

Deno.test("install in several processes at once leaves valid settings with one set of handlers", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, '{\n  // keep me\n  "model": "opus"\n}\n');
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
        home.settings,
        command,
        startAt,
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
  await assertOneSet(home.settings, "// keep me");
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"]);
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger", "locks")), []);
});

Deno.test("install under scoped permissions touches only the settings file, its temp file and the home", async () => {
  await using home = await tempHome();
  const settings = join(home.dir, "project", "settings.json");
  await Deno.mkdir(dirname(settings), { recursive: true });
  await Deno.writeTextFile(settings, '{\n  // keep me\n  "model": "opus"\n}\n');
  const script = join(home.dir, "install_once.ts");
  await Deno.writeTextFile(script, installScript());
  const cliffhangerHome = join(home.dir, ".cliffhanger");
  const files = [settings, settingsTempPath(settings)].join(",");
  const run = async (command: string) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        `--config=${CONFIG_PATH}`,
        `--allow-read=${files},${cliffhangerHome}`,
        `--allow-write=${files},${cliffhangerHome}`,
        "--allow-env",
        script,
        home.dir,
        settings,
        command,
        "0",
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, text);
    return JSON.parse(text);
  };
  assert.equal((await run("/a/cliffhanger-bin")).changed, true);
  const moved = await run("/b/cliffhanger-bin");
  assert.deepEqual([moved.changed, typeof moved.backup], [true, "string"]);
  assert.equal((await run("/b/cliffhanger-bin")).changed, false);
  await assertOneSet(settings, "// keep me");
  assert.deepEqual(await listDir(dirname(settings)), ["settings.json"]);
});
