/** The current turn's tool calls (TurnView.tools) over constructed transcripts in the 2.1.328 shape. */
import assert from "node:assert/strict";
import { readTurnView } from "./read_view.ts";
import type { ToolCallRef, TurnTools } from "./types.ts";
import { append, CLIENT, CORPUS, fixture, readOnce, withTempFile } from "../testing/transcript_lines.ts";

const ref = (id: string, name: string, line: number): ToolCallRef => ({ id, name, line });

async function toolsOf(name: string): Promise<TurnTools> {
  const { view } = await readOnce(fixture(name));
  assert.equal(view.stats.malformed, 0);
  return view.tools;
}

Deno.test("tools: a Read with no result is pending, at the line of its tool_use", async () => {
  assert.deepEqual(await toolsOf("tools_pending_read.jsonl"), {
    pending: [ref("toolu_01Read", "Read", 5)],
    emptyResults: [],
    trailingResults: null,
    calls: 1,
  });
});

Deno.test("tools: a pending MCP call keeps its mcp__ name", async () => {
  const tools = await toolsOf("tools_pending_mcp.jsonl");
  assert.deepEqual(tools.pending, [ref("toolu_02Mcp", "mcp__linear-server__get_issue", 5)]);
});

Deno.test("tools: results empty in every form: '', whitespace, blank text blocks, null and missing content", async () => {
  const tools = await toolsOf("tools_empty_forms.jsonl");
  assert.deepEqual(tools.emptyResults, [
    ref("toolu_03Str", "mcp__docs__fetch", 3),
    ref("toolu_03Ws", "mcp__docs__search", 5),
    ref("toolu_03Blocks", "mcp__docs__list", 7),
    ref("toolu_03Null", "WebFetch", 9),
    ref("toolu_03Missing", "mcp__docs__history", 11),
  ], "a Read with text and an error with text are not empty");
  assert.deepEqual(tools.pending, []);
  assert.equal(tools.trailingResults, null, "the assistant replied after the results");
  assert.equal(tools.calls, 7);
});

Deno.test("tools: a Bash that ran and printed nothing (structured toolUseResult) is not an empty result", async () => {
  const tools = await toolsOf("tools_bash_no_output.jsonl");
  assert.deepEqual(tools, { pending: [], emptyResults: [], trailingResults: null, calls: 2 });
});

Deno.test("tools: in a mixed turn only the later, unanswered call is pending", async () => {
  const tools = await toolsOf("tools_mixed_turn.jsonl");
  assert.deepEqual(tools.pending, [ref("toolu_05Grep", "Grep", 5)]);
  assert.equal(tools.calls, 2);
  assert.equal(tools.trailingResults, null);
});

Deno.test("tools: a call left pending in an old turn is history after a new prompt", async () => {
  const { view } = await readOnce(fixture("tools_stale_pending.jsonl"));
  assert.equal(view.turnId, "p-new");
  assert.deepEqual(view.tools, { pending: [], emptyResults: [], trailingResults: null, calls: 1 });
});

Deno.test("tools: a turn that ends on tool results with no reply has trailing results; a reply clears them", async () => {
  const trailing = await toolsOf("tools_trailing_results.jsonl");
  assert.deepEqual(trailing.trailingResults, [ref("toolu_07A", "Read", 5), ref("toolu_07B", "Read", 6)]);
  assert.deepEqual(trailing.pending, []);
  const replied = await toolsOf("tools_trailing_replied.jsonl");
  assert.equal(replied.trailingResults, null);
  assert.deepEqual(replied.pending, []);
});

Deno.test("tools: a tool_result written before its tool_use: the call is not pending and the result is named", async () => {
  const tools = await toolsOf("tools_result_before_use.jsonl");
  assert.deepEqual(tools.pending, []);
  assert.equal(tools.calls, 1);
  // The line after the result holds only the answered call: it is not a reply, the turn still ends on the result.
  assert.deepEqual(tools.trailingResults, [ref("toolu_08Wc", "Bash", 3)]);
});

