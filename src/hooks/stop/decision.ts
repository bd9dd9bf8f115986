/** The record every Stop decision produces; rendered to Claude Code's JSON in render.ts and logged as is. */
import type { ChecklistSource } from "../../transcript/types.ts";

export type StopRule =
  | "background-work"
  | "plan-mode"
  | "cap"
  | "open-items"
  | "checklist-done"
  | "blocker-phrase"
  | "no-pattern"
  | string; // escape and early-stop rule ids come from the rule files

export interface StopDecision {
  action: "allow" | "block";
  /** Why: a stage name or the id of the rule that decided. */
  rule: StopRule;
  /** The text the agent is sent when blocked. */
  reason: string | null;
  /** Open checklist items (texts), when a checklist decided. */
  open: string[];
  /** The phrase a rule matched, quoted in the reason. */
  match: string | null;
  source: ChecklistSource | null;
  /**
   * True for an early-stop phrase rule's block while a person is at the keyboard, with config `attended: "observe"`:
   * the stop is let through (nothing is printed, nothing counted against the cap) and logged with `attended: true`.
   */
  attended?: boolean;
}

export function allow(rule: StopRule, extra: Partial<StopDecision> = {}): StopDecision {
  return { action: "allow", rule, reason: null, open: [], match: null, source: null, ...extra };
}
