/**
 * The labelled final messages of the designs we re-implement and two close peers, run through the
 * message checks alone (escape → blocker → early-stop), as they decide when there is no checklist.
 * Only cases whose outcome comes from the message are here: cases decided by a checklist, background
 * work, plan mode or an internal subagent belong to the stop pipeline's tests.
 *
 * The cases are copied into TABLE, and one more test checks that TABLE still matches the peer cases
 * in testdata/peers/.
 */
import assert from "node:assert/strict";
import { classifyMessage, renderEarlyStopReason } from "./classify.ts";
import { buildFullRuleSet } from "./full.ts";
import { actFamily } from "../testing/act_family.ts";
import { PEERS } from "../testing/testdata.ts";

type Source = "cliffhanger" | "no-cliffhanger" | "ralph-claude-code";
type Decision = "block" | "allow";

interface PeerCase {
  source: Source;
  id: string;
  message: string;
  /** Our decision. */
  decision: Decision;
  /** cliffhanger cases: the stage ("blocker-token", "blocker-phrase", "no-pattern") or early-stop rule id. */
  rule?: string;
  /** Substrings the block reason must contain. */
  reasonContains?: string[];
  /** Where our policy differs from the peer's label: the peer's decision and why we differ. */
  differs?: { peer: Decision; why: string };
}

