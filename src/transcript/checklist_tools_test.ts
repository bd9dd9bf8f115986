/**
 * checklist_tools.ts's hand-written input readers against the schemas (checklist_tools_schema.ts), on generated
 * inputs near each tool's shape: the same result as parsing with the schema, for every input.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_STATUS_CHARS, taskCreateSubject, taskUpdateInput, todoWriteItems } from "./checklist_tools.ts";
import {
  TaskCreateInputSchema,
  TaskUpdateInputSchema,
  TodoSchema,
  TodoWriteInputSchema,
} from "./checklist_tools_schema.ts";
import { boundItemText, capList } from "./item_text.ts";
import type { ChecklistItem } from "./types.ts";
import { anyJsonValue, assertSameOutput } from "../testing/same_output.ts";

const runs = Deno.env.get("CLIFFHANGER_FUZZ_LONG") ? 20000 : 2000;

/** What each reader gave when it parsed with its schema. */
const viaSchema = {
  taskCreateSubject(input: unknown): string | null {
    const parsed = TaskCreateInputSchema.safeParse(input);
    return parsed.success ? boundItemText(parsed.data.subject) : null;
  },
  taskUpdateInput(input: unknown) {
    const parsed = TaskUpdateInputSchema.safeParse(input);
    if (!parsed.success) return null;
    const { taskId, status, subject } = parsed.data;
    return {
      taskId: String(taskId),
      status: status == null ? null : status.slice(0, MAX_STATUS_CHARS),
      subject: subject == null ? null : boundItemText(subject),
    };
  },
  todoWriteItems(input: unknown): ChecklistItem[] | null {
    const parsed = TodoWriteInputSchema.safeParse(input);
    if (!parsed.success) return null;
    const items: ChecklistItem[] = [];
    for (const raw of parsed.data.todos) {
      const todo = TodoSchema.safeParse(raw);
      if (todo.success) items.push({ text: boundItemText(todo.data.content), done: todo.data.status === "completed" });
    }
    return capList(items, (item) => item.done, "first");
  },
};

const anyJson = anyJsonValue("completed", 7, -0);
const field = (arb: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: anyJson }, {
    weight: 1,
    arbitrary: fc.constant(undefined),
  });
const text = fc.oneof(fc.string({ maxLength: 4 }), fc.constant("s".repeat(300)));
const status = fc.constantFrom("completed", "in_progress", "pending", null, "x".repeat(40));
const input = fc.oneof(
  anyJson,
  fc.record({ subject: field(text), description: field(text) }),
  fc.record({
    taskId: field(fc.oneof(fc.constantFrom("1", "", 3, 1.5, -0, 1e21))),
    status: field(status),
    subject: field(text),
  }),
  fc.record({
    todos: field(fc.array(
      fc.oneof(anyJson, fc.record({ content: field(text), status: field(status), activeForm: field(text) })),
      { maxLength: 4 },
    )),
  }),
).map((o) => JSON.parse(JSON.stringify(o ?? null)) as unknown);

Deno.test("the checklist tool readers give what their schemas give, for every input", () => {
  const taken = { create: 0, update: 0, todo: 0 };
  fc.assert(
    fc.property(input, (raw) => {
      const where = JSON.stringify(raw);
      const create = taskCreateSubject(raw);
      const update = taskUpdateInput(raw);
      const todo = todoWriteItems(raw);
      assert.equal(create, viaSchema.taskCreateSubject(raw), where);
      assertSameOutput(update, viaSchema.taskUpdateInput(raw), where);
      assertSameOutput(todo, viaSchema.todoWriteItems(raw), where);
      if (create !== null) taken.create++;
      if (update !== null) taken.update++;
      if (todo !== null && todo.length > 0) taken.todo++;
    }),
    { numRuns: runs },
  );
  for (const [tool, n] of Object.entries(taken)) assert.ok(n > runs / 20, `only ${n} ${tool} inputs were read`);
});
