import assert from "node:assert/strict";
import { join } from "node:path";
import { advancePromptState, promptStatePath, readPromptState, writePromptState } from "./state.ts";
import { parsePromptState } from "./state_schema.ts";

const T0 = Date.parse("2026-10-06T12:00:00Z");
const MIN = 60_000;

Deno.test("advancePromptState(): the first prompt opens the session", () => {
  const { state, timing } = advancePromptState(null, { now: T0, promptId: "p1" });
  assert.deepEqual(timing, { firstTurn: true, openForMs: 0, sinceLastMs: null, duplicate: false });
  assert.deepEqual(state, { v: 1, openedAt: T0, lastPromptAt: T0, lastPromptId: "p1", prevPromptAt: null, prompts: 1 });
});

Deno.test("advancePromptState(): later prompts measure the session and the gap, days included", () => {
  let s = advancePromptState(null, { now: T0, promptId: "p1" }).state;
  const second = advancePromptState(s, { now: T0 + 5 * MIN, promptId: "p2" });
  assert.deepEqual(second.timing, { firstTurn: false, openForMs: 5 * MIN, sinceLastMs: 5 * MIN, duplicate: false });
  s = second.state;
  const third = advancePromptState(s, { now: T0 + 3 * 24 * 60 * MIN, promptId: null });
  assert.equal(third.timing.sinceLastMs, 3 * 24 * 60 * MIN - 5 * MIN);
  assert.equal(third.timing.openForMs, 3 * 24 * 60 * MIN);
  assert.equal(third.state.prompts, 3);
  assert.equal(third.state.lastPromptId, null);
  // a clock that went backwards never gives a negative gap
  const skew = advancePromptState(third.state, { now: T0, promptId: "p4" });
  assert.equal(skew.timing.sinceLastMs, 0);
});

Deno.test("advancePromptState(): the same prompt_id again (hook registered twice) repeats the answer", () => {
  const first = advancePromptState(null, { now: T0, promptId: "p1" });
  const again = advancePromptState(first.state, { now: T0 + 200, promptId: "p1" });
  assert.equal(again.timing.duplicate, true);
  assert.equal(again.timing.firstTurn, true);
  assert.equal(again.state, first.state);
  const second = advancePromptState(first.state, { now: T0 + MIN, promptId: "p2" });
  const secondAgain = advancePromptState(second.state, { now: T0 + MIN + 300, promptId: "p2" });
  assert.deepEqual(secondAgain.timing, {
    firstTurn: false,
    openForMs: MIN + 300,
    sinceLastMs: MIN + 300,
    duplicate: true,
  });
});

Deno.test("parsePromptState(): corrupt or wrong-shaped files are reset with a problem", () => {
  assert.match(parsePromptState("{oops", "/s.json").problem!, /Corrupt state file "\/s.json": not JSON; reset/);
  const wrong = parsePromptState(JSON.stringify({ v: 1, openedAt: "yesterday" }), "/s.json");
  assert.equal(wrong.state, null);
  assert.match(wrong.problem!, /openedAt/);
  assert.equal(parsePromptState(JSON.stringify({ v: 2 }), "/s.json").state, null);
});

Deno.test("readPromptState()/writePromptState(): round trip, missing file, sanitised name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "prompt-state-" });
  try {
    const path = promptStatePath(dir, "../../etc/passwd");
    assert.ok(path.startsWith(dir + "/") && path.endsWith(".prompt.json") && !path.includes(".."), path);
    assert.deepEqual(await readPromptState(path), { state: null, problem: null });
    const { state } = advancePromptState(null, { now: T0, promptId: null });
    await writePromptState(path, state);
    assert.deepEqual(await readPromptState(path), { state, problem: null });
    assert.equal(promptStatePath(dir, "abc-123"), join(dir, "abc-123.prompt.json"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
