import assert from "node:assert/strict";
import { changeColumns, parseBlocks, splitLines, withoutCode } from "./blocks.ts";

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

Deno.test("parseBlocks(): in a table of before and after, a row with a question on both sides quotes a prompt", () => {
  const text = [
    "Copy changes:",
    "",
    "| key | before | after |",
    "|---|---|---|",
    "| `reminder.prompt` | Set reminder? | Want me to remind you tomorrow? |",
    "| `reminder.done` | OK | Got it |",
    "",
    "| clave | Antes | **Después** |",
    "| --- | --- | --- |",
    "| `seguir` | ¿Quieres que continúe? | ¿Te ayudo con algo más? |",
  ].join("\n");
  assert.deepEqual(kinds(text), [
    "paragraph:Copy changes:",
    "table:key | before | after",
    "quote:`reminder.prompt` | Set reminder? | Want me to remind you tomorrow?",
    "table:`reminder.done` | OK | Got it",
    "table:clave | Antes | **Después**",
    "quote:`seguir` | ¿Quieres que continúe? | ¿Te ayudo con algo más?",
  ]);
  // the agent's own rows in a table of before and after are read, and so is a question in a table of another kind
  const work = [
    "| Screen | Before | After |",
    "|---|---|---|",
    "| Settings | old layout | not touched — shall I go ahead with this one too? |",
    "",
    "| Prompt | Status |",
    "|---|---|",
    "| Set reminder? | Want me to remind you tomorrow? |",
  ].join("\n");
  assert.deepEqual(kinds(work), [
    "table:Screen | Before | After",
    "table:Settings | old layout | not touched — shall I go ahead with this one too?",
    "table:Prompt | Status",
    "table:Set reminder? | Want me to remind you tomorrow?",
  ]);
});

Deno.test("changeColumns(): a column before and one after a change, in the languages the guard reads", () => {
  const pairs: [string, number, number][] = [
    ["key | before | after", 1, 2],
    ["Current | Proposed", 0, 1],
    ["`before` | `after`", 0, 1],
    ["Before (EN) | After (EN)", 0, 1],
    ["Old text | New text", 0, 1],
    ["Prompt (before) | Prompt (after)", 0, 1],
    ["Alter Text | Neuer Text", 0, 1],
    ["Ancien texte | Nouveau texte", 0, 1],
    ["Поле | Было | Стало", 1, 2],
    ["キー | 変更前 | 変更後", 1, 2],
  ];
  for (const [row, before, after] of pairs) assert.deepEqual(changeColumns(row.split("|")), { before, after }, row);
  for (const row of ["Check | Was | Now", "Area | Now | Next", "Locale | Strings | Status", "Task | New"]) {
    assert.equal(changeColumns(row.split("|")), null, row);
  }
});

Deno.test("parseBlocks(): a changed prompt needs questions on both sides; the header is never quoted; each table has its own columns", () => {
  const rows = [
    "| key | *before* | _after_ |",
    "|---|---|---|",
    "| `a \\| b` | Set reminder? | Want me to remind you tomorrow? |",
    "| `c` | Set reminder | Want me to remind you tomorrow? |",
    "| `d` | Want me to? | Done |",
  ].join("\n");
  assert.deepEqual(kinds(rows), [
    "table:key | *before* | _after_",
    "quote:`a \\| b` | Set reminder? | Want me to remind you tomorrow?",
    "table:`c` | Set reminder | Want me to remind you tomorrow?",
    "table:`d` | Want me to? | Done",
  ]);
  // a header of questions is read, and a plain table after a table of before and after has no such columns
  const two =
    "| Ask? | Want more? |\n|---|---|\n| a | b |\n\n| key | before | after |\n|---|---|---|\n| x | a? | b? |\n\n" +
    "| # | Step? | Next? |\n|---|---|---|\n| 1 | Run it? | Want me to go on? |";
  assert.deepEqual(kinds(two), [
    "table:Ask? | Want more?",
    "table:a | b",
    "table:key | before | after",
    "quote:x | a? | b?",
    "table:# | Step? | Next?",
    "table:1 | Run it? | Want me to go on?",
  ]);
});
