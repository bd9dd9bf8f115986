/**
 * The stall stage of `hook stop` end to end against the real Claude Code client: a hanging MCP tool (never answers
 * tools/call, MCP_TOOL_TIMEOUT 1000 ms) whose timeout error the model answers with nothing, so the turn ends on the
 * tool result and Stop fires with no `last_assistant_message` (a `missing_followup`). Our hook nudges once; the
 * agent either stalls again (held back by the `stop_hook_active` guardrail) or recovers; the kill switch turns the
 * nudge off; and a healthy turn whose tools print nothing is not a stall.
 */
import assert from "node:assert/strict";
import {
  assertCompleted,
  assertLogShape,
  assertModelWasSent,
  decisions,
  describeRun,
  requestForStep,
} from "./checks.ts";
import type { JsonLine, ScenarioRun } from "./harness.ts";
import type { ScriptReply } from "./script.ts";
import {
  runEmptyResultsScenario,
  runHangingMcpScenario,
  runQuietHealthyScenario,
  SLOW_TOOL,
  type StallOptions,
} from "./stall_scenarios.ts";
import { assertNoHookFailure, attachments, stopFeedback } from "./transcript.ts";
import type { StallEventStall } from "../src/hooks/stop/stall/stage.ts";

/** The model's replies after the nudge. */
const RETRY_AND_STALL: ScriptReply[] = [
  {
    content: [
      { type: "text", text: "Retrying the lookup once." },
      { type: "tool_use", name: SLOW_TOOL, input: { key: "alpha" } },
    ],
  },
  { content: [] },
  { content: [] },
];
const RECOVERED =
  "The directory service timed out, so I checked the team roster instead: alpha is owned by the platform team.";

/** Mock tool-use ids are `toolu_msg_mock_<n>_<i>`: message n (1-based, every message counts), block i. */
const FIRST_CALL_ID = "toolu_msg_mock_1_1";
const RETRY_CALL_ID = "toolu_msg_mock_4_1";

/** The hanging MCP call answered by two empty replies (stall_mcp_hang_silent.json), then `after`. */
function runSilentMcpTimeout(after: ScriptReply[], options: StallOptions = {}): Promise<ScenarioRun> {
  return runHangingMcpScenario("timeout", {
    ...options,
    script: "stall_mcp_hang_silent",
    toolTimeoutMs: 1000,
    extraReplies: after,
  });
}

Deno.test("real client stalls: a hanging MCP call is nudged once, the agent stalls again, the guardrail holds", async () => {
  const run = await runSilentMcpTimeout(RETRY_AND_STALL);
  const why = describeRun(run);
  assertCompleted(run, 6);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assertStallLogShape(run);
  assert.equal(run.result?.result, "", why);

  // Two stops, both with no final message; the second follows our block.
  const stops = stopPayloads(run);
  assert.deepEqual(stops.map((s) => [s.stop_hook_active, "last_assistant_message" in s]), [
    [false, false],
    [true, false],
  ], why);

  assert.deepEqual(decisions(run.log), [
    { action: "block", rule: "stall-missing-followup" },
    { action: "allow", rule: "no-pattern" },
  ], why);
  assert.equal(run.log[0]?.match, `missing_followup:${FIRST_CALL_ID}`);
  assert.deepEqual(stallNames(run), [
    ["stall_detected", null],
    ["recovery_dispatched", null],
    ["stall_detected", null],
    ["recovery_suppressed", "stop_hook_active"],
  ], why);
  const [detected, dispatched, detectedAgain, suppressed] = run.stallLog.map(onlyStall);
  assert.deepEqual(detected, { ...dispatched, retries: 0 });
  assert.equal(dispatched!.retries, 1);
  assert.equal(detectedAgain!.id, RETRY_CALL_ID, "the second stop should see the retried call");
  assert.deepEqual(suppressed, detectedAgain);
  for (const [stall, id] of [[dispatched!, FIRST_CALL_ID], [suppressed!, RETRY_CALL_ID]] as const) {
    assert.equal(stall.kind, "missing_followup");
    assert.equal(stall.tool, SLOW_TOOL);
    assert.equal(stall.id, id);
    assert.equal(stall.signature, `missing_followup:${id}`);
    assertIsTimeoutResultLine(run, stall.line, id);
  }

  // Exactly one nudge reached the model, naming the tool, its id and the transcript line.
  const feedback = stopFeedback(run.transcript);
  assert.equal(feedback.length, 1, why);
  const reason = feedback[0]!;
  assert.match(reason, /^A silent tool stall was found before you tried to stop\./);
  assert.ok(reason.includes(`- [missing_followup] missing follow-up: The tool_result of ${SLOW_TOOL}`), reason);
  assert.ok(reason.includes(`(id ${FIRST_CALL_ID}) at line ${dispatched!.line}`), reason);
  assert.ok(reason.includes("BLOCKED:"), reason);
  assert.equal(attachments(run.transcript, "hook_blocking_error").length, 1);
  const nudged = requestForStep(run, 3);
  assertModelWasSent(nudged, "Stop hook blocking error from command:");
  assertModelWasSent(nudged, reason);

  // The agent really did call the tool again, and the client timed it out again.
  const calls = run.mcpLog.filter((l) => mcpMethod(l) === "tools/call");
  assert.equal(calls.length, 2, "slow_lookup should have been called twice");
  assert.equal(run.mcpLog.filter((l) => mcpMethod(l) === "notifications/cancelled").length, 2);
});

