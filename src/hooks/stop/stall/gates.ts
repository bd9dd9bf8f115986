/**
 * The guardrails around a stall nudge, in this order: the payload's stop_hook_active (a stop that follows a
 * block is not nudged again) → kill switch → cooldown → retry cap per tool_use_id → the shared per-turn cap.
 * Pure: the caller passes the state, settings and clock, and gets the outcome and the new state.
 */
import type { StallSignature } from "./signature.ts";
import type { StallState } from "./stall_schema.ts";

export type { StallState };

export function freshStallState(): StallState {
  return { retries: {}, lastRecoveryAt: null };
}

export type StallGate = "stop_hook_active" | "kill_switch" | "cooldown" | "retry_cap" | "turn_cap";

export interface GateInput {
  signatures: readonly StallSignature[];
  state: StallState;
  /** The payload's stop_hook_active. */
  continuing: boolean;
  killSwitch: boolean;
  cooldownS: number;
  maxRetries: number;
  /** Blocks already sent in this user turn, and the per-turn cap they share with the early-stop guard. */
  blocksThisTurn: number;
  turnMax: number;
  now: number;
}

export type GateOutcome =
  /** Nudge for `dispatch`; `capped` stalls are past their retry cap and only logged. */
  | { action: "nudge"; dispatch: StallSignature[]; capped: StallSignature[]; state: StallState }
  /** No nudge: `gate` says which guardrail held it back. */
  | { action: "suppress"; gate: StallGate; capped: StallSignature[]; cooldownLeftS: number | null; state: StallState };

const MAX_TRACKED_IDS = 256;

export function applyGates(input: GateInput): GateOutcome {
  const { state } = input;
  const suppress = (
    gate: StallGate,
    capped: StallSignature[] = [],
    cooldownLeftS: number | null = null,
  ): GateOutcome => ({
    action: "suppress",
    gate,
    capped,
    cooldownLeftS,
    state,
  });
  if (input.continuing) return suppress("stop_hook_active");
  if (input.killSwitch) return suppress("kill_switch");
  if (input.cooldownS > 0 && state.lastRecoveryAt !== null) {
    const elapsed = (input.now - state.lastRecoveryAt) / 1000;
    if (elapsed < input.cooldownS) return suppress("cooldown", [], Math.ceil(input.cooldownS - elapsed));
  }
  const dispatch: StallSignature[] = [];
  const capped: StallSignature[] = [];
  for (const signature of input.signatures) {
    if (retriesOf(state.retries, signature.id) >= input.maxRetries) capped.push(signature);
    else dispatch.push(signature);
  }
  if (dispatch.length === 0) return suppress("retry_cap", capped);
  if (input.blocksThisTurn >= input.turnMax) return suppress("turn_cap", capped);
  const retries = { ...state.retries };
  for (const signature of dispatch) retries[signature.id] = retriesOf(retries, signature.id) + 1;
  const kept = Object.entries(retries).slice(-MAX_TRACKED_IDS);
  return { action: "nudge", dispatch, capped, state: { retries: Object.fromEntries(kept), lastRecoveryAt: input.now } };
}

/** The nudges sent for a tool call: an own key only (an id such as `constructor` is a key like any other). */
function retriesOf(retries: Record<string, number>, id: string): number {
  return Object.hasOwn(retries, id) ? retries[id]! : 0;
}
