/** Test helpers: drive the pure decision over a sequence of calls with an injected clock. */
import { DEFAULT_CONFIG } from "../../config.ts";
import { callSignature, describeCall } from "./canonical.ts";
import { decideLoop, type LoopCall, type LoopDecision, recordCall } from "./decide.ts";
import type { HistoryEntry } from "./history.ts";
import { type LoopSettings, loopSettings } from "./settings.ts";

export const DEFAULTS: LoopSettings = loopSettings(DEFAULT_CONFIG);
export const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
export const MIN = 60_000;

export function bash(command: string): LoopCall {
  return call("Bash", { command });
}

export function call(tool: string, input: Record<string, unknown>): LoopCall {
  return { tool, sig: callSignature(tool, input), desc: describeCall(tool, input) };
}

export interface Step {
  call: LoopCall;
  /** Minutes after T0 (default: one second after the previous step). */
  atMin?: number;
}

export interface Played {
  decisions: LoopDecision[];
  /** "allow" | "warn" | "deny" per step. */
  actions: string[];
  history: HistoryEntry[];
}

/** Runs the calls in order through decideLoop and recordCall, as the hook does (denied calls recorded). */
export function play(steps: readonly (Step | LoopCall)[], settings: LoopSettings = DEFAULTS): Played {
  let history: HistoryEntry[] = [];
  let now = T0;
  const decisions: LoopDecision[] = [];
  for (const raw of steps) {
    const step: Step = "call" in raw ? raw : { call: raw };
    now = step.atMin !== undefined ? T0 + step.atMin * MIN : now + 1000;
    const input = { history, call: step.call, settings, now };
    const decision = decideLoop(input);
    history = recordCall(input, decision.action === "deny");
    decisions.push(decision);
  }
  return { decisions, actions: decisions.map((d) => d.action), history };
}

/** `"ABAB"` → Bash calls A, B, A, B (one letter per call). */
export function letters(seq: string): LoopCall[] {
  return [...seq].map((c) => bash(c));
}
