/** installHooks()/uninstallHooks() with hook selections (`--events stop,prompt,pretool`). */
import assert from "node:assert/strict";
import { installHooks, uninstallHooks } from "./edit.ts";
import { type HookCommand, type HookSubcommand, selectRegistrations } from "./hook_command.ts";
import { inspectSettingsText } from "./inspect.ts";
import { BINARY } from "../testing/settings_support.ts";

function install(text: string, hooks: HookSubcommand[], command: HookCommand = BINARY, subagent = true) {
  return installHooks(text, { command, registrations: selectRegistrations({ hooks, subagent }) });
}

function handler(hook: string, timeout: number) {
  return { type: "command", command: "/opt/bin/cliffhanger-bin", args: ["hook", hook], timeout };
}

const ALL: HookSubcommand[] = ["stop", "prompt", "pretool"];

Deno.test("installHooks() registers prompt and pretool without a matcher", () => {
  const result = install("", ALL);
  assert.deepEqual(result.events, ["Stop", "SubagentStop", "UserPromptSubmit", "PreToolUse"]);
  assert.deepEqual(JSON.parse(result.newText), {
    hooks: {
      Stop: [{ hooks: [handler("stop", 60)] }],
      SubagentStop: [{ hooks: [handler("stop", 60)] }],
      UserPromptSubmit: [{ hooks: [handler("prompt", 15)] }],
      // Every tool: the guard records unguarded calls too (an Edit between two test runs breaks a streak).
      PreToolUse: [{ hooks: [handler("pretool", 15)] }],
    },
  });
  const twice = install(result.newText, ALL);
  assert.deepEqual([twice.changed, twice.newText], [false, result.newText]);
});

Deno.test("installHooks() for prompt adds to a stop install and leaves its text alone", () => {
  const stop = install('{\n  "model": "opus" // pinned\n}\n', ["stop"]).newText;
  const withPrompt = install(stop, ["prompt"]);
  assert.equal(withPrompt.changed, true);
  assert.deepEqual(withPrompt.events, ["UserPromptSubmit"]);
  // Every line of the stop install is still there, in order; the new group is appended after SubagentStop.
  const cut = stop.lastIndexOf("]");
  assert.ok(withPrompt.newText.startsWith(stop.slice(0, cut + 1) + ",\n"), withPrompt.newText);
  assert.ok(withPrompt.newText.startsWith('{\n  "model": "opus", // pinned\n  "hooks": {\n    "Stop": [\n'));
  assert.deepEqual(inspectSettingsText(withPrompt.newText).events, ["Stop", "SubagentStop", "UserPromptSubmit"]);
  // And the other way round: installing stop again (or pretool) keeps the prompt handler.
  assert.equal(install(withPrompt.newText, ["stop"]).changed, false);
  assert.equal(install(withPrompt.newText, ["prompt"]).changed, false);
  const withPretool = install(withPrompt.newText, ["pretool"]).newText;
  assert.deepEqual(inspectSettingsText(withPretool).events, ["Stop", "SubagentStop", "UserPromptSubmit", "PreToolUse"]);
  assert.equal(install(withPretool, ALL).changed, false);
});

Deno.test("installHooks() --no-subagent on stop leaves the other hooks alone", () => {
  const all = install("", ALL).newText;
  const result = install(all, ["stop"], BINARY, false);
  assert.deepEqual(result.events, ["Stop"]);
  assert.deepEqual(inspectSettingsText(result.newText).events, ["Stop", "UserPromptSubmit", "PreToolUse"]);
});

Deno.test("installHooks() updates a moved binary only for the hooks it is asked about", () => {
  const old: HookCommand = { command: "/old/cliffhanger-bin", prefixArgs: [] };
  const before = install("", ALL, old).newText;
  const result = install(before, ["pretool"]);
  assert.equal(
    result.newText,
    before.replace(
      /"command": "\/old\/cliffhanger-bin",(\s*"args": \["hook", "pretool"\])/,
      '"command": "/opt/bin/cliffhanger-bin",$1',
    ),
  );
  const handlers = inspectSettingsText(result.newText).handlers;
  assert.deepEqual(handlers.map((h) => [h.hook, h.command]), [
    ["stop", "/old/cliffhanger-bin"],
    ["stop", "/old/cliffhanger-bin"],
    ["prompt", "/old/cliffhanger-bin"],
    ["pretool", "/opt/bin/cliffhanger-bin"],
  ]);
});

