/**
 * The pure transcript reducer: (state, line) → state. The incremental reader folds it over the lines it
 * reads; replay can fold it over stored lines. It never mutates its input state.
 */
import {
  TASK_CREATE,
  TASK_UPDATE,
  taskCreateSubject,
  taskUpdateInput,
  TODO_WRITE,
  todoWriteItems,
} from "./checklist_tools.ts";
import {
  classifyLine,
  type ClassifyOptions,
  lineEntrypoint,
  type LineEvent,
  type ToolResult,
  type ToolUse,
} from "./line_event.ts";
import type { PromptMark } from "./prompt_mark.ts";
import { scanMarkdownChecklist } from "./markdown_checklist.ts";
import {
  type CurrentMessage,
  MAX_KEPT_TEXT,
  MAX_PENDING_CREATES,
  MAX_TEXT_HASHES,
  type ReducerState,
} from "./reducer_state.ts";
import { EMPTY_SYNC_HASH, extendSyncHash, syncDigest, syncHashOf } from "./sync_hash.ts";
import { initialTurnTools, toolsAfterAssistant, toolsAfterCompact, toolsAfterResults } from "./turn_tools.ts";
import { capList } from "./item_text.ts";

/**
 * Folds one parsed JSON line into the state. `lineNo` is the line's 1-based number in the file (0 when
 * unknown): it is what the turn's tool calls point at.
 */
export function reduceLine(state: ReducerState, line: unknown, options: ClassifyOptions, lineNo = 0): ReducerState {
  return withEntrypoint(reduceEvent(state, classifyLine(line, options), lineNo), lineEntrypoint(line, options));
}

/** The state after a line whose `entrypoint` (lineEntrypoint) is this: the newest one is kept, none keeps the last. */
export function withEntrypoint(state: ReducerState, entrypoint: string | null): ReducerState {
  return entrypoint === null || entrypoint === state.entrypoint ? state : { ...state, entrypoint };
}

/** Models that are not a model: Claude Code's own placeholder messages (API errors, "No response requested."). */
const PLACEHOLDER_MODELS = new Set(["<synthetic>"]);

export function reduceEvent(state: ReducerState, event: LineEvent, lineNo = 0): ReducerState {
  switch (event.kind) {
    case "prompt":
      return startTurn(state, event.id, event.mark);
    case "command":
      return { ...state, pendingCommand: { id: event.id, mark: event.mark } };
    case "local_output":
      return state.pendingCommand ? { ...state, pendingCommand: null } : state;
    case "assistant":
      return assistant(
        state.pendingCommand ? startTurn(state, state.pendingCommand.id, state.pendingCommand.mark) : state,
        event,
        lineNo,
      );
    case "tool_results": {
      const next = toolResults(state, event.results);
      return { ...next, tools: toolsAfterResults(next.tools, event.results, lineNo) };
    }
    case "stop_summary":
      return { ...state, stopSummaries: state.stopSummaries + 1 };
    case "compact":
      return { ...state, tools: toolsAfterCompact(state.tools) };
    case "ignored":
      return state;
  }
}

function startTurn(state: ReducerState, id: string | null, mark: PromptMark): ReducerState {
  const { messageText: _text, ...rest } = state;
  return {
    ...rest,
    turnSeq: state.turnSeq + 1,
    turnId: id,
    promptMark: mark,
    pendingCommand: null,
    message: null,
    textHashes: [],
    tools: initialTurnTools(),
  };
}

function assistant(
  state: ReducerState,
  event: Extract<LineEvent, { kind: "assistant" }>,
  lineNo: number,
): ReducerState {
  let next = state;
  if (event.model && !PLACEHOLDER_MODELS.has(event.model) && event.model !== state.model) {
    next = { ...next, model: event.model };
  }
  // The head of an oversize line has cut texts and calls without input: no sync text and no checklist from it.
  if (!event.partial) {
    if (event.texts.length > 0) next = assistantText(next, event.messageId, event.texts);
    for (const use of event.toolUses) next = toolUse(next, use);
  }
  return { ...next, tools: toolsAfterAssistant(next.tools, event.toolUses, event.texts.length > 0, lineNo) };
}

