import assert from "node:assert/strict";
import {
  groupMatcherInstallRemoves,
  handlerKeysInstallRemoves,
  handlerLimits,
  matcherMatches,
  matchesEvery,
  removedBecause,
} from "./handler_limits.ts";

const ours = { type: "command", command: "/b/cliffhanger-bin", args: ["hook", "stop"], timeout: 60 };

Deno.test("matcherMatches() reads a matcher as Claude Code does: all, a list of names, or an unanchored pattern", () => {
  const cases: [string, string, boolean][] = [
    ["", "Bash", true],
    ["*", "mcp__a__b", true],
    ["Bash", "Bash", true],
    ["Bash", "BashOutput", false],
    ["Bash|Edit", "Edit", true],
    ["Bash, Edit", "Edit", true],
    ["Edit", "NotebookEdit", false],
    // any other character makes it a pattern, unanchored
    ["Edit.*", "NotebookEdit", true],
    ["^Edit$", "NotebookEdit", false],
    ["mcp__memory__.*", "mcp__memory__read", true],
    // Task is the subagent tool's old name
    ["Task", "Agent", true],
    ["Agent", "Task", true],
    // a pattern Claude Code cannot read matches nothing
    ["(", "(", false],
  ];
  for (const [matcher, name, want] of cases) assert.equal(matcherMatches(matcher, name), want, `${matcher} ${name}`);
});

Deno.test("matchesEvery(): Stop and UserPromptSubmit read no matcher; PreToolUse and SubagentStop need one for all", () => {
  assert.equal(matchesEvery("Stop", "Bash"), true);
  assert.equal(matchesEvery("UserPromptSubmit", "x"), true);
  for (const every of ["", "*", ".*", "."]) assert.equal(matchesEvery("PreToolUse", every), true, every);
  for (const narrower of ["Bash", "Bash|Edit|Write|Read", "^B", "mcp__.*"]) {
    assert.equal(matchesEvery("PreToolUse", narrower), false, narrower);
  }
  assert.equal(matchesEvery("SubagentStop", "Explore"), false);
  assert.equal(matchesEvery("SubagentStop", ".*"), true);
});

Deno.test("handlerLimits(): async and asyncRewake fail every event of ours, a narrower matcher or an if warns", () => {
  const at = (event: string, handler: Record<string, unknown>, group: unknown = { hooks: [handler] }) =>
    handlerLimits({ event, group, handler, groupKey: `hooks.${event}[0]`, key: `hooks.${event}[0].hooks[0]` });
  assert.deepEqual(at("Stop", ours), []);
  assert.deepEqual(at("Stop", { ...ours, async: true }), [{
    field: "async",
    key: "hooks.Stop[0].hooks[0].async",
    value: true,
    severity: "fail",
    problem: '"async" is true: Claude Code runs the hook in the background and does not use its answer, so a stop ' +
      "it would block goes through",
  }]);
  assert.match(at("PreToolUse", { ...ours, async: true })[0]!.problem, /a call it would deny runs/);
  assert.match(at("UserPromptSubmit", { ...ours, async: true })[0]!.problem, /does not get its context/);
  assert.deepEqual(at("SubagentStop", { ...ours, asyncRewake: true }).map((l) => [l.field, l.severity]), [
    ["asyncRewake", "fail"],
  ]);
  // false changes nothing; a value that is not true or false makes Claude Code skip the handler (client_schema.ts)
  assert.deepEqual(at("Stop", { ...ours, async: false, asyncRewake: false }), []);
  assert.deepEqual(at("Stop", { ...ours, async: "no" }), []);
  // a matcher: read on PreToolUse and SubagentStop only
  assert.deepEqual(at("Stop", ours, { matcher: "Bash", hooks: [] }), []);
  assert.deepEqual(at("PreToolUse", ours, { matcher: "*", hooks: [] }), []);
  const bash = at("PreToolUse", ours, { matcher: "Bash", hooks: [] });
  assert.deepEqual(bash.map((l) => [l.key, l.value, l.severity]), [["hooks.PreToolUse[0].matcher", "Bash", "warn"]]);
  assert.match(bash[0]!.problem, /^"matcher" is "Bash": the hook sees only the calls it matches, .*like a burst$/);
  // on SubagentStop a matcher picks the subagents guarded: a choice that only blocks less, not a limit; one Claude
  // Code cannot read fails, as on PreToolUse
  assert.deepEqual(at("SubagentStop", ours, { matcher: "Explore", hooks: [] }), []);
  assert.deepEqual(at("SubagentStop", ours, { matcher: "(", hooks: [] }).map((l) => l.severity), ["fail"]);
  assert.deepEqual(at("PreToolUse", ours, { matcher: "(", hooks: [] }).map((l) => l.severity), ["fail"]);
  // an if narrows PreToolUse (on Stop a handler with one never runs: that is client_schema.ts's neverRuns)
  assert.deepEqual(at("PreToolUse", { ...ours, if: "Bash(npm test)" }).map((l) => [l.field, l.severity]), [
    ["if", "warn"],
  ]);
  assert.deepEqual(at("Stop", { ...ours, if: "Bash(npm test)" }), []);
});

Deno.test("handlerKeysInstallRemoves() and groupMatcherInstallRemoves(): what install takes away", () => {
  assert.deepEqual(handlerKeysInstallRemoves(ours), []);
  assert.deepEqual(handlerKeysInstallRemoves({ ...ours, async: false, statusMessage: "x", once: true }), []);
  assert.deepEqual(handlerKeysInstallRemoves({ ...ours, async: true, asyncRewake: "yes", if: "Bash" }), [
    "async",
    "asyncRewake",
    "if",
  ]);
  assert.equal(groupMatcherInstallRemoves("PreToolUse", { hooks: [] }), false);
  assert.equal(groupMatcherInstallRemoves("PreToolUse", { matcher: "Bash", hooks: [] }), true);
  assert.equal(groupMatcherInstallRemoves("PreToolUse", { matcher: "Bash", hooks: [] }, "Bash"), false);
  assert.equal(groupMatcherInstallRemoves("PreToolUse", { matcher: ".*", hooks: [] }), false);
  assert.equal(groupMatcherInstallRemoves("Stop", { matcher: "Bash", hooks: [] }), false);
  assert.equal(groupMatcherInstallRemoves("Stop", { matcher: 5, hooks: [] }), true);
  assert.equal(
    removedBecause("async", "Stop", true),
    "Claude Code ran the hook in the background and did not use its answer",
  );
  assert.equal(removedBecause("matcher", "PreToolUse", "Bash"), "it hid the other tools' calls from the hook");
  assert.equal(removedBecause("matcher", "Stop", 5), "Claude Code skipped the group for it (not a string)");
  assert.equal(removedBecause("if", "Stop", "Bash"), 'on Stop a handler with "if" never runs');
});
