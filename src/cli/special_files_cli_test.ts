/**
 * The commands that read our files (`status`, `doctor`, `stats`, `replay`) answer when those files are FIFOs or links
 * to /dev/zero: they refuse the file and go on, instead of hanging or growing without bound. A generous deadline
 * only turns a hang into a failure; nothing is timed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, withTempHome } from "../testing/run_cli.ts";

const GENEROUS_MS = 60_000;

async function within<T>(what: string, body: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer: it hung`)), GENEROUS_MS);
  });
  try {
    return await Promise.race([body, hang]);
  } finally {
    clearTimeout(timer);
  }
}

for (const kind of ["fifo", "dev-zero"] as const) {
  Deno.test(`status, doctor, stats and replay answer with config.jsonc, log.jsonl and errors.log as ${kind}`, () =>
    withTempHome(async (home) => {
      const root = join(home, ".cliffhanger");
      await Deno.mkdir(root, { recursive: true });
      for (const name of ["config.jsonc", "log.jsonl", "errors.log"]) {
        const path = join(root, name);
        if (kind === "fifo") assert.ok((await new Deno.Command("mkfifo", { args: [path] }).output()).success);
        else await Deno.symlink("/dev/zero", path);
      }
      const transcript = join(home, ".claude", "projects", "t.jsonl");
      if (kind === "fifo") assert.ok((await new Deno.Command("mkfifo", { args: [transcript] }).output()).success);
      else await Deno.symlink("/dev/zero", transcript);
      for (const argv of [["status"], ["doctor"], ["stats", "--days", "1"], ["replay"]]) {
        const run = await within(argv.join(" "), runCli(argv, { home }));
        assert.ok([0, 1].includes(run.code), `${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
      }
      // a config that is there but refused is not "none", and the defaults it falls back to come in observe mode
      const status = await within("status", runCli(["status"], { home }));
      assert.match(
        status.stdout,
        /config: .*config\.jsonc \(not read; defaults, in observe mode\)\n {2}problem: .*; using the defaults, with the stop and pretool hooks in observe mode\n/,
      );
      // a bad environment value is a problem too, but not one of reading the file
      await Deno.remove(join(root, "config.jsonc"));
      const env = await within("status", runCli(["status"], { home, env: { CLIFFHANGER_MAX: "abc" } }));
      assert.match(env.stdout, /config: .*config\.jsonc \(none; defaults\)\n {2}problem: .*CLIFFHANGER_MAX/);
    }));
}

/** A home whose log.jsonl holds one decision: a stop blocked for an offer. */
async function oneBlockLogged(home: string): Promise<{ root: string; log: string }> {
  const root = join(home, ".cliffhanger");
  await Deno.mkdir(root, { recursive: true });
  const stop = { session_id: "s", hook_event_name: "Stop", last_assistant_message: "Want me to continue?" };
  assert.equal((await runCli(["hook", "stop"], { home, stdin: JSON.stringify(stop) })).code, 0);
  return { root, log: join(root, "log.jsonl") };
}

Deno.test("stats: a log line with no end in sight is one unreadable line; a log generation linked out of the home is refused", () =>
  withTempHome(async (home) => {
    const { root, log } = await oneBlockLogged(home);
    const line = (await Deno.readTextFile(log)).trim();
    // 600 MiB without a newline (sparse: longer than any string V8 can hold, so a reader that gathers whole lines
    // fails), then the good line
    await Deno.writeTextFile(log, "");
    await Deno.truncate(log, 600 * 1024 * 1024);
    await Deno.writeTextFile(log, `\n${line}\n`, { append: true });
    const run = await within("stats", runCli(["stats", "--json"], { home }));
    assert.equal(run.code, 0, run.stderr);
    const stats = JSON.parse(run.stdout);
    assert.equal(stats.skippedLines, 1);
    assert.equal(stats.caught, 1, run.stdout);

    const outside = join(home, "outside.jsonl");
    await Deno.writeTextFile(outside, `${line}\n`);
    await Deno.symlink(outside, join(root, "log.jsonl.1"));
    const linked = await runCli(["stats"], { home });
    assert.equal(linked.code, 1);
    assert.match(linked.stderr, /log file ".*log\.jsonl\.1" leads out of ".*\.cliffhanger"; refused/);
  }));

Deno.test("stats reads a log file once when log.jsonl.1 leads to log.jsonl inside the home (a link or a hard link)", () =>
  withTempHome(async (home) => {
    const { root, log } = await oneBlockLogged(home);
    for (
      const [kind, make] of [["link", () => Deno.symlink("log.jsonl", join(root, "log.jsonl.1"))], [
        "hard link",
        () => Deno.link(log, join(root, "log.jsonl.1")),
      ]] as const
    ) {
      await make();
      const run = await runCli(["stats", "--json"], { home });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).caught, 1, kind);
      await Deno.remove(join(root, "log.jsonl.1"));
    }
  }));
