/**
 * What an oversize line (skipped without decoding) may still tell. Only the kept head and tail are decoded.
 * - A real user prompt: a person can paste screenshots, and a prompt line with a few base64 images passes
 *   1 MiB; missing it would let the previous turn's checklist count for the new question.
 * - Tool results: such a line is not empty by definition; its tool_use ids (from the head, and from the tail
 *   before `toolUseResult`) answer the turn's pending calls.
 * - An assistant line: whether it shows text, and its tool calls (a Write of a huge file) by id and name,
 *   without their cut input.
 */
import { indexOfBytes, needles } from "./bytes.ts";
import { classifyLine, type ClassifyOptions, type LineEvent, type ToolResult } from "./line_event.ts";
import type { OversizeLine } from "./line_scanner.ts";
import { parseJsonPrefix } from "./partial_json.ts";

const decoder = new TextDecoder();
const IGNORED: LineEvent = { kind: "ignored" };

/** Top-level flags that Claude Code writes after `message` (so they sit in the tail of a long line). */
const TAIL_FLAGS = ["isMeta", "isCompactSummary", "isSidechain"] as const;
const TAIL_STRINGS = ["promptId", "uuid", "turnOrigin", "promptSource", "entrypoint"] as const;
/** Structural keys and values (inside a JSON string they would read `\"tool_use_id\"`). */
const TOOL_USE_ID_KEY = /"tool_use_id":\s*"([^"\\]{1,200})"/g;
const TOOL_RESULT_TYPE = '"type":"tool_result"';
const [TOOL_USE_RESULT_KEY] = needles(['"toolUseResult"']) as [Uint8Array];
/** Stands in for the cut content, to ask classifyLine whether a tool result line of this envelope counts. */
const PROBE_CONTENT = [{ type: "tool_result", tool_use_id: "", content: "x" }];

/** A prompt, tool results or tool calls read off an oversize line; `ignored` for anything else. */
export function classifyOversize(line: OversizeLine, options: ClassifyOptions): LineEvent {
  const headText = decoder.decode(line.head);
  const head = parseJsonPrefix(headText);
  if (typeof head !== "object" || head === null || Array.isArray(head)) return IGNORED;
  const record = head as Record<string, unknown>;
  if (record["type"] !== "user" && record["type"] !== "assistant") return IGNORED;
  const tail = decoder.decode(line.tail);
  const merged: Record<string, unknown> = { ...record };
  for (const key of TAIL_FLAGS) {
    if (merged[key] === undefined && lastMatch(tail, new RegExp(`"${key}"\\s*:\\s*(true|false)`, "g")) === "true") {
      merged[key] = true;
    }
  }
  for (const key of TAIL_STRINGS) {
    if (merged[key] === undefined) {
      const v = lastMatch(tail, new RegExp(`"${key}"\\s*:\\s*"([^"\\\\]{1,200})"`, "g"));
      if (v !== null) merged[key] = v;
    }
  }
  if (record["type"] === "user" && headText.includes(TOOL_RESULT_TYPE)) {
    const probe = classifyLine({ ...merged, message: { role: "user", content: PROBE_CONTENT } }, options);
    return probe.kind === "tool_results" ? { kind: "tool_results", results: oversizeResults(line) } : IGNORED;
  }
  const event = classifyLine(merged, options);
  switch (event.kind) {
    case "prompt":
      return event;
    case "assistant": {
      // Only calls whose id and name were complete in the head (a cut string would be a wrong id).
      const toolUses = event.toolUses
        .filter((u) => headText.includes(`"id":${JSON.stringify(u.id)}`))
        .filter((u) => headText.includes(`"name":${JSON.stringify(u.name)}`))
        .map((u) => ({ id: u.id, name: u.name, input: undefined }));
      return { kind: "assistant", messageId: null, model: null, texts: event.texts, toolUses, partial: true };
    }
    default:
      return IGNORED;
  }
}

/**
 * The ids complete in the head and in the tail, before the `toolUseResult` key (message comes first in every
 * layout seen; the tool's structured output is not searched). None is empty: the line is over the limit.
 */
function oversizeResults(line: OversizeLine): ToolResult[] {
  const ids: string[] = [];
  const headCut = indexOfBytes(line.head, TOOL_USE_RESULT_KEY);
  const parts = [headCut === -1 ? line.head : line.head.subarray(0, headCut)];
  if (headCut === -1) {
    const tailCut = indexOfBytes(line.tail, TOOL_USE_RESULT_KEY);
    parts.push(tailCut === -1 ? line.tail : line.tail.subarray(0, tailCut));
  }
  for (const part of parts) {
    for (const m of decoder.decode(part).matchAll(TOOL_USE_ID_KEY)) {
      if (!ids.includes(m[1]!)) ids.push(m[1]!);
    }
  }
  return ids.map((toolUseId) => ({ toolUseId, isError: false, createdTaskId: null, empty: false }));
}

function lastMatch(text: string, re: RegExp): string | null {
  let found: string | null = null;
  for (const m of text.matchAll(re)) found = m[1] ?? null;
  return found;
}
