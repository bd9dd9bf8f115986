/**
 * The relay's two sides at the same time, on real files: hook stages (as `hook stop` runs them, several sessions or
 * a stop registered twice) wait on the mailbox while the manager (`relay send`, `read`, `status`, in process) writes
 * instructions, reads reports and appends to log.md. No instruction is lost or delivered twice, no file is torn.
 */
import assert from "node:assert/strict";
import { generations } from "../store/rotate.ts";
import {
  assertFilesIntact,
  checker,
  type Delivery,
  hookLoop,
  logMdLines,
  makeWorld,
  manager,
  relayJsonl,
  send,
} from "../testing/relay_race.ts";
import { HookStateSchema, ManagerStateSchema, readStateFile } from "./state.ts";

Deno.test("relay race: 40 instructions sent one after another while 4 hook stages poll and the manager reads — each delivered exactly once", async () => {
  const world = await makeWorld();
  const N = 40;
  const HOOKS = 4;
  let finished = false;
  const done = () => finished;
  const got: Delivery[] = [];
  try {
    const hooks = Array.from({ length: HOOKS }, (_, i) => hookLoop(world, i, done, got));
    const checks = checker(world, done);
    // a second manager task at the same time: reads reports and status (manager-state.json and log.md writes)
    const reader = (async () => {
      while (!done()) {
        const r = await manager(world, ["read"]);
        assert.ok(r.code === 0 || r.code === 1, r.err);
        const s = await manager(world, ["status", "--json"]);
        assert.equal(s.code, 0, s.err);
        assert.deepEqual(JSON.parse(s.out).problems, []);
      }
    })();
    const sent: number[] = [];
    try {
      for (let i = 1; i <= N; i++) {
        const turn = await send(world, `instruction ${i}`);
        sent.push(turn);
        // the manager's protocol: the next instruction once this one is taken
        const deadline = Date.now() + 10_000;
        while (!got.some((d) => d.turn === turn)) {
          assert.ok(Date.now() < deadline, `turn ${turn} was never taken`);
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    } finally {
      finished = true;
      await Promise.all([...hooks, reader]);
    }
    assert.ok(await checks > 10, "the files were checked during the race");
    await assertFilesIntact(world);

    assert.deepEqual(sent, Array.from({ length: N }, (_, i) => i + 1), "turns 1…N in order");
    assert.deepEqual(got.map((d) => d.turn), sent, "each turn delivered once, in order");
    for (const d of got) assert.equal(d.body, `instruction ${d.turn}`, "the body sent with that turn");
    assert.ok(new Set(got.map((d) => d.hook)).size > 1, "more than one hook stage took turns");
    const hook = await readStateFile(world.relay.state, HookStateSchema);
    assert.ok(hook.ok && hook.value.last_code_turn_consumed === N);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === N);

    const md = await logMdLines(world);
    for (let t = 1; t <= N; t++) {
      assert.equal(md.filter((l) => l.endsWith(`hook: turn ${t} taken from the manager`)).length, 1, `turn ${t}`);
      assert.equal(md.filter((l) => l.includes(`manager: turn ${t} sent: instruction ${t}`)).length, 1, `turn ${t}`);
    }
    const jsonl = await relayJsonl(world);
    const taken = jsonl.filter((l) => l["kind"] === "relay" && l["name"] === "turn_taken").map((l) => l["turn"]);
    const blocks = jsonl.filter((l) => l["rule"] === "relay-turn").map((l) => l["relayTurn"]);
    // log.jsonl was rotated during the race (8 KiB cap): the newest lines are kept, each turn once
    assert.ok(await Deno.stat(generations(world.home.log)[0]).then(() => true, () => false), "log.jsonl rotated");
    for (const list of [taken, blocks]) {
      assert.equal(new Set(list).size, list.length, "no turn logged twice");
      assert.equal(list.at(-1), N);
    }
    assert.equal(await Deno.readTextFile(world.home.errors).catch(() => ""), "");
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});

Deno.test("relay race: 6 managers sending at once, 5 rounds, while 3 hook stages poll — every send gets its own turn, every one delivered once, in order", async () => {
  const world = await makeWorld();
  const SENDERS = 6;
  const ROUNDS = 5;
  const HOOKS = 3;
  let finished = false;
  const done = () => finished;
  const got: Delivery[] = [];
  try {
    const hooks = Array.from({ length: HOOKS }, (_, i) => hookLoop(world, i, done, got));
    const checks = checker(world, done);
    const sentBodies = new Map<number, string>();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const turns = await Promise.all(
          Array.from({ length: SENDERS }, async (_, s) => {
            const body = `round ${round} sender ${s}`;
            const turn = await send(world, body);
            assert.ok(!sentBodies.has(turn), `turn ${turn} given to two sends ("${sentBodies.get(turn)}", "${body}")`);
            sentBodies.set(turn, body);
            return turn;
          }),
        );
        // every instruction of the round is taken before the next round (the queue keeps the ones not taken yet)
        const deadline = Date.now() + 20_000;
        while (!turns.every((t) => got.some((d) => d.turn === t))) {
          assert.ok(Date.now() < deadline, `turns ${turns.filter((t) => !got.some((d) => d.turn === t))} never taken`);
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    } finally {
      finished = true;
      await Promise.all(hooks);
    }
    await checks;
    await assertFilesIntact(world);

    const total = SENDERS * ROUNDS;
    assert.deepEqual([...sentBodies.keys()].sort((a, b) => a - b), Array.from({ length: total }, (_, i) => i + 1));
    const turns = got.map((d) => d.turn);
    assert.deepEqual(turns, Array.from({ length: total }, (_, i) => i + 1), "every turn once, in order");
    for (const d of got) assert.equal(d.body, sentBodies.get(d.turn), `turn ${d.turn}: the body sent with it`);
    assert.equal(turns.at(-1), total, "the last instruction is delivered");
    const hook = await readStateFile(world.relay.state, HookStateSchema);
    assert.ok(hook.ok && hook.value.last_code_turn_consumed === total);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === total);
    const md = await logMdLines(world);
    assert.equal(
      md.filter((l) => / manager: turn \d+ (?:sent|queued): /.test(l)).length,
      total,
      "one log.md line per send",
    );
    assert.equal(md.filter((l) => / hook: turn \d+ taken /.test(l)).length, got.length, "one per delivery");
    assert.equal(await Deno.readTextFile(world.home.errors).catch(() => ""), "");
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});
