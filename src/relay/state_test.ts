import assert from "node:assert/strict";
import { join } from "node:path";
import { HookStateSchema, markCodeTurnConsumed, MAX_RELAY_STATE_BYTES, readStateFile } from "./state.ts";
import { plantWatchedFifo, tempRelay } from "./test_support.ts";

Deno.test("readStateFile() refuses a FIFO, /dev/zero, a folder, an over-size file and a link out, and opens none", async () => {
  const { root, paths } = await tempRelay();
  try {
    const fifo = await plantWatchedFifo(paths.state);
    const r = await readStateFile(paths.state, HookStateSchema);
    assert.ok(!r.ok && /state\.json" is not a regular file; not read/.test(r.problem), JSON.stringify(r));
    assert.equal(await fifo.openedByReader(), false, "the FIFO was never opened");

    await Deno.symlink("/dev/zero", paths.managerState);
    const zero = await readStateFile(paths.managerState, HookStateSchema);
    assert.ok(!zero.ok && /leads out of/.test(zero.problem), JSON.stringify(zero));

    const folder = join(paths.dir, "folder.json");
    await Deno.mkdir(folder);
    const f = await readStateFile(folder, HookStateSchema);
    assert.ok(!f.ok && /not a regular file/.test(f.problem));

    const huge = join(paths.dir, "huge.json");
    await Deno.writeTextFile(huge, "");
    await Deno.truncate(huge, MAX_RELAY_STATE_BYTES + 1); // sparse
    const h = await readStateFile(huge, HookStateSchema);
    assert.ok(!h.ok && /over the 65536-byte limit/.test(h.problem));

    const outside = join(root, "elsewhere.json");
    await Deno.writeTextFile(outside, JSON.stringify({ last_code_turn_consumed: 9 }));
    const out = join(paths.dir, "out.json");
    await Deno.symlink(outside, out);
    const o = await readStateFile(out, HookStateSchema);
    assert.ok(!o.ok && /leads out of/.test(o.problem));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("readStateFile() reads a regular file; missing is the defaults", async () => {
  const { root, paths } = await tempRelay();
  try {
    assert.deepEqual(await readStateFile(paths.state, HookStateSchema), {
      ok: true,
      value: { last_code_turn_consumed: 0 },
      exists: false,
    });
    await Deno.writeTextFile(paths.state, JSON.stringify({ last_code_turn_consumed: 3 }));
    const r = await readStateFile(paths.state, HookStateSchema);
    assert.ok(r.ok && r.value.last_code_turn_consumed === 3 && r.exists);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("markCodeTurnConsumed() records the queue file the turn came from, for the next stop to remove", async () => {
  const { root, paths } = await tempRelay();
  try {
    const now = new Date("2026-09-07T04:14:00Z");
    const mark = async (turn: number, from: string | null) => {
      const r = await markCodeTurnConsumed(paths.state, paths.stateLock, turn, now, from);
      assert.ok(r.ok);
      const { last_code_turn_consumed, consumed_from } = r.after;
      return { last_code_turn_consumed, consumed_from };
    };
    assert.deepEqual(await mark(2, "queue/2.md"), { last_code_turn_consumed: 2, consumed_from: "queue/2.md" });
    // an older turn recorded late (a copy of a stop) moves nothing: the record stays the newest turn's
    assert.deepEqual(await mark(1, "queue/000000001.md"), { last_code_turn_consumed: 2, consumed_from: "queue/2.md" });
    // a turn from to-code.md has no queue file: the record goes
    assert.deepEqual(await mark(3, null), { last_code_turn_consumed: 3, consumed_from: undefined });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
