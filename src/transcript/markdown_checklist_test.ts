import assert from "node:assert/strict";
import { parseMarkdownChecklist } from "./markdown_checklist.ts";

Deno.test("parseMarkdownChecklist() reads dash, star, plus and numbered items, [x] and [X]", () => {
  const text = [
    "Progress:",
    "- [x] endpoint",
    "* [ ] tests",
    "+ [X] docs",
    "1. [ ] changelog line",
    "2) [x] release",
    "  - [ ] nested item",
  ].join("\n");
  assert.deepEqual(parseMarkdownChecklist(text), [
    { text: "endpoint", done: true },
    { text: "tests", done: false },
    { text: "docs", done: true },
    { text: "changelog line", done: false },
    { text: "release", done: true },
    { text: "nested item", done: false },
  ]);
});

Deno.test("parseMarkdownChecklist() returns null without checkbox items", () => {
  assert.equal(parseMarkdownChecklist("The answer is 42."), null);
  assert.equal(parseMarkdownChecklist("- plain bullet\n- [link](x)\n[ ] not a list item"), null);
  assert.equal(parseMarkdownChecklist("- [ ]"), null, "an empty box has no item text");
  assert.equal(parseMarkdownChecklist("- [-] other marker"), null);
});

Deno.test("parseMarkdownChecklist() skips items inside fenced code blocks", () => {
  const text = "Template:\n```md\n- [ ] quoted item\n```\n- [ ] real item\n~~~\n- [x] also quoted\n~~~";
  assert.deepEqual(parseMarkdownChecklist(text), [{ text: "real item", done: false }]);
});

Deno.test("parseMarkdownChecklist() copes with CRLF text", () => {
  assert.deepEqual(parseMarkdownChecklist("- [ ] a\r\n- [x] b\r\n"), [
    { text: "a", done: false },
    { text: "b", done: true },
  ]);
});
