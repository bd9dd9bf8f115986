/**
 * Each shape measured with the real Claude Code 2.1.328 (`claude -p` against the loopback mock, a marker handler
 * that appends to a file; docs/doctor.md, "What Claude Code skips"): whether the client ran a handler of that shape.
 * The table is the measurement; the assertions keep client_schema.ts to it.
 */
import assert from "node:assert/strict";
import {
  groupProblem,
  guardEntryProblem,
  handlerProblems,
  neverRuns,
  TOP_LEVEL_CHECKED,
  topLevelProblem,
} from "./client_schema.ts";

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

/**
 * [a top-level key and its value, whether 2.1.328 ignored the whole user settings file for it]: measured with
 * e2e/skipped_real_client_test.ts's setup (our install, the key added by hand, a recorder in the project's settings,
 * one offer our Stop hook blocks): ignored means the recorder saw the Stop and ours logged nothing.
 */
const TOP_LEVEL: [string, unknown, boolean][] = [
  ["fooBar", 5, false],
  ["$schema", 5, true],
  ["apiKeyHelper", true, true],
  ["awsCredentialExport", 5, true],
  ["awsAuthRefresh", 1, true],
  ["gcpAuthRefresh", 5, true],
  ["otelHeadersHelper", 5, true],
  ["model", 5, true],
  ["model", null, true],
  ["outputStyle", 5, true],
  ["language", [], true],
  ["agent", 5, true],
  ["plansDirectory", 1, true],
  ["fallbackModel", "x", true],
  ["availableModels", "x", true],
  ["availableModels", [5], true],
  ["companyAnnouncements", "hi", true],
  ["companyAnnouncements", [5], true],
  ["claudeMdExcludes", "x", true],
  ["enabledMcpjsonServers", "two words", true],
  ["enabledMcpjsonServers", [5], true],
  ["enabledMcpjsonServers", "srv", false], // read as ["srv"]
  ["disabledMcpjsonServers", "two words", true],
  ["disabledMcpjsonServers", "srv", false],
  ["cleanupPeriodDays", "30", true],
  ["cleanupPeriodDays", 1.5, true],
  ["cleanupPeriodDays", 0, true],
  ["cleanupPeriodDays", 30, false],
  ["autoUpdatesChannel", "beta", true],
  ["autoUpdatesChannel", "stable", false],
  ["defaultShell", "zsh", true],
  ["defaultShell", "bash", false],
  ["disableAllHooks", "true", true],
  ["disableAllHooks", null, true],
  ["allowManagedHooksOnly", "yes", true],
  ["allowManagedHooksOnly", null, false], // dropped before the file is read
  ["enableAllProjectMcpServers", "yes", true],
  ["enableAllProjectMcpServers", null, false],
  ["includeCoAuthoredBy", "yes", true],
  ["includeGitInstructions", 0, true],
  ["respectGitignore", 1, true],
  ["alwaysThinkingEnabled", null, true],
  ["alwaysThinkingEnabled", true, false],
  ["autoCompactEnabled", "yes", true],
  ["spinnerTipsEnabled", "no", true],
  ["verbose", "true", true],
  ["env", "x", true],
  ["env", [], true],
  ["env", null, true],
  ["env", { X: 5 }, false], // a value is read as text
  ["env", { X: null }, false],
  ["env", { X: {} }, false],
  ["enabledPlugins", [], true],
  ["enabledPlugins", { "a@b": "yes" }, true],
  ["enabledPlugins", { "a@b": null }, true],
  ["enabledPlugins", { "a@b": [5] }, true],
  ["enabledPlugins", { "a@b": ["x"] }, false],
  ["attribution", "x", true],
  ["attribution", true, false],
  ["attribution", {}, false],
  ["sandbox", "x", true],
  ["sandbox", {}, false],
  ["statusLine", "x", true],
  ["statusLine", { type: "command" }, true],
  ["statusLine", { type: "x", command: "true" }, true],
  ["statusLine", { type: "command", command: "true", padding: "x" }, true],
  ["statusLine", { type: "command", command: "true", hideVimModeIndicator: "yes" }, true],
  ["statusLine", { type: "command", command: "true", refreshInterval: "x" }, false], // falls back
  ["statusLine", { type: "command", command: "true", foo: 1 }, false],
  ["permissions", "x", true],
  ["permissions", [], true],
  ["permissions", null, true],
  ["permissions", { allow: "Bash" }, true],
  ["permissions", { deny: null }, true],
  ["permissions", { ask: {} }, true],
  ["permissions", { allow: [5] }, false], // the entry is dropped alone
  ["permissions", { allow: ["Bash("] }, false],
  ["permissions", { defaultMode: "bogus" }, true],
  ["permissions", { defaultMode: 5 }, true],
  ["permissions", { defaultMode: "manual" }, false],
  ["permissions", { additionalDirectories: "/tmp" }, true],
  ["permissions", { additionalDirectories: [5] }, true],
  ["permissions", { disableBypassPermissionsMode: true }, true],
  ["permissions", { disableAutoMode: "x" }, true],
  ["permissions", { denyInsteadOfPrompting: "yes" }, true],
  ["permissions", { denyInsteadOfPrompting: null }, true],
  ["permissions", { blockWritesOutsideWorkingDirectories: "yes" }, true],
  ["permissions", { foo: 1 }, false],
  // keys it falls back from, or drops alone with a warning: not listed
  ["viewMode", 5, false],
  ["effortLevel", "extreme", false],
  ["theme", 5, false],
  ["forceLoginMethod", 5, false],
  ["teammateMode", 5, false],
  ["remoteControl", "x", false],
  ["modelPricing", "x", false],
  ["extraKnownMarketplaces", "x", false],
  ["allowedMcpServers", "x", false],
  ["deniedModels", "x", false],
];

