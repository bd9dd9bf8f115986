/**
 * The harness on its own: the real client, the mock Messages API and a stand-in Stop hook that blocks once.
 * When a real-client scenario fails and this passes, the fault is in our hook, not in the plumbing.
 */
import assert from "node:assert/strict";
import { assertCompleted, assertModelWasSent, describeRun, requestForStep } from "./checks.ts";
import { runScenario } from "./harness.ts";
import { loadScript } from "./script.ts";
import { assertNoHookFailure, attachments, stopFeedback } from "./transcript.ts";

Deno.test("harness: the real client plays the script and honours a stand-in hook's block", async () => {
  const run = await runScenario(loadScript("offer_then_finish"), { hook: "stand-in" });
  assertCompleted(run, 2);
  assertNoHookFailure(run.transcript);
  assert.deepEqual(run.log.map((l) => l.action), ["block", "allow"], describeRun(run));
  assert.deepEqual(stopFeedback(run.transcript), ["Stand-in: finish the work now."]);
  assert.equal(attachments(run.transcript, "hook_blocking_error").length, 1);
  assertModelWasSent(requestForStep(run, 1), "Stop hook feedback:\nStand-in: finish the work now.");
  assert.ok(run.requests.every((r) => r.path.startsWith("/v1/")), "the client called an unexpected path");
});