Deno.test("tools: blank lines are counted; a torn last line is not read until it is completed", async () => {
  await withTempFile(async (path) => {
    await append(path, await Deno.readFile(fixture("tools_torn_blank.jsonl")));
    const first = await readTurnView(path, null, { includeSidechain: false, lastAssistantMessage: null, syncMs: 0 });
    assert.deepEqual(first.view.tools.pending, [ref("toolu_09Cat", "Bash", 3)]);
    assert.equal(first.index?.line, 5, "five complete lines, two of them blank and one a lone CR");
    await append(path, '"main"}\n');
    const second = await readTurnView(path, first.index, {
      includeSidechain: false,
      lastAssistantMessage: null,
      syncMs: 0,
    });
    assert.equal(second.view.stats.fullScan, false);
    assert.deepEqual(second.view.tools.pending, []);
    assert.deepEqual(second.view.tools.trailingResults, [ref("toolu_09Cat", "Bash", 6)]);
    assert.equal(second.index?.line, 6);
  });
});

Deno.test("tools: one response split over lines sharing message.id: each tool_use counts, one is unanswered", async () => {
  const tools = await toolsOf("tools_split_parallel.jsonl");
  assert.equal(tools.calls, 3);
  assert.deepEqual(tools.pending, [ref("toolu_10Grep", "Grep", 5)]);
  assert.deepEqual(tools.trailingResults, [ref("toolu_10Read", "Read", 7), ref("toolu_10Mcp", "mcp__docs__search", 8)]);
  assert.deepEqual(tools.emptyResults, []);
});

Deno.test("tools: a result carrying the interrupt marker is a result; the marker line starts no turn", async () => {
  const { view } = await readOnce(fixture("tools_interrupt_result.jsonl"));
  assert.equal(view.turnSeq, 1);
  assert.deepEqual(view.tools.pending, []);
  assert.deepEqual(view.tools.emptyResults, []);
  assert.deepEqual(view.tools.trailingResults, [ref("toolu_11Deploy", "Bash", 3)]);
});

Deno.test("tools: a missing file has no tool calls", async () => {
  const { view } = await readOnce("/nonexistent/session.jsonl");
  assert.deepEqual(view.tools, { pending: [], emptyResults: [], trailingResults: null, calls: 0 });
});

Deno.test("tools: the real 2.1.328 session (tasks and a Bash call, final reply): nothing pending", async () => {
  const { view } = await readOnce(`${CLIENT}transcripts/tasks-bash-session.jsonl`);
  assert.deepEqual(view.tools, { pending: [], emptyResults: [], trailingResults: null, calls: 4 });
});

Deno.test("tools: a call written just before an auto-compaction is abandoned, not pending", async () => {
  const { view } = await readOnce(fixture("tools_compact_abandoned.jsonl"));
  assert.equal(view.turnSeq, 1, "the compact summary is not a prompt");
  assert.deepEqual(view.tools, { pending: [], emptyResults: [], trailingResults: null, calls: 2 });
  // The same in a real session of the corpus (2.1.29): a Bash tool_use at line 575, compaction at 576.
  const real = await readOnce(`${CORPUS}transcripts/entireio__cli__fc-99c919b212-0__full.jsonl`);
  assert.deepEqual(real.view.tools.pending, []);
});

/**
 * Runs of the real client 2.1.328 against a scripted API (the e2e stall scenarios, e2e/stall_scenarios.ts),
 * copied from testdata/e2e/observed/ keeping only the user, assistant and system lines.
 */
Deno.test("tools: real client runs: what each stall scenario leaves in the current turn", async () => {
  const kinds = async (name: string) => {
    const t = (await readOnce(fixture(`observed_${name}.jsonl`))).view.tools;
    return {
      pending: t.pending.map((c) => c.name),
      empty: t.emptyResults.length,
      trailing: t.trailingResults?.length ?? 0,
    };
  };
  // Bash `true`, mkdir, stderr only, `false`, Read of an empty file, Write, Edit, MCP tools answering nothing:
  // the client writes "(X completed with no output)", which is a normal run, not an empty result.
  assert.deepEqual(await kinds("empty_results"), { pending: [], empty: 0, trailing: 0 });
  // The reply never came (no assistant line), or came blank ("  \n", " "): the turn ends on the result.
  assert.deepEqual(await kinds("missing_followup"), { pending: [], empty: 0, trailing: 1 });
  assert.deepEqual(await kinds("blank_followup"), { pending: [], empty: 0, trailing: 1 });
  // The client was killed during an MCP call; resumed with a new prompt, the call is history.
  assert.deepEqual(await kinds("mcp_killed"), { pending: ["mcp__hang__slow_lookup"], empty: 0, trailing: 0 });
  assert.deepEqual(await kinds("mcp_killed_resumed"), { pending: [], empty: 0, trailing: 0 });
});