/** Measured to make the file ignored too, but inside `sandbox` and `attribution` only their type is checked. */
const NOT_MODELLED: [string, unknown][] = [
  ["sandbox", { enabled: "yes" }],
  ["attribution", { commit: 5 }],
];

Deno.test("topLevelProblem(): a top-level key makes the whole file ignored exactly when 2.1.328 ignored it", () => {
  for (const [key, value, ignored] of TOP_LEVEL) {
    const problem = topLevelProblem({ [key]: value });
    assert.equal(problem !== null, ignored, `${key}: ${JSON.stringify(value)}: ${JSON.stringify(problem)}`);
  }
  for (const [key, value] of NOT_MODELLED) assert.equal(topLevelProblem({ [key]: value }), null, key);
});

/** For each key checked: a value that does not fit, and one that does. */
const EXAMPLES: Record<string, [unknown, unknown]> = {
  $schema: [5, "https://json.schemastore.org/claude-code-settings.json"],
  apiKeyHelper: [true, "/bin/key.sh"],
  awsCredentialExport: [5, "/bin/aws.sh"],
  awsAuthRefresh: [1, "aws sso login"],
  gcpAuthRefresh: [5, "gcloud auth application-default login"],
  otelHeadersHelper: [5, "/bin/otel.sh"],
  model: [5, "opus"],
  outputStyle: [5, "Explanatory"],
  language: [[], "french"],
  agent: [5, "reviewer"],
  plansDirectory: [1, "./plans"],
  fallbackModel: ["x", ["sonnet"]],
  availableModels: ["x", ["opus", "sonnet"]],
  companyAnnouncements: ["hi", ["hi"]],
  claudeMdExcludes: ["x", ["**/vendor/CLAUDE.md"]],
  enabledMcpjsonServers: ["two words", "srv"],
  disabledMcpjsonServers: [[5], ["srv"]],
  cleanupPeriodDays: ["30", 30],
  autoUpdatesChannel: ["beta", "stable"],
  defaultShell: ["zsh", "bash"],
  disableAllHooks: ["yes", false],
  allowManagedHooksOnly: ["yes", null],
  enableAllProjectMcpServers: ["yes", true],
  includeCoAuthoredBy: ["yes", false],
  includeGitInstructions: [0, true],
  respectGitignore: [1, true],
  alwaysThinkingEnabled: [null, true],
  autoCompactEnabled: ["yes", true],
  spinnerTipsEnabled: ["no", false],
  verbose: ["true", true],
  env: [5, { DEBUG: "1", PORT: 3000 }],
  enabledPlugins: [{ "a@b": "yes" }, { "a@b": true, "c@d": false, "e@f": ["1.x"] }],
  attribution: ["x", { commit: "" }],
  sandbox: ["x", { enabled: true }],
  statusLine: [{ type: "command" }, { type: "command", command: "~/.claude/status.sh", padding: 0 }],
  permissions: [{ allow: "Bash" }, {
    allow: ["Bash(git status)"],
    defaultMode: "plan",
    additionalDirectories: ["../x"],
  }],
};

