import assert from "node:assert/strict";
import { join } from "node:path";
import { loopKey, loopStatePath, parseLoopState, readLoopState, writeLoopState } from "./history.ts";

Deno.test("loopKey(): session alone, or session and agent; unsafe ids are sanitised", () => {
  assert.equal(loopKey("s1", undefined), "s1");
  assert.equal(loopKey("s1", null), "s1");
  assert.equal(loopKey("s1", "a7"), "s1.a7");
  assert.notEqual(loopKey("s1", "a7"), loopKey("s1", "a8"));
  const evil = loopStatePath("/h/state", loopKey("../../etc/evil", "../x"));
  assert.ok(evil.startsWith("/h/state/") && !evil.includes(".."), evil);
  assert.match(evil, /\.loop\.json$/);
});

Deno.test("parseLoopState(): corrupt text or a wrong shape resets with a problem", () => {
  assert.match(parseLoopState("{", "f").problem!, /Corrupt loop state file "f": not JSON; reset/);
  assert.match(parseLoopState('{"v":1,"history":[{"tool":1}]}', "f").problem!, /history\.0\.tool/);
  assert.deepEqual(parseLoopState('{"v":2,"history":[]}', "f").state, { v: 1, history: [] });
  const ok = parseLoopState('{"v":1,"history":[{"tool":"Bash","sig":"s","desc":"d","at":1,"denied":false}]}', "f");
  assert.equal(ok.problem, null);
  assert.equal(ok.state.history.length, 1);
});

Deno.test("readLoopState()/writeLoopState(): round trip; a missing file is an empty history; a folder is reset", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "state", "s.loop.json");
    assert.deepEqual(await readLoopState(file), { state: { v: 1, history: [] }, problem: null });
    const state = { v: 1 as const, history: [{ tool: "Bash", sig: "x", desc: "ls", at: 5, denied: true }] };
    await writeLoopState(file, state);
    assert.deepEqual((await readLoopState(file)).state, state);
    await Deno.remove(file);
    await Deno.mkdir(file);
    const loaded = await readLoopState(file);
    assert.match(loaded.problem ?? "", /Unreadable loop state file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
