/** Parallel `hook stop` processes on one session: same answers, no lost update, no torn state file. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliRun, readErrors, readLog, runCli, tempHome } from "../../testing/run_cli.ts";
import { holdLockInChild } from "../../testing/held_lock.ts";

Deno.test("hook stop registered twice: parallel calls for one stop, within the dedupe window, give one answer and one log line", async () => {
  const home = await tempHome();
  try {
    // without a transcript a copy is one that started before the first copy finished, plus dedupeWindowMs: on a
    // loaded machine the OS may start a copy later than that, so the slack is set to its largest value (the test is
    // about the answer and the count under the session lock, not about how fast processes start; the window's own
    // rule, "started before the first copy finished", is tested on the step in turn_test.ts)
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "dedupeWindowMs": 60000 }\n');
    const payload = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "dup",
      prompt_id: "p1",
      stop_hook_active: false,
      last_assistant_message: "Two of five done. Want me to continue with the rest?",
    });
    const runs = await Promise.all([1, 2, 3].map(() => runCli(["hook", "stop"], { home, stdin: payload })));
    const outputs = new Set(runs.map((r) => r.stdout));
    assert.equal(outputs.size, 1, "every registration printed the same answer");
    assert.equal(JSON.parse(runs[0]!.stdout).decision, "block");
    const log = await readLog(home);
    assert.equal(log.length, 1, "the stop is counted once");
    const state = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", "dup.json")));
    assert.equal(state.turn.blocks, 1);
    assert.equal(await readErrors(home), "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook stop: parallel Stop and SubagentStop of one session each keep their own count", async () => {
  const home = await tempHome();
  try {
    const stop = {
      hook_event_name: "Stop",
      session_id: "s",
      prompt_id: "p",
      last_assistant_message: "Want me to continue?",
    };
    const sub = {
      ...stop,
      hook_event_name: "SubagentStop",
      agent_id: "a1",
      agent_type: "Explore",
      last_assistant_message: "Should I keep going?",
    };
    const payloads = [stop, sub, {
      ...stop,
      stop_hook_active: true,
      last_assistant_message: "Want me to continue? (2)",
    }];
    await Promise.all(payloads.map((p) => runCli(["hook", "stop"], { home, stdin: JSON.stringify(p) })));
    const log = await readLog(home);
    assert.equal(log.length, 3);
    const main = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", "s.json")));
    const agent = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", "s.agent-a1.json")));
    assert.equal(main.turn.blocks, 2, "no lost update between the two main-session calls");
    assert.equal(agent.turn.blocks, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook stop: a corrupt state file is reported in errors.log and reset", async () => {
  const home = await tempHome();
  try {
    await Deno.mkdir(join(home, ".cliffhanger", "state"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "state", "bad.json"), '{"v":1,"turn":');
    const run = await runCli(["hook", "stop"], {
      home,
      stdin: JSON.stringify({
        hook_event_name: "Stop",
        session_id: "bad",
        last_assistant_message: "Want me to continue?",
      }),
    });
    assert.equal(JSON.parse(run.stdout).decision, "block");
    assert.match(await readErrors(home), /Corrupt state file .*bad\.json.*reset/);
    const state = JSON.parse(await Deno.readTextFile(join(home, ".cliffhanger", "state", "bad.json")));
    assert.equal(state.v, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook stop: the lock of a process killed while it held it does not stop the hook, however new its file", async () => {
  const home = await tempHome();
  try {
    const lock = join(home, ".cliffhanger", "locks", "stale.lock");
    await Deno.mkdir(join(home, ".cliffhanger", "locks"), { recursive: true });
    // held by a process that is then killed: its lock file, made just now, stays; the kernel's lock goes with it
    const holder = await holdLockInChild(lock);
    await holder.kill();
    const run = await runCli(["hook", "stop"], {
      home,
      stdin: JSON.stringify({
        hook_event_name: "Stop",
        session_id: "stale",
        last_assistant_message: "Want me to continue?",
      }),
    });
    assert.equal(JSON.parse(run.stdout).decision, "block");
    assert.equal((await readLog(home)).length, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook stop: a run past CLIFFHANGER_BUDGET_MS allows and is written to errors.log", async () => {
  const home = await tempHome();
  try {
    const transcript = join(home, ".claude", "projects", "t.jsonl");
    await Deno.writeTextFile(transcript, '{"type":"user","message":{"role":"user","content":"do it"}}\n');
    const run = await runCli(["hook", "stop"], {
      home,
      // the final message never reaches the transcript, and the sync wait is longer than the budget
      stdin: JSON.stringify({
        hook_event_name: "Stop",
        session_id: "slow",
        transcript_path: transcript,
        last_assistant_message: "Want me to continue?",
      }),
      env: { CLIFFHANGER_BUDGET_MS: "300", CLIFFHANGER_SYNC_MS: "5000" },
    });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(await readErrors(home), /hook stop: BudgetExceededError: ran past its 300 ms budget; allowed/);
    // the session lock was released on the way out, so the next stop decides at once (on a loaded machine the budget
    // can run out before the locks folder is even made: no folder, no lock)
    const locks = join(home, ".cliffhanger", "locks");
    const left = await Array.fromAsync(Deno.readDir(locks)).catch((e) => {
      if (e instanceof Deno.errors.NotFound) return [];
      throw e;
    });
    assert.deepEqual(left, []);
    const next = await runCli(["hook", "stop"], {
      home,
      stdin: JSON.stringify({
        hook_event_name: "Stop",
        session_id: "slow",
        last_assistant_message: "Want me to continue?",
      }),
    });
    assert.equal(JSON.parse(next.stdout).decision, "block");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook stop: the same text again after a finished stop is a new stop, not a duplicate", async () => {
  const home = await tempHome();
  try {
    const transcript = join(home, ".claude", "projects", "repeat.jsonl");
    const text = "Two of five done. Want me to continue?";
    const prompt = '{"type":"user","promptId":"p1","message":{"role":"user","content":"migrate"}}\n';
    const reply = (id: string) =>
      `{"type":"assistant","message":{"id":"${id}","role":"assistant","content":[{"type":"text","text":"${text}"}]}}\n`;
    await Deno.writeTextFile(transcript, prompt + reply("m1"));
    const payload = {
      hook_event_name: "Stop",
      session_id: "rep",
      prompt_id: "p1",
      transcript_path: transcript,
      last_assistant_message: text,
    };
    const first = await runCli(["hook", "stop"], {
      home,
      stdin: JSON.stringify({ ...payload, stop_hook_active: false }),
    });
    assert.equal(JSON.parse(first.stdout).decision, "block");
    await Deno.writeTextFile(
      transcript,
      '{"type":"user","isMeta":true,"promptId":"p1","message":{"role":"user","content":"Stop hook feedback:\\nDo it."}}\n' +
        '{"type":"system","subtype":"stop_hook_summary","hookCount":1}\n' + reply("m2"),
      { append: true },
    );
    const [second, third] = await Promise.all(
      [1, 2].map(() =>
        runCli(["hook", "stop"], { home, stdin: JSON.stringify({ ...payload, stop_hook_active: true }) })
      ),
    ) as [CliRun, CliRun];
    assert.equal(second.stdout, third.stdout, "a parallel copy of the second stop gets the same answer");
    const log = await readLog(home);
    assert.equal(log.length, 2, "the second stop is logged; its copy is not");
    assert.deepEqual(log.map((l) => l["continuation"]), [1, 2]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("hook stop: budgetMs and syncMs from config.jsonc apply, and the environment wins", async () => {
  const home = await tempHome();
  try {
    const transcript = join(home, ".claude", "projects", "t.jsonl");
    await Deno.writeTextFile(transcript, '{"type":"user","message":{"role":"user","content":"do it"}}\n');
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "budgetMs": 300, "syncMs": 5000 } // slow');
    const stdin = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "cfg",
      transcript_path: transcript,
      last_assistant_message: "Want me to continue?",
    });
    const run = await runCli(["hook", "stop"], { home, stdin });
    assert.equal(run.stdout, "");
    assert.match(await readErrors(home), /ran past its 300 ms budget/);
    // the environment wins over config.jsonc for both (a generous budget, so a loaded machine still answers)
    const fast = await runCli(["hook", "stop"], {
      home,
      stdin,
      env: { CLIFFHANGER_SYNC_MS: "0", CLIFFHANGER_BUDGET_MS: "10000" },
    });
    assert.equal(JSON.parse(fast.stdout).decision, "block");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