Deno.test("topLevelProblem(): each key checked fails, named, for a value that does not fit, and passes one that does", () => {
  assert.deepEqual(Object.keys(EXAMPLES).sort(), [...TOP_LEVEL_CHECKED].sort());
  for (const [key, [wrong, right]] of Object.entries(EXAMPLES)) {
    const problem = topLevelProblem({ [key]: wrong });
    assert.ok(problem !== null && (problem.field === key || problem.field?.startsWith(`${key}.`)), key);
    assert.ok(problem.problem.startsWith(`"${problem.field}" `), problem.problem);
    assert.equal(topLevelProblem({ [key]: right }), null, key);
  }
  const everyRight = Object.fromEntries(Object.entries(EXAMPLES).map(([key, [, right]]) => [key, right]));
  assert.equal(topLevelProblem({ ...everyRight, fooBar: 5, hooks: "x" }), null);
});

Deno.test("topLevelProblem(): the problem names the key, the value and what it must be; the file's first such key", () => {
  assert.deepEqual(topLevelProblem({ model: 5 }), { field: "model", problem: '"model" is 5, not a string' });
  assert.equal(topLevelProblem({ disableAllHooks: "yes" })?.problem, '"disableAllHooks" is "yes", not true or false');
  assert.equal(
    topLevelProblem({ cleanupPeriodDays: "30" })?.problem,
    '"cleanupPeriodDays" is "30", not a whole number over 0',
  );
  assert.deepEqual(topLevelProblem({ permissions: { allow: "Bash" } }), {
    field: "permissions.allow",
    problem: '"permissions.allow" is "Bash", not a list',
  });
  assert.deepEqual(topLevelProblem({ statusLine: { type: "command" } }), {
    field: "statusLine",
    problem: '"statusLine" has no "command"',
  });
  assert.equal(topLevelProblem({ permissions: "x" })?.problem, '"permissions" is "x", not an object');
  assert.equal(topLevelProblem({ verbose: "yes", model: 5 })?.field, "verbose");
  assert.equal(topLevelProblem({ model: 5, verbose: "yes" })?.field, "model");
  assert.equal(topLevelProblem({}), null);
  assert.equal(topLevelProblem([]), null);
  // only: the keys checked in a managed settings file or a plugin's hook file
  assert.equal(
    topLevelProblem({ model: 5, disableAllHooks: 1 }, { only: ["disableAllHooks"] })?.field,
    "disableAllHooks",
  );
  assert.equal(topLevelProblem({ model: 5 }, { only: ["disableAllHooks"] }), null);
});

Deno.test("docs/doctor.md names every top-level key topLevelProblem checks", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/doctor.md", import.meta.url));
  const section = doc.split("## What Claude Code skips")[1]?.split("\n## ")[0] ?? "";
  for (const key of TOP_LEVEL_CHECKED) assert.ok(section.includes(`\`${key}\``), `${key} is not in the section`);
});
