import assert from "node:assert/strict";
import { installPluginFixture, ourPluginHooks, PYTHON_PLUGIN_HOOKS } from "../testing/plugin_fixture.ts";
import { commandHelp } from "./help.ts";
import { dirname, join } from "node:path";
import { MAIN_PATH } from "../permissions.ts";
import { inspectSettingsText } from "../settings/inspect.ts";
import { BINARY, exitCodeOf, type FakeContext, fakeContext, listDir, tempHome } from "../testing/settings_support.ts";
import { homeWarning, type InstallDeps, relayLostWarning, run, runInstall, spec } from "./install.ts";
import { OTHER_MAILBOX_ADVICE } from "../doctor/shared_relay.ts";
import { command as statusCommand } from "./status.ts";
import { repairedWords } from "./settings_command.ts";
import { backupPrefix } from "../settings/target.ts";
import type { HookCommand } from "../settings/hook_command.ts";

/** Exit code of a run, as the entry layer reports it. */
function code(ctx: FakeContext, argv: string[]): Promise<number> {
  return exitCodeOf(ctx, () => run(ctx, argv));
}

function installCode(ctx: FakeContext, argv: string[], deps: InstallDeps): Promise<number> {
  return exitCodeOf(ctx, () => runInstall(ctx, argv, deps));
}

Deno.test("install --help prints usage and exits 0", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  ctx.out(commandHelp({ spec }, ["--help"]));
  // the usage, wrapped at the help's width: its lines joined are the spec's
  const usage = ctx.stdout().split("\n\n")[0]!;
  assert.equal(usage.replace(/\n +/g, " "), `usage: cliffhanger-bin ${spec.usage}`);
  for (const flag of ["--settings PATH", "--project DIR", "--no-subagent", "--dry-run", "--json", "exit codes"]) {
    assert.ok(ctx.stdout().includes(flag), flag);
  }
  assert.deepEqual(await listDir(home.dir), []);
});

Deno.test("install rejects unknown flags, stray arguments and two targets with exit 2", async () => {
  await using home = await tempHome();
  const cases: [string[], RegExp][] = [
    [["--dry-rum"], /^cliffhanger-bin: install: unknown flag "--dry-rum" \(did you mean "--dry-run"\?\)\n$/],
    [["now"], /^cliffhanger-bin: install: unexpected argument "now"/],
    [["--settings"], /^cliffhanger-bin: install: --settings needs a value \(PATH\)\n$/],
    [
      ["--settings", "a.json", "--project", "."],
      /^cliffhanger-bin: install: --settings and --project cannot be used together\n$/,
    ],
    [["--project", ""], /^cliffhanger-bin: install: an empty path is not a settings file\n$/],
  ];
  for (const [argv, pattern] of cases) {
    const ctx = fakeContext(home.dir);
    assert.equal(await installCode(ctx, argv, { hookCommand: BINARY, cwd: home.dir }), 2, argv.join(" "));
    assert.match(ctx.stderr(), pattern);
    assert.equal(ctx.stdout(), "");
  }
  assert.deepEqual(await listDir(home.dir), []);
});

Deno.test("install writes the user settings by default and says so", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, [], { hookCommand: BINARY }), 0);
  assert.equal(ctx.stdout(), `Created ${home.settings} with cliffhanger hooks for Stop, SubagentStop\n`);
  assert.equal(ctx.stderr(), "", "no warning for the compiled binary");
  const again = fakeContext(home.dir);
  assert.equal(await installCode(again, [], { hookCommand: BINARY }), 0);
  assert.equal(again.stdout(), `Already installed in ${home.settings} (Stop, SubagentStop)\n`);
  const moved = fakeContext(home.dir);
  assert.equal(await installCode(moved, [], { hookCommand: { command: "/new/cliffhanger-bin", prefixArgs: [] } }), 0);
  const backup = join(home.dir, ".cliffhanger", "backups", `${backupPrefix(home.settings)}.20260822T101530123Z.bak`);
  assert.equal(
    moved.stdout(),
    `The cliffhanger handler for Stop, SubagentStop in ${home.settings} now runs /new/cliffhanger-bin\n` +
      `Backup of the previous file: ${backup}\n`,
  );
});

Deno.test("install: a handler of ours it repairs is said in one sentence, whatever was set on it", async () => {
  await using home = await tempHome();
  assert.equal(await installCode(fakeContext(home.dir), [], { hookCommand: BINARY }), 0);
  // our Stop handler (the first) without its "type", as a hand edit may leave it
  const untyped = (await Deno.readTextFile(home.settings)).replace('"type": "command",', "");
  const lines = async (command: HookCommand) => {
    await Deno.writeTextFile(home.settings, untyped);
    const ctx = fakeContext(home.dir);
    assert.equal(await installCode(ctx, [], { hookCommand: command }), 0, ctx.stderr());
    return ctx.stdout().split("\n").filter((l) => l.startsWith("The cliffhanger handler"));
  };
  assert.deepEqual(await lines(BINARY), [
    `The cliffhanger handler for Stop in ${home.settings} now has "type": "command"`,
  ]);
  // moved too: each handler's own sentence
  assert.deepEqual(await lines({ command: "/new/cliffhanger-bin", prefixArgs: [] }), [
    `The cliffhanger handler for Stop in ${home.settings} now runs /new/cliffhanger-bin and has "type": "command"`,
    `The cliffhanger handler for SubagentStop in ${home.settings} now runs /new/cliffhanger-bin`,
  ]);
});

