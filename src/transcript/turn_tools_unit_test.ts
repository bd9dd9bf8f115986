/** The turn's tool calls, folded line by line (reducer level) and read off oversize lines. */
import assert from "node:assert/strict";
import { reduceLine } from "./reducer.ts";
import { initialState, type ReducerState } from "./reducer_state.ts";
import { readTurnView } from "./read_view.ts";
import { MAX_ANSWERED, MAX_TOOL_REFS, turnToolsView } from "./turn_tools.ts";
import { append, jsonl, line, withTempFile } from "../testing/transcript_lines.ts";

const MAIN = { includeSidechain: false };

/** Folds the lines, numbering them from 1. */
function fold(lines: unknown[], from: ReducerState = initialState()): ReducerState {
  return lines.reduce<ReducerState>((s, l, i) => reduceLine(s, l, MAIN, i + 1), from);
}

Deno.test("turn tools: pending keeps the newest 32, answered ids the newest 64", () => {
  const uses = Array.from({ length: 100 }, (_, i) => line.toolUse(`m${i}`, `t${i}`, "Read", {}));
  const results = Array.from({ length: 100 }, (_, i) => line.result(`r${i}`, "ok"));
  const state = fold([line.prompt("go", "p1"), ...uses, ...results]);
  const view = turnToolsView(state.tools);
  assert.equal(view.pending.length, MAX_TOOL_REFS);
  assert.deepEqual(view.pending[0], { id: "t68", name: "Read", line: 70 });
  assert.equal(view.calls, 100);
  assert.equal(state.tools.answered.length, MAX_ANSWERED);
  assert.equal(view.trailingResults?.length, MAX_TOOL_REFS);
  assert.ok(JSON.stringify(state.tools).length < 8 * 1024, "the index stays small");
});

Deno.test("turn tools: the same tool_use written twice counts once and is answered by one result", () => {
  const use = line.toolUse("m1", "t1", "Bash", { command: "make" });
  const state = fold([line.prompt("go", "p1"), use, use, line.result("t1", "ok"), use]);
  const view = turnToolsView(state.tools);
  assert.deepEqual(view.pending, []);
  assert.deepEqual(view.trailingResults, [{ id: "t1", name: "Bash", line: 4 }]);
});

Deno.test("turn tools: a result whose call is in an older turn has no name; a reply after it clears trailing", () => {
  const queued = { type: "attachment", promptId: "p2", attachment: { type: "queued_command", prompt: "also X" } };
  const state = fold([
    line.prompt("build it", "p1"),
    line.toolUse("m1", "t1", "Bash", { command: "make" }),
    queued,
    line.result("t1", ""),
  ]);
  assert.equal(state.turnSeq, 2);
  const view = turnToolsView(state.tools);
  assert.deepEqual(view.pending, [], "the call of the earlier turn is history");
  assert.deepEqual(view.emptyResults, [{ id: "t1", name: "", line: 4 }]);
  assert.deepEqual(view.trailingResults, [{ id: "t1", name: "", line: 4 }]);
  assert.equal(turnToolsView(fold([line.text("m2", "Done.")], state).tools).trailingResults, null);
});

Deno.test("turn tools: out-of-order result then use then reply: nothing pending, nothing trailing", () => {
  const state = fold([
    line.prompt("count", "p1"),
    line.result("t1", "42"),
    line.toolUse("m1", "t1", "Bash", { command: "wc -l" }),
    line.text("m1", "42 lines."),
  ]);
  assert.deepEqual(turnToolsView(state.tools), { pending: [], emptyResults: [], trailingResults: null, calls: 1 });
});

Deno.test("turn tools: blank or thinking-only assistant lines are no reply; text or a new call is", () => {
  const base = [line.prompt("make it", "p1"), line.toolUse("m1", "t1", "Bash", {}), line.result("t1", "ok")];
  const thinking = {
    type: "assistant",
    message: { id: "m2", role: "assistant", content: [{ type: "thinking", thinking: "done", signature: "s" }] },
  };
  const noReply = fold([...base, line.text("m2", "  \n"), thinking]);
  assert.deepEqual(turnToolsView(noReply.tools).trailingResults, [{ id: "t1", name: "Bash", line: 3 }]);
  assert.equal(turnToolsView(fold([line.text("m3", "Built.")], noReply).tools).trailingResults, null);
  assert.equal(turnToolsView(fold([line.toolUse("m3", "t2", "Read", {})], noReply).tools).trailingResults, null);
});

Deno.test("turn tools: a compaction boundary drops the calls left open before it", () => {
  const boundary = { type: "system", subtype: "compact_boundary", content: "Conversation compacted" };
  const state = fold([line.prompt("go", "p1"), line.toolUse("m1", "t1", "Bash", {}), boundary]);
  assert.deepEqual(turnToolsView(state.tools), { pending: [], emptyResults: [], trailingResults: null, calls: 1 });
});

