/**
 * What the real client writes in the stall situations the Stop hook's stall detector relies on (see
 * testdata/e2e/observed/README.md). No hook of ours runs here (only the recorder), so a failure means the client
 * changed, not our code: re-capture the fixtures (e2e/capture_observed.ts) and revisit the detector.
 */
import assert from "node:assert/strict";
import type { JsonLine, ScenarioRun } from "./harness.ts";
import { requestForStep } from "./checks.ts";
import { runFollowupScenario, runHangingMcpScenario, SLOW_TOOL } from "./stall_scenarios.ts";

Deno.test("client facts: a timed-out MCP call gets an error tool_result, the model answers, Stop fires", async () => {
  const run = await runHangingMcpScenario("timeout", { hook: "none", toolTimeoutMs: 1000 });
  assert.equal(run.exitCode, 0, run.stderr);
  const call = toolUses(run.transcript).find((b) => b.name === SLOW_TOOL);
  assert.ok(call, "no slow_lookup tool_use in the transcript");
  const result = toolResults(run.transcript).find((r) => r.block.tool_use_id === call.id);
  assert.ok(result, "the timed-out call has no tool_result");
  assert.equal(result.block.is_error, true);
  assert.match(String(result.block.content), /^MCP server "hang" tool "slow_lookup" timed out after 1s/);
  assert.match(String(result.line.toolUseResult), /^Error: MCP server "hang" tool "slow_lookup" timed out/);

  const stops = payloads(run, "Stop");
  assert.equal(stops.length, 1);
  assert.equal(
    stops[0]!.last_assistant_message,
    "The directory service did not answer; the owner of alpha is unknown.",
  );
  assert.deepEqual(stops[0]!.background_tasks, []);
  assert.ok(
    run.mcpLog.some((l) => (l.message as JsonLine | undefined)?.method === "notifications/cancelled"),
    "the client did not cancel the call on the server",
  );
  const next = JSON.stringify(requestForStep(run, 1).body?.messages ?? []);
  assert.ok(next.includes("timed out after 1s"), "the model was not sent the timeout result");
});

Deno.test("client facts: two empty replies after a tool result end the turn with no assistant line", async () => {
  const run = await runFollowupScenario("empty", { hook: "none" });
  assert.equal(run.exitCode, 0, run.stderr);
  const stops = payloads(run, "Stop");
  assert.equal(stops.length, 1);
  assert.equal("last_assistant_message" in stops[0]!, false, "Stop carried a last_assistant_message");

  const conversation = run.transcript.filter((l) => l.type === "user" || l.type === "assistant");
  const lastResult = conversation.findLastIndex((l) => toolResultBlocks(l).length > 0);
  const after = conversation.slice(lastResult + 1);
  assert.deepEqual(after.map((l) => [l.type, l.isMeta]), [["user", true]], "lines after the last tool_result");
  assert.match(
    String((after[0]!.message as JsonLine).content),
    /^\[Your previous response had no visible output\./,
  );
});

function payloads(run: ScenarioRun, event: string): JsonLine[] {
  return run.hookEvents.filter((e) => e.event === event).map((e) => e.input as JsonLine);
}

type Block = Record<string, unknown>;

function blocks(line: JsonLine): Block[] {
  const content = (line.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? content as Block[] : [];
}

function toolUses(transcript: readonly JsonLine[]): Block[] {
  return transcript.filter((l) => l.type === "assistant").flatMap(blocks).filter((b) => b.type === "tool_use");
}

function toolResultBlocks(line: JsonLine): Block[] {
  return line.type === "user" ? blocks(line).filter((b) => b.type === "tool_result") : [];
}

function toolResults(transcript: readonly JsonLine[]): { line: JsonLine; block: Block }[] {
  return transcript.flatMap((line) => toolResultBlocks(line).map((block) => ({ line, block })));
}