/**
 * Continues the current message (same message.id) or starts one: updates the sync hashes (each block and the
 * merged message, whose hash is resumed from the stored one) and the Markdown list (read on from the stored fence,
 * after the items this message already has). The merged text itself is kept in memory only (messageText).
 */
function assistantText(state: ReducerState, messageId: string | null, texts: string[]): ReducerState {
  const added = texts.join("\n");
  const prev = state.message;
  const sameMessage = prev !== null && messageId !== null && prev.id === messageId;
  // the hash skips whitespace (it hashes the sync key), so A + "\n" + B hashes as A followed by B
  let key = sameMessage ? prev.key : EMPTY_SYNC_HASH;
  for (const text of texts) key = extendSyncHash(key, text);
  const hashes = [...texts.map((t) => syncDigest(syncHashOf(t))), syncDigest(key)];
  const textHashes = [...state.textHashes.filter((h) => !hashes.includes(h)), ...hashes].slice(-MAX_TEXT_HASHES);
  const scan = scanMarkdownChecklist(added, sameMessage ? prev.fence : null);
  const before = sameMessage && prev.listed && state.markdown ? state.markdown.items : [];
  const items = scan.items.length > 0 ? capList([...before, ...scan.items], (i) => i.done, "first") : before;
  const message: CurrentMessage = { id: messageId, key, fence: scan.fence, listed: items.length > 0 };
  const text = sameMessage && state.messageText !== undefined ? `${state.messageText}\n${added}` : added;
  return {
    ...state,
    message,
    messageText: text.length > MAX_KEPT_TEXT ? text.slice(-MAX_KEPT_TEXT) : text,
    textHashes,
    markdown: scan.items.length > 0 ? { items, turn: state.turnSeq } : state.markdown,
  };
}

function toolUse(state: ReducerState, use: ToolUse): ReducerState {
  switch (use.name) {
    case TASK_CREATE: {
      const subject = taskCreateSubject(use.input) ?? "";
      const pendingCreates = [...state.pendingCreates, { toolUseId: use.id, subject }].slice(-MAX_PENDING_CREATES);
      return { ...state, pendingCreates, tasksTurn: state.turnSeq };
    }
    case TASK_UPDATE:
      return { ...updateTask(state, use.input), tasksTurn: state.turnSeq };
    case TODO_WRITE: {
      const items = todoWriteItems(use.input);
      return items ? { ...state, todo: { items, turn: state.turnSeq } } : state;
    }
    default:
      return state;
  }
}

function updateTask(state: ReducerState, input: unknown): ReducerState {
  const update = taskUpdateInput(input);
  if (!update) return state;
  const index = state.tasks.findIndex((t) => t.id === update.taskId);
  if (index === -1) return state;
  if (update.status === "deleted") return { ...state, tasks: state.tasks.filter((_, i) => i !== index) };
  const tasks = state.tasks.slice();
  const old = tasks[index]!;
  tasks[index] = { id: old.id, subject: update.subject ?? old.subject, status: update.status ?? old.status };
  return { ...state, tasks };
}

/** A TaskCreate result adds the task under the id Claude Code assigned; a failed create adds nothing. */
function toolResults(state: ReducerState, results: ToolResult[]): ReducerState {
  let next = state;
  for (const result of results) {
    const pending = next.pendingCreates.find((p) => p.toolUseId === result.toolUseId);
    if (!pending) continue;
    const pendingCreates = next.pendingCreates.filter((p) => p !== pending);
    const id = result.isError ? null : result.createdTaskId;
    if (id === null) {
      next = { ...next, pendingCreates };
      continue;
    }
    const task = { id, subject: pending.subject, status: "pending" };
    const existing = next.tasks.findIndex((t) => t.id === id);
    const tasks = existing === -1
      ? capList([...next.tasks, task], (t) => t.status === "completed", "last")
      : next.tasks.map((t, i) => (i === existing ? task : t));
    next = { ...next, pendingCreates, tasks };
  }
  return next;
}