Deno.test("turn tools: a slash command answered by the model starts the turn's tool state afresh", () => {
  const command = { type: "user", uuid: "c1", message: { content: "<command-name>/review</command-name>" } };
  const state = fold([
    line.prompt("first", "p1"),
    line.toolUse("m1", "t1", "Read", {}),
    command,
    line.toolUse("m2", "t2", "Grep", {}),
  ]);
  assert.deepEqual(turnToolsView(state.tools).pending, [{ id: "t2", name: "Grep", line: 4 }]);
});

const BIG = "z".repeat(40_000);

Deno.test("turn tools: an oversize tool result answers its call (id from the head) and is not empty", async () => {
  await withTempFile(async (path) => {
    const big = line.result("t1", BIG, { stdout: BIG, stderr: "", interrupted: false });
    await append(path, jsonl(line.prompt("dump", "p1"), line.toolUse("m1", "t1", "Bash", {}), big));
    const { view } = await readTurnView(path, null, opts(4096));
    assert.equal(view.stats.oversize, 1);
    assert.deepEqual(view.tools.pending, []);
    assert.deepEqual(view.tools.emptyResults, []);
    assert.deepEqual(view.tools.trailingResults, [{ id: "t1", name: "Bash", line: 3 }]);
  });
});

Deno.test("turn tools: oversize results in the older layout (content first, id last) take ids from the tail", async () => {
  await withTempFile(async (path) => {
    const content = [
      { type: "tool_result", content: BIG, is_error: false, tool_use_id: "t1" },
      { type: "tool_result", content: BIG, tool_use_id: "t2" },
      { type: "tool_result", content: "small", tool_use_id: "t3" },
    ];
    const results = { type: "user", isSidechain: false, message: { role: "user", content }, uuid: "u3" };
    const uses = ["t1", "t2", "t3"].map((id) => line.toolUse("m1", id, "Read", {}));
    await append(path, jsonl(line.prompt("read", "p1"), ...uses, results));
    const { view } = await readTurnView(path, null, opts(4096));
    assert.equal(view.stats.oversize, 1);
    assert.deepEqual(view.tools.trailingResults, [{ id: "t2", name: "Read", line: 5 }, {
      id: "t3",
      name: "Read",
      line: 5,
    }]);
    // A known limit: an id in the cut middle of a multi-result line (older clients only) is not seen.
    assert.deepEqual(view.tools.pending.map((p) => p.id), ["t1"]);
  });
});

Deno.test("turn tools: an oversize sidechain result is skipped in the main transcript", async () => {
  await withTempFile(async (path) => {
    const side = { ...line.result("t1", BIG), isSidechain: true };
    await append(path, jsonl(line.prompt("go", "p1"), line.toolUse("m1", "t1", "Read", {}), side));
    const { view } = await readTurnView(path, null, opts(4096));
    assert.deepEqual(view.tools.pending.map((p) => p.id), ["t1"]);
  });
});

Deno.test("turn tools: an oversize tool_use (a huge Write) is pending by id and name, with no checklist", async () => {
  await withTempFile(async (path) => {
    const write = line.toolUse("m1", "t1", "Write", { file_path: "/a", content: BIG });
    const todo = line.toolUse("m2", "t2", "TodoWrite", { todos: [{ content: BIG, status: "pending" }] });
    await append(path, jsonl(line.prompt("write", "p1"), write, todo));
    const { view } = await readTurnView(path, null, opts(4096));
    assert.equal(view.stats.oversize, 2);
    assert.deepEqual(view.tools.pending, [{ id: "t1", name: "Write", line: 2 }, {
      id: "t2",
      name: "TodoWrite",
      line: 3,
    }]);
    assert.equal(view.todo, null, "a cut TodoWrite input is not a list");
    assert.equal(view.model, null, "no model is read off a cut line");
  });
});

Deno.test("turn tools: an oversize text reply is a reply, and no sync text or Markdown list is read off it", async () => {
  await withTempFile(async (path) => {
    const reply = line.text("m2", `- [ ] item\n${BIG}`);
    await append(path, jsonl(line.prompt("go", "p1"), line.toolUse("m1", "t1", "Bash", {}), line.result("t1", "ok")));
    await append(path, jsonl(reply));
    const { view } = await readTurnView(path, null, opts(4096));
    assert.equal(view.stats.oversize, 1);
    assert.equal(view.tools.trailingResults, null);
    assert.equal(view.markdown, null);
  });
});

function opts(maxLineBytes: number) {
  return { includeSidechain: false, lastAssistantMessage: null, syncMs: 0, maxLineBytes };
}
