import assert from "node:assert/strict";
import { buildFullRuleSet } from "../full.ts";
import { analyseClosing } from "./analyse.ts";
import { parseBlocks } from "./blocks.ts";
import { closingBeforeReference, isReferenceTitle } from "./reference_sections.ts";
import { readStructure } from "./units.ts";

const prose = (text: string) => parseBlocks(text).filter((b) => b.kind !== "code" && b.kind !== "quote");
const closing = (text: string) =>
  readStructure(text, { maxChars: 4000 }).units.filter((u) => u.closing).map((u) => u.text);

Deno.test("isReferenceTitle(): tests run and files changed, in the guard's languages; not next steps", () => {
  for (
    const title of [
      "Testing",
      "✅ Testing",
      "1. Tests:",
      "Tests:",
      "Files touched:",
      "Files changed",
      "### Checks",
      "Changed",
      "Tests run",
      "How I tested",
      "実行したテスト",
      "测试情况",
      "테스트 실행",
      "Getestet",
      "Evidence:",
      "Checks on the new cluster:",
      "根拠:",
      "テスト",
      "变更文件",
      "변경 파일",
      "Тесты",
      "Geänderte Dateien",
      "Archivos modificados",
      "測試結果",
      "變更檔案",
    ]
  ) assert.ok(isReferenceTitle(title), title);
  for (
    const title of [
      "Next steps",
      "Remaining",
      "Status",
      "Still to do:",
      "TODO",
      "For you:",
      "Summary of the plan",
      "残りのテスト",
      "Notes",
      "Summary",
      "概要",
      "Output",
      "Results",
      "Links",
      "Logs",
    ]
  ) {
    assert.ok(!isReferenceTitle(title), title);
  }
});

Deno.test("closingBeforeReference(): the paragraph before trailing reference sections, through every one of them", () => {
  const text =
    "Intro.\n\nThe cache key is up to you.\n\nTests:\n- pytest: 88 passed\n\n## Files changed\n- a.ts\n- b.ts";
  const blocks = prose(text);
  const range = closingBeforeReference(blocks);
  assert.ok(range);
  assert.deepEqual(blocks.slice(range[0], range[1] + 1).map((b) => b.text), ["The cache key is up to you."]);
  // a list before the sections: the whole list
  const list = prose("Ported:\n- parser\n- lexer\n\n## Testing\n- 12 passed");
  const listRange = closingBeforeReference(list);
  assert.ok(listRange);
  assert.deepEqual(list.slice(listRange[0], listRange[1] + 1).map((b) => b.text), ["parser", "lexer"]);
});

Deno.test("closingBeforeReference(): a section of finished work, and lines that are a label with its content, are reference material", () => {
  const text =
    "Intro.\n\nI'll move the call into `__init__.py` now.\n\n**What's done**\n- `Button.tsx` uses the tokens\n\n" +
    "Relevant files: `app/config.py`, `app/__init__.py`\nTests: `npm test` — 96 passed";
  const blocks = prose(text);
  const range = closingBeforeReference(blocks);
  assert.ok(range);
  assert.deepEqual(blocks.slice(range[0], range[1] + 1).map((b) => b.text), [
    "I'll move the call into `__init__.py` now.",
  ]);
  // in the sixteen languages too
  const pl = prose(
    "Mogę to samo zrobić w `kontakt.ts`.\n\n**Zmienione pliki**\n- `faktura.py`\n\n**Testy**\n- 19 passed",
  );
  const plRange = closingBeforeReference(pl);
  assert.ok(plRange);
  assert.equal(pl[plRange[0]]!.text, "Mogę to samo zrobić w `kontakt.ts`.");
  // label lines alone after the closing paragraph
  const labels = prose(
    "I'll move the call into `__init__.py` now.\n\nRelevant files: `app/config.py`\nTests: `npm test` — 96 passed",
  );
  assert.deepEqual(closingBeforeReference(labels), [0, 0]);
  // a line with a label that is no reference, or prose after the label's line, is not one
  assert.equal(closingBeforeReference(prose("Done with the parser.\n\nNext: the lexer, after lunch")), null);
  assert.equal(
    closingBeforeReference(prose("Fixed it.\n\nTests: all green. I'll add the docs next.\nMore to come")),
    null,
  );
});

