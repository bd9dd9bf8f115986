/**
 * `wrap` black-box: main.ts under the binary's permission scopes, with the run scope scripts/scopes.ts derives
 * from `wrap -- CMD` (CMD and the kill helper), or none at all. Here `Deno.kill(-pgid)` is refused, so these
 * tests also show the kill helper doing its job inside the sandbox.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultRunHelpers } from "../permissions.ts";
import { readErrors, runCli, runCliBytes as runCliRaw, withTempHome } from "../testing/run_cli.ts";
import { binaryPayload, processGone, readPid, script } from "../wrap/testing.ts";

const withHome = (body: (home: string) => Promise<void>) => withTempHome(body, "cliffhanger-wrap-cli-");

/** runCli for bytes: stdout as it came. */
async function runCliBytes(
  args: string[],
  home: string,
  stdin: Uint8Array,
): Promise<{ code: number; stdout: Uint8Array; stderr: string }> {
  const out = await runCliRaw(args, { home, stdin });
  return { code: out.code, stdout: out.stdout, stderr: new TextDecoder().decode(out.stderr) };
}

async function health(home: string, name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "wrap", `${name}.json`)));
}

Deno.test("wrap under the scopes: stdin → command → stdout unchanged (binary, 3 MiB), exit 0", () =>
  withHome(async (home) => {
    const payload = binaryPayload(3 * 1024 * 1024);
    const run = await runCliBytes(["wrap", "--", "cat"], home, payload);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.equal(run.stdout.length, payload.length);
    assert.ok(run.stdout.every((b, i) => b === payload[i]), "stdout equals stdin byte for byte");
    const h = await health(home, "cat");
    assert.equal(h["runs"], 1);
    assert.equal(h["ok"], 1);
  }));

Deno.test("wrap under the scopes: hard passes on exit 2 with its stderr; advisory exits 0", () =>
  withHome(async (home) => {
    const gate = await script(
      home,
      "gate.sh",
      "#!/bin/sh\ncat >/dev/null\necho 'Blocked: run the tests first' >&2\nexit 2\n",
    );
    const hard = await runCli(["wrap", "--policy", "hard", "--name", "gate", "--", gate], { home, stdin: "{}" });
    assert.equal(hard.code, 2);
    assert.equal(hard.stderr, "Blocked: run the tests first\n");
    assert.equal(hard.stdout, "");
    const advisory = await runCli(["wrap", "--name", "gate", "--", gate], { home, stdin: "{}" });
    assert.equal(advisory.code, 0);
    assert.match(
      advisory.stderr,
      /^Blocked: run the tests first\ncliffhanger-bin: wrap gate: exit 2 under the advisory/,
    );
    const h = await health(home, "gate");
    assert.equal(h["blocks"], 2);
    assert.equal(h["lastExit"], 0);
  }));

Deno.test("wrap under the scopes: a timeout kills the grandchild too (with the kill helper) and fails open", () =>
  withHome(async (home) => {
    const pidFile = join(home, "grandchild.pid");
    const hook = await script(home, "hang.sh", `#!/bin/sh\nsleep 300 &\necho $! > '${pidFile}'\necho partial\nwait\n`);
    const started = Date.now();
    const run = await runCli(["wrap", "--policy", "hard", "--timeout", "1", "--", hook], { home });
    assert.equal(run.code, 0);
    assert.ok(Date.now() - started < 15_000);
    assert.equal(run.stdout, "partial\n", "what the command wrote before the limit was passed on");
    assert.match(
      run.stderr,
      /^cliffhanger-bin: wrap hang_sh: timed out after 1 s; process group killed with \/(usr\/)?bin\/kill \(failed open: exit 0\)\n$/,
    );
    const grandchild = await readPid(pidFile);
    assert.ok(await processGone(grandchild), `grandchild ${grandchild} is gone`);
    assert.match(await readErrors(home), /wrap hang_sh: timed out after 1 s; process group killed with/);
    assert.equal((await health(home, "hang_sh"))["timeouts"], 1);
  }));

Deno.test("wrap under the scopes: a missing command and a signal death fail open, counted as crashes", () =>
  withHome(async (home) => {
    const missing = await runCli(["wrap", "--policy", "hard", "--name", "c", "--", join(home, "nope.sh")], { home });
    assert.equal(missing.code, 0);
    assert.match(missing.stderr, /wrap c: could not start \(not-found\)/);
    const segv = await script(home, "segv.sh", "#!/bin/sh\nkill -SEGV $$\n");
    const killed = await runCli(["wrap", "--policy", "hard", "--name", "c", "--", segv], { home });
    assert.equal(killed.code, 0);
    assert.match(killed.stderr, /wrap c: killed by SIGSEGV/);
    const h = await health(home, "c");
    assert.equal(h["runs"], 2);
    assert.equal(h["crashes"], 2);
  }));