Deno.test("repairedWords(): every combination of what install sets on a handler is one clause", () => {
  const cases: [string[], string][] = [
    [["command"], "now runs /bin/c"],
    [["args"], "now runs /bin/c"],
    [["command", "args"], "now runs /bin/c"],
    [["type"], 'now has "type": "command"'],
    [["type", "command"], 'now runs /bin/c and has "type": "command"'],
    [["type", "args", "command"], 'now runs /bin/c and has "type": "command"'],
    [["type", "shell"], 'now has "type": "command" and its "shell" set'],
    [["command", "type", "shell", "x"], 'now runs /bin/c and has "type": "command", its "shell" set and its "x" set'],
  ];
  for (const [fields, words] of cases) assert.equal(repairedWords(fields, "/bin/c"), words, fields.join(", "));
});

Deno.test("install: a folder with files in it at the settings lock's name is left as it is and named; an empty one is removed", async () => {
  await using home = await tempHome();
  const lock = `${home.settings}.cliffhanger-lock`;
  await Deno.mkdir(join(lock, "mine"), { recursive: true });
  await Deno.writeTextFile(join(lock, "mine", "keep.txt"), "precious\n");
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, [], { hookCommand: BINARY }), 1);
  assert.match(
    ctx.stderr(),
    new RegExp(
      `cannot take the lock "${lock}": a folder with files in it is at its name, not a lock file; it was left`,
    ),
  );
  assert.equal(await Deno.readTextFile(join(lock, "mine", "keep.txt")), "precious\n");
  await Deno.remove(join(lock, "mine"), { recursive: true });
  const again = fakeContext(home.dir);
  assert.equal(await installCode(again, [], { hookCommand: BINARY }), 0, again.stderr());
  await assert.rejects(Deno.lstat(lock), Deno.errors.NotFound);
});

Deno.test("install --json prints one object with the documented keys", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  const code = await installCode(ctx, ["--project", "repo", "--no-subagent", "--json"], {
    hookCommand: BINARY,
    cwd: home.dir,
  });
  assert.equal(code, 0);
  const settings = join(home.dir, "repo", ".claude", "settings.json");
  assert.deepEqual(JSON.parse(ctx.stdout()), {
    action: "install",
    settings,
    changed: true,
    backup: null,
    events: ["Stop"],
    added: ["Stop"],
    dryRun: false,
  });
  assert.equal(ctx.stdout().split("\n").length, 2, "one line");
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(settings)).events, ["Stop"]);
});

Deno.test("install --dry-run --json includes the diff and writes nothing", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  const path = join(home.dir, "s.json");
  assert.equal(await installCode(ctx, ["--settings", path, "--dry-run", "--json"], { hookCommand: BINARY }), 0);
  const out = JSON.parse(ctx.stdout());
  assert.deepEqual([out.changed, out.dryRun, out.backup], [true, true, null]);
  assert.match(out.diff, /^--- \/dev\/null\n\+\+\+ .*s\.json\n/);
  assert.deepEqual(await listDir(home.dir), []);

  const text = fakeContext(home.dir);
  assert.equal(
    await installCode(text, ["--settings", "s.json", "--dry-run"], { hookCommand: BINARY, cwd: home.dir }),
    0,
  );
  assert.equal(text.stdout(), out.diff);
});

Deno.test("install on a broken settings file exits 1 with one line naming the file", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, '{"hooks": {"Stop": "nope"}}');
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, ["--settings", path], { hookCommand: BINARY }), 1);
  assert.equal(
    ctx.stderr(),
    `cliffhanger-bin: Invalid settings file ${path}:1:20: "hooks.Stop" must be an array, found string; nothing was written\n`,
  );
  assert.equal(ctx.stdout(), "");
  assert.equal(await Deno.readTextFile(path), '{"hooks": {"Stop": "nope"}}');
});

Deno.test("install under deno registers a short launcher in the home that runs deno on main.ts", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  assert.equal(await code(ctx, ["--no-subagent"]), 0);
  const [handler] = inspectSettingsText(await Deno.readTextFile(home.settings)).handlers;
  const launcher = join(home.dir, ".cliffhanger", "bin", "cliffhanger-bin");
  assert.equal(handler?.command, launcher, "the model sees a short command line with each block");
  assert.deepEqual(handler?.args, ["hook", "stop"]);
  const script = await Deno.readTextFile(launcher);
  assert.ok(script.startsWith("#!/bin/sh\n"));
  assert.ok(script.includes(`'${Deno.execPath()}'`) && script.includes(`'${MAIN_PATH}' "$@"`), script);
  assert.equal((await Deno.stat(launcher)).mode! & 0o777, 0o755);
  assert.match(ctx.stderr(), /^cliffhanger-bin: warning: the hooks run .*; for real use, run `deno task compile` and /);
  assert.ok(ctx.stderr().includes(Deno.execPath()));
  assert.equal(ctx.stderr().split("\n").length, 2, "one line");
});

