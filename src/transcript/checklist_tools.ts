/**
 * Inputs of the checklist tools the agent calls: TaskCreate/TaskUpdate (one call per task, Claude Code
 * ≥2.1.16) and TodoWrite (the whole list rewritten on every call, older clients or CLAUDE_CODE_ENABLE_TASKS=0).
 * Parsing is tolerant: an input that does not fit yields null and the call is ignored. Item texts are bounded
 * (boundItemText): they are stored in the session state.
 */
import * as z from "../zod.ts";
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";

export const TASK_CREATE = "TaskCreate";
export const TASK_UPDATE = "TaskUpdate";
export const TODO_WRITE = "TodoWrite";

const TaskCreateInputSchema = z.object({ subject: z.string() });

const TaskUpdateInputSchema = z.object({
  taskId: z.union([z.string(), z.number()]),
  status: z.catch(z.nullish(z.string()), null),
  subject: z.catch(z.nullish(z.string()), null),
});

const TodoSchema = z.object({ content: z.string(), status: z.catch(z.nullish(z.string()), null) });
const TodoWriteInputSchema = z.object({ todos: z.array(z.unknown()) });

/** The longest task status kept. */
export const MAX_STATUS_CHARS = 32;

export interface TaskUpdateInput {
  taskId: string;
  status: string | null;
  subject: string | null;
}

export function taskCreateSubject(input: unknown): string | null {
  const parsed = TaskCreateInputSchema.safeParse(input);
  return parsed.success ? boundItemText(parsed.data.subject) : null;
}

export function taskUpdateInput(input: unknown): TaskUpdateInput | null {
  const parsed = TaskUpdateInputSchema.safeParse(input);
  if (!parsed.success) return null;
  const { taskId, status, subject } = parsed.data;
  return {
    taskId: String(taskId),
    // a status is a short word ("in_progress", "completed"): a longer one is cut, it is stored with the task
    status: status == null ? null : status.slice(0, MAX_STATUS_CHARS),
    subject: subject == null ? null : boundItemText(subject),
  };
}

/** The TodoWrite list as checklist items (`completed` = done); null when the input is not a todo list. */
export function todoWriteItems(input: unknown): ChecklistItem[] | null {
  const parsed = TodoWriteInputSchema.safeParse(input);
  if (!parsed.success) return null;
  const items: ChecklistItem[] = [];
  for (const raw of parsed.data.todos) {
    const todo = TodoSchema.safeParse(raw);
    if (todo.success) items.push({ text: boundItemText(todo.data.content), done: todo.data.status === "completed" });
  }
  return capList(items, (item) => item.done, "first");
}
