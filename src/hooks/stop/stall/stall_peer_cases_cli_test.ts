/**
 * Two of our stall cases (testdata/stall_cases/; all of them run in process in stall_peer_cases_test.ts) and the
 * retry-cap sequence,
 * through the CLI: `hook stop` under the binary's scopes, each with a fresh home.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readStallLog, runCli, tempHome } from "../../../testing/run_cli.ts";
import { STALL_CASES as DIR } from "../../../testing/testdata.ts";
import { placeTranscripts, readCaseById } from "../../../testing/peer_support.ts";

interface StallCase {
  id: string;
  payload: Record<string, unknown>;
  expect: { decision: string };
  env?: Record<string, string>;
  steps: { payload: Record<string, unknown>; expect: string }[];
}

function readCase(file: string, id: string): StallCase {
  return readCaseById<StallCase>(join(DIR, file), id);
}

function place(payload: Record<string, unknown>, home: string): Promise<Record<string, unknown>> {
  return placeTranscripts(payload, {
    caseDir: DIR,
    home,
    project: "-stall",
    keys: ["transcript_path"],
    allowMissing: false,
  });
}

async function decide(home: string, payload: Record<string, unknown>, env: Record<string, string> = {}) {
  const run = await runCli(["hook", "stop"], { home, env, stdin: JSON.stringify(await place(payload, home)) });
  assert.equal(run.code, 0, run.stderr);
  return run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision;
}

for (const id of ["open_call_blocks", "finished_turn_allows"]) {
  Deno.test(`stall case ${id} (CLI)`, async () => {
    const c = readCase("cases.jsonl", id);
    const home = await tempHome();
    try {
      assert.equal(await decide(home, c.payload), c.expect.decision);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("stall sequence retry_cap_per_call (CLI)", async () => {
  const s = readCase("sequences.jsonl", "retry_cap_per_call");
  const home = await tempHome();
  try {
    const decisions: string[] = [];
    assert.deepEqual(s.env, { CLIFFHANGER_STALL_MAX_RETRIES: "2" });
    for (const step of s.steps) decisions.push(await decide(home, step.payload, s.env));
    assert.deepEqual(decisions, s.steps.map((step) => step.expect));
    const names = (await readStallLog(home)).map((l) => l["name"]);
    assert.deepEqual(names.filter((n) => n !== "stall_detected"), [
      "recovery_dispatched",
      "recovery_dispatched",
      "retry_cap_hit",
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