Deno.test("closingBeforeReference(): a section that is not reference material ends the search; nothing before, nothing read", () => {
  // the "Next steps" list is read as the closing before the test list, and no further back
  const blocks = prose("Done.\n\n## Next steps\n- deploy it\n\n## Testing\n- 12 passed");
  const range = closingBeforeReference(blocks);
  assert.ok(range);
  assert.deepEqual(blocks.slice(range[0], range[1] + 1).map((b) => b.text), ["deploy it"]);
  assert.equal(closingBeforeReference(prose("Done.\n\n## Next steps\n- deploy it")), null);
  assert.equal(closingBeforeReference(prose("## Testing\n- 12 passed")), null);
  assert.equal(closingBeforeReference(prose("All done. Want the docs too?")), null);
});

Deno.test("readStructure(): the paragraph before '## Files changed' is in the closing, past the last three sentences", () => {
  const files = Array.from({ length: 6 }, (_, i) => `- src/file_${i}.ts`).join("\n");
  const text =
    "Ported the handler.\n\nWant me to port the other endpoints too?\n\nThat covers the first one.\n\n## Files changed\n" +
    files;
  assert.ok(closing(text).includes("That covers the first one."));
  // without the reference section the paragraph is not in the closing (six items after it are the last sentences)
  assert.ok(!closing(text.replace("## Files changed", "## Next steps")).includes("That covers the first one."));
});

Deno.test("closingBeforeReference(): every title on the way back must be a reference one", () => {
  const blocks = prose("Intro.\n\n## Changes\n- a\n\n## Next steps\n- deploy it\n\n## Testing\n- ok");
  const range = closingBeforeReference(blocks);
  assert.ok(range);
  assert.deepEqual(blocks.slice(range[0], range[1] + 1).map((b) => b.text), ["deploy it"]);
});

Deno.test("closingBeforeReference(): a `…:` list followed by prose is not trailing; a heading or a table before is not read", () => {
  // the list under "Changes:" is followed by a paragraph, so the message does not end in reference sections
  assert.equal(
    closingBeforeReference(prose("Up to you.\n\nChanges:\n- a.py\n- b.py\n\nI went with per cart. All pass.")),
    null,
  );
  // a heading right before the sections: nothing closes before them
  assert.equal(closingBeforeReference(prose("Intro.\n\n## Benchmarks\n\n## Testing\n- ok")), null);
  assert.equal(closingBeforeReference(prose("Intro.\n\n| a | b |\n\n## Testing\n- ok")), null);
  // a `Tests:` line over a code block is not the closing paragraph
  assert.equal(
    closingBeforeReference(prose("Up to you.\n\nTests:\n```\n88 passed\n```\n\nFiles touched:\n- a.ts")),
    null,
  );
});

Deno.test("analyseClosing(): an offer or a choice before trailing test and file lists decides; a report before them does not", () => {
  const set = buildFullRuleSet({ userFiles: [] });
  const analyse = (text: string) => analyseClosing(text, set, { maxChars: 4000 });
  const tail = "\n\nTests:\n- `pytest tests/checkout` — 88 passed\n- Cypress `checkout.cy.ts` — 9 passed\n\n" +
    "Files touched:\n- `src/cache.py`\n- `src/rates.py`\n- `tests/test_rates.py`";
  assert.ok(
    analyse(
      "Rates come from the carrier API now and are cached.\n\nThe cache could be keyed per session or per cart; " +
        "I haven't picked one — up to you." + tail,
    ).early,
  );
  assert.equal(
    analyse("Rates come from the carrier API now and are cached per cart, as the ticket asks." + tail).early,
    null,
  );
});

Deno.test("closingBeforeReference(): a report that opens with '## Summary' still closes before its trailing sections", () => {
  const blocks = prose(
    "## Summary\nFixed the N+1.\n\nNext I'll port the orders service.\n\n## Files changed\n- a.ts\n\n## Testing\nAll green.",
  );
  const range = closingBeforeReference(blocks);
  assert.ok(range);
  assert.deepEqual(blocks.slice(range[0], range[1] + 1).map((b) => b.text), ["Next I'll port the orders service."]);
});