Deno.test("install with deno from npx's cache installs and warns that npm may clean it", async () => {
  await using home = await tempHome();
  const npx = "/home/a/.npm/_npx/7a40be787520bede/node_modules/deno/deno";
  // what install writes for a checkout: its deno.json, the CLIFFHANGER_* env scope and no network, then main.ts
  const flags = [
    "run",
    `--config=${MAIN_PATH.replace(/main\.ts$/, "deno.json")}`,
    "--allow-env=CLIFFHANGER_*",
    "--deny-net",
  ];
  const hookCommand = { command: npx, prefixArgs: [...flags, MAIN_PATH] };
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, ["--no-subagent"], { hookCommand }), 0);
  assert.equal(ctx.stdout(), `Created ${home.settings} with cliffhanger hooks for Stop\n`);
  const warning = `the hooks run ${npx}, in npx's cache, which npm may clean (every stop then fails); ` +
    "for real use, run `deno task compile` and install the compiled binary";
  assert.equal(ctx.stderr(), `cliffhanger-bin: warning: ${warning}\n`);
  assert.equal(inspectSettingsText(await Deno.readTextFile(home.settings)).handlers[0]?.command, npx);

  const json = fakeContext(home.dir);
  assert.equal(await installCode(json, ["--json", "--dry-run"], { hookCommand }), 0);
  const out = JSON.parse(json.stdout());
  assert.deepEqual([out.changed, out.warning], [true, warning]);
  assert.equal(json.stderr(), `cliffhanger-bin: warning: ${warning}\n`);
});

Deno.test("install through a symlink names the target it edited", async () => {
  await using home = await tempHome();
  const real = join(home.dir, "real.json");
  const link = join(home.dir, "link.json");
  await Deno.writeTextFile(real, "{}\n");
  await Deno.symlink(real, link);
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, ["--settings", link, "--no-subagent"], { hookCommand: BINARY }), 0);
  const lines = ctx.stdout().split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    `Installed cliffhanger hooks for Stop in ${link}`,
    `Edited the symlink target ${real}`,
  ]);
  assert.ok((await Deno.lstat(link)).isSymlink);
});

Deno.test("install --help lists --events and what each hook name registers", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  ctx.out(commandHelp({ spec }, ["--help"]));
  const out = ctx.stdout();
  assert.ok(out.includes("--events LIST"));
  assert.ok(out.includes("stop, prompt, pretool (default: stop)"));
  assert.ok(out.includes("  prompt   UserPromptSubmit, timeout 15 s\n"), out);
  assert.ok(out.includes("  pretool  PreToolUse, timeout 15 s\n"), out);
});

Deno.test("install --events rejects unknown and empty lists with exit 2 and a did-you-mean", async () => {
  await using home = await tempHome();
  const known = "; known: stop, prompt, pretool\n$";
  const cases: [string[], RegExp][] = [
    [
      ["--events", "stop,promt"],
      new RegExp(`^cliffhanger-bin: install: unknown event "promt" in --events \\(did you mean "prompt"\\?\\)${known}`),
    ],
    [
      ["--events", "pre-tool"],
      new RegExp(
        `^cliffhanger-bin: install: unknown event "pre-tool" in --events \\(did you mean "pretool"\\?\\)${known}`,
      ),
    ],
    [
      ["--events", "PreToolUse"],
      new RegExp(
        `^cliffhanger-bin: install: unknown event "PreToolUse" in --events \\(did you mean "pretool"\\?\\)${known}`,
      ),
    ],
    [["--events", "UserPromptSubmit"], /\(did you mean "prompt"\?\)/],
    [["--events", "banana"], new RegExp(`^cliffhanger-bin: install: unknown event "banana" in --events${known}`)],
    [["--events", ""], /^cliffhanger-bin: install: --events needs at least one of stop, prompt, pretool\n$/],
    [["--events", " , "], /^cliffhanger-bin: install: --events needs at least one of stop, prompt, pretool\n$/],
    [["--events"], /^cliffhanger-bin: install: --events needs a value \(LIST\)\n$/],
    [["--event", "stop"], /^cliffhanger-bin: install: unknown flag "--event" \(did you mean "--events"\?\)\n$/],
    [
      ["--events", "prompt", "--no-subagent"],
      /^cliffhanger-bin: install: --no-subagent applies to the stop hook, which --events leaves out\n$/,
    ],
    [
      ["--events", "prompt,pretool", "--relay"],
      /^cliffhanger-bin: install: --relay applies to the stop hook, which --events leaves out\n$/,
    ],
    // a flag that takes no repeats, given twice, never keeps only the last silently
    [
      ["--project", "a", "--project", "b"],
      /^cliffhanger-bin: install: --project is given more than once; give it once/,
    ],
    [["--relay", "--relay"], /^cliffhanger-bin: install: --relay is given more than once; give it once/],
  ];
  for (const [argv, pattern] of cases) {
    const ctx = fakeContext(home.dir);
    assert.equal(await installCode(ctx, argv, { hookCommand: BINARY, cwd: home.dir }), 2, argv.join(" "));
    assert.match(ctx.stderr(), pattern);
    assert.equal(ctx.stdout(), "");
  }
  assert.deepEqual(await listDir(home.dir), [], "nothing written");
});

Deno.test("install --events given twice adds the lists up", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  const ctx = fakeContext(home.dir);
  const argv = ["--settings", path, "--events", "stop", "--events", "prompt", "--events", "stop", "--json"];
  assert.equal(await installCode(ctx, argv, { hookCommand: BINARY }), 0);
  assert.deepEqual(JSON.parse(ctx.stdout()).events, ["Stop", "SubagentStop", "UserPromptSubmit"]);
  const events = inspectSettingsText(await Deno.readTextFile(path)).events;
  assert.deepEqual(events, ["Stop", "SubagentStop", "UserPromptSubmit"]);
});

