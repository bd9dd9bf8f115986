import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_ITEM_TEXT_CHARS } from "./item_text.ts";
import { type Fence, parseMarkdownChecklist, scanMarkdownChecklist } from "./markdown_checklist.ts";

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

Deno.test("scanMarkdownChecklist() read piece by piece from the carried fence equals one read of the joined text", () => {
  const lineArb = fc.constantFrom(
    "- [ ] open item",
    "- [x] done item",
    "* [X] starred",
    "```",
    "```ts",
    "~~~",
    "  ```",
    "plain text",
    "",
    "1. [ ] numbered",
    "- [ ] crlf\r",
  );
  fc.assert(
    fc.property(fc.array(fc.array(lineArb, { maxLength: 6 }).map((ls) => ls.join("\n")), { maxLength: 6 }), (parts) => {
      let fence: Fence = null;
      const items = [];
      for (const part of parts) {
        const scan = scanMarkdownChecklist(part, fence);
        items.push(...scan.items);
        fence = scan.fence;
      }
      const whole = scanMarkdownChecklist(parts.join("\n"), null);
      assert.deepEqual(items, whole.items);
      assert.equal(fence, whole.fence);
      assert.deepEqual(parseMarkdownChecklist(parts.join("\n")), whole.items.length > 0 ? whole.items : null);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("scanMarkdownChecklist() carries an open fence into the next piece", () => {
  const first = scanMarkdownChecklist("Template:\n```md\n- [ ] quoted", null);
  assert.deepEqual(first, { items: [], fence: "```" });
  assert.deepEqual(scanMarkdownChecklist("- [ ] still quoted\n```\n- [ ] real", first.fence), {
    items: [{ text: "real", done: false }],
    fence: null,
  });
  assert.deepEqual(scanMarkdownChecklist("no brackets here", "~~~"), { items: [], fence: "~~~" });
});

Deno.test("parseMarkdownChecklist() bounds each item text", () => {
  const items = parseMarkdownChecklist(`- [ ] ${"long ".repeat(100)}SECRET`);
  assert.equal(items?.length, 1);
  assert.ok(items![0]!.text.length <= MAX_ITEM_TEXT_CHARS && !items![0]!.text.includes("SECRET"));
});

Deno.test("parseMarkdownChecklist() reads a progress list drawn with box characters (ticked and unticked boxes)", () => {
  const text = [
    "Status:",
    "✅ parser ported",
    "- ✔️ tests pass",
    "⬜ convert the CLI",
    "☐ update the changelog",
    "1. 🔲 wire the flag",
    "☑ docs",
  ].join("\n");
  assert.deepEqual(parseMarkdownChecklist(text), [
    { text: "parser ported", done: true },
    { text: "tests pass", done: true },
    { text: "convert the CLI", done: false },
    { text: "update the changelog", done: false },
    { text: "wire the flag", done: false },
    { text: "docs", done: true },
  ]);
});

Deno.test("parseMarkdownChecklist() takes ticked box characters alone for a summary, not a checklist", () => {
  assert.equal(
    parseMarkdownChecklist("Done:\n✅ parser ported\n✅ 12 tests pass\n\nWant me to convert the CLI?"),
    null,
  );
  // a [ ] list beside them is read as before, the ✅ lines left out
  assert.deepEqual(parseMarkdownChecklist("✅ parser ported\n- [ ] convert the CLI"), [
    { text: "convert the CLI", done: false },
  ]);
});

Deno.test("parseMarkdownChecklist() needs a box character at the line's start, then a space and text", () => {
  assert.equal(parseMarkdownChecklist("The legend: ⬜ means open, ✅ means done."), null);
  assert.equal(parseMarkdownChecklist("⬜\n⬜⬜ grid\n```\n⬜ quoted\n```"), null);
  assert.equal(parseMarkdownChecklist("Use `☐ item` for an open box."), null);
});

Deno.test("scanMarkdownChecklist() reads box characters only when asked (the transcript's lists are `[ ]` ones)", () => {
  assert.deepEqual(scanMarkdownChecklist("✅ parser\n⬜ convert the CLI", null).items, []);
  assert.deepEqual(scanMarkdownChecklist("✅ parser\n⬜ convert the CLI", null, { boxChars: true }).items, [
    { text: "parser", done: true },
    { text: "convert the CLI", done: false },
  ]);
  // ticked boxes alone are a summary
  assert.deepEqual(scanMarkdownChecklist("✅ parser\n✅ CLI", null, { boxChars: true }).items, []);
});

Deno.test("parseMarkdownChecklist() reads an item under way (⏳) as an open box", () => {
  const list = parseMarkdownChecklist(
    "Status:\n- ✅ Parser handles `match` expressions\n- ⏳ Guard clauses — not done yet\n- ⏳ Exhaustiveness checking",
  );
  assert.deepEqual(list?.filter((i) => !i.done).map((i) => i.text), [
    "Guard clauses — not done yet",
    "Exhaustiveness checking",
  ]);
  // a construction sign is a warning as often as work; an hourglass that waits on nothing of ours is not open work
  assert.equal(
    parseMarkdownChecklist("Notes:\n- ✅ Build\n- 🚧 Breaking change: the `--legacy` flag is removed"),
    null,
  );
  for (const wait of ["DNS propagation (up to 24 h, nothing to do)", "Production deploy — needs your approval"]) {
    assert.deepEqual((parseMarkdownChecklist(`Status:\n✅ Build\n⏳ ${wait}`) ?? []).filter((i) => !i.done), [], wait);
  }
  // waiting on someone else is not open work, under way or not
  assert.deepEqual(
    (parseMarkdownChecklist("Status:\n✅ Build\n⏳ Security review (waiting on AppSec)") ?? []).filter((i) => !i.done),
    [],
  );
});

Deno.test("parseMarkdownChecklist() leaves out drawn lists that are not the agent's progress", () => {
  const opens = (text: string) => (parseMarkdownChecklist(text) ?? []).filter((i) => !i.done).map((i) => i.text);
  // a box that says it is not work
  assert.deepEqual(
    opens("Browser check:\n✅ Chrome 125\n✅ Safari 17\n⬜ IE 11 — not supported per `browserslist`"),
    [],
  );
  assert.deepEqual(opens("Targets:\n✅ linux/amd64\n⬜ windows/amd64 (not a target, see SUPPORT.md)"), []);
  assert.deepEqual(opens("Scope of v2:\n✅ sync of notes\n⬜ Offline mode — not planned, see ADR-12"), []);
  assert.deepEqual(opens("Sign-off:\n✅ Code review (Tom)\n⬜ Security review (AppSec, booked for Friday)"), []);
  // a legend, a template, someone else's list, a list with no ticked box
  assert.deepEqual(
    opens("Legend:\n- ✅ = done here\n- ⬜ = owned by another team\n\n✅ SDK switch\n⬜ Rotate keys"),
    [],
  );
  assert.deepEqual(opens("I filled in the PR template:\n✅ Tests added\n☐ Breaking change\n☐ Needs a migration"), []);
  assert.deepEqual(opens("Release checklist (release team):\n⬜ Tag v3.2.0\n⬜ Publish to npm"), []);
  assert.deepEqual(opens("Before you merge:\n✅ CI green\n☐ Rotate the staging client secret in Vault"), []);
  assert.deepEqual(opens("Für dich noch:\n✅ Tests\n⬜ Release taggen"), []);
  // a box the prose says is blocked or waiting on someone
  assert.deepEqual(
    opens("## Status\n✅ Terraform\n⬜ Route-table entries — **blocked**\n\nThe partner must accept it."),
    [],
  );
  assert.deepEqual(opens("Progress:\n✅ parser\n⬜ deploy (waiting on the ops window)"), []);
  // the agent's own progress is read
  assert.deepEqual(opens("Progress:\n✅ parser\n✅ tests\n⬜ CLI conversion\n⬜ changelog"), [
    "CLI conversion",
    "changelog",
  ]);
});

Deno.test("parseMarkdownChecklist(): the not-work, legend and lead-in checks read markers, not any word", () => {
  const opens = (text: string) => (parseMarkdownChecklist(text) ?? []).filter((i) => !i.done).map((i) => i.text);
  // words inside the item's own task are work
  assert.deepEqual(opens("Progress:\n✅ parser\n⬜ fix the scheduled backup job"), ["fix the scheduled backup job"]);
  assert.deepEqual(opens("Progress:\n✅ parser\n⬜ unskip the skipped tests"), ["unskip the skipped tests"]);
  assert.deepEqual(opens("Progress:\n✅ parser\n⬜ update docs (team page)"), ["update docs (team page)"]);
  assert.deepEqual(opens("Progress:\n✅ parser\n⬜ means-of-payment form"), ["means-of-payment form"]);
  // a paragraph above the list is the report, not a lead-in naming an owner
  assert.deepEqual(opens("Thanks for your patience, status:\n✅ parser ported\n⬜ CLI conversion"), ["CLI conversion"]);
  assert.deepEqual(opens("I've added JSON support to the importer; here's where things stand:\n✅ JSON\n⬜ YAML"), [
    "YAML",
  ]);
  // an item's indented detail line continues the list; a fence between resets the lead-in
  assert.deepEqual(opens("Progress:\n- ✅ parser\n  (supports the new syntax)\n- ⬜ CLI"), ["CLI"]);
  assert.deepEqual(opens("Before you merge:\n```\nx\n```\n✅ parser\n⬜ CLI"), ["CLI"]);
});

Deno.test("parseMarkdownChecklist(): ✅ lines beside only not-work boxes stay a summary", () => {
  assert.equal(parseMarkdownChecklist("Progress:\n✅ parser ported\n⬜ IE 11 build — not supported"), null);
});
