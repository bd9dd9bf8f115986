import assert from "node:assert/strict";
import { analyseMessage, classifyMessage, findEscape, renderEarlyStopReason } from "./classify.ts";
import { buildFullRuleSet } from "./full.ts";
import type { RuleMatch } from "./schema.ts";

const set = buildFullRuleSet({ userFiles: [] });

function earlyStop(text: string): RuleMatch {
  const hit = analyseMessage(text, set).early;
  assert.ok(hit, `no early-stop rule matched ${JSON.stringify(text)}`);
  return hit;
}

Deno.test("renderEarlyStopReason() quotes the phrase and names BLOCKED:", () => {
  const reason = renderEarlyStopReason(earlyStop("Migration 1 of 3 is done. Would you like me to continue?"));
  assert.ok(reason.includes('("Would you like me to continue?")'), reason);
  assert.ok(reason.includes("NEEDS-YOU:"), "an offer names the escape for a real question");
  assert.ok(reason.includes("Never take an irreversible step"), reason);
  assert.ok(reason.includes("BLOCKED: <what> <what you need>"), reason);
  assert.ok(!reason.includes("{match}"));
});

Deno.test("renderEarlyStopReason() gives every built-in rule a reason with the phrase and BLOCKED:", () => {
  for (const rule of set.earlyStop) {
    const reason = renderEarlyStopReason({ rule, phrase: "PHRASE" });
    assert.ok(reason.includes('"PHRASE"'), `${rule.id}: ${reason}`);
    assert.ok(reason.includes("BLOCKED:"), `${rule.id}: ${reason}`);
  }
});

Deno.test("renderEarlyStopReason() inserts phrases literally", () => {
  const { rule } = earlyStop("Want me to continue?");
  assert.ok(renderEarlyStopReason({ rule, phrase: "$& and $1" }).includes('"$& and $1"'));
});

Deno.test("renderEarlyStopReason() completes advice without {match} or BLOCKED:", () => {
  const { rule } = earlyStop("Want me to continue?");
  const bare = renderEarlyStopReason({ rule: { ...rule, advice: "" }, phrase: "Want me to" });
  assert.match(bare, /^Your last message ended the turn early \(offered more work: "Want me to"\)\./);
  assert.ok(bare.includes("BLOCKED:"));
  const own = renderEarlyStopReason({ rule: { ...rule, advice: "Keep going." }, phrase: "Want me to" });
  assert.ok(own.includes('"Want me to"') && own.includes("Keep going.") && own.includes("BLOCKED:"), own);
});

Deno.test("classifyMessage() runs escape, then the closing analysis; a blocker phrase does not hide an offer", () => {
  assert.equal(classifyMessage("Want me to continue?\nBLOCKED: need the token.", set).stage, "escape");
  assert.equal(classifyMessage("I cannot proceed without the key. Want me to mock it?", set).stage, "early-stop");
  assert.equal(classifyMessage("I cannot proceed without the key; the tests are written.", set).stage, "blocker");
  assert.equal(classifyMessage("Done.\n```\nBLOCKED: sample\n```\nWant me to add CI?", set).stage, "early-stop");
  assert.equal(classifyMessage("Want me to continue?", set).stage, "early-stop");
  assert.deepEqual(classifyMessage("All 12 tests pass.", set), { stage: "none", match: null });
});

Deno.test("findEscape() and analyseMessage() honour maxChars", () => {
  const long = "BLOCKED: need the token.\n" + "All good. ".repeat(50);
  assert.ok(findEscape(long, set));
  assert.equal(findEscape(long, set, { maxChars: 100 }), null);
  // Evidence is read by block: a paragraph that ends before the last maxChars characters is not read.
  const offer = "I cannot proceed without the key.\n\n" + " x".repeat(100);
  assert.ok(analyseMessage(offer, set).blocker);
  assert.equal(analyseMessage(offer, set, { maxChars: 50 }).blocker, null);
});
