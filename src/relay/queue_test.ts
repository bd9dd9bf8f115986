/**
 * The instruction queue: a second `relay send` before the hook took the first never overwrites it. Both wait, the
 * status shows the queue, and the hook takes them in order, one per stop.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { command as relayCommand } from "../cli/relay.ts";
import type { CliContext } from "../cli/context.ts";
import { CommandError, UsageError } from "../errors.ts";
import { makeWorld, manager } from "../testing/relay_race.ts";
import { runRelayStage } from "./stage.ts";
import { fakeClock } from "./test_support.ts";
import { queueDir, queuedPath, queuedTurns } from "./queue.ts";

/**
 * One stop's relay stage on the world's mailbox, with a fake clock: it waits up to `maxWaitS` for a new turn. A turn
 * it takes is settled (recorded as consumed) as the runner does once the answer is out.
 */
async function stopOnce(world: Awaited<ReturnType<typeof makeWorld>>, maxWaitS: number) {
  const clock = fakeClock();
  const r = await runRelayStage({
    payload: { session_id: "s", hook_event_name: "Stop" },
    paths: world.relay,
    pollS: 1,
    maxWaitS,
    now: clock.now,
    sleep: clock.sleep,
    explicitDir: false,
  });
  if (r.decision === "block") assert.deepEqual(await r.settle(), []);
  return r;
}

