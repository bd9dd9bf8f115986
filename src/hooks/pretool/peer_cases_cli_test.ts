/**
 * A few of the anti-loop peer cases (agent-behavior-hooks; all of them run in process in peer_cases_test.ts),
 * through the CLI: `hook pretool` under the compiled binary's permission scopes, each with a fresh home. A denial on
 * the 4th identical call, a warning before it, a repeated call of another tool, and malformed stdin.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readAllLog, readErrors, runCli, tempHome } from "../../testing/run_cli.ts";
import { PEERS } from "../../testing/testdata.ts";

const DIR = `${PEERS}agent-behavior-hooks/`;

interface Sequence {
  id: string;
  env?: Record<string, string>;
  steps: { payload: Record<string, unknown>; expect: "allow" | "block" }[];
}

function readCase<T extends { id: string }>(file: string, id: string): T {
  const lines = Deno.readTextFileSync(join(DIR, file)).split("\n").filter((l) => l.trim() !== "");
  const found = lines.map((l) => JSON.parse(l) as T).find((c) => c.id === id);
  assert.ok(found, `${file}: no case ${id}`);
  return found;
}

for (const id of ["identical_retries_blocked_on_fourth", "warning_before_block", "non_bash_full_input_signature"]) {
  Deno.test(`peer anti-loop sequence ${id} (CLI)`, async () => {
    const seq = readCase<Sequence>("anti_loop_sequences.jsonl", id);
    assert.deepEqual(seq.env ?? {}, {}, "the chosen cases run on the defaults");
    const home = await tempHome();
    try {
      const decisions: string[] = [];
      for (const step of seq.steps) {
        const run = await runCli(["hook", "pretool"], { home, stdin: JSON.stringify(step.payload) });
        assert.equal(run.code, 0, run.stderr);
        const hso = run.stdout === "" ? null : JSON.parse(run.stdout).hookSpecificOutput;
        decisions.push(hso?.permissionDecision === "deny" ? "block" : "allow");
      }
      assert.deepEqual(decisions, seq.steps.map((s) => s.expect));
      const denials = decisions.filter((d) => d === "block").length;
      const logged = (await readAllLog(home)).filter((l) => l["kind"] === "loop" && l["action"] === "deny").length;
      assert.equal(logged, denials, "each denial is logged once");
      assert.equal(await readErrors(home), "");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("peer anti-loop raw stdin malformed_0 (CLI): fails open, the reason goes to errors.log", async () => {
  const c = readCase<{ id: string; stdin: string; expect: { exit_code: number } }>(
    "anti_loop_raw_stdin.jsonl",
    "malformed_0",
  );
  const home = await tempHome();
  try {
    const run = await runCli(["hook", "pretool"], { home, stdin: c.stdin });
    assert.equal(run.code, c.expect.exit_code);
    assert.equal(run.stdout, "");
    assert.match(await readErrors(home), /hook pretool: .*allowed/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
