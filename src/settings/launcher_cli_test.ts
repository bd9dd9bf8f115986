/**
 * The launcher script itself, black-box: run as Claude Code runs a handler, it checks the files it runs before it
 * execs deno. A bundle or checkout that moved is one line, and a hook still fails open (exit 0, nothing on stdout).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { launcherText } from "./launcher.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Writes a launcher for `words` into `<dir>/home/bin` and returns a runner for it. */
async function launcherIn(dir: string, words: string[]): Promise<{ path: string; home: string; run: Runner }> {
  const home = join(dir, "home");
  const path = join(home, "bin", "cliffhanger-bin");
  await Deno.mkdir(join(home, "bin"), { recursive: true });
  await Deno.writeTextFile(path, launcherText(words, { home, path }), { mode: 0o755 });
  const run: Runner = async (args, stdin = "", env = {}) => {
    const child = new Deno.Command(path, {
      args,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      // a launcher that opened a FIFO would never end: the test fails instead of hanging
      signal: AbortSignal.timeout(20_000),
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin)).catch(() => {});
    await writer.close().catch(() => {});
    const out = await child.output();
    const text = new TextDecoder();
    return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
  };
  return { path, home, run };
}

type Runner = (args: string[], stdin?: string, env?: Record<string, string>) => Promise<Run>;

const STOP = JSON.stringify({ hook_event_name: "Stop", session_id: "moved", last_assistant_message: "Want more?" });