Deno.test("real client stalls: after the nudge the agent writes a real answer, the next stop is healthy", async () => {
  const run = await runSilentMcpTimeout([{ content: [{ type: "text", text: RECOVERED }] }]);
  const why = describeRun(run);
  assertCompleted(run, 4);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assertStallLogShape(run);
  assert.equal(run.result?.result, RECOVERED);

  const stops = stopPayloads(run);
  assert.equal(stops.length, 2, why);
  assert.equal(stops[1]!.stop_hook_active, true);
  assert.equal(stops[1]!.last_assistant_message, RECOVERED);

  assert.deepEqual(decisions(run.log), [
    { action: "block", rule: "stall-missing-followup" },
    { action: "allow", rule: "no-pattern" },
  ], why);
  assert.deepEqual(stallNames(run), [
    ["stall_detected", null],
    ["recovery_dispatched", null],
    ["healthy_stop", null],
  ], why);
  assert.deepEqual(run.stallLog[2]!.stalls, []);
  assert.equal(stopFeedback(run.transcript).length, 1, why);
  assertModelWasSent(requestForStep(run, 3), `(id ${FIRST_CALL_ID})`);
});

Deno.test("real client stalls: CLIFFHANGER_STALL_DISABLE=1 logs the stall but sends no nudge", async () => {
  const run = await runSilentMcpTimeout([], { env: { CLIFFHANGER_STALL_DISABLE: "1" } });
  const why = describeRun(run);
  assertCompleted(run, 3);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assertStallLogShape(run);

  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "no-pattern" }], why);
  assert.deepEqual(stallNames(run), [["stall_detected", null], ["kill_switch_active", "kill_switch"]], why);
  const stall = onlyStall(run.stallLog[1]!);
  assert.equal(stall.kind, "missing_followup");
  assert.equal(stall.id, FIRST_CALL_ID);
  assert.equal(stall.retries, 0);
  assert.deepEqual(stopFeedback(run.transcript), []);
  assert.deepEqual(attachments(run.transcript, "hook_blocking_error"), []);
  assert.equal(stopPayloads(run).length, 1, why);
});

Deno.test("real client stalls: Bash `true` and an MCP tool answering {content: []} are not a stall", async () => {
  const run = await runQuietHealthyScenario();
  const why = describeRun(run);
  assertCompleted(run, 3);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assertStallLogShape(run);
  assert.equal(run.result?.result, "The shell works and alpha is not cached.");
  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "no-pattern" }], why);
  assert.deepEqual(stallNames(run), [["healthy_stop", null]], why);
  assert.deepEqual(stopFeedback(run.transcript), []);
  assert.equal(run.mcpLog.filter((l) => mcpMethod(l) === "tools/call").length, 1);
});

Deno.test("real client stalls: every tool that legitimately prints nothing (stall_empty_results) is healthy", async () => {
  const run = await runEmptyResultsScenario();
  const why = describeRun(run);
  assertCompleted(run, 11);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assertStallLogShape(run);
  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "no-pattern" }], why);
  assert.deepEqual(stallNames(run), [["healthy_stop", null]], why);
  assert.deepEqual(stopFeedback(run.transcript), []);
});

/** A stall as the stall events in log.jsonl carry it. */
type LoggedStall = StallEventStall;

/** [name, gate] of each stall event, in order. */
function stallNames(run: ScenarioRun): [unknown, unknown][] {
  return run.stallLog.map((l) => [l.name, l.gate]);
}

/** The one stall an event carries (these scenarios have one stall per stop). */
function onlyStall(line: JsonLine): LoggedStall {
  const stalls = line.stalls as LoggedStall[];
  assert.equal(stalls.length, 1, `expected one stall: ${JSON.stringify(line)}`);
  return stalls[0]!;
}

/** Every stall event has the documented fields, this session and project, and the default settings. */
function assertStallLogShape(run: ScenarioRun): void {
  const fields = [
    "ts",
    "session",
    "event",
    "agent",
    "kind",
    "name",
    "stalls",
    "gate",
    "maxRetries",
    "cooldownS",
    "cooldownLeftS",
    "observe",
    "cwd",
  ];
  assert.ok(run.stallLog.length > 0, `no stall events\n  ${describeRun(run)}`);
  for (const line of run.stallLog) {
    assert.deepEqual(fields.filter((f) => !(f in line)), [], `stall line lacks fields: ${JSON.stringify(line)}`);
    assert.equal(line.session, run.result?.session_id, "stall line of another session");
    assert.equal(line.event, "Stop");
    assert.equal(line.agent, null);
    assert.equal(line.maxRetries, 3);
    assert.equal(line.cooldownS, 0);
    assert.equal(line.cooldownLeftS, null);
    assert.equal(line.observe, false);
    assert.equal(line.cwd, run.sandbox.project);
  }
}

/** Transcript line `line` (1-based, as the hook reports it) is the timed-out tool_result of `id`. */
function assertIsTimeoutResultLine(run: ScenarioRun, line: number, id: string): void {
  const entry = run.transcript[line - 1];
  const content = (entry?.message as { content?: unknown } | undefined)?.content;
  const block = Array.isArray(content) ? content.find((b) => b?.type === "tool_result") : undefined;
  assert.equal(block?.tool_use_id, id, `transcript line ${line} is not the tool_result of ${id}`);
  assert.equal(block?.is_error, true);
  assert.match(String(block?.content), /^MCP server "hang" tool "slow_lookup" timed out after 1s/);
}

function stopPayloads(run: ScenarioRun): JsonLine[] {
  return run.hookEvents.filter((e) => e.event === "Stop").map((e) => e.input as JsonLine);
}

function mcpMethod(line: JsonLine): unknown {
  return (line.message as { method?: unknown } | undefined)?.method;
}
