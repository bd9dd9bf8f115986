import assert from "node:assert/strict";
import { applyGates, freshStallState, type GateInput } from "./gates.ts";
import type { StallSignature } from "./signature.ts";

const read: StallSignature = { kind: "pending_tool_use", tool: "Read", id: "t1", line: 3 };
const mcp: StallSignature = { kind: "hung_mcp_call", tool: "mcp__a__b", id: "t2", line: 7 };

function input(extra: Partial<GateInput> = {}): GateInput {
  return {
    signatures: [read],
    state: freshStallState(),
    continuing: false,
    killSwitch: false,
    cooldownS: 0,
    maxRetries: 3,
    blocksThisTurn: 0,
    turnMax: 3,
    now: 1_000_000,
    ...extra,
  };
}

Deno.test("applyGates() nudges and counts the retry per tool_use_id", () => {
  const out = applyGates(input({ signatures: [read, mcp] }));
  assert.equal(out.action, "nudge");
  assert.deepEqual(out.state.retries, { t1: 1, t2: 1 });
  assert.equal(out.state.lastRecoveryAt, 1_000_000);
});

Deno.test("applyGates() caps after N nudges for one tool_use_id, and a new id starts fresh", () => {
  let state = freshStallState();
  const actions: string[] = [];
  for (let i = 0; i < 4; i++) {
    const out = applyGates(input({ state, maxRetries: 3 }));
    actions.push(out.action === "nudge" ? "nudge" : out.gate);
    state = out.state;
  }
  assert.deepEqual(actions, ["nudge", "nudge", "nudge", "retry_cap"]);
  const capped = applyGates(input({ state }));
  assert.equal(capped.action, "suppress");
  assert.deepEqual(capped.capped, [read]);
  const fresh = applyGates(input({ state, signatures: [read, mcp] }));
  assert.equal(fresh.action, "nudge");
  assert.deepEqual(fresh.action === "nudge" && fresh.dispatch, [mcp]);
  assert.deepEqual(fresh.capped, [read]);
});

Deno.test("applyGates() cooldown holds inside the window and lets go at its boundary", () => {
  const state = { retries: { t0: 1 }, lastRecoveryAt: 1_000_000 };
  const inside = applyGates(input({ state, cooldownS: 60, now: 1_000_000 + 59_999 }));
  assert.equal(inside.action === "suppress" && inside.gate, "cooldown");
  assert.equal(inside.action === "suppress" && inside.cooldownLeftS, 1);
  assert.equal(applyGates(input({ state, cooldownS: 60, now: 1_000_000 + 60_000 })).action, "nudge");
  assert.equal(applyGates(input({ state, cooldownS: 0, now: 1_000_001 })).action, "nudge");
});

Deno.test("applyGates() order: stop_hook_active, kill switch, cooldown, retry cap, turn cap", () => {
  const capped = { retries: { t1: 3 }, lastRecoveryAt: 1_000_000 };
  const gate = (extra: Partial<GateInput>) => {
    const out = applyGates(input(extra));
    return out.action === "suppress" ? out.gate : "nudge";
  };
  const all = { continuing: true, killSwitch: true, cooldownS: 60, state: capped, blocksThisTurn: 3 };
  assert.equal(gate(all), "stop_hook_active");
  assert.equal(gate({ ...all, continuing: false }), "kill_switch");
  assert.equal(gate({ ...all, continuing: false, killSwitch: false }), "cooldown");
  assert.equal(gate({ ...all, continuing: false, killSwitch: false, cooldownS: 0 }), "retry_cap");
  assert.equal(gate({ blocksThisTurn: 3 }), "turn_cap");
  assert.equal(gate({ blocksThisTurn: 2 }), "nudge");
});
