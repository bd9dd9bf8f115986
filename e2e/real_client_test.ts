/**
 * End to end against the real Claude Code client: each scenario plays a scripted model through the loopback mock
 * Messages API, with `cliffhanger-bin hook stop` registered by our own `install` in a throwaway HOME, and checks
 * our log, the session transcript and what the model was sent next.
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
import { runScenario } from "./harness.ts";
import { replayedDecisions } from "./replay_check.ts";
import { loadScript } from "./script.ts";
import { assertNoHookFailure, attachments, stopFeedback, stopHookSummaries } from "./transcript.ts";

const OFFER = "Two of five call sites migrated. Want me to continue with the rest?";
const FINAL_REPORT = "All five call sites migrated; tests pass.";

Deno.test("real client: an offer to continue is blocked once, the agent finishes, the next stop is allowed", async () => {
  const run = await runScenario(loadScript("offer_then_finish"));
  assertCompleted(run, 2);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [
    { action: "block", rule: "offers-to-continue" },
    { action: "allow", rule: "no-pattern" },
  ], describeRun(run));
  assert.equal(run.result?.result, FINAL_REPORT);
  // `claude -p` marks the session sdk-cli: nobody at the keyboard, so the offer is blocked
  const prompt = run.transcript.find((l) => l.type === "user" && l.promptId !== undefined);
  assert.deepEqual([prompt?.entrypoint, prompt?.promptSource, prompt?.turnOrigin], ["sdk-cli", "sdk", "sdk"]);
  assert.deepEqual(run.log.map((l) => [l.attended, l.entrypoint]), [[false, "sdk-cli"], [false, "sdk-cli"]]);

  const feedback = stopFeedback(run.transcript);
  assert.equal(feedback.length, 1, describeRun(run));
  const reason = feedback[0]!;
  assert.ok(reason.trim().length > 0, "the block reason is empty");
  assert.deepEqual(stopHookSummaries(run.transcript)[0]?.hookErrors, [reason]);
  assertModelWasSent(requestForStep(run, 1), reason);
  assertModelWasSent(requestForStep(run, 1), "Stop hook blocking error from command:");
});

Deno.test("real client: open TaskCreate items block with their subjects named, then finishing them is allowed", async () => {
  const run = await runScenario(loadScript("open_tasks"));
  assertCompleted(run, 6);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [
    { action: "block", rule: "open-items" },
    { action: "allow", rule: "checklist-done" },
  ], describeRun(run));
  assert.deepEqual(run.log[0]?.open, ["Update the changelog"]);
  assert.equal(run.log[0]?.source, "tasks");

  const feedback = stopFeedback(run.transcript);
  assert.equal(feedback.length, 1, describeRun(run));
  assert.match(feedback[0]!, /Update the changelog/);
  assert.doesNotMatch(feedback[0]!, /Migrate the parser/, "a completed task was named as open");
  assertModelWasSent(requestForStep(run, 4), "Update the changelog");
});

Deno.test("real client: a BLOCKED: line is allowed without a block", async () => {
  const run = await runScenario(loadScript("blocked_line"));
  assertCompleted(run, 1);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "blocker-token" }], describeRun(run));
  assert.deepEqual(stopFeedback(run.transcript), []);
});

Deno.test("real client: CLIFFHANGER_MAX=2 caps a model that keeps offering at two blocks", async () => {
  const run = await runScenario(loadScript("keeps_offering"), { env: { CLIFFHANGER_MAX: "2" } });
  assertCompleted(run, 3);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [
    { action: "block", rule: "offers-to-continue" },
    { action: "block", rule: "offers-to-continue" },
    { action: "allow", rule: "cap" },
  ], describeRun(run));
  assert.equal(stopFeedback(run.transcript).length, 2, describeRun(run));
  assert.match(String(run.result?.result), /Four of five/);
  // replay of the transcript the client wrote: the same three stops, the later two continuing the turn
  assert.deepEqual(await replayedDecisions(run.transcript, { max: 2 }), [
    { action: "block", rule: "offers-to-continue", hookActive: false },
    { action: "block", rule: "offers-to-continue", hookActive: true },
    { action: "allow", rule: "cap", hookActive: true },
  ]);
});

Deno.test("real client: CLIFFHANGER_OBSERVE=1 logs the block but lets the stop through", async () => {
  const run = await runScenario(loadScript("offer_then_finish"), { env: { CLIFFHANGER_OBSERVE: "1" } });
  assertCompleted(run, 1);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [{ action: "block", rule: "offers-to-continue" }], describeRun(run));
  assert.equal(run.log[0]?.observe, true);
  assert.deepEqual(stopFeedback(run.transcript), []);
  assert.deepEqual(attachments(run.transcript, "hook_blocking_error"), []);
  assert.equal(run.result?.result, OFFER);
});

Deno.test("real client: CLIFFHANGER_CONTINUE_VIA=context continues the turn through additionalContext", async () => {
  const run = await runScenario(loadScript("offer_then_finish"), { env: { CLIFFHANGER_CONTINUE_VIA: "context" } });
  assertCompleted(run, 2);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [
    { action: "block", rule: "offers-to-continue" },
    { action: "allow", rule: "no-pattern" },
  ], describeRun(run));
  assert.equal(run.result?.result, FINAL_REPORT);

  assert.deepEqual(stopFeedback(run.transcript), [], "a blocking Stop hook feedback line was written");
  assert.deepEqual(attachments(run.transcript, "hook_blocking_error"), []);
  const context = stopHookSummaries(run.transcript)[0]?.hookAdditionalContext ?? [];
  assert.equal(context.length, 1, describeRun(run));
  const reason = String(context[0]);
  assert.ok(attachments(run.transcript, "hook_additional_context").length > 0, "no hook_additional_context attachment");
  assertModelWasSent(requestForStep(run, 1), `Stop hook additional context: ${reason}`);
  // replay sees the stop the context continued (2.1.328 writes attachments and the summary, no user line)
  assert.deepEqual(await replayedDecisions(run.transcript), [
    { action: "block", rule: "offers-to-continue", hookActive: false },
    { action: "allow", rule: "no-pattern", hookActive: true },
  ]);
});
