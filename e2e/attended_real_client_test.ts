/**
 * A person at the keyboard, in the real client: `claude` runs interactively under tmux (e2e/interactive.ts), a
 * prompt is typed into its terminal UI, and the scripted model ends on an offer to continue. The transcript marks
 * the turn `entrypoint: "cli"` (promptSource "typed", turnOrigin "human"), so by default our Stop hook lets the stop
 * through and logs the would-be block with `attended: true`; with CLIFFHANGER_ATTENDED=block it blocks as in `-p`.
 *
 * Ignored when tmux is not installed (the rest of the real-client suite needs only the client, which it installs).
 */
import assert from "node:assert/strict";
import { assertLogShape, assertModelWasSent, decisions, describeRun, requestForStep } from "./checks.ts";
import type { JsonLine, ScenarioRun } from "./harness.ts";
import { type InteractiveRun, runInteractiveScenario, tmuxAvailable } from "./interactive.ts";
import { loadScript } from "./script.ts";
import { assertNoHookFailure, attachments, stopFeedback } from "./transcript.ts";

const OFFER = "Two of five call sites migrated. Want me to continue with the rest?";
const FINAL_REPORT = "All five call sites migrated; tests pass.";
const PROMPT = "migrate the call sites";
const ignore = !tmuxAvailable();

function why(run: InteractiveRun): string {
  return `${describeRun(run)}\n  screen:\n${run.screen}`;
}

/** The client ended normally after playing exactly `replies` script steps; our hook logged no internal error. */
function assertFinished(run: InteractiveRun, replies: number): void {
  assert.equal(run.exitCode, 0, `the client failed\n  ${why(run)}`);
  assert.equal(run.errorsLog, "", `our hook wrote errors.log\n  ${why(run)}`);
  assert.equal(run.overruns, 0, `the model was asked for more replies than the script has\n  ${why(run)}`);
  assert.equal(run.played, replies, `script replies played\n  ${why(run)}`);
}

/** The typed prompt's line, as the terminal UI writes it. */
function promptLine(run: ScenarioRun): JsonLine {
  const line = run.transcript.find((l) =>
    l.type === "user" && l.isMeta !== true && (l.message as { content?: unknown } | undefined)?.content === PROMPT
  );
  assert.ok(line, "the typed prompt is not in the transcript");
  return line;
}

function assertTypedAtTheKeyboard(run: InteractiveRun): void {
  const line = promptLine(run);
  assert.deepEqual(
    { entrypoint: line.entrypoint, promptSource: line.promptSource, turnOrigin: line.turnOrigin },
    { entrypoint: "cli", promptSource: "typed", turnOrigin: "human" },
  );
  assert.equal(line.userType, "external");
  const marks = new Set(run.transcript.flatMap((l) => (typeof l.entrypoint === "string" ? [l.entrypoint] : [])));
  assert.deepEqual([...marks], ["cli"], "every marked line of the interactive session says cli");
}

Deno.test({
  name: "real client, interactive: with a person at the keyboard an offer goes through and is logged as attended",
  ignore,
  fn: async () => {
    const run = await runInteractiveScenario(loadScript("offer_then_finish"));
    assertFinished(run, 1);
    assertNoHookFailure(run.transcript);
    assertLogShape(run);
    assertTypedAtTheKeyboard(run);
    assert.deepEqual(decisions(run.log), [{ action: "block", rule: "offers-to-continue" }], why(run));
    assert.deepEqual(
      { observe: run.log[0]?.observe, attended: run.log[0]?.attended, entrypoint: run.log[0]?.entrypoint },
      { observe: false, attended: true, entrypoint: "cli" },
    );
    assert.deepEqual(stopFeedback(run.transcript), [], "the stop was blocked");
    assert.deepEqual(attachments(run.transcript, "hook_blocking_error"), []);
    assert.ok(run.screen.includes(OFFER), `the offer is not on screen\n  ${why(run)}`);
  },
});

Deno.test({
  name: "real client, interactive: CLIFFHANGER_ATTENDED=block blocks the offer and the agent finishes",
  ignore,
  fn: async () => {
    const run = await runInteractiveScenario(loadScript("offer_then_finish"), {
      env: { CLIFFHANGER_ATTENDED: "block" },
    });
    assertFinished(run, 2);
    assertNoHookFailure(run.transcript);
    assertLogShape(run);
    assertTypedAtTheKeyboard(run);
    assert.deepEqual(decisions(run.log), [
      { action: "block", rule: "offers-to-continue" },
      { action: "allow", rule: "no-pattern" },
    ], why(run));
    assert.deepEqual(run.log.map((l) => [l.attended, l.entrypoint]), [[false, "cli"], [false, "cli"]]);
    const feedback = stopFeedback(run.transcript);
    assert.equal(feedback.length, 1, why(run));
    assertModelWasSent(requestForStep(run, 1), feedback[0]!);
    assert.ok(run.screen.includes(FINAL_REPORT), `the final report is not on screen\n  ${why(run)}`);
  },
});
