/**
 * The Stop guard's verdict on one stop: the decision table (stages.ts) run once, with no bookkeeping. The hook and
 * replay run the whole Stop step (step.ts), which adds the duplicate answer, the turn and its block count, and the
 * stall state; decideStop serves the callers that judge a single stop on its own (the eval, tests, the bench).
 */
import type { StopDecision } from "./decision.ts";
import { runStopStages, type StageInput } from "./stages.ts";

export type StopInput = StageInput;

export function decideStop(input: StopInput): StopDecision {
  return runStopStages(input).decision;
}

export {
  ESCAPE_MAX_CHARS,
  findEscapeLine,
  isPhraseRuleBlock,
  needsTranscript,
  openItemsReason,
  pickChecklist,
} from "./stages.ts";
