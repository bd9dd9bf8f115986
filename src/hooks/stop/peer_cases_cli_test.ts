/**
 * A few of the labelled Stop cases from testdata/peers/ (all of them run in process in peer_cases_test.ts),
 * through the CLI: `hook stop` under the compiled binary's permission scopes, each with a fresh home. One of each
 * kind: a block from the message, a block from open checklist items, an escape token over open items, a case of
 * each other peer, a sequence and a raw stdin case.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { readLog, runCli, tempHome } from "../../testing/run_cli.ts";
import { PEERS } from "../../testing/testdata.ts";
import { placeTranscripts as placeAll, readCaseById, stopDecisionOf } from "../../testing/peer_support.ts";

const TRANSCRIPT_KEYS = ["transcript_path", "agent_transcript_path"];

interface PeerCase {
  id: string;
  payload: Record<string, unknown>;
  expect: { decision: "block" | "allow"; reason_contains?: string[] };
  steps?: { payload: Record<string, unknown>; expect: "block" | "allow" }[];
  env?: Record<string, string>;
  stdin?: string;
}

function readCase(file: string, id: string): PeerCase {
  return readCaseById<PeerCase>(join(PEERS, file), id);
}

function placeTranscripts(payload: Record<string, unknown>, caseDir: string, home: string) {
  return placeAll(payload, { caseDir, home, project: "-peer", keys: TRANSCRIPT_KEYS, allowMissing: true });
}

const SINGLE: [file: string, id: string][] = [
  ["cliffhanger/cases.jsonl", "offers_to_continue_blocks"],
  ["cliffhanger/cases.jsonl", "open_task_items_block"],
  ["cliffhanger/cases.jsonl", "blocked_token_allows_with_open_items"],
  ["no-cliffhanger/cases.jsonl", "t1_let_me_know_continue"],
  ["ralph-claude-code/cases_questions.jsonl", "ralph_q_1"],
];

for (const [file, id] of SINGLE) {
  Deno.test(`peer case ${dirname(file)}/${id} (CLI)`, async () => {
    const c = readCase(file, id);
    const home = await tempHome();
    try {
      const payload = await placeTranscripts(
        { session_id: `peer-${id}`, ...c.payload },
        join(PEERS, dirname(file)),
        home,
      );
      const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(payload) });
      assert.equal(stopDecisionOf(run), c.expect.decision, `${id}: ${run.stdout}`);
      // only our own cases label the reason text; the other peers' wording is their own
      for (const part of file.startsWith("cliffhanger/") ? c.expect.reason_contains ?? [] : []) {
        assert.ok(JSON.parse(run.stdout).reason.includes(part), `${id}: reason lacks "${part}": ${run.stdout}`);
      }
      const log = await readLog(home);
      assert.equal(log.length, 1, `${id}: one log line`);
      assert.equal(log[0]!["action"], c.expect.decision);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("peer sequence cliffhanger/counter_caps_continuations (CLI)", async () => {
  const s = readCase("cliffhanger/sequences.jsonl", "counter_caps_continuations");
  assert.ok(s.steps && s.steps.length > 1);
  const home = await tempHome();
  try {
    const decisions: string[] = [];
    for (const step of s.steps) {
      const run = await runCli(["hook", "stop"], { home, stdin: JSON.stringify(step.payload), env: s.env ?? {} });
      decisions.push(stopDecisionOf(run));
    }
    assert.deepEqual(decisions, s.steps.map((step) => step.expect));
    assert.equal((await readLog(home)).length, s.steps.length);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("peer raw stdin cliffhanger/garbage_input_fails_open (CLI)", async () => {
  const c = readCase("cliffhanger/raw_stdin_cases.jsonl", "garbage_input_fails_open");
  const home = await tempHome();
  try {
    const run = await runCli(["hook", "stop"], { home, stdin: c.stdin ?? "" });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
