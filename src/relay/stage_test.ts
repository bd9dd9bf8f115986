import assert from "node:assert/strict";
import { relayLogLines } from "./log_line.ts";
import { refusalLine, type RelayStageInput, runRelayStage } from "./stage.ts";
import { fakeClock, readJson, tempRelay, touch, writeInstruction } from "./test_support.ts";
import type { RelayPaths } from "./paths.ts";
import { realRelayIo, type RelayIo } from "./io.ts";
import { recordManager } from "./state.ts";
import { LockTimeoutError } from "../store/lock.ts";
import { removeAtExit } from "../testing/run_cli.ts";

/** A temp mailbox, removed when the test process ends. */
async function relayFolder(): ReturnType<typeof tempRelay> {
  const made = await tempRelay();
  removeAtExit(made.root);
  return made;
}

const payload = { session_id: "s1", hook_event_name: "Stop" };

function input(paths: RelayPaths | null, clock: ReturnType<typeof fakeClock>, extra: Partial<RelayStageInput> = {}) {
  return { payload, paths, pollS: 5, maxWaitS: 30, now: clock.now, sleep: clock.sleep, explicitDir: false, ...extra };
}

async function logMd(paths: RelayPaths): Promise<string> {
  return await Deno.readTextFile(paths.log).catch(() => "");
}

Deno.test("relay stage: a newer turn already waiting is taken at once, recorded, logged and handed back", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await writeInstruction(paths, 1, "Write the fourth guide.");
  const clock = fakeClock();
  const r = await runRelayStage(input(paths, clock));
  assert.equal(r.decision, "block");
  assert.ok(r.decision === "block");
  assert.equal(r.turn, 1);
  assert.match(r.reason, /turn 1/);
  assert.match(r.reason, /Write the fourth guide\.$/);
  assert.ok(r.reason.includes(`${paths.toAgent}, starting with the line "turn: 1"`));
  assert.equal(clock.sleeps, 0);
  // taken, not yet consumed: the counter waits until the answer is out
  assert.deepEqual(await readJson(paths.state), {
    last_code_turn_consumed: 0,
    taking: { turn: 1, session: "s1", at: "2026-09-07T04:14:00.000Z" },
    updated: "2026-09-07T04:14:00.000Z",
  });
  assert.equal(await logMd(paths), "");
  assert.deepEqual(await r.settle(), []);
  assert.deepEqual(await readJson(paths.state), {
    last_code_turn_consumed: 1,
    updated: "2026-09-07T04:14:00.000Z",
  });
  assert.match(await logMd(paths), /^- 2026-09-07T04:14:00Z hook: turn 1 taken from the manager\n$/);
  assert.deepEqual(r.events.map((e) => e.name), ["turn_taken"]);
  assert.deepEqual(r.errors, []);
});

Deno.test("relay stage: an old or equal turn is never taken; the wait runs to the deadline and allows", async () => {
  for (const turn of [2, 3]) {
    const { paths } = await relayFolder();
    await touch(paths.active);
    await Deno.writeTextFile(paths.state, JSON.stringify({ last_code_turn_consumed: 3 }));
    await writeInstruction(paths, turn, "old order");
    const clock = fakeClock();
    const r = await runRelayStage(input(paths, clock, { pollS: 5, maxWaitS: 12 }));
    assert.equal(r.decision, "allow");
    assert.ok(r.decision === "allow" && r.why === "deadline");
    assert.deepEqual(clock.slept, [5000, 5000, 2000], "polls every 5 s, the last sleep cut to the deadline");
    assert.deepEqual(r.events.map((e) => [e.name, e.lastConsumed, e.waitedS]), [
      ["wait_started", 3, 0],
      ["deadline", 3, 12],
    ]);
    // log.jsonl's lines, written when the stop ends, say when each event happened
    assert.equal(r.startedAt, Date.parse("2026-09-07T04:14:00Z"));
    const logged = relayLogLines(r.events, {
      now: new Date(clock.now()),
      startedAt: r.startedAt,
      session: "s",
      event: "Stop",
      dir: paths.dir,
      cwd: null,
    });
    assert.deepEqual(logged.map((l) => [l.name, l.ts]), [
      ["wait_started", "2026-09-07T04:14:00.000Z"],
      ["deadline", "2026-09-07T04:14:12.000Z"],
    ]);
    assert.equal((await readJson(paths.state) as { last_code_turn_consumed: number }).last_code_turn_consumed, 3);
    const lines = (await logMd(paths)).trim().split("\n");
    assert.equal(lines.length, 2, "one waiting line per wait, not one per poll");
    assert.match(lines[0]!, /waiting for the manager \(turn > 3, up to 12 s\)/);
    assert.match(lines[1]!, /no new turn after 12 s - session allowed to end/);
  }
});

