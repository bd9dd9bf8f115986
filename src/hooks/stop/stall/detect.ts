/** The four stall kinds, read off the current user turn's tool calls. Pure. */
import type { StallSignature } from "./signature.ts";

export interface ToolCallLike {
  id: string;
  name: string;
  line: number;
}

/** The part of the transcript view the detector needs (see TurnView.tools). */
export interface TurnToolsLike {
  pending: readonly ToolCallLike[];
  emptyResults: readonly ToolCallLike[];
  trailingResults: readonly ToolCallLike[] | null;
}

/**
 * Every stall of the turn, in transcript order:
 * - pending_tool_use: a tool_use with no tool_result (hung_mcp_call when the tool is an `mcp__` tool);
 * - empty_tool_result: a result empty in every form (a legitimate empty output is not one: see the reader);
 * - missing_followup: the turn ends on tool results with no assistant reply (a result already flagged empty is
 *   not reported twice).
 */
export function detectStalls(tools: TurnToolsLike): StallSignature[] {
  const found: StallSignature[] = [];
  for (const call of tools.pending) {
    found.push({
      kind: call.name.startsWith("mcp__") ? "hung_mcp_call" : "pending_tool_use",
      tool: call.name,
      id: call.id,
      line: call.line,
    });
  }
  const empty = new Set<string>();
  for (const result of tools.emptyResults) {
    empty.add(result.id);
    found.push({ kind: "empty_tool_result", tool: result.name, id: result.id, line: result.line });
  }
  for (const result of tools.trailingResults ?? []) {
    if (empty.has(result.id)) continue;
    found.push({ kind: "missing_followup", tool: result.name, id: result.id, line: result.line });
  }
  return found.sort((a, b) => a.line - b.line);
}
