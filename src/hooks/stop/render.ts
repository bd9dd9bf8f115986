/**
 * A Stop decision as Claude Code's JSON: the only thing the hook prints. Allowing prints nothing, and so do a
 * block in observe mode and one held for a person at the keyboard (`decision.attended`).
 */
import type { ContinueVia } from "../../config.ts";
import type { StopDecision } from "./decision.ts";

export interface RenderOptions {
  continueVia: ContinueVia;
  observe: boolean;
  /** "Stop" or "SubagentStop": the hookEventName of an additionalContext answer. */
  event: string;
}

export function renderStop(decision: StopDecision, options: RenderOptions): string {
  if (decision.action !== "block" || options.observe || decision.attended === true || !decision.reason) return "";
  if (options.continueVia === "context") {
    const hookEventName = options.event === "SubagentStop" ? "SubagentStop" : "Stop";
    return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: decision.reason } }) + "\n";
  }
  return JSON.stringify({ decision: "block", reason: decision.reason }) + "\n";
}
