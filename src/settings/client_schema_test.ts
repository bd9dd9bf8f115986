/**
 * Each shape measured with the real Claude Code 2.1.328 (`claude -p` against the loopback mock, a marker handler
 * that appends to a file; docs/doctor.md, "What Claude Code skips"): whether the client ran a handler of that shape.
 * The table is the measurement; the assertions keep client_schema.ts to it.
 */
import assert from "node:assert/strict";
import { groupProblem, guardEntryProblem, handlerProblems, neverRuns, topLevelProblem } from "./client_schema.ts";

const ours = { type: "command", command: "/b/cliffhanger-bin", args: ["hook", "stop"], timeout: 60 };
const without = (key: string) => Object.fromEntries(Object.entries(ours).filter(([k]) => k !== key));

/** [what, the handler, whether 2.1.328 ran it under Stop]. */
const HANDLERS: [string, unknown, boolean][] = [
  ["as install writes it", ours, true],
  ["timeout a string", { ...ours, timeout: "60" }, false],
  ["timeout a numeric string", { ...ours, timeout: "1e2" }, false],
  ["timeout 0", { ...ours, timeout: 0 }, false],
  ["timeout negative", { ...ours, timeout: -1 }, false],
  ["timeout null", { ...ours, timeout: null }, false],
  ["timeout a fraction", { ...ours, timeout: 1.5 }, true],
  ["timeout huge", { ...ours, timeout: 100000000 }, true],
  ["no type", without("type"), false],
  ['type "cmd"', { ...ours, type: "cmd" }, false],
  ['type "Command"', { ...ours, type: "Command" }, false],
  ['type "http" (no url)', { ...ours, type: "http" }, false],
  ['async "no"', { ...ours, async: "no" }, false],
  ["async false", { ...ours, async: false }, true],
  ['asyncRewake "x"', { ...ours, asyncRewake: "x" }, false],
  ["args with a number", { ...ours, args: ["hook", 1] }, false],
  ["args a string", { ...ours, args: "hook stop" }, false],
  ["args null", { ...ours, args: null }, false],
  ["statusMessage a number", { ...ours, statusMessage: 5 }, false],
  ["statusMessage a string", { ...ours, statusMessage: "checking" }, true],
  ['once "yes"', { ...ours, once: "yes" }, false],
  ["once true", { ...ours, once: true }, true],
  ["if a number", { ...ours, if: 5 }, false],
  ['shell "zsh"', { ...ours, shell: "zsh" }, false],
  ['shell "bash"', { ...ours, shell: "bash" }, true],
  ['shell "powershell"', { ...ours, shell: "powershell" }, true],
  ["an unknown field", { ...ours, foo: 1 }, true],
  ["another type's field (url, prompt, headers, continueOnBlock, model)", {
    ...ours,
    url: "http://x",
    prompt: "x",
    headers: "x",
    continueOnBlock: "x",
    model: 5,
  }, true],
  ["a bare string", "/b/cliffhanger-bin hook stop", false],
  ["null", null, false],
  ["a list", [], false],
  ["a number", 5, false],
];

Deno.test("handlerProblems(): a handler loads exactly when 2.1.328 ran it", () => {
  for (const [what, handler, ran] of HANDLERS) {
    assert.equal(handlerProblems(handler).length === 0, ran, `${what}: ${JSON.stringify(handlerProblems(handler))}`);
  }
});

Deno.test("handlerProblems(): each problem names the field, the value and what it must be", () => {
  assert.deepEqual(handlerProblems({ ...ours, timeout: "60" }), [
    { field: "timeout", problem: '"timeout" is "60", not a positive number' },
  ]);
  assert.deepEqual(handlerProblems(without("type")), [{ field: "type", problem: 'has no "type"' }]);
  assert.deepEqual(handlerProblems({ ...ours, type: "cmd" }), [
    { field: "type", problem: '"type" is "cmd", not one of command, prompt, agent, http, mcp_tool' },
  ]);
  assert.deepEqual(handlerProblems({ ...ours, async: "no", shell: "zsh" }), [
    { field: "shell", problem: '"shell" is "zsh", not "bash" or "powershell"' },
    { field: "async", problem: '"async" is "no", not true or false' },
  ]);
  assert.deepEqual(handlerProblems({ type: "command" }), [{ field: "command", problem: 'has no "command"' }]);
  assert.deepEqual(handlerProblems("true"), [{ field: null, problem: 'is "true", not an object' }]);
  // the other types have their own fields
  assert.deepEqual(handlerProblems({ type: "http", url: "https://example.com/hook" }), []);
  assert.deepEqual(handlerProblems({ type: "http", url: "not a url" }), [
    { field: "url", problem: '"url" is "not a url", not a URL' },
  ]);
  assert.deepEqual(handlerProblems({ type: "mcp_tool", server: "s", tool: "t", input: { a: 1 } }), []);
  assert.deepEqual(handlerProblems({ type: "prompt", prompt: "p", continueOnBlock: true }), []);
  assert.deepEqual(handlerProblems({ type: "agent" }), [{ field: "prompt", problem: 'has no "prompt"' }]);
});

