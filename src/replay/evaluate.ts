/**
 * One replayed stop through the same decision core as `hook stop`: the stall stage first, then decideStop.
 * Pure. Replay is observe mode: no state carries over between stops (each is the first stop of its turn, no
 * stall nudge sent before), and the relay is skipped.
 */
import type { Config } from "../config.ts";
import type { RuleSet } from "../rules/schema.ts";
import { decideStop } from "../hooks/stop/decide.ts";
import type { StopDecision } from "../hooks/stop/decision.ts";
import type { StopPayload } from "../hooks/stop/payload.ts";
import { stallStage } from "../hooks/stop/stall/stage.ts";
import { freshStallState } from "../hooks/stop/stall/gates.ts";
import type { ReducerState } from "../transcript/reducer_state.ts";
import { viewOf } from "../transcript/read_view.ts";

export interface ReplayedStop {
  decision: StopDecision;
  /** Stall kinds the stall stage saw (whether or not it nudged). */
  stallKinds: string[];
}

export interface EvaluateInput {
  payload: StopPayload;
  /** The reducer state up to (and including) the agent's final line of the turn. */
  state: ReducerState;
  config: Config;
  rules: RuleSet;
  stallDisabled: boolean;
  now: number;
}

export function evaluateStop(input: EvaluateInput): ReplayedStop {
  const { payload, config } = input;
  const final = payload.last_assistant_message ?? "";
  // The final message is in the file by construction: the transcript is read up to it.
  const view = viewOf(input.state, final.trim() !== "", emptyStats());
  const stall = stallStage({
    tools: view.tools,
    state: freshStallState(),
    continuing: false,
    killSwitch: input.stallDisabled,
    cooldownS: config.stallCooldownS,
    maxRetries: config.stallMaxRetries,
    blocksThisTurn: 0,
    turnMax: config.max,
    now: input.now,
    observe: true,
  });
  const stallKinds = [
    ...new Set(stall.events.flatMap((e) => e.name === "stall_detected" ? e.stalls.map((s) => s.kind) : [])),
  ];
  const decision = stall.decision ?? decideStop({ payload, view, blocksThisTurn: 0, config, rules: input.rules });
  return { decision, stallKinds };
}

function emptyStats() {
  return { bytesRead: 0, lines: 0, parsed: 0, malformed: 0, oversize: 0, fullScan: false, waitedMs: 0 };
}