Deno.test("relay stage: a turn that arrives during the wait is taken on the next poll", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  const clock = fakeClock(undefined, async (n) => {
    if (n === 3) await writeInstruction(paths, 1, "next task");
  });
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block");
  assert.equal(r.turn, 1);
  assert.equal(clock.sleeps, 3);
  assert.deepEqual(r.events.map((e) => [e.name, e.waitedS]), [["wait_started", 0], ["turn_taken", 15]]);
});

Deno.test("relay stage: a turn line with no body is not taken yet", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await Deno.writeTextFile(paths.toCode, "turn: 4\n");
  const clock = fakeClock(undefined, async (n) => {
    if (n === 1) await writeInstruction(paths, 4, "now with a body");
  });
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block");
  assert.match(r.reason, /now with a body$/);
});

Deno.test("relay stage: STOP beats ACTIVE before the wait: nothing is taken, nothing waits", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await touch(paths.stop);
  await writeInstruction(paths, 9, "ignored");
  const clock = fakeClock();
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "allow" && r.why === "stop");
  assert.equal(clock.sleeps, 0);
  assert.deepEqual(r.events.map((e) => [e.name, e.detail]), [["stop_exit", "before"]]);
  assert.equal(await Deno.stat(paths.state).catch(() => null), null, "state.json untouched");
  assert.match(await logMd(paths), /relay STOP present - session allowed to end/);
});

Deno.test("relay stage: STOP that appears during the wait ends it on the next poll, even with a turn waiting", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  const clock = fakeClock(undefined, async (n) => {
    if (n === 2) {
      await touch(paths.stop);
      await writeInstruction(paths, 1, "too late");
    }
  });
  const r = await runRelayStage(input(paths, clock, { maxWaitS: 570 }));
  assert.ok(r.decision === "allow" && r.why === "stop-during-wait");
  assert.equal(clock.sleeps, 2);
  assert.deepEqual(r.events.map((e) => [e.name, e.detail]), [["wait_started", null], ["stop_exit", "during"]]);
  assert.match(await logMd(paths), /relay STOP appeared while waiting/);
});

Deno.test("relay stage: no ACTIVE means no wait at all, and nothing is written", async () => {
  const { paths } = await relayFolder();
  await writeInstruction(paths, 1, "would be taken if active");
  const clock = fakeClock();
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "allow" && r.why === "inactive");
  assert.equal(clock.sleeps, 0);
  assert.deepEqual(r.events, []);
  assert.deepEqual([...Deno.readDirSync(paths.dir)].map((e) => e.name), ["to-code.md"]);
});

Deno.test("relay stage: a subagent is sent home at once, without touching the folder", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await writeInstruction(paths, 1, "not for subagents");
  let touched = 0;
  const io: RelayIo = new Proxy(realRelayIo, {
    get: (target, key) => {
      touched++;
      return target[key as keyof RelayIo];
    },
  });
  const clock = fakeClock();
  for (
    const p of [
      { session_id: "s1", hook_event_name: "SubagentStop", agent_id: "a1" },
      { session_id: "s1", hook_event_name: "Stop", agent_id: "a2" },
      { session_id: "s1", hook_event_name: "SubagentStop" },
    ]
  ) {
    const r = await runRelayStage({ ...input(paths, clock), payload: p, io });
    assert.ok(r.decision === "allow" && r.why === "subagent");
  }
  assert.equal(touched, 0);
  assert.equal(clock.sleeps, 0);
});

Deno.test("relay stage: no project folder allows", async () => {
  const r = await runRelayStage(input(null, fakeClock()));
  assert.ok(r.decision === "allow" && r.why === "no-project");
});

Deno.test("relay stage: a corrupt state.json allows and says which file, instead of guessing the counter", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await Deno.writeTextFile(paths.state, "{not json");
  await writeInstruction(paths, 1, "x");
  const r = await runRelayStage(input(paths, fakeClock()));
  assert.ok(r.decision === "allow" && r.why === "bad-state");
  assert.match(r.errors[0]!, /state\.json" is not valid JSON/);
});

Deno.test("relay stage: a folder outside the permission scope allows; reported only when configured", async () => {
  const denied: RelayIo = {
    ...realRelayIo,
    exists: () => Promise.reject(new Deno.errors.NotCapable("Requires read access")),
  };
  const { paths } = await relayFolder();
  const quiet = await runRelayStage({ ...input(paths, fakeClock()), io: denied });
  assert.ok(quiet.decision === "allow" && quiet.why === "out-of-scope");
  assert.deepEqual(quiet.errors, []);
  const loud = await runRelayStage({ ...input(paths, fakeClock()), io: denied, explicitDir: true });
  assert.ok(loud.decision === "allow" && loud.why === "out-of-scope");
  assert.deepEqual(loud.errors, [
    `relay folder ${JSON.stringify(paths.dir)} is outside this binary's read scope; the stop is allowed (rebuild ` +
    `for it: deno task compile --relay-dir ${paths.dir})`,
  ]);
});

