/**
 * Our stall cases (testdata/stall_cases/, written from the stall_watch design of seed 002), read by our reader.
 * The kinds are named from TurnView.tools with the seed's mapping:
 * - pending → pending_tool_use, or hung_mcp_call when the tool name starts with `mcp__`;
 * - emptyResults → empty_tool_result;
 * - trailingResults → missing_followup.
 * The seed scans the whole file; we look at the current user turn only. open_call_in_earlier_turn_allows and the
 * two tests at the end show where the current-turn rule and the empty-output rule differ.
 */
import assert from "node:assert/strict";
import { fixture, readOnce, STALL_CASES } from "../testing/transcript_lines.ts";
import type { TurnTools } from "./types.ts";

const PEER = STALL_CASES;

interface Found {
  kind: string;
  id: string;
  line: number;
}

function kindsOf(tools: TurnTools): Found[] {
  const found: Found[] = [
    ...tools.pending.map((c) => ({ kind: c.name.startsWith("mcp__") ? "hung_mcp_call" : "pending_tool_use", ...c })),
    ...tools.emptyResults.map((c) => ({ kind: "empty_tool_result", ...c })),
    ...(tools.trailingResults ?? []).map((c) => ({ kind: "missing_followup", ...c })),
  ];
  return found.sort((a, b) => a.line - b.line).map(({ kind, id, line }) => ({ kind, id, line }));
}

/** The kinds the reader must find per case (cases.jsonl gives the decision and reason substrings). */
const EXPECTED: Record<string, string[]> = {
  finished_turn_allows: [],
  open_call_blocks: ["pending_tool_use"],
  // The reader finds the stall; allowing the stop is the hook's job (stop_hook_active), not the reader's.
  after_a_block_allows: ["pending_tool_use"],
  transcript_not_written_allows: [],
  hung_mcp_call_blocks: ["hung_mcp_call"],
  unanswered_result_blocks: ["missing_followup"],
  empty_result_blocks: ["empty_tool_result"],
  only_the_open_call_blocks: ["pending_tool_use"],
  every_kind_in_order_blocks: ["empty_tool_result", "hung_mcp_call"],
  noise_around_finished_turn_allows: [],
  // The seed's whole-file rule would flag the Bash call of the first prompt; the current turn is finished.
  open_call_in_earlier_turn_allows: [],
};

interface PeerCase {
  id: string;
  payload: { transcript_path: string; stop_hook_active: boolean };
  expect: { decision: "block" | "allow"; reason_contains?: string[] };
}

const cases = Deno.readTextFileSync(`${PEER}cases.jsonl`).split("\n").filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as PeerCase);

Deno.test("stall cases: every case of cases.jsonl has an expectation here", () => {
  assert.deepEqual(cases.map((c) => c.id).sort(), Object.keys(EXPECTED).sort());
});

for (const c of cases) {
  const expected = EXPECTED[c.id] ?? [];
  Deno.test(`stall cases: ${c.id} → ${expected.join(", ") || "no stall"}`, async () => {
    const { view } = await readOnce(`${PEER}${c.payload.transcript_path}`);
    const found = kindsOf(view.tools);
    assert.deepEqual(found.map((f) => f.kind), expected);
    const blocks = found.length > 0 && !c.payload.stop_hook_active;
    assert.equal(blocks ? "block" : "allow", c.expect.decision);
    // The reasons name the call's id and its line ("line 5"): both must be in what we found.
    for (const needle of c.expect.reason_contains ?? []) {
      if (needle.startsWith("toolu_")) assert.ok(found.some((f) => f.id === needle), needle);
      const line = /^line (\d+)$/.exec(needle);
      if (line) assert.ok(found.some((f) => f.line === Number(line[1])), needle);
    }
  });
}

/** The seed's whole-file rule, as its step 3 describes it (no turns, no structured results). */
async function seedKinds(path: string): Promise<string[]> {
  const events = (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  const uses = new Map<string, string>();
  const results = new Map<string, unknown>();
  for (const e of events) {
    for (const b of Array.isArray(e?.message?.content) ? e.message.content : []) {
      if (b.type === "tool_use") uses.set(b.id, b.name);
      if (b.type === "tool_result") results.set(b.tool_use_id, b.content);
    }
  }
  const blank = (c: unknown): boolean =>
    c == null || (typeof c === "string" && c.trim() === "") ||
    (Array.isArray(c) && c.every((b) => typeof b?.text !== "string" || b.text.trim() === ""));
  const kinds: string[] = [];
  for (const [id, name] of uses) {
    if (!results.has(id)) kinds.push(name.startsWith("mcp__") ? "hung_mcp_call" : "pending_tool_use");
    else if (blank(results.get(id))) kinds.push("empty_tool_result");
  }
  return kinds;
}

Deno.test("stall peer: differs by design: a call left pending before a new prompt is history for us", async () => {
  const path = fixture("tools_stale_pending.jsonl");
  assert.deepEqual(await seedKinds(path), ["pending_tool_use"], "the seed scans the whole file");
  const { view } = await readOnce(path);
  assert.deepEqual(kindsOf(view.tools), [], "the person moved on: blocking now would resurrect an old turn");
});

Deno.test("stall peer: differs by design: a Bash that printed nothing is not an empty result for us", async () => {
  const path = fixture("tools_bash_no_output.jsonl");
  assert.deepEqual(await seedKinds(path), ["empty_tool_result", "empty_tool_result"], "the seed sees content ''");
  const { view } = await readOnce(path);
  assert.deepEqual(kindsOf(view.tools), [], "toolUseResult shows a normal run: stdout '', interrupted false");
});
