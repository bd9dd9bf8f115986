import assert from "node:assert/strict";
import { isCopyHeader, parseBlocks, splitLines, withoutCode } from "./blocks.ts";

const kinds = (text: string) => parseBlocks(text).map((b) => `${b.kind}:${b.text}`);

Deno.test("parseBlocks(): paragraphs, headings, items with their lead-in, tables, code and quotes", () => {
  const text = [
    "Done with the parser.",
    "",
    "## Remaining",
    "- views",
    "- routes",
    "",
    "Files changed:",
    "1. a.ts",
    "",
    "| part | state |",
    "| --- | --- |",
    "| api | done |",
    "",
    "```",
    "Want me to continue?",
    "```",
    "> Shall I deploy?",
    "**Next steps**",
  ].join("\n");
  assert.deepEqual(kinds(text), [
    "paragraph:Done with the parser.",
    "heading:Remaining",
    "item:views",
    "item:routes",
    "paragraph:Files changed:",
    "item:a.ts",
    "table:part | state",
    "table:api | done",
    "code:\nWant me to continue?",
    "quote:Shall I deploy?",
    "heading:Next steps",
  ]);
  const items = parseBlocks(text).filter((b) => b.kind === "item").map((b) => b.lead);
  assert.deepEqual(items, ["Remaining", "Remaining", "Files changed:"]);
});

Deno.test("parseBlocks(): an unclosed fence runs to the end; a longer fence needs a closing as long", () => {
  assert.deepEqual(kinds("Intro.\n```\nWant me to?\n\nMore?"), ["paragraph:Intro.", "code:\nWant me to?\n\nMore?"]);
  assert.deepEqual(kinds("````\n```\nx\n````\nAfter."), ["code:\n```\nx", "paragraph:After."]);
});

Deno.test("withoutCode(): fenced lines are emptied, line count kept", () => {
  const text = "a\n```\nBLOCKED: x\n```\nb";
  assert.equal(withoutCode(text), "a\n\n\n\nb");
  assert.equal(withoutCode("no fences"), "no fences");
});

Deno.test("parseBlocks() is linear and bounded on hostile input", () => {
  const huge = "- x\n".repeat(50_000) + "```\n".repeat(10_001) + "y".repeat(100_000);
  const blocks = parseBlocks(huge);
  assert.ok(blocks.length > 0);
  assert.ok(blocks.every((b) => b.text.length <= 8_000));
});

Deno.test("splitLines(): every line break, with offsets", () => {
  assert.deepEqual(splitLines("a\r\nb\rc\nd\u2028e"), [
    { text: "a", start: 0 },
    { text: "b", start: 3 },
    { text: "c", start: 5 },
    { text: "d", start: 7 },
    { text: "e", start: 9 },
  ]);
  const blocks = parseBlocks("one\r\n\r\ntwo");
  assert.deepEqual(blocks.map((b) => [b.text, b.start, b.end]), [["one", 0, 3], ["two", 7, 10]]);
});

Deno.test("parseBlocks(): a short line with no closing mark titles the list after it, as a heading does", () => {
  const leads = (text: string) => parseBlocks(text).filter((b) => b.kind === "item").map((b) => b.lead);
  assert.deepEqual(leads("Done.\n\nRemaining\n- views\n- routes"), ["Remaining", "Remaining"]);
  assert.deepEqual(leads("ログインを実装しました。\n\n残作業\n- パスワード再設定"), ["残作業"]);
  // a sentence (its closing mark) or a long line is not a title
  assert.deepEqual(leads("I changed three files.\n- a.ts\n- b.ts"), ["", ""]);
  assert.deepEqual(leads(`${"word ".repeat(14)}and more\n- a`), [""]);
  assert.deepEqual(leads("Want me to add these?\n- retries"), [""]);
  // a name, not a sentence: a longer line, or one that says the items are done
  assert.deepEqual(leads("Missing translations fixed\n- de\n- fr"), ["", ""]);
  assert.deepEqual(leads("Follow-ups closed\n- #12"), [""]);
  assert.deepEqual(leads("剩余库存计算的修正\n- 修复负数"), [""]);
  assert.deepEqual(leads("Por fazer (da minha parte)\n- relatório"), ["Por fazer (da minha parte)"]);
  // a title that says the list is done or empty
  assert.deepEqual(leads("Remaining (none)\n- all items merged"), [""]);
  assert.deepEqual(leads("Follow-ups done\n- #12"), [""]);
  assert.deepEqual(leads("残作業なし\n- 全部マージ済み"), [""]);
});

Deno.test("parseBlocks(): a table whose columns are copy before and after a change is quoted, a status table is not", () => {
  const copy = [
    "Copy changes:",
    "",
    "| key | before | after |",
    "|---|---|---|",
    "| `reminder.prompt` | Set reminder? | Want me to remind you tomorrow? |",
    "",
    "| clave | Antes | **Después** |",
    "| --- | --- | --- |",
    "| `seguir` | ¿Quieres que continúe? | ¿Te ayudo con algo más? |",
  ].join("\n");
  assert.deepEqual(kinds(copy), [
    "paragraph:Copy changes:",
    "quote:key | before | after",
    "quote:`reminder.prompt` | Set reminder? | Want me to remind you tomorrow?",
    "quote:clave | Antes | **Después**",
    "quote:`seguir` | ¿Quieres que continúe? | ¿Te ayudo con algo más?",
  ]);
  // a column of counts named "Strings" is no copy; the next table, after a paragraph, has its own header
  const status =
    "| Locale | Strings | Status |\n|---|---|---|\n| ja | 0/412 | TODO |\ntext\n| before | after |\n| a | b |";
  assert.deepEqual(kinds(status), [
    "table:Locale | Strings | Status",
    "table:ja | 0/412 | TODO",
    "paragraph:text",
    "quote:before | after",
    "quote:a | b",
  ]);
});

Deno.test("isCopyHeader(): copy named, or a before and an after column beside keys only; not a table of the agent's work", () => {
  const copy = [
    "key | before | after",
    "clave | Antes | **Después**",
    "Current | Proposed",
    "`before` | `after`",
    "Before (EN) | After (EN)",
    "Screen | UI copy",
    "Old text | New text",
    "Ancien texte | Nouveau texte",
    "Старый текст | Новый текст",
    "キー | 変更前 | 変更後",
  ];
  const work = [
    "Check | Was | Now",
    "Area | Now | Next",
    "Endpoint | Old | New | Status",
    "Step | NA | EU | APAC",
    "Package | Old | New | Notes",
    "Metric | Before | After",
    "Locale | Strings | Status",
    "Task | New",
  ];
  for (const row of copy) assert.ok(isCopyHeader(row.split("|")), row);
  for (const row of work) assert.ok(!isCopyHeader(row.split("|")), row);
  // the header's verdict ends with its table: a blank line, then a status table of the agent's own
  const text =
    "| key | before | after |\n|---|---|---|\n| a | b | c |\n\n| Step | Status |\n|---|---|\n| deploy | open |";
  assert.deepEqual(kinds(text), [
    "quote:key | before | after",
    "quote:a | b | c",
    "table:Step | Status",
    "table:deploy | open",
  ]);
});
