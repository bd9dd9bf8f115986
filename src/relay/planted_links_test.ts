/**
 * A cloned project may commit relay files as links: `relay/ACTIVE`, `relay/STOP`, `relay/log.md` or `PROGRESS.md`
 * pointing at a file of the user's. Neither side of the relay ever writes through them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorld, manager } from "../testing/relay_race.ts";
import { checkpoint } from "./checkpoint.ts";
import { runRelayStage } from "./stage.ts";
import { fakeClock } from "./test_support.ts";

Deno.test("relay: planted links at ACTIVE, STOP, log.md and PROGRESS.md are never written through", async () => {
  const world = await makeWorld();
  try {
    const victim = join(world.root, "bashrc");
    await Deno.writeTextFile(victim, "# mine\n");
    await Deno.remove(world.relay.active);
    for (const path of [world.relay.active, world.relay.stop, world.relay.log]) await Deno.symlink(victim, path);
    await assert.rejects(manager(world, ["on"]), /is a link/);
    await assert.rejects(manager(world, ["off"]), /is a link/);
    await Deno.remove(world.relay.active);
    await Deno.remove(world.relay.stop);
    await Deno.writeTextFile(world.relay.active, "");
    await manager(world, ["send", "do it"]).catch(() => {}); // its log.md line is refused, the send itself lands
    const clock = fakeClock();
    const r = await runRelayStage({
      payload: { session_id: "s", hook_event_name: "Stop" },
      paths: world.relay,
      pollS: 1,
      maxWaitS: 2,
      now: clock.now,
      sleep: clock.sleep,
      explicitDir: false,
    });
    // the instruction is taken at once; its log.md line is written once the answer is out
    assert.ok(r.decision === "block");
    const errors = [...r.errors, ...await r.settle()];
    assert.ok(errors.some((e) => /log\.md.*is a link/.test(e)), errors.join("\n"));
    const progress = join(world.project, "PROGRESS.md");
    await Deno.symlink(victim, progress);
    const ckpt = await checkpoint({ project: world.project, progressFile: progress, label: "t", now: new Date() });
    assert.equal(ckpt.ok, false);
    assert.match(ckpt.detail, /is a link/);
    assert.equal(await Deno.readTextFile(victim), "# mine\n", "the link's target is untouched");
  } finally {
    await Deno.remove(world.root, { recursive: true });
  }
});
