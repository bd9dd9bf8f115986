import assert from "node:assert/strict";
import { envFrom } from "../src/env.ts";
import { CommaPathError, defaultRunHelpers, resolveRunCommand, scopeFlags } from "../src/permissions.ts";
import {
  cliArgs,
  handlerProgramsFromArgs,
  launcherFilesFromPrograms,
  runTargetsFromArgs,
  scopesFor,
  settingsTargetsFromArgs,
} from "./scopes.ts";
import { launcherText } from "../src/settings/launcher.ts";

Deno.test("settingsTargetsFromArgs() scopes only install/uninstall targets, resolved against the user's folder", () => {
  assert.deepEqual(settingsTargetsFromArgs(["install", "--settings", "rel.json"], "/home/u/proj"), [
    "/home/u/proj/rel.json",
  ]);
  assert.deepEqual(settingsTargetsFromArgs(["uninstall", "--project=."], "/home/u/proj"), [
    "/home/u/proj/.claude/settings.json",
  ]);
  assert.deepEqual(settingsTargetsFromArgs(["status", "--settings", "/etc/hosts"], "/"), []);
  assert.deepEqual(settingsTargetsFromArgs(["hook", "stop"], "/"), []);
});

Deno.test("runTargetsFromArgs() gives a wrap run exactly its CMD, resolved; other commands get no run scope", () => {
  const path = "/usr/bin:/bin";
  const sh = resolveRunCommand("sh", "/", path)!;
  assert.ok(sh === "/usr/bin/sh" || sh === "/bin/sh", sh);
  assert.deepEqual(runTargetsFromArgs(["wrap", "--", "sh", "-c", "x"], "/home/u", path), [sh]);
  assert.deepEqual(runTargetsFromArgs(["wrap", "--policy", "hard", "--", "./gate.sh"], "/home/u/proj", path), [
    "/home/u/proj/gate.sh",
  ]);
  assert.deepEqual(runTargetsFromArgs(["wrap", "--", "/abs/hook"], "/", path), ["/abs/hook"]);
  assert.deepEqual(runTargetsFromArgs(["wrap", "sh"], "/", path), [], "no -- : nothing runs, nothing allowed");
  assert.deepEqual(runTargetsFromArgs(["wrap", "--"], "/", path), []);
  assert.deepEqual(runTargetsFromArgs(["wrap", "--", "no-such-command-xyz"], "/", path), []);
  assert.deepEqual(runTargetsFromArgs(["status", "--", "sh"], "/", path), []);
  assert.deepEqual(runTargetsFromArgs(["hook", "stop"], "/", path), []);
});

Deno.test("scopesFor() runs wrap with --allow-run for CMD and the kill helper; everything else under --deny-run", () => {
  const env = envFrom({ HOME: "/home/u", PATH: "/usr/bin:/bin" });
  const wrap = scopeFlags(scopesFor(env, ["wrap", "--", "sh"], "/home/u"));
  const sh = resolveRunCommand("sh", "/", "/usr/bin:/bin")!;
  assert.ok(wrap.includes(`--allow-run=${[sh, ...defaultRunHelpers()].join(",")}`), wrap.join(" "));
  assert.ok(!wrap.includes("--deny-run"));
  assert.ok(scopeFlags(scopesFor(env, ["status"], "/home/u")).includes("--deny-run"));
  const overridden = scopeFlags(scopesFor(env, ["wrap", "--", "sh"], "/home/u", { runCommands: [] }));
  assert.ok(overridden.includes("--deny-run"), "tests can take the run scope away");
});

Deno.test("a path with a comma is refused with one clear error, not a Deno flag error at run time", () => {
  const env = envFrom({ HOME: "/home/a,b" });
  assert.throws(() => cliArgs(env, ["status"], "/home/a,b"), CommaPathError, "has a comma");
  try {
    cliArgs(env, ["status"], "/home/a,b");
  } catch (e) {
    assert.ok(e instanceof CommaPathError);
    assert.match(e.message, /^"\/home\/a,b[^"]*" has a comma, which Deno 2\.9\.6 cannot put in a permission scope/);
  }
  const relay = envFrom({ HOME: "/home/u", CLIFFHANGER_RELAY_DIR: "/srv/relay,1" });
  assert.throws(() => cliArgs(relay, ["status"], "/home/u"), CommaPathError);
});

