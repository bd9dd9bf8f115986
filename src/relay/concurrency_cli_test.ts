/**
 * The relay race with real processes: several `relay send` processes (the CLI under the binary's scopes) at once
 * while a hook stage polls the mailbox in this process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../testing/run_cli.ts";
import { assertFilesIntact, type Delivery, hookLoop, logMdLines, makeWorld } from "../testing/relay_race.ts";
import { ManagerStateSchema, readStateFile } from "./state.ts";

Deno.test("relay race (processes): 6 `relay send` processes at once while a hook stage polls — 6 distinct turns, the last delivered", async () => {
  const world = await makeWorld();
  let finished = false;
  const got: Delivery[] = [];
  try {
    await Deno.mkdir(join(world.root, ".claude", "projects"), { recursive: true });
    const hook = hookLoop(world, 0, () => finished, got);
    const runs = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          runCli(["relay", "send", `process ${i}`, "--dir", world.relay.dir], { home: world.root, cwd: world.project }),
      ),
    );
    const turns = runs.map((r) => {
      assert.equal(r.code, 0, r.stderr);
      return Number(/^sent turn (\d+) /.exec(r.stdout)?.[1]);
    });
    assert.deepEqual([...turns].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
    const deadline = Date.now() + 60_000;
    while (!got.some((d) => d.turn === 6)) {
      assert.ok(Date.now() < deadline, "turn 6 was never taken");
      await new Promise((r) => setTimeout(r, 5));
    }
    finished = true;
    await hook;
    await assertFilesIntact(world);
    const delivered = got.map((d) => d.turn);
    assert.equal(new Set(delivered).size, delivered.length, "no turn delivered twice");
    for (const d of got) assert.equal(d.body, `process ${turns.indexOf(d.turn)}`);
    const mgr = await readStateFile(world.relay.managerState, ManagerStateSchema);
    assert.ok(mgr.ok && mgr.value.last_sent_turn === 6);
    assert.equal((await logMdLines(world)).filter((l) => / manager: turn \d+ sent: process \d$/.test(l)).length, 6);
  } finally {
    finished = true;
    await Deno.remove(world.root, { recursive: true });
  }
});