Deno.test("installHooks() removes a matcher put on our PreToolUse group: it hid the other tools' calls", () => {
  const installed = install("", ["pretool"]).newText;
  const before = installed.replace('{\n        "hooks"', '{\n        "matcher": "Bash|Edit",\n        "hooks"');
  assert.equal(JSON.parse(before).hooks.PreToolUse[0].matcher, "Bash|Edit");
  const again = install(before, ["pretool"]);
  assert.equal(again.newText, installed);
  assert.deepEqual(again.dropped, [{ event: "PreToolUse", field: "matcher", value: "Bash|Edit" }]);
  assert.equal(install(again.newText, ["pretool"]).changed, false);
  // one that lets every tool through is no narrower than ours: kept
  for (const every of ["*", "", ".*"]) {
    const wide = installed.replace(
      '{\n        "hooks"',
      `{\n        "matcher": ${JSON.stringify(every)},\n        "hooks"`,
    );
    assert.equal(install(wide, ["pretool"]).changed, false, every);
  }
  // installing other hooks leaves it (doctor names the fix: install --events pretool)
  assert.ok(install(before, ["stop"]).newText.includes('"matcher": "Bash|Edit"'));
});

Deno.test("installHooks() moves our handler out of a group whose matcher another tool's handler keeps", () => {
  const ours = handler("pretool", 15);
  const before = JSON.stringify(
    { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }, ours] }] } },
    null,
    2,
  );
  const result = install(before, ["pretool"]);
  assert.deepEqual(JSON.parse(result.newText).hooks.PreToolUse, [
    { matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] },
    { hooks: [ours] },
  ]);
  assert.deepEqual(result.dropped, [{ event: "PreToolUse", field: "matcher", value: "Bash", moved: true }]);
  assert.deepEqual(inspectSettingsText(result.newText).handlers.map((h) => h.limits), [undefined]);
  assert.equal(install(result.newText, ["pretool"]).changed, false);
});

Deno.test("installHooks() removes async, asyncRewake and if from our handlers, and keeps a SubagentStop matcher", () => {
  const installed = install("", ALL).newText;
  const doc = JSON.parse(installed);
  doc.hooks.Stop[0].hooks[0].async = true;
  doc.hooks.Stop[0].matcher = "Bash"; // Stop reads no matcher: left as it is
  doc.hooks.SubagentStop[0].matcher = "Explore"; // the subagents to guard: the user's choice, kept
  doc.hooks.SubagentStop[0].hooks[0].asyncRewake = true;
  doc.hooks.UserPromptSubmit[0].hooks[0].async = "no";
  doc.hooks.PreToolUse[0].hooks[0].if = "Bash(npm test)";
  doc.hooks.PreToolUse[0].hooks[0].statusMessage = "guarding";
  const result = install(JSON.stringify(doc, null, 2), ALL);
  assert.deepEqual(result.dropped, [
    { event: "Stop", field: "async", value: true },
    { event: "SubagentStop", field: "asyncRewake", value: true },
    { event: "UserPromptSubmit", field: "async", value: "no" },
    { event: "PreToolUse", field: "if", value: "Bash(npm test)" },
  ]);
  const fixed = JSON.parse(installed);
  fixed.hooks.Stop[0].matcher = "Bash";
  fixed.hooks.SubagentStop[0].matcher = "Explore";
  fixed.hooks.PreToolUse[0].hooks[0].statusMessage = "guarding";
  assert.deepEqual(JSON.parse(result.newText), fixed);
  assert.deepEqual(inspectSettingsText(result.newText).handlers.filter((h) => h.limits !== undefined), []);
  // "async": false changes nothing: kept
  const keptFalse = install(JSON.stringify(fixed).replace('"timeout":60}', '"timeout":60,"async":false}'), ALL);
  assert.equal(keptFalse.changed, false);
});

Deno.test("installHooks() adds our PreToolUse group beside the user's own, with tabs and comments kept", () => {
  const before = '{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "Bash", "hooks": [{"type": "command", ' +
    '"command": "guard.sh"}]} // mine\n\t\t]\n\t}\n}\n';
  const result = install(before, ["pretool"]);
  assert.ok(result.newText.includes('"command": "guard.sh"}]}, // mine\n'), result.newText);
  assert.ok(!/^ /m.test(result.newText), "indented with tabs only");
  const groups = JSON.parse(result.newText.replace(" // mine", "")).hooks.PreToolUse;
  assert.deepEqual(groups, [
    { matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] },
    { hooks: [handler("pretool", 15)] },
  ]);
  assert.equal(uninstallHooks(result.newText).newText, before);
});

