import assert from "node:assert/strict";
import { classifyNextPrompt } from "./next_prompt.ts";

Deno.test("continue prompts: short pushes to go on", () => {
  for (const t of ["continue", "Continue.", "please continue", "go on", "keep going!", "ok, carry on", "proceed"]) {
    assert.equal(classifyNextPrompt(t).kind, "continue", t);
  }
  assert.equal(classifyNextPrompt("keep going").match, "keep going");
});

Deno.test("agreeing and new topics", () => {
  assert.equal(classifyNextPrompt("yes, do it").kind, "agree");
  assert.equal(classifyNextPrompt("Go ahead").kind, "agree");
  assert.equal(classifyNextPrompt("now add a --json flag to stats").kind, "new-topic");
  assert.equal(classifyNextPrompt("continuation lines are broken in the parser").kind, "new-topic");
  assert.equal(classifyNextPrompt(`continue ${"x".repeat(300)}`).kind, "new-topic", "long prompts are not a bare push");
});