Deno.test("install --events stop,prompt,pretool registers all four handlers; again changes nothing", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  const ctx = fakeContext(home.dir);
  const argv = ["--settings", path, "--events", "stop,prompt,pretool", "--json"];
  assert.equal(await installCode(ctx, argv, { hookCommand: BINARY }), 0);
  const all = ["Stop", "SubagentStop", "UserPromptSubmit", "PreToolUse"];
  assert.deepEqual(JSON.parse(ctx.stdout()), {
    action: "install",
    settings: path,
    changed: true,
    backup: null,
    events: all,
    added: all,
    dryRun: false,
  });
  const text = await Deno.readTextFile(path);
  assert.equal("matcher" in JSON.parse(text).hooks.PreToolUse[0], false, "pretool sees every tool");
  assert.deepEqual(inspectSettingsText(text).handlers.map((h) => h.args), [
    ["hook", "stop"],
    ["hook", "stop"],
    ["hook", "prompt"],
    ["hook", "pretool"],
  ]);
  const again = fakeContext(home.dir);
  assert.equal(
    await installCode(again, ["--settings", path, "--events", "pretool, prompt,stop"], { hookCommand: BINARY }),
    0,
  );
  assert.equal(again.stdout(), `Already installed in ${path} (${all.join(", ")})\n`);
  assert.equal(await Deno.readTextFile(path), text);
});

Deno.test("install --events prompt adds to a stop install without touching it, with a backup", async () => {
  await using home = await tempHome();
  await Deno.mkdir(join(home.dir, ".claude"));
  await Deno.writeTextFile(home.settings, '{\n  "model": "opus"\n}\n');
  assert.equal(await installCode(fakeContext(home.dir), [], { hookCommand: BINARY }), 0);
  const stopOnly = await Deno.readTextFile(home.settings);

  const ctx = fakeContext(home.dir, new Date("2026-08-22T12:00:00Z"));
  assert.equal(await installCode(ctx, ["--events", "prompt"], { hookCommand: BINARY }), 0);
  const backup = join(home.dir, ".cliffhanger", "backups", `${backupPrefix(home.settings)}.20260822T120000000Z.bak`);
  assert.equal(
    ctx.stdout(),
    `Installed cliffhanger hooks for UserPromptSubmit in ${home.settings}\nBackup of the previous file: ${backup}\n`,
  );
  assert.equal(await Deno.readTextFile(backup), stopOnly);
  const withPrompt = await Deno.readTextFile(home.settings);
  const lastStop = stopOnly.lastIndexOf("]");
  assert.ok(withPrompt.startsWith(stopOnly.slice(0, lastStop + 1)), "the stop install's text is a prefix");
  assert.deepEqual(inspectSettingsText(withPrompt).events, ["Stop", "SubagentStop", "UserPromptSubmit"]);

  // A plain `install` (stop) afterwards leaves the prompt handler where it is.
  const again = fakeContext(home.dir);
  assert.equal(await installCode(again, [], { hookCommand: BINARY }), 0);
  assert.equal(again.stdout(), `Already installed in ${home.settings} (Stop, SubagentStop)\n`);
  assert.equal(await Deno.readTextFile(home.settings), withPrompt);
  // --no-subagent still means the SubagentStop handler only.
  assert.equal(await installCode(fakeContext(home.dir), ["--no-subagent"], { hookCommand: BINARY }), 0);
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(home.settings)).events, ["Stop", "UserPromptSubmit"]);
});

Deno.test("install refuses a settings file with a comment or a trailing comma: Claude Code ignores it whole", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  const cases: [string, string][] = [
    ['{\n// my comment\n  "model": "opus"\n}\n', "a comment at 2:1"],
    ['{\n  "model": "opus",\n  "env": { "A": "1", }\n}\n', "a trailing comma at 3:20"],
  ];
  for (const [text, where] of cases) {
    await Deno.writeTextFile(home.settings, text);
    for (const argv of [[], ["--dry-run"], ["--events", "prompt", "--json"]]) {
      const ctx = fakeContext(home.dir);
      assert.equal(await installCode(ctx, argv, { hookCommand: BINARY }), 1, argv.join(" "));
      assert.equal(
        ctx.stderr(),
        `cliffhanger-bin: Invalid settings file ${home.settings}: Claude Code reads it as strict JSON and ignores it ` +
          `whole: ${where}; remove the comments and trailing commas, then install again; nothing was written\n`,
      );
      assert.equal(ctx.stdout(), "");
      assert.equal(await Deno.readTextFile(home.settings), text, "nothing written");
    }
  }
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger")), [], "no backup, no launcher");
  // status says the same of the file
  const status = fakeContext(home.dir);
  assert.equal(await exitCodeOf(status, () => statusCommand.run(status, ["--json"])), 0);
  const entry = JSON.parse(status.stdout()).settings.find((s: { path: string }) => s.path === home.settings);
  assert.equal(
    entry.error,
    "Claude Code reads it as strict JSON and ignores it whole: a trailing comma at 3:20",
  );
  // once strict JSON, it installs
  await Deno.writeTextFile(home.settings, '{\n  "model": "opus",\n  "env": { "A": "1" }\n}\n');
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, [], { hookCommand: BINARY }), 0, ctx.stderr());
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(home.settings)).events, ["Stop", "SubagentStop"]);
});

