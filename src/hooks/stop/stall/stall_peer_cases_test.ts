/**
 * Our stall cases (testdata/stall_cases/, written from the stall_watch design of seed 002), run in process
 * through the step `hook stop` runs (runHook), each with a fresh home; a few also through the CLI
 * (stall_peer_cases_cli_test.ts). A sequence's `log` is the stall events it must leave in the log, in order.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readStallLog, tempHome } from "../../../testing/run_cli.ts";
import { runHookInProcess } from "../../../testing/run_hook.ts";
import { STALL_CASES as DIR } from "../../../testing/testdata.ts";
import { placeTranscripts, readJsonLines } from "../../../testing/peer_support.ts";

function lines(file: string): Record<string, unknown>[] {
  return readJsonLines(join(DIR, file));
}

function place(payload: Record<string, unknown>, home: string): Promise<Record<string, unknown>> {
  return placeTranscripts(payload, {
    caseDir: DIR,
    home,
    project: "-stall",
    keys: ["transcript_path"],
    allowMissing: true,
  });
}

for (
  const c of lines("cases.jsonl") as unknown as {
    id: string;
    payload: Record<string, unknown>;
    expect: { decision: string; reason_contains?: string[]; reason_lacks?: string[] };
  }[]
) {
  Deno.test(`stall case ${c.id}`, async () => {
    const home = await tempHome();
    try {
      const run = await runHookInProcess("stop", { home, stdin: JSON.stringify(await place(c.payload, home)) });
      assert.equal(run.code, 0, run.stderr);
      const decision = run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision;
      assert.equal(decision, c.expect.decision, `${c.id}: ${run.stdout}`);
      for (const part of c.expect.reason_contains ?? []) {
        assert.ok(JSON.parse(run.stdout).reason.includes(part), `${c.id}: reason lacks "${part}": ${run.stdout}`);
      }
      for (const part of c.expect.reason_lacks ?? []) {
        assert.ok(!JSON.parse(run.stdout).reason.includes(part), `${c.id}: reason names "${part}": ${run.stdout}`);
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

for (
  const s of lines("sequences.jsonl") as unknown as {
    id: string;
    env?: Record<string, string>;
    steps: { payload: Record<string, unknown>; expect: string }[];
    log: string[];
  }[]
) {
  Deno.test(`stall sequence ${s.id}`, async () => {
    const home = await tempHome();
    try {
      const decisions: string[] = [];
      for (const step of s.steps) {
        const run = await runHookInProcess("stop", {
          home,
          stdin: JSON.stringify(await place(step.payload, home)),
          env: s.env ?? {},
        });
        assert.equal(run.code, 0, run.stderr);
        decisions.push(run.stdout.trim() === "" ? "allow" : JSON.parse(run.stdout).decision);
      }
      assert.deepEqual(decisions, s.steps.map((step) => step.expect));
      assert.deepEqual((await readStallLog(home)).map((l) => l["name"]), s.log);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}
