/**
 * The schemas of the checklist tools' inputs (checklist_tools.ts): the reader parses them by hand, and
 * checklist_tools_test.ts holds each hand parser equal to its schema on generated inputs.
 */
import * as z from "../zod.ts";

export const TaskCreateInputSchema = z.object({ subject: z.string() });

export const TaskUpdateInputSchema = z.object({
  taskId: z.union([z.string(), z.number()]),
  status: z.catch(z.nullish(z.string()), null),
  subject: z.catch(z.nullish(z.string()), null),
});

export const TodoSchema = z.object({ content: z.string(), status: z.catch(z.nullish(z.string()), null) });
export const TodoWriteInputSchema = z.object({ todos: z.array(z.unknown()) });
