/**
 * The relay race with real processes: several `relay send` processes (the CLI under the binary's scopes) at once
 * while a hook stage polls the mailbox in this process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../testing/run_cli.ts";
import { assertFilesIntact, type Delivery, hookLoop, logMdLines, makeWorld } from "../testing/relay_race.ts";
import { ManagerStateSchema, readStateFile } from "./state.ts";

Deno.test("relay race (processes): 10 `relay send` processes at once while a hook stage polls — 10 distinct turns, every one delivered once, in order", async () => {
  const world = await makeWorld();
  let finished = false;
  const got: Delivery[] = [];
  try {
    await Deno.mkdir(join(world.root, ".claude", "projects"), { recursive: true });
    const hook = hookLoop(world, 0, () => finished, got);
    const runs = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) =>
          runCli(["relay", "send", `process ${i}`, "--dir", world.relay.dir], { home: world.root, cwd: world.project }),
      ),
    );
    const turns = runs.map((r) => {
      assert.equal(r.code, 0, r.stderr);
      return Number(/^(?:sent|queued) turn (\d+) /.exec(r.stdout)?.[1]);
    });
    assert.deepEqual([...turns].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const deadline = Date.now() + 60_000;
    while (got.length < 10) {
      assert.ok(Date.now() < deadline, `only ${got.length} of 10 instructions were taken`);
      await new Promise((r) => setTimeout(r, 5));
    }
    finished = true;
    await hook;
    await assertFilesIntact(world);
    const delivered = got.map((d) => d.turn);
    assert.deepEqual(delivered, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "every turn once, in order");
    for (const d of got) assert.equal(d.body, `process ${turns.indexOf(d.turn)}`);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === 10);
    const sent = (await logMdLines(world)).filter((l) => / manager: turn \d+ (?:sent|queued): process \d$/.test(l));
    assert.equal(sent.length, 10);
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});
