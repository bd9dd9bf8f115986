/**
 * What the reducer remembers after reading a transcript up to some line: small, JSON-serialisable and
 * versioned with the index, so the next Stop continues from it instead of rereading the file.
 */
import * as z from "../zod.ts";
import { initialTurnTools, TurnToolsStateSchema } from "./turn_tools.ts";
import type { ChecklistItem } from "./types.ts";

export const ChecklistItemSchema = z.object({ text: z.string(), done: z.boolean() });

/** A checklist and the turn (turnSeq) in which it was last written. */
export const TurnListSchema = z.object({ items: z.array(ChecklistItemSchema), turn: z.int() });

export const TaskSchema = z.object({ id: z.string(), subject: z.string(), status: z.string() });
export type Task = z.infer<typeof TaskSchema>;

export const ReducerStateSchema = z.object({
  /** Real user prompts seen so far (0 before the first). */
  turnSeq: z.int().check(z.nonnegative()),
  /** promptId (or uuid) of the prompt that started the current turn. */
  turnId: z.nullable(z.string()),
  /** A slash command seen but not yet answered by the model (it becomes a turn if the model answers). */
  pendingCommand: z.nullable(z.object({ id: z.nullable(z.string()) })),
  /** Live tasks (created, not deleted), in creation order. Kept across turns: the task list is per session. */
  tasks: z.array(TaskSchema),
  /** The turn of the latest TaskCreate/TaskUpdate call, or null. */
  tasksTurn: z.nullable(z.int()),
  /** TaskCreate calls waiting for their result (which carries the task id). Bounded. */
  pendingCreates: z.array(z.object({ toolUseId: z.string(), subject: z.string() })),
  /** The latest TodoWrite list. */
  todo: z.nullable(TurnListSchema),
  /** The latest Markdown checklist in an assistant message. */
  markdown: z.nullable(TurnListSchema),
  /** Model of the newest assistant line. */
  model: z.nullable(z.string()),
  /** The newest assistant message of the current turn with text, merged over its lines (tail, bounded). */
  lastMessage: z.nullable(z.object({ id: z.nullable(z.string()), text: z.string() })),
  /** Hashes of the current turn's recent assistant texts (each block and each merged message, see syncKey). */
  textHashes: z.array(z.string()),
  /** `stop_hook_summary` lines seen: one per stop whose hooks Claude Code finished running. */
  stopSummaries: z._default(z.int().check(z.nonnegative()), 0),
  /** The current turn's tool calls and results (reset at each real prompt). */
  tools: TurnToolsStateSchema,
});
export type ReducerState = z.infer<typeof ReducerStateSchema>;

export const MAX_PENDING_CREATES = 64;
export const MAX_TEXT_HASHES = 24;
/** Longer merged messages keep only their tail (a checklist or final sentence is at the end). */
export const MAX_KEPT_TEXT = 16 * 1024;

export function initialState(): ReducerState {
  return {
    turnSeq: 0,
    turnId: null,
    pendingCommand: null,
    tasks: [],
    tasksTurn: null,
    pendingCreates: [],
    todo: null,
    markdown: null,
    model: null,
    lastMessage: null,
    textHashes: [],
    stopSummaries: 0,
    tools: initialTurnTools(),
  };
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
