/**
 * The stall stage of `hook stop`: detect, pass the guardrails, and either nudge (a block whose reason is the
 * recovery prompt) or let the early-stop guard decide. Pure: returns the decision, the log events and the new
 * stall state.
 */
import type { StopDecision } from "../decision.ts";
import { detectStalls, type TurnToolsLike } from "./detect.ts";
import { applyGates, type GateInput, type StallGate, type StallState } from "./gates.ts";
import { recoveryReason } from "./nudges.ts";
import { signatureKey, type StallSignature } from "./signature.ts";

export type StallEventName =
  | "stall_detected"
  | "recovery_dispatched"
  | "retry_cap_hit"
  | "cooldown_skipped"
  | "kill_switch_active"
  | "recovery_suppressed"
  | "healthy_stop";

export interface StallEventStall {
  kind: string;
  tool: string;
  id: string;
  line: number;
  signature: string;
  /** Nudges sent for this tool_use_id so far (after this stop). */
  retries: number;
}

export interface StallEvent {
  name: StallEventName;
  stalls: StallEventStall[];
  gate: StallGate | null;
  cooldownLeftS: number | null;
}

/** The gates' input, with the turn's tools in place of the stalls found in them. */
export interface StallStageInput extends Omit<GateInput, "signatures"> {
  tools: TurnToolsLike;
  /** Observe mode: decide and log as usual, but keep the stall state as it was (nothing was sent). */
  observe: boolean;
}

export interface StallStageResult {
  /** A block carrying the recovery prompt, or null: the early-stop guard decides. */
  decision: StopDecision | null;
  events: StallEvent[];
  state: StallState;
}

const EVENT_FOR_GATE: Record<StallGate, StallEventName> = {
  stop_hook_active: "recovery_suppressed",
  turn_cap: "recovery_suppressed",
  kill_switch: "kill_switch_active",
  cooldown: "cooldown_skipped",
  retry_cap: "retry_cap_hit",
};

export function stallStage(input: StallStageInput): StallStageResult {
  const signatures = detectStalls(input.tools);
  if (signatures.length === 0) {
    return { decision: null, events: [event("healthy_stop", [], input.state)], state: input.state };
  }
  const outcome = applyGates({ ...input, signatures });
  const events: StallEvent[] = [event("stall_detected", signatures, input.state)];
  if (outcome.action === "suppress") {
    const shown = outcome.gate === "retry_cap" ? outcome.capped : signatures;
    events.push({
      ...event(EVENT_FOR_GATE[outcome.gate], shown, input.state),
      gate: outcome.gate,
      cooldownLeftS: outcome.cooldownLeftS,
    });
    return { decision: null, events, state: input.state };
  }
  const next = input.observe ? input.state : outcome.state;
  events.push(event("recovery_dispatched", outcome.dispatch, outcome.state));
  if (outcome.capped.length > 0) {
    events.push({ ...event("retry_cap_hit", outcome.capped, input.state), gate: "retry_cap" });
  }
  const first = outcome.dispatch[0]!;
  const decision: StopDecision = {
    action: "block",
    rule: `stall-${first.kind.replaceAll("_", "-")}`,
    reason: recoveryReason(outcome.dispatch),
    open: [],
    match: signatureKey(first),
    source: null,
  };
  return { decision, events, state: next };
}

function event(name: StallEventName, signatures: readonly StallSignature[], state: StallState): StallEvent {
  return {
    name,
    stalls: signatures.map((s) => ({ ...s, signature: signatureKey(s), retries: state.retries[s.id] ?? 0 })),
    gate: null,
    cooldownLeftS: null,
  };
}
