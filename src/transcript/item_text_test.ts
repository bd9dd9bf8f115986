import assert from "node:assert/strict";
import { MAX_STATUS_CHARS, taskCreateSubject, taskUpdateInput, todoWriteItems } from "./checklist_tools.ts";
import { boundItemText, MAX_ITEM_TEXT_CHARS } from "./item_text.ts";

Deno.test("boundItemText() keeps short texts and cuts long ones to MAX_ITEM_TEXT_CHARS with an ellipsis", () => {
  assert.equal(boundItemText("write tests"), "write tests");
  const exact = "x".repeat(MAX_ITEM_TEXT_CHARS);
  assert.equal(boundItemText(exact), exact);
  const cut = boundItemText(`${"y".repeat(MAX_ITEM_TEXT_CHARS)}SECRET`);
  assert.equal(cut.length, MAX_ITEM_TEXT_CHARS);
  assert.ok(cut.endsWith("…") && !cut.includes("SECRET"));
});

Deno.test("boundItemText() never keeps half of a surrogate pair", () => {
  const text = `${"a".repeat(MAX_ITEM_TEXT_CHARS - 2)}😀😀😀`;
  const cut = boundItemText(text);
  assert.ok(cut.length <= MAX_ITEM_TEXT_CHARS);
  assert.equal(cut, `${"a".repeat(MAX_ITEM_TEXT_CHARS - 2)}…`);
  assert.ok(cut.isWellFormed());
});

Deno.test("checklist tool inputs keep bounded item texts and statuses", () => {
  const long = `${"x".repeat(MAX_ITEM_TEXT_CHARS)}SECRET`;
  assert.ok(!taskCreateSubject({ subject: long })!.includes("SECRET"));
  const update = taskUpdateInput({ taskId: 1, subject: long, status: `completed${"y".repeat(100)}SECRET` })!;
  assert.ok(!update.subject!.includes("SECRET"));
  assert.ok(update.status!.length <= MAX_STATUS_CHARS && !update.status!.includes("SECRET"));
  const todo = todoWriteItems({ todos: [{ content: long, status: "pending" }] })!;
  assert.equal(todo[0]!.text.length, MAX_ITEM_TEXT_CHARS);
  assert.ok(!todo[0]!.text.includes("SECRET"));
});
