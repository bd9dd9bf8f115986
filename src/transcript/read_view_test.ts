import assert from "node:assert/strict";
import { TranscriptIndexSchema } from "./index_schema.ts";
import { HEAD_BYTES } from "./transcript_index.ts";
import { readTurnView } from "./read_view.ts";
import { append, CLIENT, jsonl, line, readOnce, withTempFile } from "../testing/transcript_lines.ts";

const OPTS = { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 } as const;
const enc = new TextEncoder();

const TURN_1 = jsonl(
  line.prompt("add the endpoint", "p1"),
  line.toolUse("m1", "t1", "TaskCreate", { subject: "Add endpoint" }),
  line.result("t1", "Task #1 created successfully: Add endpoint", { task: { id: "1" } }),
  line.text("m2", "Endpoint started."),
);
const TURN_2 = jsonl(
  line.prompt("and the docs", "p2"),
  line.toolUse("m3", "t2", "TaskUpdate", { taskId: "1", status: "completed" }),
  line.text("m4", "- [x] endpoint\n- [ ] docs"),
);

Deno.test("readTurnView() with an index reads only the appended bytes", async () => {
  await withTempFile(async (path) => {
    await append(path, TURN_1);
    const first = await readTurnView(path, null, OPTS);
    assert.equal(first.view.stats.fullScan, true);
    assert.equal(first.view.stats.bytesRead, enc.encode(TURN_1).length);
    assert.deepEqual(first.view.tasks, [{ text: "Add endpoint", done: false }]);

    await append(path, TURN_2);
    const stored = TranscriptIndexSchema.parse(JSON.parse(JSON.stringify(first.index)));
    const second = await readTurnView(path, stored, OPTS);
    assert.equal(second.view.stats.fullScan, false);
    assert.equal(second.view.stats.bytesRead, enc.encode(TURN_2).length);
    assert.equal(second.view.stats.lines, 3);
    assert.equal(second.view.turnSeq, 2);
    assert.equal(second.view.turnId, "p2");
    assert.deepEqual(second.view.tasks, [{ text: "Add endpoint", done: true }]);
    assert.deepEqual(second.view.markdown, [{ text: "endpoint", done: true }, { text: "docs", done: false }]);
    assert.equal(second.index?.offset, enc.encode(TURN_1 + TURN_2).length);

    const third = await readTurnView(path, second.index, OPTS);
    assert.equal(third.view.stats.bytesRead, 0);
    assert.deepEqual(third.view.markdown, second.view.markdown);
  });
});

Deno.test("readTurnView() rescans when the file shrank", async () => {
  await withTempFile(async (path) => {
    await append(path, TURN_1 + TURN_2);
    const first = await readTurnView(path, null, OPTS);
    await Deno.writeTextFile(path, TURN_1);
    const again = await readTurnView(path, first.index, OPTS);
    assert.equal(again.view.stats.fullScan, true);
    assert.equal(again.view.turnSeq, 1);
    assert.deepEqual(again.view.tasks, [{ text: "Add endpoint", done: false }]);
  });
});

Deno.test("readTurnView() rescans when the file was replaced by another one", async () => {
  await withTempFile(async (path) => {
    await append(path, TURN_1);
    const first = await readTurnView(path, null, OPTS);
    const other = jsonl(line.prompt("a different session", "q1"), line.text("n1", "- [ ] other"));
    const padded = other + jsonl(line.text("n2", "x".repeat(TURN_1.length)));
    // Rename over the path: a new inode, and a different head.
    await Deno.writeTextFile(`${path}.new`, padded);
    await Deno.rename(`${path}.new`, path);
    const again = await readTurnView(path, first.index, OPTS);
    assert.equal(again.view.stats.fullScan, true);
    assert.equal(again.view.turnId, "q1");
    assert.equal(again.view.tasks, null);
  });
});

Deno.test("readTurnView() rescans when the same inode was rewritten with other content", async () => {
  await withTempFile(async (path) => {
    await append(path, TURN_1);
    const first = await readTurnView(path, null, OPTS);
    await Deno.writeTextFile(path, TURN_1.replace("add the endpoint", "ADD THE ENDPOINT") + TURN_2);
    const again = await readTurnView(path, first.index, OPTS);
    assert.equal(again.view.stats.fullScan, true);
  });
});

Deno.test("readTurnView() tells a file of more than HEAD_BYTES rewritten in its first bytes from one appended to", async () => {
  await withTempFile(async (path) => {
    // a first line long enough that both heads are a whole HEAD_BYTES: the index's hash is the head's own
    const long = jsonl(line.prompt(`start ${"a".repeat(HEAD_BYTES)}`, "q1")) + TURN_1;
    await append(path, long);
    const first = await readTurnView(path, null, OPTS);
    assert.equal(first.index!.identity.headLen, HEAD_BYTES);
    await append(path, TURN_2);
    const appended = await readTurnView(path, first.index, OPTS);
    assert.equal(appended.view.stats.fullScan, false);
    await Deno.writeTextFile(path, long.replace("start a", "start b") + TURN_2);
    const rewritten = await readTurnView(path, appended.index, OPTS);
    assert.equal(rewritten.view.stats.fullScan, true);
  });
});