Deno.test("a command outside the run scope is not run: exit 0, one stderr line naming the scope and the fix, errors.log", () =>
  withHome(async (home) => {
    const marker = join(home, "ran");
    const hook = await script(home, "hook.sh", `#!/bin/sh\ntouch '${marker}'\nexit 2\n`);
    for (const runCommands of [[], ["/usr/bin/true"]]) {
      const run = await runCli(["wrap", "--policy", "hard", "--", hook], { home, runCommands });
      assert.equal(run.code, 0, `scope ${JSON.stringify(runCommands)}`);
      assert.equal(run.stdout, "");
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, run.stderr);
      assert.match(
        lines[0]!,
        /^cliffhanger-bin: wrap hook_sh: not run: ".*hook\.sh" is not in this process's run scope \(--allow-run\).*; if it exists \(this process may not look\), to allow it, build with: deno task compile --allow-run .*hook\.sh \(failed open: exit 0\)$/,
      );
    }
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "the command never ran");
    const errors = (await readErrors(home)).trim().split("\n");
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, /wrap hook_sh: not run: .* is not in this process's run scope/);
    const h = await health(home, "hook_sh");
    assert.equal(h["crashes"], 2);
    assert.equal(h["lastOutcome"], "not-allowed");
  }));

Deno.test("wrap usage mistakes fail open: exit 0, one line on stderr and in errors.log, nothing run", () =>
  withHome(async (home) => {
    const cases: [string[], RegExp][] = [
      [["wrap"], /missing "--" before the command/],
      [["wrap", "cat"], /missing "--" before the command/],
      [["wrap", "--"], /missing the command after "--"/],
      [["wrap", "stray", "--", "cat"], /unexpected argument "stray" before "--"/],
      [["wrap", "--timeout", "soon", "--", "cat"], /--timeout must be a number of seconds/],
      [["wrap", "--policy", "strict", "--", "cat"], /--policy must be advisory or hard/],
      [["wrap", "--polcy", "hard", "--", "cat"], /unknown flag "--polcy" \(did you mean "--policy"\?\)/],
    ];
    for (const [args, pattern] of cases) {
      const run = await runCli(args, { home, stdin: "x" });
      assert.equal(run.code, 0, args.join(" "));
      assert.equal(run.stdout, "");
      assert.match(run.stderr, pattern);
      assert.match(run.stderr, /nothing was run \(wrap fails open: exit 0\)\n$/);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    const logged = (await readErrors(home)).trim().split("\n");
    assert.equal(logged.length, cases.length);
    assert.match(logged[0]!, /Z wrap: usage mistake: missing "--" before the command .*; nothing was run$/);
    const help = await runCli(["wrap", "--help"], { home });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /usage: cliffhanger-bin wrap \[--policy advisory\|hard\]/);
    // after "--" everything belongs to the command, --help included
    const passthrough = await runCli(["wrap", "--", "printf", "%s\\n", "--help"], { home });
    assert.equal(passthrough.stdout, "--help\n");
  }));

Deno.test("status shows the wrap health counters and which commands run allows (text and --json)", () =>
  withHome(async (home) => {
    const hook = await script(home, "by-arg.sh", '#!/bin/sh\necho "said $1" >&2\nexit "$1"\n');
    for (const arg of ["0", "2", "3"]) {
      await runCli(["wrap", "--policy", "hard", "--name", "by-arg", "--", hook, arg], { home });
    }
    const none = await runCli(["status"], { home });
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^wrapped hooks \(.*\/\.cliffhanger\/wrap\):$/m);
    assert.match(
      none.stdout,
      /^ {2}by-arg: 3 runs: 1 ok, 1 block, 1 failure, 0 timeouts, 0 crashes, 0 interrupted; hard, 25 s$/m,
    );
    assert.match(none.stdout, /^ {4}last run .*: failure, exit code 3, wrap exited 0, \d+ ms$/m);
    assert.match(none.stdout, /^ {4}last error .*: exit 3: said 3$/m);
    assert.match(none.stdout, /^ {2}run {3}denied: none \(wrap can start no command; build with --allow-run CMD\)$/m);

    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.equal(json.permissions.run, "denied");
    assert.equal(json.permissions.runScope, "none");
    assert.equal(json.wrap.hooks.length, 1);
    const h = json.wrap.hooks[0];
    assert.deepEqual([h.name, h.runs, h.ok, h.blocks, h.failures, h.lastExitCode], ["by-arg", 3, 1, 1, 1, 3]);

    // a process built for this hook: only it (and the kill helper) may run
    const scoped = await runCli(["status", "--json"], { home, runCommands: [hook] });
    const s = JSON.parse(scoped.stdout);
    assert.equal(s.permissions.runScope, "some");
    assert.equal(s.permissions.runCommands[hook], "granted");
    assert.equal(s.permissions.killHelper, defaultRunHelpers()[0] ?? null);
    const text = await runCli(["status"], { home, runCommands: [hook] });
    assert.match(
      text.stdout,
      new RegExp(
        `^ {2}run {3}only the commands it was built for \\(--allow-run\\); of those wrap has run, allowed: ${hook}$`,
        "m",
      ),
    );
    assert.match(text.stdout, /^ {8}kill helper \/(usr\/)?bin\/kill: a timeout kills the whole process group$/m);
    const other = await runCli(["status"], { home, runCommands: ["/usr/bin/true"] });
    assert.match(other.stdout, new RegExp(`allowed: none; not allowed: ${hook}$`, "m"));
  }));

Deno.test("status with no wrapped hook says so", () =>
  withHome(async (home) => {
    const run = await runCli(["status"], { home });
    assert.match(run.stdout, /^wrapped hooks: none yet \(/m);
    assert.deepEqual(JSON.parse((await runCli(["status", "--json"], { home })).stdout).wrap.hooks, []);
  }));
