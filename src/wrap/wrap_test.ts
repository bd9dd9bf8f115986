/**
 * wrap with real child processes, in this process (the test runs with --allow-all, so `Deno.kill(-pgid)` is
 * allowed; the kill-helper path is forced with `kill.denoKill: false`, and the CLI tests cover the sandbox).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { KILL_HELPER_CANDIDATES } from "../permissions.ts";
import { readRecord } from "./health.ts";
import type { WrapRequest } from "./options.ts";
import { binaryPayload, collector, processGone, readPid, script } from "./testing.ts";
import { notAllowedFix, wrap, type WrapDeps } from "./wrap.ts";

interface Fixture {
  dir: string;
  root: string;
  deps(
    extra?: Partial<WrapDeps>,
  ): WrapDeps & { out: ReturnType<typeof collector>; err: ReturnType<typeof collector>; notices: string[] };
  errors(): Promise<string>;
}

async function withFixture(body: (f: Fixture) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-wrap-" });
  const root = join(dir, "home");
  try {
    await body({
      dir,
      root,
      deps: (extra = {}) => {
        const out = collector();
        const err = collector();
        const notices: string[] = [];
        return {
          paths: { root, locks: join(root, "locks"), errors: join(root, "errors.log") },
          stdin: "null",
          stdout: out.sink,
          stderr: err.sink,
          notice: (line) => notices.push(line),
          now: () => new Date("2026-11-30T12:00:00Z"),
          ...extra,
          out,
          err,
          notices,
        };
      },
      errors: async () => {
        try {
          return await Deno.readTextFile(join(root, "errors.log"));
        } catch {
          return "";
        }
      },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function request(command: string, args: string[] = [], extra: Partial<WrapRequest> = {}): WrapRequest {
  return { policy: "advisory", timeoutMs: 10_000, name: "t", command, args, ...extra };
}

Deno.test("wrap passes stdin to the command and its stdout back byte for byte (binary, 4 MiB)", () =>
  withFixture(async (f) => {
    const payload = binaryPayload(4 * 1024 * 1024);
    const deps = f.deps({ stdin: payload });
    const result = await wrap(request("cat"), deps);
    assert.equal(result.exit, 0);
    assert.equal(result.verdict.outcome, "ok");
    const out = deps.out.bytes();
    assert.equal(out.length, payload.length);
    assert.ok(out.every((b, i) => b === payload[i]), "stdout equals stdin");
    assert.equal(deps.notices.length, 0);
    assert.equal(await f.errors(), "");
  }));

Deno.test("wrap streams output as it comes, before the command ends", () =>
  withFixture(async (f) => {
    // the command prints its second part only once the first has reached our stdout (or "late" after 60 s)
    const go = join(f.dir, "go");
    const hook = await script(
      f.dir,
      "slow.sh",
      `#!/bin/sh\nprintf first\ni=0\nwhile [ ! -e '${go}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n` +
        `[ -e '${go}' ] && printf second || printf late\n`,
    );
    const chunks: string[] = [];
    const deps = f.deps({
      stdout: async (chunk) => {
        if (chunks.length === 0) await Deno.writeTextFile(go, "");
        chunks.push(new TextDecoder().decode(chunk));
      },
    });
    const result = await wrap(request(hook), deps);
    assert.equal(result.exit, 0);
    assert.equal(chunks.join(""), "firstsecond", "the first chunk was passed on while the command still ran");
  }));

Deno.test("exit codes per policy: hard passes on exit 2 with its stderr, advisory turns it into 0", () =>
  withFixture(async (f) => {
    const hook = await script(f.dir, "gate.sh", "#!/bin/sh\necho 'denied: use the other tool' >&2\nexit 2\n");
    const hard = f.deps();
    const blocked = await wrap(request(hook, [], { policy: "hard" }), hard);
    assert.equal(blocked.exit, 2);
    assert.equal(blocked.verdict.outcome, "block");
    assert.equal(hard.err.text(), "denied: use the other tool\n", "stderr passed on unchanged");
    assert.deepEqual(hard.notices, [], "nothing of our own on stderr for a deliberate block");

    const advisory = f.deps();
    const swallowed = await wrap(request(hook), advisory);
    assert.equal(swallowed.exit, 0);
    assert.equal(swallowed.verdict.outcome, "block");
    assert.match(advisory.notices[0]!, /exit 2 under the advisory policy.*failed open: exit 0/);
    assert.match(await f.errors(), /wrap t: exit 2 under the advisory policy.*denied: use the other tool/);

    for (const policy of ["advisory", "hard"] as const) {
      const other = await script(f.dir, "fail.sh", "#!/bin/sh\necho boom >&2\nexit 3\n");
      const result = await wrap(request(other, [], { policy }), f.deps());
      assert.equal(result.exit, 0, `${policy}: exit 3 fails open`);
      assert.equal(result.verdict.outcome, "failure");
      assert.equal(result.verdict.error, "exit 3: boom");
    }
    const ok = await wrap(request("true", [], { policy: "hard" }), f.deps());
    assert.equal(ok.exit, 0);
    assert.equal(ok.verdict.outcome, "ok");
  }));

for (const via of ["Deno.kill", "the kill helper"] as const) {
  Deno.test(`a timeout kills the whole process group, grandchild included (${via})`, () =>
    withFixture(async (f) => {
      const pidFile = join(f.dir, "grandchild.pid");
      const hook = await script(
        f.dir,
        "hang.sh",
        `#!/bin/sh\nsleep 300 &\necho $! > '${pidFile}'\necho started\nwait\n`,
      );
      const deps = f.deps(via === "Deno.kill" ? {} : { kill: { denoKill: false } });
      const started = Date.now();
      const result = await wrap(request(hook, [], { timeoutMs: 700, policy: "hard" }), deps);
      const grandchild = await readPid(pidFile);
      assert.equal(result.exit, 0, "a timeout fails open, even under hard");
      assert.equal(result.verdict.outcome, "timeout");
      // a guard, not a timing: without the kill the grandchild's `sleep 300` would hold the wait open
      assert.ok(Date.now() - started < 60_000, "returned long before the grandchild's sleep ends");
      assert.equal(deps.out.text(), "started\n");
      assert.match(
        result.verdict.error!,
        via === "Deno.kill"
          ? /timed out after 0.7 s; process group killed$/
          : /process group killed with \/(usr\/)?bin\/kill/,
      );
      assert.ok(await processGone(grandchild), `grandchild ${grandchild} is gone`);
      assert.match(await f.errors(), /wrap t: timed out after 0.7 s/);
      const health = await readRecord(join(f.root, "wrap", "t.json"));
      assert.equal(health?.timeouts, 1);
      assert.equal(health?.lastOutcome, "timeout");
    }));
}

Deno.test("without a way to kill the group only the command dies, and the report says so (the known limit)", () =>
  withFixture(async (f) => {
    const pidFile = join(f.dir, "grandchild.pid");
    // the grandchild does not hold our pipes, so wrap returns right after killing the command
    const hook = await script(
      f.dir,
      "hang.sh",
      `#!/bin/sh\nsleep 300 >/dev/null 2>&1 &\necho $! > '${pidFile}'\nwait\n`,
    );
    const result = await wrap(
      request(hook, [], { timeoutMs: 500 }),
      f.deps({ kill: { denoKill: false, helpers: [] }, graceMs: 500 }),
    );
    const grandchild = await readPid(pidFile);
    try {
      assert.equal(result.exit, 0);
      assert.match(result.verdict.error!, /only the command itself was killed, processes it started may survive/);
      assert.equal(await processGone(grandchild, 300), false, "the grandchild survived");
    } finally {
      Deno.kill(grandchild, "SIGKILL");
    }
    assert.ok(await processGone(grandchild));
  }));

Deno.test("a background process holding stdout after the command exits is killed at the limit; the exit still decides", () =>
  withFixture(async (f) => {
    const pidFile = join(f.dir, "grandchild.pid");
    const hook = await script(
      f.dir,
      "leaves.sh",
      `#!/bin/sh\nsleep 300 &\necho $! > '${pidFile}'\necho 'nope' >&2\nexit 2\n`,
    );
    const deps = f.deps();
    const result = await wrap(request(hook, [], { timeoutMs: 800, policy: "hard" }), deps);
    assert.equal(result.exit, 2, "the command's deliberate exit 2 is still passed on");
    assert.equal(deps.err.text(), "nope\n");
    assert.match(result.verdict.error!, /still held its output at the 0.8 s limit and was killed/);
    assert.ok(await processGone(await readPid(pidFile)));
  }));

Deno.test("crashes fail open with the counters updated: a missing command, one that is not executable, a signal", () =>
  withFixture(async (f) => {
    const missing = await wrap(request(join(f.dir, "no-such-hook"), [], { policy: "hard" }), f.deps());
    assert.equal(missing.exit, 0);
    assert.equal(missing.verdict.outcome, "crash");
    assert.match(missing.verdict.error!, /could not start \(not-found\)/);

    const plain = join(f.dir, "not-executable.sh");
    await Deno.writeTextFile(plain, "#!/bin/sh\nexit 0\n");
    const denied = await wrap(request(plain, [], { policy: "hard" }), f.deps());
    assert.equal(denied.exit, 0);
    assert.match(denied.verdict.error!, /could not start \(not-executable\)/);

    const segv = await script(f.dir, "segv.sh", "#!/bin/sh\necho 'about to die' >&2\nkill -SEGV $$\n");
    const killed = await wrap(request(segv, [], { policy: "hard" }), f.deps());
    assert.equal(killed.exit, 0);
    assert.equal(killed.verdict.outcome, "crash");
    assert.equal(killed.verdict.signal, "SIGSEGV");
    assert.equal(killed.verdict.error, "killed by SIGSEGV: about to die");

    const health = await readRecord(join(f.root, "wrap", "t.json"));
    assert.equal(health?.runs, 3);
    assert.equal(health?.crashes, 3);
    assert.equal(health?.lastSignal, "SIGSEGV");
    assert.equal(health?.lastExit, 0);
    assert.equal((await f.errors()).trim().split("\n").length, 3);
  }));

Deno.test("wrap told to stop (Claude Code gave up on it) kills the group at once and fails open", () =>
  withFixture(async (f) => {
    const pidFile = join(f.dir, "grandchild.pid");
    const hook = await script(f.dir, "hang.sh", `#!/bin/sh\nsleep 300 &\necho $! > '${pidFile}'\nwait\n`);
    const controller = new AbortController();
    const pending = wrap(request(hook, [], { timeoutMs: 60_000 }), f.deps({ signal: controller.signal }));
    const grandchild = await readPid(pidFile);
    controller.abort();
    const result = await pending;
    assert.equal(result.exit, 0);
    assert.equal(result.verdict.outcome, "interrupted");
    assert.ok(await processGone(grandchild));
    assert.equal(result.health?.interrupted, 1);
  }));

Deno.test("a closed stdout on our side does not stop the command or change the outcome", () =>
  withFixture(async (f) => {
    const deps = f.deps({ stdin: binaryPayload(256 * 1024), stdout: () => Promise.reject(new Error("broken pipe")) });
    const result = await wrap(request("cat"), deps);
    assert.equal(result.exit, 0);
    assert.equal(result.verdict.outcome, "ok");
  }));

Deno.test("health counters after several runs", () =>
  withFixture(async (f) => {
    const hook = await script(
      f.dir,
      "by-arg.sh",
      '#!/bin/sh\n[ "$1" = sleep ] && sleep 5\necho "said $1" >&2\nexit "$1"\n',
    );
    const at = (s: number) => () => new Date(Date.UTC(2026, 10, 30, 12, 0, s));
    const name = { name: "by-arg" };
    for (const [i, arg] of ["0", "0", "2", "1", "sleep", "2"].entries()) {
      await wrap(request(hook, [arg], { ...name, policy: "hard", timeoutMs: 600 }), f.deps({ now: at(i) }));
    }
    const health = await readRecord(join(f.root, "wrap", "by-arg.json"));
    assert.deepEqual(
      {
        runs: health?.runs,
        ok: health?.ok,
        blocks: health?.blocks,
        failures: health?.failures,
        timeouts: health?.timeouts,
        crashes: health?.crashes,
      },
      { runs: 6, ok: 2, blocks: 2, failures: 1, timeouts: 1, crashes: 0 },
    );
    assert.equal(health?.lastOutcome, "block");
    assert.equal(health?.lastExit, 2);
    assert.equal(health?.lastExitCode, 2);
    assert.equal(health?.lastRunAt, "2026-11-30T12:00:05.000Z");
    assert.equal(health?.firstRunAt, "2026-11-30T12:00:00.000Z");
    assert.match(health?.lastError ?? "", /^timed out after 0.6 s/, "the last error is kept after a clean block");
    assert.equal(health?.lastErrorAt, "2026-11-30T12:00:04.000Z");
    assert.deepEqual(health?.command, [hook, "2"]);
    assert.equal(health?.policy, "hard");
    assert.equal(health?.timeoutS, 0.6);
  }));

Deno.test("the kill helper candidates are absolute paths", () => {
  for (const helper of KILL_HELPER_CANDIDATES) assert.ok(helper.startsWith("/"), helper);
});

Deno.test("wrap's own line starts a line of its own after a stderr that ended mid-line", () =>
  withFixture(async (f) => {
    const partial = f.deps();
    const result = await wrap(request("sh", ["-c", 'printf "partial" >&2; exit 1']), partial);
    assert.equal(result.exit, 0);
    assert.equal(new TextDecoder().decode(partial.err.bytes()), "partial");
    assert.equal(partial.notices.length, 1);
    assert.match(partial.notices[0]!, /^\ncliffhanger-bin: wrap t: /);
    // a stderr that ended with its newline: no blank line
    const whole = f.deps();
    await wrap(request("sh", ["-c", 'printf "whole\\n" >&2; exit 1']), whole);
    assert.match(whole.notices[0]!, /^cliffhanger-bin: wrap t: /);
  }));

Deno.test("notAllowedFix(): a build for a name or a path that is there; none for a path that does not exist", () => {
  assert.equal(
    notAllowedFix("python3"),
    "to allow it, build with: deno task compile --allow-run python3 (the build resolves it on PATH, and stops if it " +
      "is not there)",
  );
  assert.equal(
    notAllowedFix("/bin/sh", () => "there"),
    "to allow it, build with: deno task compile --allow-run /bin/sh",
  );
  const missing = notAllowedFix("/nonexistent/x", () => "missing");
  assert.equal(missing, '"/nonexistent/x" does not exist: fix the path in the hook command');
  assert.doesNotMatch(missing, /build/);
  // outside the read scope whether it is there is unknown: the build, on that condition
  assert.match(
    notAllowedFix("/opt/x", () => "unknown"),
    /^if it exists \(this process may not look\), to allow it, build with: /,
  );
  // the real look: a path that is not there
  assert.equal(notAllowedFix(`/nonexistent-${crypto.randomUUID()}/x`).includes("does not exist"), true);
});