Deno.test("install refuses a file Claude Code ignores whole; what it leaves skipped (a shell) is a warning", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  // another tool's PreToolUse handler that does not load: Claude Code 2.1.328 then runs no hook of the file
  const lint = { type: "command", command: "lint", timeout: "30" };
  const text = JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [lint] }] } }, null, 2);
  await Deno.writeTextFile(home.settings, text);
  const refused = fakeContext(home.dir);
  assert.equal(await installCode(refused, [], { hookCommand: BINARY }), 1);
  assert.equal(
    refused.stderr(),
    `cliffhanger-bin: Claude Code ignores the whole file ${home.settings}, our handlers for Stop, SubagentStop ` +
      'included: hooks.PreToolUse[0].hooks[0]: "timeout" is "30", not a positive number (under PreToolUse or ' +
      "PermissionRequest one entry that does not load makes it ignore the file), so the handlers install writes would " +
      `never run; fix: in ${home.settings}, fix or remove hooks.PreToolUse[0].hooks[0]: while it does not load, Claude ` +
      "Code ignores the whole file, then install again; nothing was written\n",
  );
  assert.equal(await Deno.readTextFile(home.settings), text, "nothing written");
  // our own PreToolUse handler with a type Claude Code refuses: install writes the type, and the file loads again
  await Deno.writeTextFile(
    home.settings,
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ ...binaryHandler("pretool"), type: "cmd" }] }] } }),
  );
  const repaired = fakeContext(home.dir);
  assert.equal(await installCode(repaired, ["--events", "pretool"], { hookCommand: BINARY }), 0, repaired.stderr());
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(home.settings)).events, ["PreToolUse"]);
  // a matcher that is not a string on our group (under PreToolUse it would make the whole file ignored) is removed;
  // a "shell" Claude Code does not know is left: written, but said, with the edit by hand
  await Deno.writeTextFile(
    home.settings,
    JSON.stringify({
      hooks: { Stop: [{ matcher: 5, hooks: [{ ...binaryHandler("stop"), timeout: "60", shell: "zsh" }] }] },
    }),
  );
  const warned = fakeContext(home.dir);
  assert.equal(await installCode(warned, ["--no-subagent", "--json"], { hookCommand: BINARY }), 0, warned.stderr());
  assert.equal(
    JSON.parse(warned.stdout()).warning,
    `Claude Code skips our Stop handler in ${home.settings} (hooks.Stop[0].hooks[0]): "shell" is "zsh", not "bash" ` +
      `or "powershell"; fix: in ${home.settings}, fix or remove "shell" in hooks.Stop[0].hooks[0] (install leaves ` +
      "these keys as they are)",
  );
  assert.deepEqual(JSON.parse(warned.stdout()).timeouts, [{ event: "Stop", from: "60", to: 60 }]);
  assert.deepEqual(JSON.parse(warned.stdout()).dropped, [{ event: "Stop", field: "matcher", value: 5 }]);
  // a top-level key Claude Code knows, given a value that does not fit: refused, naming the key
  const model = '{ "model": 5 }\n';
  await Deno.writeTextFile(home.settings, model);
  const keyRefused = fakeContext(home.dir);
  assert.equal(await installCode(keyRefused, [], { hookCommand: BINARY }), 1);
  assert.equal(
    keyRefused.stderr(),
    `cliffhanger-bin: Claude Code ignores the whole file ${home.settings}, our handlers for Stop, SubagentStop ` +
      `included: "model" is 5, not a string, so the handlers install writes would never run; fix: in ${home.settings}, ` +
      'fix or remove "model": while it does not fit, Claude Code ignores the whole file, then install again; nothing ' +
      "was written\n",
  );
  assert.equal(await Deno.readTextFile(home.settings), model, "nothing written");
});

/** Our handler as install writes it for the test binary. */
function binaryHandler(hook: string): Record<string, unknown> {
  return { type: "command", command: BINARY.command, args: ["hook", hook], timeout: 15 };
}

Deno.test("install says what it changed: a timeout set, a handler added beside one already there, extra copies", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  assert.equal(
    await installCode(fakeContext(home.dir), ["--settings", path, "--events", "stop,prompt"], {
      hookCommand: BINARY,
    }),
    0,
  );
  // the prompt hook's timeout lowered by hand, the Stop one raised: only the lower one is set back
  const installed = await Deno.readTextFile(path);
  const lowered = installed.replace(
    '"args": ["hook", "prompt"],\n            "timeout": 15',
    '"args": ["hook", "prompt"],\n            "timeout": 10',
  )
    .replace(
      '"args": ["hook", "stop"],\n            "timeout": 60',
      '"args": ["hook", "stop"],\n            "timeout": 90',
    );
  assert.notEqual(lowered, installed);
  await Deno.writeTextFile(path, lowered);
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, ["--settings", path, "--events", "stop,prompt"], { hookCommand: BINARY }), 0);
  const backup = join(home.dir, ".cliffhanger", "backups", `${backupPrefix(path)}.20260822T101530123Z.bak`);
  assert.equal(
    ctx.stdout(),
    `Set the UserPromptSubmit timeout in ${path} to 15 s (it was 10 s)\n` +
      "Kept the Stop timeout of 90 s (longer than install's; uninstall first to set it back)\n" +
      `Backup of the previous file: ${backup}\n`,
  );
  // the same as JSON, a timeout that was not there, and a handler added where the others were already
  const json = fakeContext(home.dir, new Date("2026-08-22T11:00:00Z"));
  const noTimeout = (await Deno.readTextFile(path)).replace(',\n            "timeout": 15', "");
  await Deno.writeTextFile(path, noTimeout);
  assert.equal(
    await installCode(json, ["--settings", path, "--events", "prompt,pretool", "--json"], {
      hookCommand: BINARY,
    }),
    0,
  );
  const body = JSON.parse(json.stdout());
  assert.deepEqual([body.changed, body.added, body.timeouts], [true, ["PreToolUse"], [{
    event: "UserPromptSubmit",
    to: 15,
  }]]);
  const text = fakeContext(home.dir);
  await Deno.writeTextFile(path, noTimeout);
  assert.equal(await installCode(text, ["--settings", path, "--events", "prompt,pretool"], { hookCommand: BINARY }), 0);
  assert.match(text.stdout(), new RegExp(`^Installed cliffhanger hooks for PreToolUse in ${path}\n`));
  assert.match(
    text.stdout(),
    /^Set the UserPromptSubmit timeout in .* to 15 s \(it had none, so Claude Code's 600 s applied\)$/m,
  );
  // two copies of our Stop handler: one is kept
  const doc = JSON.parse(await Deno.readTextFile(path));
  doc.hooks.Stop.push(doc.hooks.Stop[0]);
  await Deno.writeTextFile(path, JSON.stringify(doc, null, 2));
  const dup = fakeContext(home.dir);
  assert.equal(await installCode(dup, ["--settings", path, "--events", "stop"], { hookCommand: BINARY }), 0);
  assert.match(dup.stdout(), /^Removed extra copies of the cliffhanger handler for Stop from /);
  assert.doesNotMatch(dup.stdout(), /Installed|Already/);
});