Deno.test("a launcher whose bundle moved: a hook allows with one line (and one in errors.log), a command exits 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-launcher-" });
  try {
    const gone = join(dir, "b2", "main.js");
    const words = [Deno.execPath(), "run", "--quiet", "--no-config", `--allow-read=${dir}/b2`, gone];
    const { path, home, run } = await launcherIn(dir, words);
    const hook = await run(["hook", "stop"], STOP);
    assert.equal(hook.code, 0, "a hook fails open: any other code is a hook error, 2 would block");
    assert.equal(hook.stdout, "", "nothing on stdout: Claude Code reads it as the hook's answer");
    assert.equal(
      hook.stderr,
      `cliffhanger-bin: the launcher ${path} runs ${gone}, which does not exist or is not a file (the bundle was ` +
        "moved or deleted): every hook fails open until you run install again from the bundle where it is now, or " +
        "install the compiled binary (deno task compile) (the hook allows and exits 0)\n",
    );
    assert.doesNotMatch(hook.stderr, /Module not found|backtrace/);
    const log = await Deno.readTextFile(join(home, "errors.log"));
    assert.equal(log.split("\n").length, 2, log);
    assert.match(
      log,
      new RegExp(`^\\S+ hook stop: the launcher ${path} runs ${gone}, which does not exist.*; allowed\n$`),
    );
    assert.ok(Number.isFinite(Date.parse(log.slice(0, 24))), `doctor reads the time as errors.log's: ${log}`);
    assert.equal((await Deno.stat(join(home, "errors.log"))).mode! & 0o777, 0o600, "0600 whatever the umask");

    for (const args of [["doctor"], ["--version"], ["relay", "send", "x"]]) {
      const command = await run(args);
      assert.equal(command.code, 1, args.join(" "));
      assert.equal(command.stdout, "");
      assert.match(command.stderr, /^cliffhanger-bin: the launcher .* runs .*main\.js, which does not exist[^\n]*\n$/);
    }
    assert.equal(await Deno.readTextFile(join(home, "errors.log")), log, "only a hook writes errors.log");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a launcher whose bundle moved logs nothing with CLIFFHANGER_DISABLE on, and still allows", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-launcher-" });
  try {
    const gone = join(dir, "b2", "main.js");
    const { home, run } = await launcherIn(dir, [Deno.execPath(), "run", "--quiet", "--no-config", gone]);
    for (const value of ["1", "TRUE", " yes ", "on"]) {
      const hook = await run(["hook", "stop"], STOP, { CLIFFHANGER_DISABLE: value });
      assert.deepEqual([hook.code, hook.stdout], [0, ""], value);
    }
    assert.equal(await Deno.stat(join(home, "errors.log")).catch(() => null), null, "nothing logged");
    await run(["hook", "stop"], STOP, { CLIFFHANGER_DISABLE: "0" });
    assert.ok(await Deno.stat(join(home, "errors.log")), "off: the line is written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a launcher whose checkout or deno is gone names that file and the fix for it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-launcher-" });
  try {
    await Deno.mkdir(join(dir, "c"));
    await Deno.writeTextFile(join(dir, "c", "main.ts"), "");
    const checkout = await launcherIn(dir, [Deno.execPath(), "run", `--config=${dir}/c/deno.json`, `${dir}/c/main.ts`]);
    const noConfig = await checkout.run(["hook", "stop"], STOP);
    assert.equal(noConfig.code, 0);
    assert.match(
      noConfig.stderr,
      new RegExp(
        `runs deno with ${dir}/c/deno\\.json, which does not exist or is not a file \\(the checkout was moved`,
      ),
    );
    assert.match(noConfig.stderr, /run `deno task cli install` again in the checkout where it is now/);
    const noDeno = await launcherIn(join(dir, "c"), [join(dir, "npx", "deno"), "run", join(dir, "b", "main.js")]);
    const status = await noDeno.run(["status"]);
    assert.equal(status.code, 1);
    assert.match(status.stderr, /runs the deno .*\/npx\/deno, which does not exist or is not a file \(npx may have/);
    assert.equal(status.stderr.split("\n").length, 2, "one line: the first file that is gone");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a launcher's hook writes errors.log only where that is safe: never through a link, into a FIFO, past the cap", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-launcher-" });
  try {
    const { home, run } = await launcherIn(dir, [Deno.execPath(), "run", join(dir, "gone", "main.js")]);
    const errors = join(home, "errors.log");
    // a link: the file it points at is not written
    const target = join(dir, "elsewhere.txt");
    await Deno.writeTextFile(target, "");
    await Deno.symlink(target, errors);
    assert.equal((await run(["hook", "stop"], STOP)).code, 0);
    assert.equal(await Deno.readTextFile(target), "");
    // a FIFO: opening it would wait for a reader forever
    await Deno.remove(errors);
    await new Deno.Command("mkfifo", { args: [errors] }).output();
    const fifo = await run(["hook", "pretool"], "{}");
    assert.equal(fifo.code, 0);
    assert.match(fifo.stderr, /\(the hook allows and exits 0\)\n$/);
    // at its cap (the program would rotate it first): left as it is
    await Deno.remove(errors);
    const full = "x".repeat(1024 * 1024 - 1) + "\n";
    await Deno.writeTextFile(errors, full);
    assert.equal((await run(["hook", "prompt"], "{}")).code, 0);
    assert.equal((await Deno.stat(errors)).size, full.length);
    // under the cap: one line, with the hook named only when it is one of ours
    await Deno.writeTextFile(errors, "");
    assert.equal((await run(["hook", "Stop\u001b[31m"], "{}")).code, 0);
    assert.match(await Deno.readTextFile(errors), /^\S+ hook: the launcher /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a launcher whose files are there execs its program with CLIFFHANGER_HOME and CLIFFHANGER_LAUNCHER set", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-launcher-" });
  try {
    const program = join(dir, "b", "main.js");
    await Deno.mkdir(join(dir, "b"));
    await Deno.writeTextFile(
      program,
      'console.log(JSON.stringify([Deno.env.get("CLIFFHANGER_HOME"), Deno.env.get("CLIFFHANGER_LAUNCHER"), Deno.args]));\n',
    );
    const words = [Deno.execPath(), "run", "--quiet", "--no-config", "--allow-env=CLIFFHANGER_*", program];
    const { path, home, run } = await launcherIn(dir, words);
    const out = await run(["hook", "stop"], STOP);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), [home, path, ["hook", "stop"]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