Deno.test("installHooks() keeps CRLF and a one-line file's shape with every hook", () => {
  const crlf = install('{\r\n  "model": "opus"\r\n}\r\n', ALL).newText;
  assert.ok(!/[^\r]\n/.test(crlf), "every line break is CRLF");
  const oneLine = install('{"model": "opus"}', ["prompt"]).newText;
  assert.equal(
    oneLine,
    '{"model": "opus", "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", ' +
      '"command": "/opt/bin/cliffhanger-bin", "args": ["hook", "prompt"], "timeout": 15}]}]}}',
  );
});

Deno.test("installHooks() for one hook does not count another hook's handler in the same event as ours", () => {
  // A `hook stop` handler misplaced under PreToolUse is ours but not the pretool handler: it stays, and the
  // pretool handler gets its own group.
  const stray = '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/opt/bin/cliffhanger-bin", ' +
    '"args": ["hook", "stop"]}]}]}}';
  const result = install(stray, ["pretool"]);
  assert.deepEqual(inspectSettingsText(result.newText).handlers.map((h) => [h.event, h.hook]), [
    ["PreToolUse", "stop"],
    ["PreToolUse", "pretool"],
  ]);
});

Deno.test("installHooks() leaves one pretool handler when several are present", () => {
  const ours = '{"type": "command", "command": "/opt/bin/cliffhanger-bin", "args": ["hook", "pretool"], "timeout": 15}';
  const before = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [${ours}]}, {"hooks": [${ours}]}]}}`;
  const groups = JSON.parse(install(before, ["pretool"]).newText).hooks.PreToolUse;
  // the first copy is kept, and taken out from under its matcher
  assert.deepEqual(groups, [{ hooks: [JSON.parse(ours)] }]);
});

Deno.test("uninstallHooks() removes every hook of ours by default, or only the hooks named", () => {
  const theirs =
    '{\n  "hooks": {\n    "UserPromptSubmit": [\n      {"hooks": [{"type": "command", "command": "date"}]}\n' +
    "    ]\n  }\n}\n";
  const all = install(theirs, ALL).newText;
  const everything = uninstallHooks(all);
  assert.deepEqual(everything.events, ["UserPromptSubmit", "Stop", "SubagentStop", "PreToolUse"]);
  assert.equal(everything.newText, theirs);

  const noPrompt = uninstallHooks(all, { hooks: ["prompt"] });
  assert.deepEqual([noPrompt.changed, noPrompt.events], [true, ["UserPromptSubmit"]]);
  assert.deepEqual(inspectSettingsText(noPrompt.newText).events, ["Stop", "SubagentStop", "PreToolUse"]);
  assert.ok(noPrompt.newText.includes('"command": "date"'));
  assert.equal(uninstallHooks(noPrompt.newText, { hooks: ["prompt"] }).changed, false);

  const stopOnly = uninstallHooks(all, { hooks: ["prompt", "pretool"] });
  assert.deepEqual(inspectSettingsText(stopOnly.newText).events, ["Stop", "SubagentStop"]);
  assert.equal(stopOnly.newText, install(theirs, ["stop"]).newText);

  const keepSub = uninstallHooks(all, { hooks: ["stop"], keepEvents: ["SubagentStop"] });
  assert.deepEqual(keepSub.events, ["Stop"]);
  assert.deepEqual(inspectSettingsText(keepSub.newText).events, ["UserPromptSubmit", "SubagentStop", "PreToolUse"]);
});

Deno.test("uninstallHooks() undoes an install of every hook exactly, whatever the format", () => {
  const samples = [
    "{}",
    '{"model": "opus"}',
    '// c\n{\n    "model": "opus", // pinned\n    "env": {"A": "1",},\n}\n',
    '{\r\n  "hooks": {\r\n    "Notification": []\r\n  }\r\n}\r\n',
  ];
  for (const sample of samples) {
    for (const hooks of [ALL, ["prompt"], ["pretool"], ["prompt", "pretool"]] as HookSubcommand[][]) {
      const installed = install(sample, hooks);
      assert.equal(installed.changed, true);
      assert.equal(uninstallHooks(installed.newText).newText, sample, `${JSON.stringify(sample)} ${hooks}`);
      assert.equal(uninstallHooks(installed.newText, { hooks }).newText, sample);
    }
  }
  // An event list that was already there but empty is one our removal empties, so it goes too (as for Stop).
  const emptyList = '{"hooks": {"PreToolUse": []}, "model": "opus"}';
  assert.equal(uninstallHooks(install(emptyList, ["pretool"]).newText).newText, '{"model": "opus"}');
});
