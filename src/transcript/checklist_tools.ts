/**
 * Inputs of the checklist tools the agent calls: TaskCreate/TaskUpdate (one call per task, Claude Code
 * ≥2.1.16) and TodoWrite (the whole list rewritten on every call, older clients or CLAUDE_CODE_ENABLE_TASKS=0).
 * Parsing is tolerant: an input that does not fit yields null and the call is ignored. Item texts are bounded
 * (boundItemText): they are stored in the session state. The inputs are read by hand, as checklist_tools_schema.ts's
 * schemas read them (checklist_tools_test.ts holds them equal), so that a hook builds no schema.
 */
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";

export const TASK_CREATE = "TaskCreate";
export const TASK_UPDATE = "TaskUpdate";
export const TODO_WRITE = "TodoWrite";

/** The longest task status kept. */
export const MAX_STATUS_CHARS = 32;

export interface TaskUpdateInput {
  taskId: string;
  status: string | null;
  subject: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
/** `z.catch(z.nullish(z.string()), null)` read as a string or null. */
const stringOrNull = (v: unknown): string | null => typeof v === "string" ? v : null;

/** TaskCreateInputSchema: `{ subject: string }`. */
export function taskCreateSubject(input: unknown): string | null {
  return isObj(input) && typeof input["subject"] === "string" ? boundItemText(input["subject"]) : null;
}

/** TaskUpdateInputSchema: `{ taskId: string | number, status?, subject? }`, other status and subject types as null. */
export function taskUpdateInput(input: unknown): TaskUpdateInput | null {
  if (!isObj(input)) return null;
  const taskId = input["taskId"];
  // z.number() takes finite numbers only
  if (typeof taskId !== "string" && !(typeof taskId === "number" && Number.isFinite(taskId))) return null;
  const status = stringOrNull(input["status"]);
  const subject = stringOrNull(input["subject"]);
  return {
    taskId: String(taskId),
    // a status is a short word ("in_progress", "completed"): a longer one is cut, it is stored with the task
    status: status === null ? null : status.slice(0, MAX_STATUS_CHARS),
    subject: subject === null ? null : boundItemText(subject),
  };
}

/** The TodoWrite list as checklist items (`completed` = done); null when the input is not a todo list. */
export function todoWriteItems(input: unknown): ChecklistItem[] | null {
  // TodoWriteInputSchema, then TodoSchema for each todo: one without a string content is skipped
  if (!isObj(input) || !Array.isArray(input["todos"])) return null;
  const items: ChecklistItem[] = [];
  for (const todo of input["todos"]) {
    if (!isObj(todo) || typeof todo["content"] !== "string") continue;
    items.push({ text: boundItemText(todo["content"]), done: todo["status"] === "completed" });
  }
  return capList(items, (item) => item.done, "first");
}
