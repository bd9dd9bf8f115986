/**
 * `wrap` and `status` under the binary's permission scopes with the health file planted as a FIFO, a link to
 * /dev/zero or an oversized file: wrap runs the command, answers with its exit code and says what it refused;
 * status lists the file as a problem. A generous deadline only turns a hang into a failure; nothing is timed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readErrors, runCli, withTempHome } from "../testing/run_cli.ts";

const GENEROUS_MS = 60_000;

async function answers<T>(what: string, body: Promise<T>): Promise<T> {
  const done = new AbortController();
  const hang = new Promise<never>((_, reject) => {
    AbortSignal.any([done.signal, AbortSignal.timeout(GENEROUS_MS)]).addEventListener("abort", () => {
      if (!done.signal.aborted) reject(new Error(`${what} did not answer: it hung`));
    });
  });
  try {
    return await Promise.race([body, hang]);
  } finally {
    done.abort();
  }
}

for (const kind of ["fifo", "dev-zero", "oversized"] as const) {
  Deno.test(`wrap and status answer with the health file as ${kind}, and say what they refused`, () =>
    withTempHome(async (home) => {
      const file = join(home, ".cliffhanger", "wrap", "x.json");
      await Deno.mkdir(join(file, ".."), { recursive: true });
      if (kind === "fifo") assert.ok((await new Deno.Command("mkfifo", { args: [file] }).output()).success);
      else if (kind === "dev-zero") await Deno.symlink("/dev/zero", file);
      else await Deno.writeTextFile(file, " ".repeat(1024 * 1024));
      const refusal = {
        "fifo": /x\.json" is not a regular file; not read/,
        "dev-zero": /x\.json" leads out of ".*wrap"; refused/,
        "oversized": /x\.json" is 1048576 bytes, over the 65536-byte limit; not read/,
      }[kind];

      const run = await answers("wrap", runCli(["wrap", "--policy", "hard", "--name", "x", "--", "false"], { home }));
      assert.equal(run.code, 0, "exit 1 of the command fails open as ever");
      assert.match(run.stderr, /^cliffhanger-bin: wrap x: exit 1 \(failed open: exit 0\)$/m);
      assert.match(run.stderr, refusal);
      assert.match(await readErrors(home), refusal);
      if (kind === "oversized") {
        const record = JSON.parse(await Deno.readTextFile(file));
        assert.deepEqual([record.runs, record.failures], [1, 1], "a fresh record replaced the oversized file");
      }

      const status = await answers("status", runCli(["status", "--json"], { home }));
      assert.equal(status.code, 0, status.stderr);
      const wrap = JSON.parse(status.stdout).wrap;
      if (kind === "oversized") assert.equal(wrap.hooks[0]?.runs, 1);
      else assert.match(wrap.problems.join("\n"), refusal);
    }, "cliffhanger-wrap-health-cli-"));
}

Deno.test("32 runs of one wrapped hook at once count 32: none gives up on the health lock", () =>
  withTempHome(async (home) => {
    const runs = await answers(
      "wrap",
      Promise.all(Array.from({ length: 32 }, () => runCli(["wrap", "--name", "t", "--", "true"], { home }))),
    );
    assert.deepEqual(runs.map((r) => r.code), Array(32).fill(0));
    const record = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "wrap", "t.json")));
    assert.equal(record.runs, 32);
    assert.equal(record.ok, 32);
    assert.doesNotMatch(await readErrors(home), /LockTimeout/);
  }));