Deno.test("relay stage: refusalLine names the access kind once, quotes odd folders, and tells the OS's refusal apart", () => {
  const scope = new Deno.errors.NotCapable(
    'Requires write access to "/srv/my relay/queue", run again with the --allow-write flag',
  );
  assert.equal(
    refusalLine("/srv/my relay", scope),
    `relay folder "/srv/my relay" is outside this binary's write scope; the stop is allowed (rebuild for it: ` +
      `deno task compile --relay-dir '/srv/my relay')`,
  );
  const os = new Deno.errors.PermissionDenied("Permission denied (os error 13): stat '/srv/r/ACTIVE'");
  assert.equal(
    refusalLine("/srv/r", os),
    `relay folder "/srv/r": permission denied (Permission denied (os error 13): stat '/srv/r/ACTIVE'); the stop is allowed`,
  );
});

Deno.test("relay stage: two copies of the hook racing for one turn: only one takes it", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await writeInstruction(paths, 2, "once only");
  const [a, b] = await Promise.all([
    runRelayStage(input(paths, fakeClock(), { maxWaitS: 0 })),
    runRelayStage(input(paths, fakeClock(), { maxWaitS: 0 })),
  ]);
  assert.deepEqual([a!.decision, b!.decision].sort(), ["allow", "block"]);
  for (const r of [a!, b!]) if (r.decision === "block") assert.deepEqual(await r.settle(), []);
  assert.equal((await readJson(paths.state) as { last_code_turn_consumed: number }).last_code_turn_consumed, 2);
});

Deno.test("relay stage: the checkpoint runs before the wait; a refusal is logged and the relay still works", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  const calls: number[] = [];
  const clock = fakeClock(undefined, async (n) => {
    if (n === 1) await writeInstruction(paths, 1, "go on");
  });
  const r = await runRelayStage(input(paths, clock, {
    checkpoint: (last) => {
      calls.push(last);
      return Promise.resolve({ ok: false, detail: "git is not in this process's run scope" });
    },
  }));
  assert.deepEqual(calls, [0]);
  assert.ok(r.decision === "block");
  assert.deepEqual(r.events.map((e) => e.name), ["checkpoint_refused", "wait_started", "turn_taken"]);
  assert.match(r.errors[0]!, /relay checkpoint: git is not in this process's run scope/);
});

Deno.test("relay stage: the report turn is one above the newest report and the manager's counter", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await Deno.writeTextFile(paths.toAgentLegacy, "turn 4\n\nold report");
  await Deno.writeTextFile(paths.managerState, JSON.stringify({ last_agent_turn_consumed: 6 }));
  await writeInstruction(paths, 7, "next");
  const r = await runRelayStage(input(paths, fakeClock()));
  assert.ok(r.decision === "block");
  assert.match(r.reason, /starting with the line "turn: 7"/);
});

Deno.test("relay stage (the seed's lost update): the manager's writes during the wait all survive", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  // both files exist before the wait, each with a key the other side never writes
  await Deno.writeTextFile(paths.state, JSON.stringify({ last_code_turn_consumed: 1, note: "kept" }));
  await Deno.writeTextFile(paths.managerState, JSON.stringify({ last_agent_turn_consumed: 1 }));
  const managerBefore = await Deno.readTextFile(paths.managerState);
  let managerWritten = "";
  const clock = fakeClock(undefined, async (n) => {
    const at = new Date(Date.parse("2026-09-07T04:20:00Z") + n * 1000);
    if (n === 1) {
      // the manager consumes report 4 while the hook waits …
      await recordManager(paths.managerState, paths.managerStateLock, { agentTurn: 4 }, at);
      // … and someone (the seed's manager) writes a field into the hook's file too
      const s = await readJson(paths.state) as Record<string, unknown>;
      await Deno.writeTextFile(paths.state, JSON.stringify({ ...s, cowork_counter: 4 }));
    }
    if (n === 2) {
      await writeInstruction(paths, 2, "second instruction");
      await recordManager(paths.managerState, paths.managerStateLock, { sentTurn: 2 }, at);
      managerWritten = await Deno.readTextFile(paths.managerState);
    }
  });
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block");
  assert.equal(r.turn, 2);
  assert.deepEqual(await r.settle(), []);
  assert.notEqual(managerWritten, managerBefore);
  assert.equal(await Deno.readTextFile(paths.managerState), managerWritten, "the hook never writes manager-state.json");
  assert.deepEqual(await readJson(paths.managerState), {
    last_agent_turn_consumed: 4,
    last_sent_turn: 2,
    updated: "2026-09-07T04:20:02.000Z",
  });
  const state = await readJson(paths.state) as Record<string, unknown>;
  assert.equal(state["last_code_turn_consumed"], 2);
  assert.equal(state["cowork_counter"], 4, "written during the wait: merged, not overwritten by a stale snapshot");
  assert.equal(state["note"], "kept");
});

