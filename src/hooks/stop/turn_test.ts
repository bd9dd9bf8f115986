import assert from "node:assert/strict";
import { freshState } from "./state.ts";
import { parseStopPayload } from "./payload.ts";
import { COPY_STARTED_EARLIER_MS, enterTurn, findDuplicate, remember, stopFingerprint } from "./turn.ts";

const stop = (extra: Record<string, unknown>) =>
  parseStopPayload({
    hook_event_name: "Stop",
    session_id: "s1",
    last_assistant_message: "Want me to go on?",
    ...extra,
  });

Deno.test("enterTurn() keeps the block count within one prompt_id and resets it on a new one", () => {
  let state = enterTurn(freshState(), stop({ prompt_id: "p1", stop_hook_active: false }));
  state = { ...state, turn: { ...state.turn, blocks: 2 } };
  // stop_hook_active can stay false on repeated stops of one prompt: the prompt id still holds the count
  assert.equal(enterTurn(state, stop({ prompt_id: "p1", stop_hook_active: false })).turn.blocks, 2);
  assert.equal(enterTurn(state, stop({ prompt_id: "p1", stop_hook_active: true })).turn.blocks, 2);
  const next = enterTurn(state, stop({ prompt_id: "p2", stop_hook_active: false }));
  assert.equal(next.turn.blocks, 0);
  assert.equal(next.turn.key, "p:p2");
});

Deno.test("enterTurn() without prompt_id starts a turn on stop_hook_active false and continues it on true", () => {
  let state = enterTurn(freshState(), stop({ stop_hook_active: false }));
  state = { ...state, turn: { ...state.turn, blocks: 1 } };
  assert.equal(enterTurn(state, stop({ stop_hook_active: true })).turn.blocks, 1);
  assert.equal(enterTurn(state, stop({ stop_hook_active: null })).turn.blocks, 0);
  assert.equal(enterTurn(state, stop({})).turn.blocks, 0);
  // a continuation with no turn on record starts one
  assert.equal(enterTurn(freshState(), stop({ stop_hook_active: true })).turn.key, "s:1");
});

/** The block a remembered stop gave, for the duplicate-call tests. */
const BLOCK = {
  action: "block" as const,
  rule: "offers-to-continue",
  reason: "r",
  open: [],
  match: "Want me to",
  source: null,
};

Deno.test("findDuplicate() matches a parallel call for the same stop but not a later stop", () => {
  const payload = stop({ prompt_id: "p1" });
  const fp = stopFingerprint(payload);
  const state = remember(freshState(), { fp, startedAt: 1000, finishedAt: 1200, decision: BLOCK, observe: false });
  const find = (startedAt: number, windowMs: number, otherFp = fp) =>
    findDuplicate(state, { fp: otherFp, startedAt, windowMs, maxRunMs: 10_000 });
  assert.equal(find(1100, 0)?.decision.rule, "offers-to-continue");
  assert.equal(find(1200, 0)?.decision.rule, "offers-to-continue");
  assert.equal(find(1201, 0), null, "started after the first call finished: a new stop");
  assert.equal(find(1300, 100)?.decision.rule, "offers-to-continue");
  assert.equal(find(1100, 0, stopFingerprint(stop({ prompt_id: "p1", stop_hook_active: true }))), null);
  assert.notEqual(stopFingerprint(stop({ agent_id: "a" })), stopFingerprint(stop({ agent_id: "b" })));
});

Deno.test("findDuplicate() on a wall clock that steps: a copy starts alongside the first, not an hour before it", () => {
  const fp = stopFingerprint(stop({ stop_hook_active: true }));
  const start = Date.UTC(2026, 11, 1, 12);
  const state = remember(freshState(), {
    fp,
    startedAt: start,
    finishedAt: start + 200,
    decision: BLOCK,
    observe: false,
  });
  const find = (startedAt: number, s = state) => findDuplicate(s, { fp, startedAt, windowMs: 0, maxRunMs: 10_000 });
  // a copy whose process started first but took the session lock second
  assert.equal(find(start - 2_000)?.decision.rule, "offers-to-continue");
  assert.equal(find(start - COPY_STARTED_EARLIER_MS)?.decision.rule, "offers-to-continue");
  assert.equal(find(start - COPY_STARTED_EARLIER_MS - 1), null);
  // the clock stepped back an hour: every later stop started "before the first finished", and none is its copy
  for (let later = 1_000; later <= 60_000; later += 1_000) assert.equal(find(start - 3_600_000 + later), null);
  // the first call's finish was read after the clock stepped forward an hour, and the step was undone: its finish
  // counts at most its budget after its start
  const stepped = remember(freshState(), {
    fp,
    startedAt: start,
    finishedAt: start + 3_600_000,
    decision: BLOCK,
    observe: false,
  });
  assert.equal(find(start + 100, stepped)?.decision.rule, "offers-to-continue");
  assert.equal(find(start + 10_000, stepped)?.decision.rule, "offers-to-continue");
  assert.equal(find(start + 10_001, stepped), null);
  assert.equal(find(start + 30 * 60_000, stepped), null);
  // the clock stepped back while the first call ran (it finished "before" it started): no call is its copy
  const backwards = remember(freshState(), {
    fp,
    startedAt: start,
    finishedAt: start - 3_600_000,
    decision: BLOCK,
    observe: false,
  });
  assert.equal(find(start, backwards), null);
  assert.equal(find(start - 3_600_000, backwards), null);
});

Deno.test("remember() keeps only the last few decisions", () => {
  let state = freshState();
  const decision = { action: "allow" as const, rule: "no-pattern", reason: null, open: [], match: null, source: null };
  for (let i = 0; i < 20; i++) {
    state = remember(state, { fp: String(i), startedAt: i, finishedAt: i, decision, observe: false });
  }
  assert.equal(state.recent.length, 8);
  assert.equal(state.recent.at(-1)!.fp, "19");
});

Deno.test("stopFingerprint() tells a repeated final message after a finished stop from a second registration", () => {
  const payload = stop({ prompt_id: "p1", stop_hook_active: true });
  assert.equal(stopFingerprint(payload, 2), stopFingerprint(payload, 2));
  assert.notEqual(stopFingerprint(payload, 2), stopFingerprint(payload, 3));
  assert.notEqual(stopFingerprint(payload, null), stopFingerprint(payload, 0));
});