Deno.test("install removes async from our Stop handler and a matcher from our PreToolUse group, and says why", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  const events = ["--settings", path, "--events", "stop,pretool"];
  assert.equal(await installCode(fakeContext(home.dir), events, { hookCommand: BINARY }), 0);
  const installed = await Deno.readTextFile(path);
  const doc = JSON.parse(installed);
  doc.hooks.Stop[0].hooks[0].async = true;
  doc.hooks.PreToolUse[0].matcher = "Bash";
  await Deno.writeTextFile(path, JSON.stringify(doc, null, 2) + "\n");
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, events, { hookCommand: BINARY }), 0, ctx.stderr());
  assert.equal(
    ctx.stdout(),
    `Removed "async": true from the cliffhanger handler for Stop in ${path}: Claude Code ran the hook in the ` +
      "background and did not use its answer\n" +
      `Removed "matcher": "Bash" from the cliffhanger group for PreToolUse in ${path}: it hid the other tools' calls ` +
      "from the hook\n" +
      `Backup of the previous file: ${join(home.dir, ".cliffhanger", "backups", backupPrefix(path))}.` +
      "20260822T101530123Z.bak\n",
  );
  assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), JSON.parse(installed));
  // our handler in another tool's group: moved out, theirs keep the matcher; --json lists what was removed
  doc.hooks.Stop[0].hooks[0].async = false;
  doc.hooks.PreToolUse[0].hooks.unshift({ type: "command", command: "guard.sh" });
  await Deno.writeTextFile(path, JSON.stringify(doc, null, 2) + "\n");
  const json = fakeContext(home.dir, new Date("2026-08-22T11:00:00Z"));
  assert.equal(await installCode(json, [...events, "--json"], { hookCommand: BINARY }), 0, json.stderr());
  assert.deepEqual(JSON.parse(json.stdout()).dropped, [
    { event: "PreToolUse", field: "matcher", value: "Bash", moved: true },
  ]);
  const after = JSON.parse(await Deno.readTextFile(path));
  assert.deepEqual(after.hooks.PreToolUse.map((g: { matcher?: string }) => g.matcher), ["Bash", undefined]);
  assert.equal(after.hooks.Stop[0].hooks[0].async, false, '"async": false changes nothing and is kept');
  const text = fakeContext(home.dir);
  assert.equal(await installCode(text, events, { hookCommand: BINARY }), 0);
  assert.equal(text.stdout(), `Already installed in ${path} (Stop, SubagentStop, PreToolUse)\n`);
});

Deno.test("install --events pretool --dry-run shows the new group in the diff and writes nothing", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, "{}\n");
  const ctx = fakeContext(home.dir);
  assert.equal(
    await installCode(ctx, ["--settings", path, "--events", "pretool", "--dry-run"], { hookCommand: BINARY }),
    0,
  );
  assert.match(ctx.stdout(), /^\+\s+"PreToolUse": \[$/m);
  assert.doesNotMatch(ctx.stdout(), /"matcher"/);
  assert.match(ctx.stdout(), /^\+\s+"args": \["hook", "pretool"\],$/m);
  assert.equal(await Deno.readTextFile(path), "{}\n");
});

Deno.test("status lists the UserPromptSubmit and PreToolUse registrations install wrote", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  assert.equal(
    await installCode(fakeContext(home.dir), ["--settings", path, "--events", "prompt,pretool"], {
      hookCommand: BINARY,
    }),
    0,
  );
  const json = fakeContext(home.dir);
  assert.equal(await exitCodeOf(json, () => statusCommand.run(json, ["--settings", path, "--json"])), 0);
  const entry = JSON.parse(json.stdout()).settings.find((s: { path: string }) => s.path === path);
  assert.deepEqual(entry.events, ["UserPromptSubmit", "PreToolUse"]);
  assert.deepEqual(entry.handlers.map((h: { hook: string; timeout: number }) => [h.hook, h.timeout]), [
    ["prompt", 15],
    ["pretool", 15],
  ]);
  const text = fakeContext(home.dir);
  assert.equal(await exitCodeOf(text, () => statusCommand.run(text, ["--settings", path])), 0);
  assert.ok(text.stdout().includes(`  ${path}: registered for UserPromptSubmit, PreToolUse\n`), text.stdout());
});

