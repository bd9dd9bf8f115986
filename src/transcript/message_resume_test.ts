/**
 * One assistant message written over several lines and read in two calls (the index stored mid-message): the
 * stored index holds none of its text, and the Markdown list (with a code fence open across lines) and the
 * final-message check come out as from one read.
 */
import assert from "node:assert/strict";
import { readTurnView, type ReadTurnViewOptions, type ReadTurnViewResult } from "./read_view.ts";
import { append, jsonl, line, withTempFile } from "../testing/transcript_lines.ts";

const SECRET = "SECRET4b1d";
const PROMPT = jsonl(line.prompt("go on", "p1"));
const TEXTS = [
  `Plan for ${SECRET}:\n\`\`\`md\n- [ ] quoted ${SECRET}`,
  `- [ ] still quoted\n\`\`\`\n- [x] schema\n- [ ] docs`,
  `Done with ${SECRET} mostly.`,
];
const LINES = [
  jsonl(line.text("m1", TEXTS[0]!)),
  jsonl(line.toolUse("m1", "t1", "Bash", { command: "make" })),
  jsonl(line.text("m1", TEXTS[1]!)),
  jsonl(line.text("m1", TEXTS[2]!)),
];
const MERGED = TEXTS.join("\n\n");
const noSleep = () => Promise.reject(new Error("must not wait"));

/** With no final message the reader would wait for the pending Bash call's result (cut off by a split): not here. */
function options(lastAssistantMessage: string | null, more: Partial<ReadTurnViewOptions> = {}): ReadTurnViewOptions {
  const syncMs = lastAssistantMessage === null ? 0 : 1000;
  return { includeSidechain: false, lastAssistantMessage, syncMs, sleep: noSleep, ...more };
}

function comparable(result: ReadTurnViewResult) {
  const { stats: _stats, ...view } = result.view;
  return { view, state: result.index?.state };
}

Deno.test("a message split over two reads: same state and view as one read, and no text in either index", async () => {
  for (let k = 0; k <= LINES.length; k++) {
    await withTempFile(async (path) => {
      await append(path, PROMPT + LINES.join(""));
      const full = await readTurnView(path, null, options(null));
      assert.deepEqual(full.view.markdown, [{ text: "schema", done: true }, { text: "docs", done: false }]);
      assert.ok(!JSON.stringify(full.index).includes(SECRET), "the full read's index holds no text");
      await Deno.truncate(path, 0);
      await append(path, PROMPT + LINES.slice(0, k).join(""));
      const first = await readTurnView(path, null, options(null));
      assert.ok(!JSON.stringify(first.index).includes(SECRET), `index stored after ${k} line(s) holds no text`);
      await append(path, LINES.slice(k).join(""));
      const second = await readTurnView(path, first.index, options(null));
      assert.equal(second.view.stats.fullScan, false);
      assert.deepEqual(comparable(second), comparable(full), `split after ${k} line(s)`);
    });
  }
});

Deno.test("a message split over two reads: the whole merged message and its last block are found by hash", async () => {
  for (let k = 1; k < LINES.length; k++) {
    for (const final of [MERGED, ` ${MERGED.replaceAll("\n", " ")} `, TEXTS[2]!]) {
      await withTempFile(async (path) => {
        await append(path, PROMPT + LINES.slice(0, k).join(""));
        const first = await readTurnView(path, null, options(null));
        await append(path, LINES.slice(k).join(""));
        const { view } = await readTurnView(path, first.index, options(final));
        assert.equal(view.finalSynced, true, `split after ${k} line(s)`);
        assert.equal(view.stats.waitedMs, 0);
      });
    }
  }
});

Deno.test("flush race: text contained in a message read by this process is found while polling", async () => {
  await withTempFile(async (path) => {
    await append(path, PROMPT);
    const first = await readTurnView(path, null, options(null));
    await append(path, LINES.slice(0, 3).join(""));
    let appended = false;
    const sleep = async () => {
      if (!appended) await append(path, LINES[3]!);
      appended = true;
    };
    // spans the first and third text blocks and the start of the last one: no block and not the whole message
    const contained = `quoted ${SECRET}\n- [ ] still quoted\n\`\`\`\n- [x] schema\n- [ ] docs\n\nDone with`;
    const { view, index } = await readTurnView(path, first.index, options(contained, { sleep, pollMs: 10 }));
    assert.equal(appended, true, "the reader polled");
    assert.equal(view.finalSynced, true);
    assert.ok(!JSON.stringify(index).includes(SECRET));
    const other = await readTurnView(path, index, options("Something else entirely.", { syncMs: 0 }));
    assert.equal(other.view.finalSynced, false);
  });
});

/** A line of the given text blocks (the client writes one block a line; older ones and the API put several). */
function multiText(messageId: string, texts: string[]): string {
  const one = line.text(messageId, "") as { message: { content: unknown[] } };
  one.message.content = texts.map((text) => ({ type: "text", text }));
  return jsonl(one);
}

Deno.test("a line of several text blocks, read by an earlier process: the merged message and each block are found by hash", async () => {
  const blocks = ["First block.", "Second block.", "Third block, the end."];
  const cases = [
    { label: "a new message", lines: [multiText("m2", blocks)], merged: blocks.join("\n") },
    {
      label: "a message continued",
      lines: [jsonl(line.text("m2", "Opening.")), multiText("m2", blocks)],
      merged: ["Opening.", ...blocks].join("\n"),
    },
  ];
  for (const { label, lines, merged } of cases) {
    const finals = [merged, ...blocks].map((text) => ({ text, synced: true }));
    const others = [blocks.slice(1).join("\n"), `${merged} More.`].map((text) => ({ text, synced: false }));
    for (const { text, synced } of [...finals, ...others]) {
      await withTempFile(async (path) => {
        await append(path, PROMPT + lines.join(""));
        const first = await readTurnView(path, null, options(null));
        const { view } = await readTurnView(path, first.index, options(text, { syncMs: 0 }));
        assert.equal(view.stats.fullScan, false);
        assert.equal(view.finalSynced, synced, `${label}: ${JSON.stringify(text)}`);
      });
    }
  }
});