Deno.test("readTurnView() rescans a file rewritten in place whose old end now falls inside a line", async () => {
  for (const headLong of [false, true]) {
    await withTempFile(async (path) => {
      // the same first line (the same head) in both versions; a long one puts the old end past the head
      const first = jsonl(line.prompt(headLong ? `start ${"a".repeat(HEAD_BYTES)}` : "start", "q1"));
      await append(path, first + TURN_1);
      const before = await readTurnView(path, null, OPTS);
      // rewritten in place (same inode): the first turn's text is longer, so the old end lands inside a line
      await Deno.writeTextFile(
        path,
        first + TURN_1.replace("Endpoint started.", "Endpoint started, and done.") + TURN_2,
      );
      const at = before.index!.offset;
      const bytes = await Deno.readFile(path);
      assert.notEqual(bytes[at - 1], 0x0a, "the old end is inside a line now");
      const again = await readTurnView(path, before.index, OPTS);
      assert.equal(again.view.stats.fullScan, true, `head long: ${headLong}`);
      assert.deepEqual(again.view.tasks, [{ text: "Add endpoint", done: true }]);
    });
  }
});

Deno.test("readTurnView() rescans with an index for another path, mode or version", async () => {
  await withTempFile(async (path) => {
    await append(path, TURN_1);
    const first = await readTurnView(path, null, OPTS);
    const index = first.index!;
    assert.equal((await readTurnView(path, { ...index, path: "/elsewhere.jsonl" }, OPTS)).view.stats.fullScan, true);
    assert.equal((await readTurnView(path, index, { ...OPTS, includeSidechain: true })).view.stats.fullScan, true);
    const wrongVersion = { ...index, v: 1 } as unknown as typeof index; // an index written before line numbers
    assert.equal((await readTurnView(path, wrongVersion, OPTS)).view.stats.fullScan, true);
    assert.equal((await readTurnView(path, index, OPTS)).view.stats.fullScan, false);
  });
});

Deno.test("readTurnView() leaves a torn last line for the next read", async () => {
  await withTempFile(async (path) => {
    const last = JSON.stringify(line.text("m9", "- [ ] torn item"));
    await append(path, TURN_1 + last.slice(0, 40));
    const first = await readTurnView(path, null, OPTS);
    assert.equal(first.view.stats.malformed, 0);
    assert.equal(first.view.markdown, null);
    assert.equal(first.index?.offset, enc.encode(TURN_1).length);
    await append(path, last.slice(40) + "\n");
    const second = await readTurnView(path, first.index, OPTS);
    assert.equal(second.view.stats.fullScan, false);
    assert.equal(second.view.stats.bytesRead, enc.encode(last).length + 1);
    assert.deepEqual(second.view.markdown, [{ text: "torn item", done: false }]);
  });
});

Deno.test("readTurnView() counts malformed, invalid UTF-8 and oversize lines and skips them", async () => {
  await withTempFile(async (path) => {
    await append(path, TURN_1);
    await append(path, '{"type":"user", not json\n');
    await append(
      path,
      new Uint8Array([...enc.encode('{"type":"user","message":{"content":"caf'), 0xff, ...enc.encode('"}}\n')]),
    );
    await append(path, jsonl({ type: "assistant", message: { content: [{ type: "text", text: "y".repeat(5000) }] } }));
    await append(path, "\n\n");
    const { view } = await readTurnView(path, null, { ...OPTS, maxLineBytes: 4096 });
    assert.equal(view.stats.malformed, 1);
    assert.equal(view.stats.oversize, 1);
    assert.equal(view.turnSeq, 2, "the invalid UTF-8 prompt was decoded with a replacement character");
  });
});

Deno.test("readTurnView() of a missing file: found false, no index, no wait", async () => {
  const { view, index } = await readTurnView("/nonexistent/dir/session.jsonl", null, {
    ...OPTS,
    lastAssistantMessage: "Done.",
    syncMs: 5000,
    sleep: () => Promise.reject(new Error("must not wait")),
  });
  assert.equal(view.found, false);
  assert.equal(index, null);
  assert.deepEqual([view.tasks, view.todo, view.markdown, view.finalSynced], [null, null, null, false]);
});

Deno.test("readTurnView() throws errors other than NotFound", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(() => readTurnView(dir, null, OPTS));
  } finally {
    await Deno.remove(dir);
  }
});

Deno.test("readTurnView() of the real Claude Code 2.1.328 transcripts with their Stop payloads", async () => {
  const dir = CLIENT;
  const tasks = await readOnce(`${dir}transcripts/tasks-bash-session.jsonl`, {
    lastAssistantMessage: (JSON.parse(await Deno.readTextFile(`${dir}payloads/10-Stop.json`)) as StopPayload)
      .last_assistant_message,
  });
  assert.deepEqual(tasks.view.tasks, [{ text: "Write tests", done: true }, { text: "Update CHANGELOG", done: false }]);
  assert.equal(tasks.view.turnId, "f5330cff-c000-425e-99ea-51db1df60eec");
  assert.equal(tasks.view.finalSynced, true);
  assert.equal(tasks.view.model, "claude-opus-5-5");

  const blocked = await readOnce(`${dir}transcripts/stop-block-session.jsonl`, {
    lastAssistantMessage:
      (JSON.parse(await Deno.readTextFile(`${dir}payloads/12-Stop-after-block.json`)) as StopPayload)
        .last_assistant_message,
  });
  assert.equal(blocked.view.turnSeq, 1, "the Stop hook feedback line is not a new turn");
  assert.equal(blocked.view.finalSynced, true);
});

interface StopPayload {
  last_assistant_message: string;
}
