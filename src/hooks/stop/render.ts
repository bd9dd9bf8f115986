/**
 * A Stop decision as Claude Code's JSON: the only thing the hook prints. Allowing prints nothing, and so do a
 * block in observe mode and one held for a person at the keyboard (`decision.attended`).
 */
import type { ContinueVia } from "../../config.ts";
import { stripControls } from "../../controls.ts";
import type { StopDecision } from "./decision.ts";

export interface RenderOptions {
  continueVia: ContinueVia;
  observe: boolean;
  /** "Stop" or "SubagentStop": the hookEventName of an additionalContext answer. */
  event: string;
}

export function renderStop(decision: StopDecision, options: RenderOptions): string {
  if (decision.action !== "block" || options.observe || decision.attended === true || !decision.reason) return "";
  // a reason quotes message, transcript or mailbox text: no control characters reach the model's input
  const reason = stripControls(decision.reason);
  if (options.continueVia === "context") {
    const hookEventName = options.event === "SubagentStop" ? "SubagentStop" : "Stop";
    return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: reason } }) + "\n";
  }
  return JSON.stringify({ decision: "block", reason }) + "\n";
}