// One case per line: the table is data.
// deno-fmt-ignore
const TABLE: PeerCase[] = [
  { source: "cliffhanger", id: "markdown_checklist_from_earlier_prompt_expires", message: "The answer is 42.", decision: "allow", rule: "no-pattern" },
  { source: "cliffhanger", id: "sidechain_records_are_ignored", message: "Done.", decision: "allow", rule: "no-pattern" },
  { source: "cliffhanger", id: "blocked_token_allows_with_open_items", message: "Code is merged.\nBLOCKED: staging deploy. Need STAGING_TOKEN, it is not set in this environment.", decision: "allow", rule: "blocker-token" },
  { source: "cliffhanger", id: "needs_you_token_allows", message: "NEEDS-YOU: pick the license, MIT or Apache-2.0.", decision: "allow", rule: "blocker-token" },
  { source: "cliffhanger", id: "lowercase_blocked_is_not_the_token", message: "The request was blocked: want me to retry it?", decision: "block", rule: "offers-to-continue" },
  { source: "cliffhanger", id: "announces_next_step_blocks", message: "I refactored the store and all 14 tests pass. The next step is updating the API handlers.", decision: "block", rule: "announces-next-step" },
  { source: "cliffhanger", id: "offers_to_continue_blocks", message: "Migration 1 of 3 is done. Would you like me to continue?", decision: "block", rule: "offers-to-continue", reasonContains: ["Would you like me to"] },
  { source: "cliffhanger", id: "decision_list_blocks", message: "The parser is ported. A few decisions for you:\n1. Keep the old flag?\n2. Rename the module?", decision: "block", rule: "decisions-for-user" },
  { source: "cliffhanger", id: "good_place_to_report_blocks", message: "Phase one is complete, which seems like a good stopping point. Here is what changed.", decision: "block", rule: "good-place-to-report" },
  { source: "cliffhanger", id: "traditional_chinese_real_transcript_offer_blocks", message: "要我接著加 ROI 輪廓、切換受試者、或包成可分享連結,跟我說一聲就好。", decision: "block", rule: "offers-to-continue" },
  { source: "cliffhanger", id: "traditional_chinese_patterns_block_0", message: "下一步是更新文件。", decision: "block", rule: "announces-next-step" },
  { source: "cliffhanger", id: "traditional_chinese_patterns_block_1", message: "要我繼續嗎？", decision: "block", rule: "offers-to-continue" },
  { source: "cliffhanger", id: "traditional_chinese_patterns_block_2", message: "有幾個選擇要你決定。", decision: "block", rule: "decisions-for-user" },
  { source: "cliffhanger", id: "traditional_chinese_patterns_block_3", message: "這是個適合停下的地方。", decision: "block", rule: "good-place-to-report" },
  { source: "cliffhanger", id: "traditional_chinese_patterns_block_4", message: "還沒跑過測試。", decision: "block", rule: "leaves-work-unverified" },
  // Non-portable in the corpus; we share the policy: with no checklist, a prose blocker allows the stop
  // even when an offer follows it.
  // We differ: a blocker phrase must not hide an offer. The offer of a workaround is a question nobody answers; the
  // agent should take the workaround itself or write the blocker as a BLOCKED: line.
  { source: "cliffhanger", id: "blocker_phrase_suppresses_pattern", message: "I cannot proceed without the database credentials. Want me to use SQLite in the meantime?", decision: "block", rule: "offers-to-continue", differs: { peer: "allow", why: "a blocker phrase followed by an offer asked as a question is an offer: the offer blocks, a BLOCKED: line lets it through" } },
  { source: "cliffhanger", id: "plain_final_report_allows", message: "Added GET /health, a test for it, a docs entry, and a changelog line. 15 tests pass.", decision: "allow", rule: "no-pattern" },
  { source: "cliffhanger", id: "missing_transcript_falls_back_to_patterns", message: "Let me know if you'd like me to continue.", decision: "block", rule: "offers-to-continue" },
  { source: "cliffhanger", id: "waiting_on_approval_it_could_route_around_blocks", message: "Both parts are written, but I haven't been able to run pytest yet. The Bash tool is asking for approval on the pytest command, so nothing has been tested. Once you approve it, I'll run `python -m pytest -q`.", decision: "block", rule: "announces-next-step", reasonContains: ["BLOCKED:"] },
  { source: "cliffhanger", id: "unverified_work_blocks", message: "I made all the code changes, but I couldn't run pytest. The sandbox blocked every attempt to run it and asked for approval, which isn't possible in this non-interactive session. So the tests are unverified.", decision: "block", rule: "leaves-work-unverified" },
  { source: "cliffhanger", id: "untested_part_with_real_blocker_allows", message: "All 31 tests pass. The deploy script is untested because it needs AWS credentials I don't have.", decision: "allow", rule: "blocker-phrase" },
  { source: "cliffhanger", id: "demo_offer", message: "Two of the five call sites now use fetch_v2. Want me to continue with the remaining three?", decision: "block", rule: "offers-to-continue" },
  { source: "cliffhanger", id: "demo_unverified", message: "Both parts are written, but I couldn't run pytest, so the tests are unverified.", decision: "block", rule: "leaves-work-unverified" },
  { source: "cliffhanger", id: "demo_blocked", message: "Code is merged and 31 tests pass.\nBLOCKED: deploy to staging. Need STAGING_TOKEN exported, it is not set here.", decision: "allow", rule: "blocker-token" },
  // no-cliffhanger asserts its own reason text ("BLOCKED: dangling permission-loop"); we assert the decision only.
  { source: "no-cliffhanger", id: "t1_let_me_know_continue", message: "Here is the function. Let me know if you would like me to continue with tests.", decision: "block" },
  // We differ: "running pytest now" in a final message runs nothing. It is announces-next-step and blocks.
  { source: "no-cliffhanger", id: "t2_substantive_next_action", message: "Here is the function. Tests are next; running pytest now.", decision: "block", differs: { peer: "allow", why: "the message says pytest is running now, but it is the final message: nothing ran, so it is an announced next step" } },
  { source: "no-cliffhanger", id: "t3_status_partial_closeout", message: "Status: partial. Verification: not run because deps missing. Next step: pip install -r requirements.txt.", decision: "allow" },
  { source: "no-cliffhanger", id: "t4_want_me_to_continue", message: "Want me to continue with the second migration?", decision: "block" },
  // We differ: a pick-one list that blocks no work is decisions-for-user and blocks; the agent chooses, or
  // puts a choice only the user can make in a NEEDS-YOU: line (an escape, so allowed).
  { source: "no-cliffhanger", id: "t5_explicit_multiple_choice", message: "Here are three options. Pick one of: A) bash, B) python, C) go.", decision: "block", differs: { peer: "allow", why: "a choice list the rest of the work does not wait on: the agent should choose and say why; a choice only the user can make goes in a NEEDS-YOU: line, which is allowed" } },
  // ralph labels whether the agent asks the user instead of acting; a question blocks, a statement passes.
  { source: "ralph-claude-code", id: "ralph_q_0", message: "Should I implement approach A or B?", decision: "block" },
  { source: "ralph-claude-code", id: "ralph_q_1", message: "Implementing module. Tests passed. All done.", decision: "allow" },
  { source: "ralph-claude-code", id: "ralph_q_2", message: "I should implement the conservative approach.", decision: "allow" },
  { source: "ralph-claude-code", id: "ralph_q_3", message: "Should I use approach A? Would you prefer option B? What should I do next?", decision: "block" },
  { source: "ralph-claude-code", id: "ralph_q_4", message: "Please confirm the approach before proceeding.", decision: "block" },
  { source: "ralph-claude-code", id: "ralph_q_5", message: "Awaiting your input on the design decision.", decision: "block" },
  { source: "ralph-claude-code", id: "ralph_q_6", message: "Should I implement approach A or B? Which option do you prefer?", decision: "block" },
  { source: "ralph-claude-code", id: "ralph_q_7", message: "Implementing feature X. All tests passed successfully.", decision: "allow" },
  { source: "ralph-claude-code", id: "ralph_q_8", message: "I've updated the CHANGELOG.\n\n## v1.2.0\n- Implementation complete\n- Setup is done\n- All tasks finished\n\nThe documentation has been updated successfully.", decision: "allow" },
];

