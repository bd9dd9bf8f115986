import assert from "node:assert/strict";
import { readTurnView } from "./read_view.ts";
import { append, jsonl, line, withTempFile } from "../testing/transcript_lines.ts";

const IMAGE = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR".repeat(400_000) } };
const TURN_1 = jsonl(line.prompt("port the parser", "p1"), line.text("m1", "- [ ] lexer\n- [ ] parser"));

async function viewAfter(extra: string, includeSidechain = false) {
  return await withTempFile(async (path) => {
    await append(path, TURN_1 + extra);
    const { view } = await readTurnView(path, null, { includeSidechain, lastAssistantMessage: null, syncMs: 0 });
    return view;
  });
}

Deno.test("oversize: a 2 MB prompt with a pasted screenshot still starts a new turn (current layout)", async () => {
  const prompt = {
    parentUuid: "x",
    isSidechain: false,
    promptId: "p2",
    type: "user",
    message: { role: "user", content: [IMAGE, { type: "text", text: "why is this red?" }] },
    uuid: "u2",
  };
  const view = await viewAfter(jsonl(prompt));
  assert.equal(view.stats.oversize, 1);
  assert.equal(view.turnSeq, 2);
  assert.equal(view.turnId, "p2");
  assert.equal(view.markdown, null, "the list from the earlier prompt expired");
});

Deno.test("oversize: the prompt id is found in the tail when the line puts uuid last (1.0.x layout)", async () => {
  const prompt = { isSidechain: false, type: "user", message: { role: "user", content: [IMAGE] }, uuid: "u-old" };
  const view = await viewAfter(jsonl(prompt));
  assert.equal(view.turnSeq, 2);
  assert.equal(view.turnId, "u-old");
});

Deno.test("oversize: long tool results, meta text, notifications, sidechain and assistant lines are not prompts", async () => {
  const big = "z".repeat(2_000_000);
  const lines = jsonl(
    { type: "user", message: { role: "user", content: [{ tool_use_id: "t1", type: "tool_result", content: big }] } },
    { type: "user", message: { role: "user", content: [{ type: "text", text: big }] }, isMeta: true, uuid: "m" },
    { type: "user", message: { role: "user", content: `<task-notification>${big}` }, uuid: "n" },
    { type: "user", isSidechain: true, message: { role: "user", content: big }, uuid: "s" },
    { message: { id: "m9", role: "assistant", content: [{ type: "text", text: big }] }, type: "assistant" },
    { type: "progress", data: { message: { type: "user", message: { content: big } } } },
  );
  const view = await viewAfter(lines);
  assert.equal(view.stats.oversize, 6);
  assert.equal(view.turnSeq, 1);
  assert.deepEqual(view.markdown, [{ text: "lexer", done: false }, { text: "parser", done: false }]);
});

Deno.test("oversize: in a subagent's own transcript a long sidechain prompt is a turn", async () => {
  const prompt = { type: "user", isSidechain: true, message: { role: "user", content: [IMAGE] }, uuid: "s1" };
  const view = await viewAfter(jsonl(prompt), true);
  assert.equal(view.turnSeq, 2);
});
