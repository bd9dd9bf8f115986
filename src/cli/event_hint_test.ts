import assert from "node:assert/strict";
import { hookNameHint } from "./event_hint.ts";

Deno.test("hookNameHint(): a Claude Code event we hook names the hook that runs on it, in any case", () => {
  assert.equal(hookNameHint("PreToolUse"), ' (did you mean "pretool"?)');
  assert.equal(hookNameHint("UserPromptSubmit"), ' (did you mean "prompt"?)');
  assert.equal(hookNameHint("Stop"), ' (did you mean "stop"?)');
  assert.equal(hookNameHint("SubagentStop"), ' (did you mean "stop"?)');
  assert.equal(hookNameHint("pretooluse"), ' (did you mean "pretool"?)');
});

Deno.test("hookNameHint(): another Claude Code event is said to have no hook of ours; a typo gets the nearest", () => {
  assert.equal(
    hookNameHint("PostToolUse"),
    " (no hook of ours runs on Claude Code's PostToolUse: stop on Stop and SubagentStop, prompt on UserPromptSubmit, " +
      "pretool on PreToolUse)",
  );
  // in any case, named as Claude Code spells it
  assert.match(hookNameHint("posttooluse"), /^ \(no hook of ours runs on Claude Code's PostToolUse: /);
  assert.equal(hookNameHint("stpo"), ' (did you mean "stop"?)');
  assert.equal(hookNameHint("PROMT"), ' (did you mean "prompt"?)');
  assert.equal(hookNameHint("banana"), "");
});
