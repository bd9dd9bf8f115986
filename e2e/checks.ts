/** Assertions shared by the real-client scenarios. */
import assert from "node:assert/strict";
import { basename } from "node:path";
import type { JsonLine, ScenarioRun } from "./harness.ts";
import { type RecordedRequest, scriptedRequests } from "./mock_api.ts";
import { messageTexts } from "./mock_api.ts";
import { stopFeedback } from "./transcript.ts";

/** A compact account of the run, for assertion messages. */
export function describeRun(run: ScenarioRun): string {
  return [
    `exit ${run.exitCode}${run.timedOut ? " (timed out)" : ""} after ${run.durationMs} ms`,
    `script replies played ${run.played}, overruns ${run.overruns}`,
    `result: ${JSON.stringify(run.result?.result ?? null)}`,
    `log: ${
      run.log.map((l) => JSON.stringify({ action: l.action, rule: l.rule, observe: l.observe, attended: l.attended }))
        .join(" ")
    }`,
    `stall log: ${
      run.stallLog.map((l) => JSON.stringify({ name: l.name, gate: l.gate, stalls: l.stalls })).join(" ") || "(none)"
    }`,
    `stop feedback: ${JSON.stringify(stopFeedback(run.transcript))}`,
    `errors.log: ${run.errorsLog.trim() || "(empty)"}`,
    `client stderr: ${run.stderr.trim().slice(-2000) || "(empty)"}`,
  ].join("\n  ");
}

/** The client finished normally, played exactly `replies` script steps, and our hook logged no internal error. */
export function assertCompleted(run: ScenarioRun, replies: number): void {
  const why = describeRun(run);
  assert.equal(run.timedOut, false, `the client timed out\n  ${why}`);
  assert.equal(run.exitCode, 0, `the client failed\n  ${why}`);
  assert.equal(run.result?.subtype, "success", `the result is not a success\n  ${why}`);
  assert.equal(run.result?.is_error, false, `the result is an error\n  ${why}`);
  assert.equal(run.errorsLog, "", `our hook wrote errors.log\n  ${why}`);
  assert.equal(run.overruns, 0, `the model was asked for more replies than the script has\n  ${why}`);
  assert.equal(run.played, replies, `script replies played\n  ${why}`);
}

/**
 * Every log line has the documented fields and belongs to this session and project. The session is the result's
 * (`-p`), else the transcript's file name (an interactive run has no result).
 */
export function assertLogShape(run: ScenarioRun): void {
  const fields = [
    "ts",
    "session",
    "event",
    "agent",
    "action",
    "observe",
    "attended",
    "rule",
    "open",
    "match",
    "source",
    "continuation",
    "entrypoint",
    "cwd",
  ];
  const session = run.result?.session_id ?? basename(run.transcriptPath ?? "", ".jsonl");
  // the relay's hand-over lines (relay/hook_stage.ts) carry no transcript marks
  const guardOnly = new Set(["attended", "entrypoint"]);
  for (const line of run.log) {
    const expected = line.rule === "relay-turn" ? fields.filter((f) => !guardOnly.has(f)) : fields;
    assert.deepEqual(expected.filter((f) => !(f in line)), [], `log line lacks fields: ${JSON.stringify(line)}`);
    assert.equal(line.session, session, "log line of another session");
    assert.equal(line.event, "Stop");
    assert.equal(line.agent, null);
    assert.equal(line.cwd, run.sandbox.project);
  }
}

/** action/rule pairs of the log, for one deepEqual against the expected sequence. */
export function decisions(log: readonly JsonLine[]): { action: unknown; rule: unknown }[] {
  return log.map((line) => ({ action: line.action, rule: line.rule }));
}

/** The request that asked for script reply `step` (0-based). */
export function requestForStep(run: ScenarioRun, step: number): RecordedRequest {
  const request = scriptedRequests(run.requests).find((r) => r.step === step);
  assert.ok(request, `no request played script reply ${step + 1}\n  ${describeRun(run)}`);
  return request;
}

/** Some text the model was sent in that request contains `needle`. */
export function assertModelWasSent(request: RecordedRequest, needle: string): void {
  const texts = messageTexts(request);
  assert.ok(
    texts.some((t) => t.includes(needle)),
    `the model was not sent ${JSON.stringify(needle)}; last texts: ${JSON.stringify(texts.slice(-4))}`,
  );
}

/** The tool_result block for `id` in a request's messages, as text. */
export function toolResult(request: RecordedRequest, id: string): { text: string; isError: boolean } {
  const messages = (request.body?.messages ?? []) as { content?: unknown }[];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as JsonLine[]) {
      if (block.type !== "tool_result" || block.tool_use_id !== id) continue;
      const content = block.content;
      const text = typeof content === "string"
        ? content
        : Array.isArray(content)
        ? (content as JsonLine[]).map((c) => String(c.text ?? "")).join("")
        : "";
      return { text, isError: block.is_error === true };
    }
  }
  assert.fail(`request for step ${request.step} has no tool_result for ${id}`);
}
