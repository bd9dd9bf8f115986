/** Reading a Claude Code session transcript for what the Stop hook did to the turn. */
import assert from "node:assert/strict";
import type { JsonLine } from "./harness.ts";

const FEEDBACK_PREFIX = "Stop hook feedback:\n";

/** The reasons of the `Stop hook feedback:` user lines (isMeta), in order: one per block the client honoured. */
export function stopFeedback(transcript: readonly JsonLine[]): string[] {
  return transcript.flatMap((line) => {
    if (line.type !== "user" || line.isMeta !== true) return [];
    const content = (line.message as { content?: unknown } | undefined)?.content;
    return typeof content === "string" && content.startsWith(FEEDBACK_PREFIX)
      ? [content.slice(FEEDBACK_PREFIX.length)]
      : [];
  });
}

/** The `attachment` objects of one type (hook_blocking_error, hook_additional_context, …). */
export function attachments(transcript: readonly JsonLine[], type: string): Record<string, unknown>[] {
  return transcript.flatMap((line) => {
    const attachment = line.attachment as Record<string, unknown> | undefined;
    return line.type === "attachment" && attachment?.type === type ? [attachment] : [];
  });
}

export interface StopHookSummary {
  hookErrors: unknown[];
  failedHookErrorIndexes: unknown[];
  hookAdditionalContext: unknown[];
}

/** The `system`/`stop_hook_summary` lines: one per Stop (or SubagentStop) the client ran hooks for. */
export function stopHookSummaries(transcript: readonly JsonLine[]): StopHookSummary[] {
  return transcript.flatMap((line) => {
    if (line.type !== "system" || line.subtype !== "stop_hook_summary") return [];
    const list = (key: string): unknown[] => (Array.isArray(line[key]) ? line[key] as unknown[] : []);
    return [{
      hookErrors: list("hookErrors"),
      failedHookErrorIndexes: list("failedHookErrorIndexes"),
      hookAdditionalContext: list("hookAdditionalContext"),
    }];
  });
}

/**
 * The client saw no hook fail: no `hook_non_blocking_error` attachment, and every stop_hook_summary has an empty
 * failedHookErrorIndexes. There must be at least one summary, or the hook never ran and the check proves nothing.
 */
export function assertNoHookFailure(transcript: readonly JsonLine[]): void {
  const failures = attachments(transcript, "hook_non_blocking_error");
  assert.deepEqual(failures, [], "a hook failed (hook_non_blocking_error)");
  const summaries = stopHookSummaries(transcript);
  assert.ok(summaries.length > 0, "the transcript has no stop_hook_summary: the Stop hook did not run");
  summaries.forEach((summary, i) => {
    assert.deepEqual(summary.failedHookErrorIndexes, [], `stop_hook_summary ${i + 1} lists failed hooks`);
  });
}
