/**
 * The schemas of the reducer state stored in the transcript index (reducer_state.ts), part of the index's schema
 * (index_schema.ts). A hook loads them only for an index the hand check (transcript_index.ts) cannot vouch for.
 */
import * as z from "../zod.ts";
import { MarkSchema, PromptMarkSchema } from "./prompt_mark_schema.ts";
import { SyncHashSchema } from "./sync_hash_schema.ts";
import { TurnToolsStateSchema } from "./turn_tools_schema.ts";

export const ChecklistItemSchema = z.object({ text: z.string(), done: z.boolean() });

/** A checklist and the turn (turnSeq) in which it was last written. */
export const TurnListSchema = z.object({ items: z.array(ChecklistItemSchema), turn: z.int() });

export const TaskSchema = z.object({ id: z.string(), subject: z.string(), status: z.string() });
export type Task = z.infer<typeof TaskSchema>;

/**
 * What is stored of the message being written: its id, the resumable hash of its merged text's sync key (for the
 * final-message check), the code fence open at its end and whether `markdown` holds this message's items (its
 * checkbox items so far), so that the Markdown list of a message split over lines is read piece by piece.
 */
export const CurrentMessageSchema = z.object({
  id: z.nullable(z.string()),
  key: SyncHashSchema,
  fence: z.nullable(z.enum(["```", "~~~"])),
  listed: z.boolean(),
});
export type CurrentMessage = z.infer<typeof CurrentMessageSchema>;

export const ReducerStateSchema = z.object({
  /** Real user prompts seen so far (0 before the first). */
  turnSeq: z.int().check(z.nonnegative()),
  /** promptId (or uuid) of the prompt that started the current turn. */
  turnId: z.nullable(z.string()),
  /** How the prompt that started the current turn was sent (its entrypoint, promptSource, turnOrigin). */
  promptMark: PromptMarkSchema,
  /** The newest `entrypoint` on any line read: stands in when the prompt line has none. */
  entrypoint: MarkSchema,
  /** A slash command seen but not yet answered by the model (it becomes a turn if the model answers). */
  pendingCommand: z.nullable(z.object({ id: z.nullable(z.string()), mark: PromptMarkSchema })),
  /** Live tasks (created, not deleted), in creation order. Kept across turns: the task list is per session. */
  tasks: z.array(TaskSchema),
  /** The turn of the latest TaskCreate/TaskUpdate call, or null. */
  tasksTurn: z.nullable(z.int()),
  /** TaskCreate calls waiting for their result (which carries the task id). Bounded. */
  pendingCreates: z.array(z.object({ toolUseId: z.string(), subject: z.string() })),
  /** The latest TodoWrite list. */
  todo: z.nullable(TurnListSchema),
  /** The latest Markdown checklist in an assistant message (while it is being written: its items so far). */
  markdown: z.nullable(TurnListSchema),
  /** Model of the newest assistant line. */
  model: z.nullable(z.string()),
  /**
   * The newest assistant message of the current turn with text, as much as a later line of the same message
   * (same message.id, possibly in a later read) needs to go on with it. It holds no text: see CurrentMessage.
   */
  message: z.nullable(CurrentMessageSchema),
  /** Digests of the current turn's recent assistant texts (each block and each merged message, see sync_hash.ts). */
  textHashes: z.array(z.string()),
  /** `stop_hook_summary` lines seen: one per stop whose hooks Claude Code finished running. */
  stopSummaries: z._default(z.int().check(z.nonnegative()), 0),
  /** The current turn's tool calls and results (reset at each real prompt). */
  tools: TurnToolsStateSchema,
});
/** The state that is stored in the index (and validated by ReducerStateSchema when read back). */
export type StoredReducerState = z.infer<typeof ReducerStateSchema>;