Deno.test("relay queue: sends before the hook takes them queue up; status shows them; taken in order, one per stop", async () => {
  const world = await makeWorld();
  try {
    const first = await manager(world, ["send", "first task"]);
    assert.match(first.out, /^sent turn 1 to /);
    const second = await manager(world, ["send", "second task"]);
    assert.match(second.out, /^queued turn 2 in .*queue: turn 1 is not taken yet\n$/);
    const third = await manager(world, ["send", "third task"]);
    assert.match(third.out, /^queued turn 3 /);
    assert.deepEqual(await queuedTurns(world.relay), [2, 3]);
    const status = await manager(world, ["status"]);
    assert.match(status.out, /queue {8}turns 2, 3 wait, taken in order/);
    const json = JSON.parse((await manager(world, ["status", "--json"])).out);
    assert.deepEqual([json.queued, json.nextTurn], [[2, 3], 4]);

    const stop = () => stopOnce(world, 3);
    const taken: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await stop();
      assert.ok(r.decision === "block", `stop ${i + 1} takes an instruction`);
      taken.push(`${r.turn}: ${r.reason.split("\n").at(-1)}`);
    }
    assert.deepEqual(taken, ["1: first task", "2: second task", "3: third task"]);
    // the consumed mark is a stop's last write: the file the last turn came from waits for the next stop, and is
    // no longer queued meanwhile
    assert.deepEqual(await queuedTurns(world.relay), [3], "taken turns leave the queue, the last at the next stop");
    assert.deepEqual(JSON.parse((await manager(world, ["status", "--json"])).out).queued, []);
    const idle = await stop();
    assert.ok(idle.decision === "allow" && idle.why === "deadline", "nothing left: the wait ends at its deadline");
    assert.deepEqual(await queuedTurns(world.relay), [], "taken turns leave the queue");
    // a send after everything was taken goes straight to to-code.md again
    assert.match((await manager(world, ["send", "fourth task"])).out, /^sent turn 4 to /);
    await assert.rejects(Deno.stat(queuedPath(world.relay, 4)), Deno.errors.NotFound);
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay send: an instruction over the size cap is a usage error (exit 2), nothing written", async () => {
  const world = await makeWorld();
  try {
    await assert.rejects(
      manager(world, ["send", "x".repeat(300 * 1024)]),
      (e) => e instanceof UsageError && e.exitCode === 2 && /over the 262144-byte limit/.test(e.message),
    );
    assert.deepEqual(await queuedTurns(world.relay), []);
    await assert.rejects(Deno.stat(world.relay.toCode), Deno.errors.NotFound);
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

for (const when of ["before", "after"] as const) {
  Deno.test(`relay queue: two sends landing while the hook looks (${when} its queue listing) hide no turn`, async () => {
    const world = await makeWorld();
    const realReadDir = Deno.readDir;
    try {
      await manager(world, ["send", "one"]);
      const stop = () => stopOnce(world, 0);
      const first = await stop();
      assert.ok(first.decision === "block" && first.turn === 1);
      // to-code.md holds turn 1, consumed. The next look lists the queue, and right after that two sends land: turn 2
      // goes to to-code.md, turn 3 to the queue.
      await Deno.mkdir(queueDir(world.relay), { recursive: true });
      let fired = false;
      const patched = (path: string | URL) => {
        if (fired || !String(path).endsWith("/queue")) return realReadDir(path);
        fired = true;
        return (async function* () {
          if (when === "after") yield* realReadDir(path);
          await manager(world, ["send", "two"]);
          await manager(world, ["send", "three"]);
          if (when === "before") yield* realReadDir(path);
        })();
      };
      Object.defineProperty(Deno, "readDir", { value: patched, configurable: true, writable: true });
      const taken: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await stop();
        taken.push(r.decision === "block" ? `${r.turn}: ${r.reason.split("\n").at(-1)}` : `allow ${r.why}`);
      }
      assert.ok(fired, "the sends landed mid-look");
      assert.deepEqual(taken, ["2: two", "3: three", "allow deadline"]);
    } finally {
      Object.defineProperty(Deno, "readDir", { value: realReadDir, configurable: true, writable: true });
      await Deno.remove(world.root, { recursive: true });
    }
  });
}

Deno.test("relay on warns when a stop here would not wait on that folder", async () => {
  const world = await makeWorld();
  try {
    const on = async (dir: string) => {
      let err = "";
      const ctx: CliContext = {
        env: world.env,
        paths: world.home,
        out: () => {},
        err: (t) => void (err += t),
        isTTY: false,
        cwd: () => null,
        now: () => new Date(),
      };
      assert.equal(await relayCommand.run(ctx, ["on", "--dir", dir]), 0);
      return err;
    };
    const other = await on(join(world.root, "elsewhere", "relay"));
    assert.match(other, /relay on: warning: a stop in .*project waits on .*project\/relay, not on .*elsewhere\/relay/);
    assert.equal(await on(world.relay.dir), "", "the project's own folder: no warning");
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay queue: a turn line with no text yet holds back every later turn until its text is there", async () => {
  const world = await makeWorld();
  try {
    await Deno.writeTextFile(world.relay.toCode, "turn: 1\n");
    const queued = await manager(world, ["send", "second task"]);
    assert.match(queued.out, /^queued turn 2 .*; turn 1 has no text under it yet, and later turns wait for it\n$/);
    assert.match((await manager(world, ["status"])).out, /waiting {6}turn 1 has a turn line and no text under it/);
    assert.equal(JSON.parse((await manager(world, ["status", "--json"])).out).waitingForText, 1);
    const waiting = await stopOnce(world, 3);
    assert.ok(waiting.decision === "allow" && waiting.why === "deadline", "turn 2 is not taken past the empty turn 1");
    assert.match(
      await Deno.readTextFile(world.relay.log),
      /hook: waiting for the manager \(turn > 0, up to 3 s\); turn 1 has no text under it yet, and later turns wait/,
    );
    await Deno.writeTextFile(world.relay.toCode, "turn: 1\n\nfirst task\n");
    const taken: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await stopOnce(world, 3);
      assert.ok(r.decision === "block");
      taken.push(`${r.turn}: ${r.reason.split("\n").at(-1)}`);
    }
    assert.deepEqual(taken, ["1: first task", "2: second task"]);
    assert.equal(JSON.parse((await manager(world, ["status", "--json"])).out).waitingForText, null);
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay send: a to-code.md with text and no turn line is refused (exit 2) and kept; --force replaces it", async () => {
  const world = await makeWorld();
  try {
    await Deno.writeTextFile(world.relay.toCode, "Please refactor the parser.\n");
    await assert.rejects(
      manager(world, ["send", "new task"]),
      (e) => e instanceof CommandError && e.exitCode === 2 && /holds text without a turn line.*--force/.test(e.message),
    );
    assert.equal(await Deno.readTextFile(world.relay.toCode), "Please refactor the parser.\n");
    assert.deepEqual(await queuedTurns(world.relay), []);
    const forced = await manager(world, ["send", "new task", "--force"]);
    assert.match(forced.out, /^sent turn 1 to /);
    assert.equal(await Deno.readTextFile(world.relay.toCode), "turn: 1\n\nnew task\n");
    // blank text is nothing to keep
    await Deno.writeTextFile(world.relay.toCode, "\n  \n");
    await Deno.writeTextFile(world.relay.state, JSON.stringify({ last_code_turn_consumed: 1 }));
    assert.match((await manager(world, ["send", "third"])).out, /^sent turn 2 to /);
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay queue: a queued turn the hook cannot take (a link out, a FIFO, a folder, no turn line, another turn) holds back later turns, and says why", async () => {
  const plants: [string, (path: string, world: Awaited<ReturnType<typeof makeWorld>>) => Promise<void>][] = [
    ["a link out of the queue folder", async (path, world) => {
      const outside = join(world.root, "draft.md");
      await Deno.writeTextFile(outside, "turn: 2\n\nSECOND\n");
      await Deno.symlink(outside, path);
    }],
    ["a FIFO", async (path) => {
      const made = await new Deno.Command("mkfifo", { args: [path] }).output();
      assert.ok(made.success);
    }],
    ["a folder", (path) => Deno.mkdir(path)],
    ["no turn line", (path) => Deno.writeTextFile(path, "SECOND\n")],
    ["another turn", (path) => Deno.writeTextFile(path, "turn: 7\n\nSECOND\n")],
  ];
  for (const [what, plant] of plants) {
    const world = await makeWorld();
    try {
      await Deno.writeTextFile(world.relay.toCode, "turn: 1\n\nfirst\n");
      const first = await stopOnce(world, 3);
      assert.ok(first.decision === "block" && first.turn === 1, what);
      await Deno.mkdir(queueDir(world.relay), { recursive: true });
      await plant(queuedPath(world.relay, 2), world);
      await Deno.writeTextFile(world.relay.toCode, "turn: 3\n\nTHIRD\n");
      const held = await stopOnce(world, 3);
      assert.ok(held.decision === "allow" && held.why === "deadline", `${what}: turn 3 is not taken past turn 2`);
      assert.equal(held.errors.length, 1, what);
      assert.match(held.errors[0]!, /^relay: queue\/000000002\.md .*; later turns wait for it$/, what);
      assert.match(await Deno.readTextFile(world.relay.log), /turn 2 cannot be taken \(queue\/000000002\.md /, what);
      const status = JSON.parse((await manager(world, ["status", "--json"])).out);
      assert.ok(
        status.problems.some((p: string) => p.startsWith("turn 2 cannot be taken")),
        `${what}: ${status.problems}`,
      );
      // mended: the turn is taken, then the later one
      await Deno.remove(queuedPath(world.relay, 2), { recursive: true });
      await Deno.writeTextFile(queuedPath(world.relay, 2), "turn: 2\n\nSECOND\n");
      const taken: number[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await stopOnce(world, 3);
        assert.ok(r.decision === "block", what);
        taken.push(r.turn);
      }
      assert.deepEqual(taken, [2, 3], what);
    } finally {
      await Deno.remove(world.root, { recursive: true });
    }
  }
});

Deno.test("relay queue: a queued file named by hand without the zeros (2.md) is taken in its turn", async () => {
  const world = await makeWorld();
  try {
    await Deno.writeTextFile(world.relay.toCode, "turn: 1\n\nfirst\n");
    assert.ok((await stopOnce(world, 3)).decision === "block");
    await Deno.mkdir(queueDir(world.relay), { recursive: true });
    await Deno.writeTextFile(join(queueDir(world.relay), "2.md"), "turn: 2\n\nSECOND\n");
    await Deno.writeTextFile(world.relay.toCode, "turn: 3\n\nTHIRD\n");
    const taken: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await stopOnce(world, 3);
      assert.ok(r.decision === "block");
      taken.push(`${r.turn}: ${r.reason.split("\n").at(-1)}`);
    }
    assert.deepEqual(taken, ["2: SECOND", "3: THIRD"]);
    assert.deepEqual(await queuedTurns(world.relay), [], "the hand-named file is cleared once taken");
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay queue: the hand-named file a turn came from stays until the next stop, and is not named as a problem", async () => {
  const world = await makeWorld();
  try {
    await Deno.mkdir(queueDir(world.relay), { recursive: true });
    await Deno.writeTextFile(world.relay.toCode, "turn: 1\n\nfirst\n");
    assert.ok((await stopOnce(world, 3)).decision === "block");
    await Deno.writeTextFile(join(queueDir(world.relay), "2.md"), "turn: 2\n\nSECOND\n");
    const r = await stopOnce(world, 3);
    assert.ok(r.decision === "block" && r.turn === 2);
    // recorded with the turn, as the stop's last write: the file is still there, and it is the one taken
    const state = JSON.parse(await Deno.readTextFile(world.relay.state));
    assert.deepEqual([state.last_code_turn_consumed, state.consumed_from], [2, "queue/2.md"]);
    assert.ok((await Deno.stat(join(queueDir(world.relay), "2.md"))).isFile);
    assert.deepEqual(JSON.parse((await manager(world, ["status", "--json"])).out).problems, []);
    const idle = await stopOnce(world, 0);
    assert.ok(idle.decision === "allow");
    assert.deepEqual(await queuedTurns(world.relay), [], "the next stop removes it");
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay queue: a second name for a taken turn, or one written after its turn went by, stays and is named, never removed unseen", async () => {
  const world = await makeWorld();
  try {
    await Deno.writeTextFile(world.relay.toCode, "turn: 1\n\nfirst\n");
    await Deno.mkdir(queueDir(world.relay), { recursive: true });
    await Deno.writeTextFile(queuedPath(world.relay, 2), "turn: 2\n\nSECOND\n");
    await Deno.writeTextFile(join(queueDir(world.relay), "2.md"), "turn: 2\n\nSECOND, by hand\n");
    const taken: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await stopOnce(world, 3);
      assert.ok(r.decision === "block");
      taken.push(`${r.turn}: ${r.reason.split("\n").at(-1)}`);
    }
    assert.deepEqual(taken, ["1: first", "2: SECOND"]);
    await Deno.writeTextFile(join(queueDir(world.relay), "1.md"), "turn: 1\n\nlate\n");
    // a send clears what was consumed (the padded file the last turn came from): still not the hand-named files
    assert.equal((await manager(world, ["send", "third"])).code, 0);
    assert.equal(await Deno.stat(queuedPath(world.relay, 2)).catch(() => null), null);
    for (const name of ["1.md", "2.md"]) assert.ok((await Deno.stat(join(queueDir(world.relay), name))).isFile, name);
    const status = JSON.parse((await manager(world, ["status", "--json"])).out);
    for (const turn of [1, 2]) {
      assert.ok(
        status.problems.some((p: string) =>
          p.startsWith(`queue/${turn}.md is for turn ${turn}, which the hook has already consumed`)
        ),
        JSON.stringify(status.problems),
      );
    }
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay send --file - on a terminal says it reads stdin; with no stdin it says so in one line", async () => {
  const world = await makeWorld();
  try {
    let err = "";
    let out = "";
    const ctx: CliContext = {
      env: world.env,
      paths: world.home,
      out: (t) => void (out += t),
      err: (t) => void (err += t),
      isTTY: false,
      cwd: () => null,
      now: () => new Date(),
      readStdin: (limit) => {
        assert.equal(limit, 256 * 1024);
        return Promise.resolve(new TextEncoder().encode("Typed at the terminal.\n"));
      },
      stdinIsTerminal: () => true,
    };
    assert.equal(await relayCommand.run(ctx, ["send", "--file", "-", "--dir", world.relay.dir]), 0);
    assert.match(err, /^relay send: reading the instruction from stdin \(end it with Ctrl-D\)\n/);
    assert.match(out, /^sent turn 1 /);
    assert.equal(await Deno.readTextFile(world.relay.toCode), "turn: 1\n\nTyped at the terminal.\n");
    const { readStdin: _gone, ...noStdin } = ctx;
    await assert.rejects(
      relayCommand.run(noStdin, ["send", "--file", "-", "--dir", world.relay.dir]),
      /relay send: --file -: no stdin to read here/,
    );
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});
