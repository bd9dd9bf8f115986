/**
 * The labelled Stop cases from testdata/peers/, each run once in process through the step the binary runs
 * (`hook stop`: runHook), each with a fresh home; a few of them also run through the CLI (peer_cases_cli_test.ts).
 * Portable cases must pass as labelled. For the
 * non-portable ones our own policy is asserted, with the reason next to it.
 */
import assert from "node:assert/strict";
import { buildFullRuleSet } from "../../rules/full.ts";
import { actFamily } from "../../testing/act_family.ts";
import { dirname, join } from "node:path";
import { readLog, tempHome } from "../../testing/run_cli.ts";
import { runHookInProcess } from "../../testing/run_hook.ts";
import { PEERS } from "../../testing/testdata.ts";
import { placeTranscripts as placeAll, readJsonLines, stopDecisionOf } from "../../testing/peer_support.ts";

const TRANSCRIPT_KEYS = ["transcript_path", "agent_transcript_path"];

interface PeerCase {
  id: string;
  payload: Record<string, unknown>;
  expect: { decision: "block" | "allow"; reason_contains?: string[]; cliffhanger_rule?: string | null };
  portable?: boolean;
}

function readCases(file: string): PeerCase[] {
  return readJsonLines<PeerCase>(join(PEERS, file));
}

function placeTranscripts(payload: Record<string, unknown>, caseDir: string, home: string) {
  return placeAll(payload, { caseDir, home, project: "-peer", keys: TRANSCRIPT_KEYS, allowMissing: true });
}

async function runCase(c: PeerCase, caseDir: string) {
  const home = await tempHome();
  try {
    const payload = await placeTranscripts(c.payload, caseDir, home);
    const run = await runHookInProcess("stop", { home, stdin: JSON.stringify(payload) });
    return { run, decision: stopDecisionOf(run), log: await readLog(home) };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const builtinRules = buildFullRuleSet({ userFiles: [] });

const actOf = (id: string) => actFamily(builtinRules, id);

/** Our answers where a peer's policy is its own (portable: false). */
const OUR_POLICY: Record<string, { decision: "block" | "allow"; rule: string | null; why: string }> = {
  all_tasks_done_allows_even_with_offer: {
    decision: "allow",
    rule: "checklist-done",
    why: "a finished checklist beats the regex bank: the hook must not add scope",
  },
  blocker_phrase_suppresses_pattern: {
    decision: "block",
    rule: "offer-question",
    why:
      "a blocker phrase must not hide an offer: the question offering a workaround waits for nobody (a BLOCKED: line is the way out)",
  },
  internal_subagent_is_skipped: {
    decision: "allow",
    rule: null,
    why:
      "a SubagentStop with an empty agent_type is a side agent (prompt suggestions), not the user's work: not logged",
  },
};

const cliffhangerCases = readCases("cliffhanger/cases.jsonl");
const cliffhangerDir = join(PEERS, "cliffhanger");

for (const c of cliffhangerCases) {
  Deno.test(`peer case cliffhanger/${c.id}`, async () => {
    const { run, decision, log } = await runCase(c, cliffhangerDir);
    const policy = c.portable === false ? OUR_POLICY[c.id] : undefined;
    if (c.portable === false) assert.ok(policy, `no policy written down for non-portable case ${c.id}`);
    const expected = policy ? policy.decision : c.expect.decision;
    const rule = policy ? policy.rule : c.expect.cliffhanger_rule ?? null;
    assert.equal(decision, expected, `${c.id}: expected ${expected}, got ${decision} (${run.stdout})`);
    if (rule === null) {
      assert.equal(log.length, 0, `${c.id}: expected no log line`);
    } else if (rule !== undefined) {
      assert.equal(log.length, 1, `${c.id}: expected one log line`);
      // The seed names one rule per act for every language; ours has a rule per act and language, so the logged
      // rule must be one of the same act.
      assert.equal(actOf(String(log[0]!["rule"])), actOf(rule), `${c.id}: logged rule ${log[0]!["rule"]}`);
      assert.equal(log[0]!["action"], expected);
    }
    for (const part of c.expect.reason_contains ?? []) {
      assert.ok(JSON.parse(run.stdout).reason.includes(part), `${c.id}: reason lacks "${part}": ${run.stdout}`);
    }
  });
}

/** no-cliffhanger and ralph label the decision only; their reason texts are their own wording. */
const decisionOnly: Record<string, Record<string, { decision: "block" | "allow"; why: string }>> = {
  "no-cliffhanger/cases.jsonl": {
    t2_substantive_next_action: {
      decision: "block",
      why: "the final message promises a test run that never happened (announces-next-step)",
    },
    t5_explicit_multiple_choice: {
      decision: "block",
      why:
        "choices handed to the user that block nothing (decisions-for-user); a real user decision goes in NEEDS-YOU:",
    },
  },
  "ralph-claude-code/cases_questions.jsonl": {},
};

for (const [file, policies] of Object.entries(decisionOnly)) {
  for (const c of readCases(file)) {
    Deno.test(`peer case ${dirname(file)}/${c.id}`, async () => {
      const policy = c.portable === false ? policies[c.id] : undefined;
      if (c.portable === false) assert.ok(policy, `no policy written down for non-portable case ${c.id}`);
      const payload = { session_id: `peer-${c.id}`, ...c.payload };
      const { decision } = await runCase({ ...c, payload }, join(PEERS, dirname(file)));
      assert.equal(decision, policy ? policy.decision : c.expect.decision);
    });
  }
}

interface Sequence {
  id: string;
  env?: Record<string, string>;
  portable?: boolean;
  steps: { payload: Record<string, unknown>; expect: "block" | "allow" }[];
}

const sequences: Sequence[] = readCases("cliffhanger/sequences.jsonl") as unknown as Sequence[];

for (const s of sequences) {
  Deno.test(`peer sequence cliffhanger/${s.id}`, async () => {
    const home = await tempHome();
    try {
      const decisions: string[] = [];
      for (const step of s.steps) {
        const run = await runHookInProcess("stop", { home, stdin: JSON.stringify(step.payload), env: s.env ?? {} });
        decisions.push(stopDecisionOf(run));
      }
      const log = await readLog(home);
      if (s.id === "duplicate_copy_stays_silent") {
        // Our policy: every registration gets the same answer (block), never silence. A copy running in parallel
        // with the first call is counted once (concurrency_cli_test.ts); this sequence runs the calls one after the
        // other, which is how a real next stop looks, so each is its own stop.
        assert.deepEqual(decisions, ["block", "block"]);
        assert.equal(log.length, 2);
      } else {
        assert.deepEqual(decisions, s.steps.map((step) => step.expect));
        assert.equal(log.length, s.steps.length);
      }
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}

for (const c of readCases("cliffhanger/raw_stdin_cases.jsonl") as unknown as { id: string; stdin: string }[]) {
  Deno.test(`peer raw stdin cliffhanger/${c.id} fails open`, async () => {
    const home = await tempHome();
    try {
      const run = await runHookInProcess("stop", { home, stdin: c.stdin });
      assert.equal(run.code, 0);
      assert.equal(run.stdout, "");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
}
