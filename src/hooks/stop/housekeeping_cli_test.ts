/**
 * Housekeeping through the real CLI, under the binary's permission flags: `hook stop` rotates log.jsonl past
 * logMaxBytes (and `stats` reads both generations), and prunes the state of idle sessions once a day. A stop whose
 * budget is spent leaving pruning to a later one is tested in process, with the budget's start injected
 * (housekeeping_test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agedFile, dirNames } from "../../testing/files.ts";
import { holdLock } from "../../testing/held_lock.ts";
import { readErrors, runCli, withTempHome } from "../../testing/run_cli.ts";

const withHome = (body: (home: string) => Promise<void>) => withTempHome(body);

function decisionLine(session: string, action: "allow" | "block"): string {
  return JSON.stringify({
    ts: new Date().toISOString(),
    session,
    event: "Stop",
    agent: null,
    action,
    observe: false,
    rule: action === "block" ? "offers-to-continue" : "no-open-items",
    open: [],
    match: action === "block" ? "Want me to continue?" : null,
    source: null,
    continuation: action === "block" ? 1 : 0,
    cwd: null,
  }) + "\n";
}

const aged = agedFile;
const names = dirNames;

Deno.test("hook stop (CLI): an append past logMaxBytes moves log.jsonl to log.jsonl.1; stats counts both", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    const log = join(root, "log.jsonl");
    await Deno.mkdir(root, { recursive: true });
    // 8 earlier sessions, 4 of them caught, 100 bytes under the cap: the next decision line does not fit
    let earlier = "";
    for (let i = 0; i < 8; i++) earlier += decisionLine(`old-${i}`, i % 2 === 0 ? "block" : "allow");
    await Deno.writeTextFile(log, earlier);
    const env = { CLIFFHANGER_LOG_MAX_BYTES: String(earlier.length + 100) };
    const stop = { hook_event_name: "Stop", session_id: "new", last_assistant_message: "Want me to continue?" };
    const run = await runCli(["hook", "stop"], { home, env, stdin: JSON.stringify(stop) });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /"decision":"block"/);
    assert.equal(await Deno.readTextFile(`${log}.1`), earlier, "the old generation, whole");
    const live = (await Deno.readTextFile(log)).split("\n").filter((l) => l !== "");
    assert.equal(live.length, 1);
    assert.equal(JSON.parse(live[0]!).session, "new");

    const stats = await runCli(["stats", "--json"], { home });
    assert.equal(stats.code, 0, stats.stderr);
    const s = JSON.parse(stats.stdout);
    assert.equal(s.sessions, 9, "8 sessions from log.jsonl.1 and 1 from log.jsonl");
    assert.equal(s.caught, 5);
    assert.equal(s.allowed, 4);
    assert.equal(await readErrors(home), "");
  }));

Deno.test("hook stop (CLI): idle sessions' state is pruned once a day; fresh and locked state stays; 0 switches it off", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    const state = join(root, "state");
    const locks = join(root, "locks");
    await Deno.mkdir(state, { recursive: true });
    await Deno.mkdir(locks, { recursive: true });
    for (const n of ["idle.json", "idle.prompt.json", "idle.loop.json", "idle.agent-a1.json", "busy.json"]) {
      await aged(join(state, n), 60);
    }
    await aged(join(state, "fresh.json"), 3);
    // a hook of session "busy" is running: it holds its lock (a lock file alone is one a killed hook left)
    const busy = await holdLock(join(locks, "busy.lock"));
    const stop = { hook_event_name: "Stop", session_id: "now", last_assistant_message: "Done: all tests pass." };
    try {
      const off = await runCli(["hook", "stop"], {
        home,
        env: { CLIFFHANGER_STATE_MAX_AGE_DAYS: "0" },
        stdin: JSON.stringify(stop),
      });
      assert.equal(off.code, 0, off.stderr);
      assert.ok(names(state).includes("idle.json"), "0: nothing pruned");
      assert.ok(!names(state).includes(".pruned"), "0: not even looked at");

      const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(stop) });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(names(state), [".pruned", "busy.json", "fresh.json", "now.json"]);
      assert.deepEqual(names(locks), ["busy.lock"]);
      assert.equal(await readErrors(home), "");
    } finally {
      busy.release();
    }

    await aged(join(state, "later.json"), 60);
    await runCli(["hook", "stop"], { home, stdin: JSON.stringify(stop) });
    assert.ok(names(state).includes("later.json"), "pruned at most once a day");
  }));

Deno.test("hook stop (CLI): a folder at log.jsonl.1 (rotation fails): errors.log says so, doctor fails log-rotation", () =>
  withHome(async (home) => {
    const root = join(home, ".cliffhanger");
    const log = join(root, "log.jsonl");
    await Deno.mkdir(join(root, "log.jsonl.1", "x"), { recursive: true });
    const earlier = decisionLine("old", "allow").repeat(4);
    await Deno.writeTextFile(log, earlier);
    const env = { CLIFFHANGER_LOG_MAX_BYTES: String(earlier.length) };
    const stop = { hook_event_name: "Stop", session_id: "new", last_assistant_message: "Want me to continue?" };
    const run = await runCli(["hook", "stop"], { home, env, stdin: JSON.stringify(stop) });
    assert.equal(run.code, 0, run.stderr);
    assert.ok((await Deno.stat(log)).size > earlier.length, "the line is appended all the same");
    const errors = await Deno.readTextFile(join(root, "errors.log"));
    assert.match(errors, /^\S+ log rotation: \S+log\.jsonl could not be rotated to \S+log\.jsonl\.1 \(.+\); it grows/);
    const doctor = await runCli(["doctor", "--json"], { home, env });
    const check = JSON.parse(doctor.stdout).checks.find((c: { id: string }) => c.id === "log-rotation");
    assert.equal(check?.status, "fail", JSON.stringify(check));
    assert.match(check.detail, /log\.jsonl\.1 is a folder/);
  }));
