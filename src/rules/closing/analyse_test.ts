import assert from "node:assert/strict";
import { buildRuleSet } from "../load.ts";
import type { RuleFile } from "../schema.ts";
import { analyseClosing, quoteSentence } from "./analyse.ts";

const set = buildRuleSet({ userFiles: [] });
const analyse = (text: string) => analyseClosing(text, set, { maxChars: 4000 });

Deno.test("analyseClosing(): the deciding sentence is quoted, from the agent's own prose only", () => {
  const a = analyse(
    "Fixed the `Want me to save?` dialog copy.\n\n```\nShall I continue?\n```\nWant the docs updated too?",
  );
  assert.equal(a.early?.phrase, "Want the docs updated too?");
  assert.equal(analyse("Fixed the dialog: it now says 'Want me to save?'. 4 tests pass.").early, null);
});

Deno.test("analyseClosing(): a counter cancels the hit on its sentence and says so", () => {
  const a = analyse("All 12 tests pass. Does that help?");
  assert.equal(a.early, null);
  assert.ok(a.cancelled.some((c) => c.by.id === "courtesy-closer"));
});

Deno.test("analyseClosing(): a blocker allows, unless an offer is asked as a question", () => {
  assert.equal(
    analyse("I can't go further without the staging token; everything else is done.").blocker?.rule.id,
    "cannot-proceed",
  );
  const hidden = analyse("I can't go further without your sign-off, so should I continue?");
  assert.ok(hidden.early);
  assert.equal(hidden.blocker, null);
});

Deno.test("analyseClosing(): weak hits add up only in the closing, one per rule", () => {
  const file = (weight: number): RuleFile => ({
    kind: "early-stop",
    disable: [],
    grammar: {},
    rules: ["alpha", "beta"].map((word) => ({
      id: `weak-${word}`,
      description: word,
      patterns: [`\\b${word}\\b`],
      flags: "i",
      tailChars: null,
      advice: "{match} BLOCKED:",
      label: word,
      act: "offer" as const,
      scope: "prose" as const,
      weight,
      lang: "any",
      examples: { match: [word], pass: ["x"] },
    })),
  });
  const weak = buildRuleSet({ userFiles: [{ origin: "weak.json", text: JSON.stringify(file(0.5)) }] });
  const run = (text: string) => analyseClosing(text, weak, { maxChars: 4000 }).early?.rule.id ?? null;
  assert.equal(run("Report. alpha beta."), "weak-alpha", "two weak rules in the closing add up to 1");
  assert.equal(run("Report. alpha alpha."), null, "one weak rule twice does not");
  assert.equal(run("alpha beta.\n\nOne. Two. Three. Four."), null, "weak hits outside the closing do not add up");
});

Deno.test("quoteSentence(): whole when short, around the match when long", () => {
  assert.equal(quoteSentence("Want me to go on?", "Want me to"), "Want me to go on?");
  const long = `${"x ".repeat(100)}Want me to go on? ${"y ".repeat(100)}`;
  const quoted = quoteSentence(long, "Want me to");
  assert.ok(quoted.length <= 162 && quoted.includes("Want me to"), quoted);
});