Deno.test("relay stage: an instruction still being written is taken once it holds still, whole", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  // the clock is the file's own time: the file was written just now
  await Deno.writeTextFile(paths.toCode, "turn: 1\n\nStep A: delete the tmp folder.");
  const written = (await Deno.stat(paths.toCode)).mtime!.getTime();
  const clock = fakeClock(written + 100, async (n) => {
    if (n === 1) await Deno.writeTextFile(paths.toCode, " Step B: but first back up data/.\n", { append: true });
  });
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block");
  assert.match(r.reason, /Step A: delete the tmp folder\. Step B: but first back up data\/\.$/);
  // looked at three times: young, changed, then the same
  assert.equal(clock.sleeps, 2);
  assert.ok(clock.slept.every((ms) => ms === 500), String(clock.slept));
  assert.match(await logMd(paths), /hook: turn 1 is still being written; it is taken once it holds still/);
});

Deno.test("relay stage: whole lines written one after another are taken together once the file holds still", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await Deno.writeTextFile(paths.toCode, "turn: 1\n\nStep A: delete tmp/\n");
  const written = (await Deno.stat(paths.toCode)).mtime!.getTime();
  const clock = fakeClock(written + 100, async (n) => {
    if (n === 1) await Deno.writeTextFile(paths.toCode, "Step B: but first back up data/\n", { append: true });
  });
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block");
  assert.match(r.reason, /Step A: delete tmp\/\nStep B: but first back up data\/$/);
  assert.equal(clock.sleeps, 2);
});

Deno.test("relay stage: a fresh whole instruction costs one more look, and says nothing of it", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await writeInstruction(paths, 1, "Write the guide.");
  const written = (await Deno.stat(paths.toCode)).mtime!.getTime();
  const clock = fakeClock(written + 100);
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block" && r.turn === 1);
  assert.deepEqual(clock.slept, [500]);
  assert.equal(await logMd(paths), "");
  assert.deepEqual(r.events.map((e) => e.name), ["turn_taken"]);
});

Deno.test("relay stage: an unfinished last line that holds still between two looks is taken", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await Deno.writeTextFile(paths.toCode, "turn: 1\n\nWrite the guide.");
  const written = (await Deno.stat(paths.toCode)).mtime!.getTime();
  const clock = fakeClock(written + 100);
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block" && r.turn === 1);
  assert.match(r.reason, /Write the guide\.$/);
  assert.deepEqual(clock.slept, [500]);
});

Deno.test("relay stage: an unfinished last line written two seconds or more before the look is taken at once", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await Deno.writeTextFile(paths.toCode, "turn: 1\n\nWrite the guide.");
  const written = (await Deno.stat(paths.toCode)).mtime!.getTime();
  const clock = fakeClock(written + 2000);
  const r = await runRelayStage(input(paths, clock));
  assert.ok(r.decision === "block" && r.turn === 1);
  assert.equal(clock.sleeps, 0);
});

Deno.test("relay stage: state.json's lock held past its wait (a stop killed holding it): the turn is claimed at a later poll", async () => {
  const { paths } = await relayFolder();
  await touch(paths.active);
  await writeInstruction(paths, 1, "first task");
  let claims = 0;
  const io: RelayIo = {
    ...realRelayIo,
    claim: (p, claim) => {
      // the first claim finds the lock a killed stop left, not yet stale
      if (++claims === 1) throw new LockTimeoutError(`Cannot take lock "${p.stateLock}": held by another process`);
      return realRelayIo.claim(p, claim);
    },
  };
  const clock = fakeClock();
  const r = await runRelayStage(input(paths, clock, { io }));
  assert.ok(r.decision === "block", "not given up: the stop still hands the turn over");
  assert.deepEqual([r.turn, claims, clock.sleeps], [1, 2, 1]);
  assert.deepEqual(r.errors, [
    `relay: Cannot take lock "${paths.stateLock}": held by another process; turn 1 is claimed at a later poll`,
  ]);
  assert.deepEqual(await r.settle(), []);
  assert.equal((await readJson(paths.state) as { last_code_turn_consumed: number }).last_code_turn_consumed, 1);
});
