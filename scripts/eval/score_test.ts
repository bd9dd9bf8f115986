/**
 * The floors of `deno task eval`: decision quality on the labelled finals may not lose ground. Our own set must
 * keep recall ≥ 95% and false blocks ≤ 1% in every language; the real corpus keeps its measured figures.
 */
import assert from "node:assert/strict";
import { buildFullRuleSet } from "../../src/rules/full.ts";
import { LANGS, readFinals } from "./finals.ts";
import { decideFinal, falseBlockRate, recall, score, type Tally } from "./score.ts";

const finals = await readFinals();
const rules = buildFullRuleSet({ userFiles: [] });
const outcomes = finals.map((f) => decideFinal(f, rules));

function langTally(lang: string, own: boolean): Tally {
  return score(outcomes.filter((o) => o.final.lang === lang && (o.final.source === undefined) === own)).total;
}

Deno.test("labelled finals: every language has at least 30 of our own messages, both labels", () => {
  for (const lang of LANGS) {
    const t = langTally(lang, true);
    assert.ok(t.early + t.good >= 30, `${lang}: ${t.early + t.good} messages`);
    assert.ok(t.early >= 10 && t.good >= 10, `${lang}: ${t.early} block, ${t.good} allow`);
  }
  assert.ok(finals.filter((f) => f.source === undefined).length >= 400, "at least 400 of our own");
  assert.ok(finals.filter((f) => f.source !== undefined).length >= 80, "the real corpus finals");
});

Deno.test("eval floors: our own set, per language: recall ≥ 95%, false blocks ≤ 1%", () => {
  for (const lang of LANGS) {
    const t = langTally(lang, true);
    assert.ok(recall(t) >= 0.95, `${lang}: recall ${t.caught}/${t.early}`);
    assert.ok(falseBlockRate(t) <= 0.01, `${lang}: false blocks ${t.falseBlocks}/${t.good}`);
  }
});

Deno.test("eval floors: real corpus finals keep recall ≥ 95% and false blocks ≤ 5%", () => {
  const t = score(outcomes.filter((o) => o.final.source !== undefined)).total;
  assert.ok(recall(t) >= 0.95, `corpus recall ${t.caught}/${t.early}`);
  assert.ok(falseBlockRate(t) <= 0.05, `corpus false blocks ${t.falseBlocks}/${t.good}`);
});

Deno.test("eval floors: every block act is caught at ≥ 90%, every allow act blocked at ≤ 5%", () => {
  const s = score(outcomes);
  for (const [act, t] of Object.entries(s.byAct)) {
    assert.ok(recall(t) >= 0.9, `${act}: recall ${t.caught}/${t.early}`);
    assert.ok(falseBlockRate(t) <= 0.05, `${act}: false blocks ${t.falseBlocks}/${t.good}`);
  }
});

Deno.test("score() counts misses and wrong blocks", () => {
  const [block, allow] = [finals.find((f) => f.label === "block")!, finals.find((f) => f.label === "allow")!];
  const s = score([
    { final: block, blocked: false, rule: "no-pattern", match: null },
    { final: allow, blocked: true, rule: "offers-to-continue", match: "x" },
  ]);
  assert.deepEqual([s.total.early, s.total.caught, s.total.good, s.total.falseBlocks], [1, 0, 1, 1]);
  assert.equal(s.misses.length, 1);
  assert.deepEqual(s.byRule["offers-to-continue"], { blocks: 1, wrong: 1 });
});
