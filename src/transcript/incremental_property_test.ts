/**
 * Property: a transcript written in arbitrary pieces (cut anywhere, mid-line and mid-UTF-8 character) and
 * read after each piece with the previous index ends in the same state and view as one full read, with the
 * same absolute line numbers (the turn's tool calls point at lines; the index stores the line at its offset).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { readTurnView, type ReadTurnViewResult } from "./read_view.ts";
import { fileURLToPath } from "node:url";
import { append, CLIENT, CORPUS, fixture, peer, STALL_CASES, withTempFile } from "../testing/transcript_lines.ts";

function observed(name: string): string {
  return fileURLToPath(new URL(`../../testdata/e2e/observed/${name}`, import.meta.url));
}

const FILES: Array<[string, boolean]> = [
  [fixture("tasks_across_turns.jsonl"), false],
  [fixture("split_message.jsonl"), false],
  [fixture("sidechain_mixed.jsonl"), true],
  [fixture("tools_split_parallel.jsonl"), false],
  [fixture("tools_torn_blank.jsonl"), false],
  [fixture("tools_empty_forms.jsonl"), false],
  [`${STALL_CASES}transcripts/noise_around_finished_turn.jsonl`, false],
  [peer("markdown_bg_notification.jsonl"), false],
  [`${CLIENT}transcripts/tasks-bash-session.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__44-54089969c1-0__full.jsonl`, false],
  [`${CORPUS}transcripts/entireio__cli__8e-0a64736bc7-0__full.jsonl`, false],
  [`${CORPUS}synthetic/daaain__claude-code-log__todowrite_examples.jsonl`, false],
  // who is at the keyboard: the entrypoint marks of an interactive session and of `claude -p`
  [observed("interactive_prompts.jsonl"), false],
  [observed("headless_prompt.jsonl"), false],
];

function comparable(result: ReadTurnViewResult) {
  const { stats: _stats, ...view } = result.view;
  return { view, state: result.index?.state, offset: result.index?.offset, line: result.index?.line };
}

for (const [path, includeSidechain] of FILES) {
  const name = path.split("/").pop();
  Deno.test(`incremental reads in random pieces equal one full read: ${name}`, async () => {
    const bytes = await Deno.readFile(path);
    for (const maxLineBytes of [undefined, 2048]) {
      const base = { includeSidechain, lastAssistantMessage: null, syncMs: 0 };
      const opts = maxLineBytes === undefined ? base : { ...base, maxLineBytes };
      const full = comparable(await readTurnView(path, null, opts));
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }),
          async (cuts) => {
            await withTempFile(async (tmp) => {
              const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
              let index = null;
              let last: ReadTurnViewResult | null = null;
              for (let i = 1; i < points.length; i++) {
                await append(tmp, bytes.subarray(points[i - 1], points[i]));
                last = await readTurnView(tmp, index, opts);
                assert.equal(last.view.stats.fullScan, i === 1, "only the first read scans the whole file");
                index = last.index;
              }
              assert.deepEqual(comparable(last!), full);
            });
          },
        ),
        { numRuns: 15 },
      );
    }
  });
}