Deno.test("handlerProgramsFromArgs() lets a checkout's doctor start exactly the programs its settings files name", async () => {
  const home = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${home}/.claude`);
    await Deno.mkdir(`${home}/proj/.claude`, { recursive: true });
    const handler = (command: string, args: string[]) => ({ hooks: [{ type: "command", command, args }] });
    await Deno.writeTextFile(
      `${home}/.claude/settings.json`,
      JSON.stringify({ hooks: { Stop: [handler("/opt/a/cliffhanger-bin", ["hook", "stop"])] } }),
    );
    await Deno.writeTextFile(
      `${home}/proj/.claude/settings.json`,
      JSON.stringify({
        hooks: {
          PreToolUse: [handler("/opt/b/cliffhanger-bin", ["hook", "pretool"])],
          // another tool's handler is not ours: not started
          Stop: [handler("/opt/other/notify.sh", [])],
        },
      }),
    );
    const env = envFrom({ HOME: home, PATH: "/usr/bin:/bin" });
    // the folder's own settings (a cloned repository's) are read, not started: only the user's
    assert.deepEqual(handlerProgramsFromArgs(["doctor"], `${home}/proj`, env), ["/opt/a/cliffhanger-bin"]);
    // named on the command line, they are
    assert.deepEqual(handlerProgramsFromArgs(["doctor", "--project", "."], `${home}/proj`, env), [
      "/opt/a/cliffhanger-bin",
      "/opt/b/cliffhanger-bin",
    ]);
    assert.deepEqual(handlerProgramsFromArgs(["status"], `${home}/proj`, env), [], "only doctor starts handlers");
    // user settings that are a FIFO are not opened (the read would wait for a writer, and doctor would never start):
    // doctor itself says what is wrong with them
    await Deno.remove(`${home}/.claude/settings.json`);
    assert.ok((await new Deno.Command("mkfifo", { args: [`${home}/.claude/settings.json`] }).output()).success);
    assert.deepEqual(handlerProgramsFromArgs(["doctor"], `${home}/proj`, env), []);
    await Deno.remove(`${home}/.claude/settings.json`);
    await Deno.writeTextFile(
      `${home}/.claude/settings.json`,
      JSON.stringify({ hooks: { Stop: [handler("/opt/a/cliffhanger-bin", ["hook", "stop"])] } }),
    );
    const flags = scopeFlags(scopesFor(env, ["doctor", "--project", "."], `${home}/proj`));
    assert.ok(
      flags.some((f) => f.startsWith("--allow-run=/opt/a/cliffhanger-bin,/opt/b/cliffhanger-bin")),
      flags.join(" "),
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("launcherFilesFromPrograms() lets a checkout's doctor look at what a launcher runs, and nothing else's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/bin`);
    const launcher = `${dir}/bin/cliffhanger-bin`;
    await Deno.writeTextFile(
      launcher,
      launcherText(["/d/deno", "run", "--config=/c/deno.json", "--allow-read=/a", "/c/main.ts"], {
        home: `${dir}/home`,
        path: launcher,
      }),
    );
    assert.deepEqual(launcherFilesFromPrograms([launcher]), ["/d/deno", "/c/main.ts", "/c/deno.json"]);
    // a compiled binary of that name, a program of another name, a missing file: nothing
    await Deno.writeTextFile(launcher, "\x7fELF binary");
    await Deno.writeTextFile(
      `${dir}/other`,
      launcherText(["/d/deno", "run", "/c/main.ts"], { home: dir, path: `${dir}/other` }),
    );
    assert.deepEqual(launcherFilesFromPrograms([launcher, `${dir}/other`, `${dir}/bin/gone/cliffhanger-bin`]), []);
    // a FIFO of that name is not opened (the open would wait for a writer forever)
    await Deno.remove(launcher);
    assert.ok((await new Deno.Command("mkfifo", { args: [launcher] }).output()).success);
    assert.deepEqual(launcherFilesFromPrograms([launcher]), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
