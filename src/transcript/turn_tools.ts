/**
 * The current turn's tool calls, for the stall check: calls with no result yet, results empty in every form,
 * and the results the turn ends on. Old turns are history: all of it is reset at each real prompt. Only ids,
 * names and line numbers are kept, each list bounded, so the index stays small.
 */
import type { ToolResult } from "./line_event.ts";
import type { ToolCallRefState, TurnToolsState } from "./turn_tools_schema.ts";
import type { TurnTools } from "./types.ts";

export type { ToolCallRefState, TurnToolsState };

/** Bound of pending, empty and trailing (the newest are kept). */
export const MAX_TOOL_REFS = 32;
/** Bound of the answered ids: an out-of-order result is written next to its use, so a few dozen suffice. */
export const MAX_ANSWERED = 64;

export function initialTurnTools(): TurnToolsState {
  return { calls: 0, pending: [], answered: [], empty: [], trailing: null };
}

/**
 * An assistant line at `line` with these tool calls; `hasText` when it has non-blank text. Only a line with
 * visible output (text, or a call not answered yet) is a reply to the results before it: a blank or
 * thinking-only line is not (the client itself then nudges "Your previous response had no visible output"),
 * nor a tool_use line written after its result (§4.6).
 */
export function toolsAfterAssistant(
  tools: TurnToolsState,
  uses: ReadonlyArray<{ id: string; name: string }>,
  hasText: boolean,
  line: number,
): TurnToolsState {
  let { calls, pending, empty, trailing } = tools;
  let replied = hasText;
  for (const use of uses) {
    if (tools.answered.includes(use.id)) {
      // Written after its result: a call of this turn, already answered, named now.
      calls++;
      empty = named(empty, use);
      trailing = trailing === null ? null : named(trailing, use);
      continue;
    }
    replied = true;
    if (pending.some((p) => p.id === use.id)) continue; // the same block written twice
    calls++;
    pending = bounded([...pending, { id: use.id, name: use.name, line }], MAX_TOOL_REFS);
  }
  return { calls, pending, answered: tools.answered, empty, trailing: replied ? null : trailing };
}

/** A line of tool results at `line`. */
export function toolsAfterResults(tools: TurnToolsState, results: readonly ToolResult[], line: number): TurnToolsState {
  let { pending, answered, empty } = tools;
  const trailing = [...(tools.trailing ?? [])];
  for (const result of results) {
    const id = result.toolUseId;
    const ref = { id, name: pending.find((p) => p.id === id)?.name ?? nameOf(tools, id), line };
    pending = pending.filter((p) => p.id !== id);
    answered = bounded([...answered.filter((a) => a !== id), id], MAX_ANSWERED);
    if (result.empty) empty = bounded([...empty.filter((e) => e.id !== id), ref], MAX_TOOL_REFS);
    else empty = empty.filter((e) => e.id !== id);
    trailing.push(ref);
  }
  return { calls: tools.calls, pending, answered, empty, trailing: bounded(trailing, MAX_TOOL_REFS) };
}

/**
 * A compaction boundary: the conversation goes on from a summary, on a new chain. A call written just before
 * it is never answered (seen in the corpus: auto-compaction right after a Bash tool_use), and the results
 * before it are not what the model answers next. The turn's empty results and call count stay.
 */
export function toolsAfterCompact(tools: TurnToolsState): TurnToolsState {
  return { ...tools, pending: [], trailing: null };
}

/** The view of the turn's tools. */
export function turnToolsView(tools: TurnToolsState): TurnTools {
  return {
    pending: tools.pending.map(copy),
    emptyResults: tools.empty.map(copy),
    trailingResults: tools.trailing === null ? null : tools.trailing.map(copy),
    calls: tools.calls,
  };
}

/** A name already known for this id (a second result for the same call). */
function nameOf(tools: TurnToolsState, id: string): string {
  return [...tools.empty, ...(tools.trailing ?? [])].find((r) => r.id === id && r.name !== "")?.name ?? "";
}

function named(refs: ToolCallRefState[], use: { id: string; name: string }): ToolCallRefState[] {
  return refs.some((r) => r.id === use.id && r.name === "")
    ? refs.map((r) => (r.id === use.id && r.name === "" ? { ...r, name: use.name } : r))
    : refs;
}

function bounded<T>(list: T[], max: number): T[] {
  return list.length > max ? list.slice(-max) : list;
}

function copy(ref: ToolCallRefState): ToolCallRefState {
  return { id: ref.id, name: ref.name, line: ref.line };
}
