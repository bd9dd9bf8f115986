/**
 * What the reducer remembers after reading a transcript up to some line: small, JSON-serialisable and
 * versioned with the index, so the next Stop continues from it instead of rereading the file. It holds no
 * message text: ids, counts, hashes, and the checklist item texts (bounded, see item_text.ts).
 */
import { NO_MARK } from "./prompt_mark.ts";
import type { CurrentMessage, StoredReducerState, Task } from "./reducer_state_schema.ts";
import { initialTurnTools } from "./turn_tools.ts";
import type { ChecklistItem } from "./types.ts";

export type { CurrentMessage, StoredReducerState, Task };

/**
 * The reducer's state: the stored state plus, in memory only, the text of the current message (its tail,
 * merged over the lines read by this process). It serves the final-message containment check and replay, and is
 * never written: `storedState` drops it before the state goes into the index.
 */
export type ReducerState = StoredReducerState & { messageText?: string };

export const MAX_PENDING_CREATES = 64;
export const MAX_TEXT_HASHES = 24;
/** The in-memory text of a longer merged message keeps only its tail (the final sentence is at the end). */
export const MAX_KEPT_TEXT = 16 * 1024;

export function initialState(): ReducerState {
  return {
    turnSeq: 0,
    turnId: null,
    promptMark: NO_MARK,
    entrypoint: null,
    pendingCommand: null,
    tasks: [],
    tasksTurn: null,
    pendingCreates: [],
    todo: null,
    markdown: null,
    model: null,
    message: null,
    textHashes: [],
    stopSummaries: 0,
    tools: initialTurnTools(),
  };
}

/** The state without its in-memory text: what the index stores. */
export function storedState(state: ReducerState): StoredReducerState {
  const { messageText: _text, ...stored } = state;
  return stored;
}

export interface TurnChecklists {
  tasks: ChecklistItem[] | null;
  todo: ChecklistItem[] | null;
  markdown: ChecklistItem[] | null;
}

/** The checklists that count for the current turn: each only if it was written in this turn. */
export function turnChecklists(state: ReducerState): TurnChecklists {
  const current = state.turnSeq;
  return {
    tasks: state.tasksTurn === current
      ? state.tasks.map((t) => ({ text: t.subject, done: t.status === "completed" }))
      : null,
    todo: state.todo?.turn === current ? state.todo.items : null,
    markdown: state.markdown?.turn === current ? state.markdown.items : null,
  };
}