const set = buildFullRuleSet({ userFiles: [] });

const actOf = (id: string) => actFamily(set, id);

/** What the message checks decide: the decision and the name the peer's log would use for it. */
function decide(message: string): { decision: Decision; rule: string; reason: string | null } {
  const verdict = classifyMessage(message, set);
  switch (verdict.stage) {
    case "escape":
      return { decision: "allow", rule: verdict.match.rule.id, reason: null };
    case "blocker":
      return { decision: "allow", rule: "blocker-phrase", reason: null };
    case "early-stop":
      return { decision: "block", rule: verdict.match.rule.id, reason: renderEarlyStopReason(verdict.match) };
    case "none":
      return { decision: "allow", rule: "no-pattern", reason: null };
  }
}

Deno.test("peer messages decide as labelled (or as our documented policy)", async (t) => {
  for (const peer of TABLE) {
    await t.step(`${peer.source}/${peer.id}`, () => {
      const got = decide(peer.message);
      const label = `${peer.source}/${peer.id} ${JSON.stringify(peer.message)}`;
      assert.equal(got.decision, peer.decision, `${label}: got ${got.decision} by "${got.rule}"`);
      if (peer.rule !== undefined) {
        // The peer names one rule per act for every language; we have a rule per act and language (and several
        // English ones), so the act of the deciding rule is what must agree.
        assert.equal(actOf(got.rule), actOf(peer.rule), `${label}: decided by "${got.rule}", not as "${peer.rule}"`);
      }
      for (const part of peer.reasonContains ?? []) {
        assert.ok(got.reason?.includes(part), `${label}: reason lacks ${JSON.stringify(part)}: ${got.reason}`);
      }
    });
  }
});

// --- keeping TABLE in step with the peer corpus, when it is available -------------------------------

const MESSAGE_STAGES = new Set([
  "blocker-token",
  "blocker-phrase",
  "no-pattern",
  ...set.earlyStop.map((rule) => rule.id),
]);

interface CorpusCase {
  id: string;
  payload: {
    last_assistant_message?: string;
    background_tasks?: unknown[];
    permission_mode?: string;
    agent_id?: string;
    agent_type?: string;
  };
  expect: { decision: Decision; cliffhanger_rule?: string | null; reason_contains?: string[] };
}

const FILES: Record<Source, string> = {
  "cliffhanger": "cliffhanger/cases.jsonl",
  "no-cliffhanger": "no-cliffhanger/cases.jsonl",
  "ralph-claude-code": "ralph-claude-code/cases_questions.jsonl",
};

/** A case the message alone decides: no background work, plan mode, internal subagent or checklist stage. */
function isMessageOnly(source: Source, c: CorpusCase): boolean {
  if (source !== "cliffhanger") return true;
  const p = c.payload;
  if ((p.background_tasks?.length ?? 0) > 0 || p.permission_mode === "plan") return false;
  if (p.agent_id && p.agent_type === "") return false;
  return MESSAGE_STAGES.has(c.expect.cliffhanger_rule ?? "");
}

Deno.test({
  name: "peer message TABLE matches the peer corpus",
  fn: () => {
    const expected: string[] = [];
    for (const [source, file] of Object.entries(FILES) as [Source, string][]) {
      const lines = Deno.readTextFileSync(`${PEERS}${file}`).split("\n").filter((line) => line.trim());
      for (const c of lines.map((line) => JSON.parse(line) as CorpusCase)) {
        if (!isMessageOnly(source, c)) continue;
        expected.push(`${source}/${c.id}`);
        const mine = TABLE.find((peer) => peer.source === source && peer.id === c.id);
        assert.ok(mine, `${source}/${c.id} is missing from TABLE`);
        assert.equal(mine.message, c.payload.last_assistant_message, `${source}/${c.id}: message differs`);
        assert.equal(
          mine.differs?.peer ?? mine.decision,
          c.expect.decision,
          `${source}/${c.id}: peer decision differs`,
        );
        if (source !== "cliffhanger") continue;
        if (mine.differs === undefined) {
          assert.equal(mine.rule, c.expect.cliffhanger_rule, `${source}/${c.id}: rule differs`);
        }
        assert.deepEqual(
          mine.reasonContains ?? [],
          c.expect.reason_contains ?? [],
          `${source}/${c.id}: reason_contains`,
        );
      }
    }
    assert.deepEqual(TABLE.map((peer) => `${peer.source}/${peer.id}`).sort(), expected.sort());
  },
});
