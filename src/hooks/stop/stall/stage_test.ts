import assert from "node:assert/strict";
import { freshStallState } from "./gates.ts";
import { stallStage, type StallStageInput } from "./stage.ts";

const stalled = { pending: [{ id: "toolu_1", name: "Read", line: 3 }], emptyResults: [], trailingResults: null };

function input(extra: Partial<StallStageInput> = {}): StallStageInput {
  return {
    tools: stalled,
    state: freshStallState(),
    continuing: false,
    killSwitch: false,
    cooldownS: 0,
    maxRetries: 3,
    blocksThisTurn: 0,
    turnMax: 3,
    now: 5000,
    observe: false,
    ...extra,
  };
}

Deno.test("stallStage() on a healthy turn logs healthy_stop and leaves the decision to the guard", () => {
  const out = stallStage(input({ tools: { pending: [], emptyResults: [], trailingResults: null } }));
  assert.equal(out.decision, null);
  assert.deepEqual(out.events.map((e) => e.name), ["healthy_stop"]);
});

Deno.test("stallStage() nudges with the recovery prompt and logs detection and dispatch with counters", () => {
  const out = stallStage(input());
  assert.equal(out.decision?.action, "block");
  assert.equal(out.decision?.rule, "stall-pending-tool-use");
  assert.match(out.decision!.reason!, /pending tool_use: .*Read.*toolu_1.*line 3/);
  assert.deepEqual(out.events.map((e) => e.name), ["stall_detected", "recovery_dispatched"]);
  assert.equal(out.events[1]!.stalls[0]!.retries, 1);
  assert.equal(out.events[1]!.stalls[0]!.signature, "pending_tool_use:toolu_1");
  assert.deepEqual(out.state.retries, { toolu_1: 1 });
});

Deno.test("stallStage() logs the gate that held a nudge back", () => {
  const names = (extra: Partial<StallStageInput>) => {
    const out = stallStage(input(extra));
    assert.equal(out.decision, null);
    return out.events.map((e) => `${e.name}${e.gate ? `/${e.gate}` : ""}`);
  };
  assert.deepEqual(names({ killSwitch: true }), ["stall_detected", "kill_switch_active/kill_switch"]);
  assert.deepEqual(names({ cooldownS: 30, state: { retries: {}, lastRecoveryAt: 4000 } }), [
    "stall_detected",
    "cooldown_skipped/cooldown",
  ]);
  assert.deepEqual(names({ state: { retries: { toolu_1: 3 }, lastRecoveryAt: null } }), [
    "stall_detected",
    "retry_cap_hit/retry_cap",
  ]);
  assert.deepEqual(names({ continuing: true }), ["stall_detected", "recovery_suppressed/stop_hook_active"]);
  assert.deepEqual(names({ blocksThisTurn: 3 }), ["stall_detected", "recovery_suppressed/turn_cap"]);
});

Deno.test("stallStage() in observe mode decides the same but keeps the retry counters", () => {
  const out = stallStage(input({ observe: true }));
  assert.equal(out.decision?.action, "block");
  assert.deepEqual(out.state.retries, {});
});
