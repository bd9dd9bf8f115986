/** What the Stop hook's step (and the relay's later stage) hands the renderer. */
import type { StopDecision } from "./decision.ts";

export interface StopResult {
  decision: StopDecision;
  /** Nothing is printed in observe mode; the relay's hand-over is printed either way (ACTIVE is its own switch). */
  observe: boolean;
  /** A second copy of a stop already answered. */
  duplicate: boolean;
  /** The transcript's `entrypoint` mark for this turn, for the relay's decision line (as the guard's line has it). */
  entrypoint?: string | null;
}