Deno.test("groupProblem(): a matcher that is not a string, or hooks that are not a list, drop the group", () => {
  // measured: each of these groups, with our handler in it, ran nothing; "" and an unknown key are fine
  assert.deepEqual(groupProblem({ matcher: 5, hooks: [ours] }), {
    field: "matcher",
    problem: '"matcher" is 5, not a string',
  });
  assert.equal(groupProblem({ matcher: null, hooks: [ours] })?.field, "matcher");
  assert.equal(groupProblem({ matcher: ["Bash"], hooks: [ours] })?.field, "matcher");
  assert.equal(groupProblem({ hooks: {} })?.problem, '"hooks" is {}, not a list');
  assert.equal(groupProblem({ matcher: "x" })?.problem, 'has no "hooks"');
  assert.equal(groupProblem("x")?.problem, 'is "x", not an object');
  assert.equal(groupProblem({ matcher: "", hooks: [ours] }), null);
  assert.equal(groupProblem({ foo: 1, hooks: [ours] }), null);
  assert.equal(groupProblem({ hooks: [] }), null);
});

Deno.test("neverRuns(): an if on Stop or UserPromptSubmit never runs; on PreToolUse it is evaluated", () => {
  // measured: a string `if` on Stop and on UserPromptSubmit, the handler never ran
  assert.equal(
    neverRuns("Stop", { ...ours, if: "Bash(x)" })?.problem,
    '"if" is set, and on Stop a handler with "if" never runs',
  );
  assert.equal(neverRuns("UserPromptSubmit", { ...ours, if: "Bash(x)" })?.field, "if");
  assert.equal(neverRuns("PreToolUse", { ...ours, if: "Bash(x)" }), null);
  assert.equal(neverRuns("Stop", ours), null);
});

Deno.test("guardEntryProblem(): one entry under PreToolUse or PermissionRequest that does not load, anyone's", () => {
  const other = { type: "command", command: "true" };
  // measured: each made 2.1.328 run no hook of the file at all (Stop and UserPromptSubmit included)
  assert.deepEqual(guardEntryProblem({ PreToolUse: [{ hooks: [other] }, { hooks: [{ ...other, timeout: "60" }] }] }), {
    event: "PreToolUse",
    key: "hooks.PreToolUse[1].hooks[0]",
    problems: [{ field: "timeout", problem: '"timeout" is "60", not a positive number' }],
  });
  assert.equal(guardEntryProblem({ PreToolUse: [{ hooks: ["true"] }] })?.key, "hooks.PreToolUse[0].hooks[0]");
  assert.equal(guardEntryProblem({ PreToolUse: [{ matcher: 5, hooks: [other] }] })?.key, "hooks.PreToolUse[0]");
  assert.equal(guardEntryProblem({ PermissionRequest: [{ hooks: [{ command: "x" }] }] })?.event, "PermissionRequest");
  assert.equal(guardEntryProblem({ PreToolUse: {} })?.key, "hooks.PreToolUse");
  // measured: the same entries under Stop lose only themselves (our handler beside them ran): not a guard problem
  assert.equal(guardEntryProblem({ Stop: [{ hooks: [{ ...other, timeout: "60" }, "true"] }] }), null);
  assert.equal(guardEntryProblem({ PreToolUse: [{ matcher: "Bash", hooks: [other] }] }), null);
  assert.equal(guardEntryProblem(undefined), null);
});

Deno.test("topLevelProblem(): disableAllHooks that is not true or false makes the whole file ignored", () => {
  // measured: "true", "false", 1 and null each made the file's hooks not run (a project's "yes" left the user's running)
  for (const value of ["true", "false", 1, null]) {
    assert.equal(topLevelProblem({ disableAllHooks: value })?.field, "disableAllHooks", JSON.stringify(value));
  }
  assert.equal(topLevelProblem({ disableAllHooks: "yes" })?.problem, '"disableAllHooks" is "yes", not true or false');
  assert.equal(topLevelProblem({ disableAllHooks: true }), null);
  assert.equal(topLevelProblem({ disableAllHooks: false }), null);
  assert.equal(topLevelProblem({}), null);
});
