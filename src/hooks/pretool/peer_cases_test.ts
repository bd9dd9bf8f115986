/**
 * The anti-loop peer cases (agent-behavior-hooks, seed 003) from testdata/peers/, run in process through the
 * step the binary runs (`hook pretool`: runHook; a few also through the CLI in peer_cases_cli_test.ts), each sequence
 * with a fresh home and its env
 * names mapped to ours. None of the cases is marked non-portable, and every one passes as labelled:
 * "allow" means no denial (a warning is an allow), "block" means permissionDecision "deny".
 *
 * Where a case asserts the peer's own wording, ours matches it on purpose: the block reason contains "same Bash
 * call" and "different approach", and the warning starts with "anti-loop-guard warning". The peer blocks with
 * exit 2 and the reason on stderr; we answer exit 0 with a deny decision (hooks contract §3.6), which the client
 * treats the same way but without a "hook error" exit code.
 *
 * How our "repeats" relates to the peer's short-cycle case: with block = 3 the peer allows A,B,A,B,A,B and denies
 * the 7th call (A). Our count is the number of times the loop came back round to the current call (A,B,A → 1),
 * which gives the same answer: the 6th call (B) has come back twice, the 7th (A) three times.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliRun, readAllLog, readErrors, tempHome } from "../../testing/run_cli.ts";
import { runHookInProcess } from "../../testing/run_hook.ts";
import { PEERS } from "../../testing/testdata.ts";

const DIR = `${PEERS}agent-behavior-hooks/`;

/** The peer's environment names → ours. */
export const ENV_MAP: Record<string, string> = {
  ABH_ANTI_LOOP_MAX_RETRIES: "CLIFFHANGER_LOOP_MAX_RETRIES",
  ABH_ANTI_LOOP_WINDOW_MIN: "CLIFFHANGER_LOOP_WINDOW_MIN",
  ABH_ANTI_LOOP_PATTERN_WARN: "CLIFFHANGER_LOOP_WARN",
  ABH_ANTI_LOOP_PATTERN_BLOCK: "CLIFFHANGER_LOOP_BLOCK",
  ABH_ANTI_LOOP_TOOLS: "CLIFFHANGER_LOOP_TOOLS",
  ABH_ANTI_LOOP_BYPASS: "CLIFFHANGER_LOOP_BYPASS",
};

interface Sequence {
  id: string;
  env?: Record<string, string>;
  note?: string;
  portable?: boolean;
  expect_stderr_contains_on_block?: string[];
  steps: { payload: Record<string, unknown>; expect: "allow" | "block" }[];
}

interface RawCase {
  id: string;
  stdin: string;
  expect: { exit_code: number; stdout_empty?: boolean };
}

function readJsonl<T>(file: string): T[] {
  return Deno.readTextFileSync(join(DIR, file)).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

function mapEnv(env: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => {
      const ours = ENV_MAP[k];
      if (!ours) throw new Error(`unmapped peer env ${k}`);
      return [ours, v];
    }),
  );
}

interface Answer {
  decision: "allow" | "block";
  reason: string | null;
  context: string | null;
}

function answerOf(run: CliRun): Answer {
  assert.equal(run.code, 0, `exit code ${run.code}: ${run.stderr}`);
  if (run.stdout === "") return { decision: "allow", reason: null, context: null };
  const hso = JSON.parse(run.stdout).hookSpecificOutput;
  assert.equal(hso.hookEventName, "PreToolUse");
  if (hso.permissionDecision === "deny") {
    assert.equal(typeof hso.permissionDecisionReason, "string");
    return { decision: "block", reason: hso.permissionDecisionReason, context: null };
  }
  assert.equal(hso.permissionDecision, undefined, "a warning carries no permission decision");
  assert.equal(typeof hso.additionalContext, "string");
  return { decision: "allow", reason: null, context: hso.additionalContext };
}

const sequences = readJsonl<Sequence>("anti_loop_sequences.jsonl");

Deno.test("peer anti-loop cases: the files are there and every case is portable", () => {
  assert.equal(sequences.length, 10);
  assert.ok(sequences.every((s) => s.portable !== false));
});

for (const seq of sequences) {
  Deno.test(`peer anti-loop sequence ${seq.id}`, async () => {
    const home = await tempHome();
    try {
      const env = mapEnv(seq.env);
      const answers: Answer[] = [];
      for (const step of seq.steps) {
        answers.push(answerOf(await runHookInProcess("pretool", { home, env, stdin: JSON.stringify(step.payload) })));
      }
      assert.deepEqual(answers.map((a) => a.decision), seq.steps.map((s) => s.expect), seq.id);
      for (const a of answers.filter((a) => a.decision === "block")) {
        for (const phrase of seq.expect_stderr_contains_on_block ?? []) assert.ok(a.reason!.includes(phrase), phrase);
      }
      if (seq.id === "warning_before_block") {
        assert.equal(answers[2]!.context?.startsWith("anti-loop-guard warning"), true, "the 3rd call is warned");
        assert.deepEqual(answers.slice(0, 2).map((a) => a.context), [null, null]);
      }
      const denials = answers.filter((a) => a.decision === "block").length;
      const logged = (await readAllLog(home)).filter((l) => l["kind"] === "loop" && l["action"] === "deny").length;
      assert.equal(logged, denials, "each denial is logged once");
      assert.equal(await readErrors(home), "");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

for (const c of readJsonl<RawCase>("anti_loop_raw_stdin.jsonl")) {
  Deno.test(`peer anti-loop raw stdin ${c.id}: fails open, the reason goes to errors.log`, async () => {
    const home = await tempHome();
    try {
      const run = await runHookInProcess("pretool", { home, stdin: c.stdin });
      assert.equal(run.code, c.expect.exit_code);
      assert.equal(run.stdout, "", "allowed: nothing on stdout");
      const errors = await readErrors(home);
      assert.match(errors, /hook pretool: .*allowed/);
      if (c.stdin.length > 4) assert.ok(!errors.includes(c.stdin), "errors.log never quotes the payload");
      assert.deepEqual(await readAllLog(home), []);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}