const PYTHON_SETTINGS = `{
  "model": "opus",
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "python3 /home/a/cliffhanger/hooks/cliffhanger.py", "timeout": 30 }] }],
    "SubagentStop": [{ "hooks": [{ "type": "command", "command": "/home/a/cliffhanger/hooks/cliffhanger.py" }] }],
    "PreToolUse": [{ "hooks": [{ "type": "command", "command": "say hi" }] }]
  }
}
`;

Deno.test("install over the Python cliffhanger refuses without --replace-python (exit 1, unchanged), replaces it with it", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, PYTHON_SETTINGS);
  const refused = fakeContext(home.dir);
  assert.equal(await installCode(refused, [], { hookCommand: BINARY }), 1);
  assert.match(
    refused.stderr(),
    /the Python cliffhanger \(hooks\/cliffhanger\.py\) is registered in \S*settings\.json for Stop, SubagentStop/,
  );
  assert.match(refused.stderr(), /--replace-python/);
  assert.equal(await Deno.readTextFile(home.settings), PYTHON_SETTINGS, "nothing written");
  const dry = fakeContext(home.dir);
  assert.equal(await installCode(dry, ["--dry-run", "--replace-python"], { hookCommand: BINARY }), 0);
  assert.match(dry.stdout(), /-.*cliffhanger\.py/);
  const done = fakeContext(home.dir);
  assert.equal(await installCode(done, ["--replace-python"], { hookCommand: BINARY }), 0, done.stderr());
  assert.match(done.stdout(), /^Removed the Python cliffhanger's handlers for Stop, SubagentStop$/m);
  const text = await Deno.readTextFile(home.settings);
  assert.ok(!text.includes("cliffhanger.py"), text);
  assert.ok(text.includes('"command": "say hi"') && text.includes('"model": "opus"'), "the rest is kept");
  assert.deepEqual(inspectSettingsText(text).handlers.map((h) => h.event).sort(), ["Stop", "SubagentStop"]);
});

Deno.test("install: a cliffhanger.py outside Stop/SubagentStop, or only named in a command, is not the Python guard", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  const other = JSON.stringify({
    hooks: {
      PostToolUse: [{ hooks: [{ type: "command", command: "python3 ~/tools/cliffhanger.py notify" }] }],
      Stop: [{ hooks: [{ type: "command", command: "echo 'hooks/cliffhanger.py is retired'" }] }],
    },
  });
  await Deno.writeTextFile(home.settings, other);
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, [], { hookCommand: BINARY }), 0, ctx.stderr());
  const text = await Deno.readTextFile(home.settings);
  assert.ok(text.includes("tools/cliffhanger.py notify") && text.includes("is retired"), "both kept");
  // the Python guard on Stop does not stop an install of the other hooks
  await Deno.writeTextFile(home.settings, PYTHON_SETTINGS);
  const pretool = fakeContext(home.dir);
  assert.equal(await installCode(pretool, ["--events", "pretool"], { hookCommand: BINARY }), 0, pretool.stderr());
});

Deno.test("install from a checkout writes its launcher only when the edit goes through", async () => {
  await using home = await tempHome();
  const launcher = join(home.dir, ".cliffhanger", "bin", "cliffhanger-bin");
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, PYTHON_SETTINGS);
  assert.equal(await code(fakeContext(home.dir), []), 1, "refused: the Python guard is there");
  await assert.rejects(Deno.stat(launcher), Deno.errors.NotFound, "a refused install writes no launcher");
  assert.equal(await code(fakeContext(home.dir), ["--dry-run", "--replace-python"]), 0);
  await assert.rejects(Deno.stat(launcher), Deno.errors.NotFound, "a dry run writes no launcher");
  assert.equal(await code(fakeContext(home.dir), ["--replace-python"]), 0);
  assert.ok((await Deno.stat(launcher)).isFile);
});

Deno.test("install beside the Python cliffhanger enabled as a plugin refuses; --replace-python turns the plugin off here", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await installPluginFixture(dirname(home.settings), { id: "cliffhanger@mkt", hooks: PYTHON_PLUGIN_HOOKS });
  const settings = `{\n  "model": "opus",\n  "enabledPlugins": { "cliffhanger@mkt": true, "other@mkt": true }\n}\n`;
  await Deno.writeTextFile(home.settings, settings);
  const refused = fakeContext(home.dir);
  assert.equal(await installCode(refused, [], { hookCommand: BINARY }), 1);
  assert.match(refused.stderr(), /enabled as the plugin cliffhanger@mkt/);
  assert.match(refused.stderr(), /claude plugin disable cliffhanger@mkt/);
  assert.equal(await Deno.readTextFile(home.settings), settings, "nothing written");
  // the other hooks do not double the guard
  const pretool = fakeContext(home.dir);
  assert.equal(await installCode(pretool, ["--events", "pretool", "--dry-run"], { hookCommand: BINARY }), 0);
  const done = fakeContext(home.dir);
  assert.equal(await installCode(done, ["--replace-python"], { hookCommand: BINARY }), 0, done.stderr());
  assert.match(done.stdout(), /^Set enabledPlugins to false for the Python cliffhanger plugin cliffhanger@mkt$/m);
  const text = await Deno.readTextFile(home.settings);
  const parsed = inspectSettingsText(text);
  assert.deepEqual(parsed.enabledPlugins, { "cliffhanger@mkt": false, "other@mkt": true });
  assert.deepEqual(parsed.handlers.map((h) => h.event).sort(), ["Stop", "SubagentStop"]);
  assert.ok(text.includes('"model": "opus"'), "the rest kept");
  // a second run is no change and no refusal: the plugin is off
  const again = fakeContext(home.dir);
  assert.equal(await installCode(again, [], { hookCommand: BINARY }), 0, again.stderr());
});

Deno.test("install: the Python plugin enabled in the project's settings wins over false in the user's: refused, named", async () => {
  await using home = await tempHome();
  const project = join(home.dir, "proj");
  await Deno.mkdir(join(project, ".claude"), { recursive: true });
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await installPluginFixture(dirname(home.settings), {
    id: "cliffhanger@mkt",
    hooks: PYTHON_PLUGIN_HOOKS,
    enabled: true,
    settings: join(project, ".claude", "settings.json"),
  });
  const ctx = { ...fakeContext(home.dir), cwd: () => project };
  assert.equal(await installCode(ctx, ["--replace-python"], { hookCommand: BINARY }), 1);
  assert.match(
    ctx.stderr(),
    new RegExp(`plugin cliffhanger@mkt is enabled in ${project}/\\.claude/settings\\.json, which wins over`),
  );
  await assert.rejects(Deno.stat(home.settings), Deno.errors.NotFound, "nothing written");
});

Deno.test("homeWarning(): a binary registered under another CLIFFHANGER_HOME is told Claude Code needs it too", () => {
  const paths = (root: string) => ({ home: "/u", root } as Parameters<typeof homeWarning>[0]);
  assert.equal(homeWarning(paths("/u/.cliffhanger"), false), null);
  assert.equal(homeWarning(paths("/tmp/h"), true), null, "the launcher sets the variable itself");
  assert.match(homeWarning(paths("/tmp/h"), false) ?? "", /Claude Code runs with CLIFFHANGER_HOME=\/tmp\/h too/);
});

Deno.test("install --no-subagent over an install with SubagentStop says it removed that handler (text and --json)", async () => {
  await using home = await tempHome();
  assert.equal(await installCode(fakeContext(home.dir), [], { hookCommand: BINARY }), 0);
  const ctx = fakeContext(home.dir);
  assert.equal(await installCode(ctx, ["--no-subagent"], { hookCommand: BINARY }), 0);
  assert.match(
    ctx.stdout(),
    /^Cliffhanger hooks for Stop were already in .*\nRemoved the cliffhanger handler for SubagentStop\n/,
  );
  const events = inspectSettingsText(await Deno.readTextFile(home.settings)).handlers.map((h) => h.event);
  assert.deepEqual(events, ["Stop"]);
  // back again, then the same as JSON
  assert.equal(await installCode(fakeContext(home.dir), [], { hookCommand: BINARY }), 0);
  const json = fakeContext(home.dir);
  assert.equal(await installCode(json, ["--no-subagent", "--json"], { hookCommand: BINARY }), 0);
  const body = JSON.parse(json.stdout());
  assert.deepEqual([body.events, body.removed], [["Stop"], ["SubagentStop"]]);
  // nothing removed: no such line, no such key
  const again = fakeContext(home.dir);
  assert.equal(await installCode(again, ["--no-subagent", "--json"], { hookCommand: BINARY }), 0);
  assert.equal(JSON.parse(again.stdout()).removed, undefined);
});

Deno.test("install while the cliffhanger plugin is enabled refuses (its hooks would run twice), naming how to turn it off", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await installPluginFixture(dirname(home.settings), { id: "cliffhanger@mkt", hooks: await ourPluginHooks() });
  const settings = `{\n  "enabledPlugins": { "cliffhanger@mkt": true }\n}\n`;
  await Deno.writeTextFile(home.settings, settings);
  for (const argv of [[], ["--dry-run"], ["--events", "pretool"]]) {
    const refused = fakeContext(home.dir);
    assert.equal(await installCode(refused, argv, { hookCommand: BINARY }), 1, argv.join(" "));
    assert.equal(refused.stderr().split("\n").length, 2, "one line");
    assert.match(refused.stderr(), /^cliffhanger-bin: the cliffhanger plugin cliffhanger@mkt is enabled \(in /);
    assert.match(refused.stderr(), /would run each twice\. Turn it off \(claude plugin disable cliffhanger@mkt\)/);
  }
  assert.equal(await Deno.readTextFile(home.settings), settings, "nothing written");
  // installed but not enabled: nothing runs twice
  await Deno.writeTextFile(home.settings, `{ "enabledPlugins": { "cliffhanger@mkt": false } }\n`);
  const off = fakeContext(home.dir);
  assert.equal(await installCode(off, [], { hookCommand: BINARY }), 0, off.stderr());
});

Deno.test("relayLostWarning(): a lost <project>/relay comes back with the variable; any other folder needs relayDir", () => {
  assert.equal(relayLostWarning([]), null);
  const own = relayLostWarning(["/w/app/relay"]) ?? "";
  assert.match(own, /install again with CLIFFHANGER_RELAY_DIR=\/w\/app\/relay set for that run/);
  assert.ok(!own.includes(OTHER_MAILBOX_ADVICE));
  const other = relayLostWarning(["/x/app/.mailbox"]) ?? "";
  assert.ok(other.endsWith(`; ${OTHER_MAILBOX_ADVICE}`), other);
});
