import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../store/paths.ts";
import { envFrom } from "../env.ts";
import { MAX_SETTINGS_BYTES } from "./apply.ts";
import { installHooks } from "./edit.ts";
import { selectRegistrations } from "./hook_command.ts";
import { candidateSettingsFiles, inspectSettings, inspectSettingsText } from "./inspect.ts";
import { BINARY, tempHome } from "../testing/settings_support.ts";

Deno.test("candidateSettingsFiles() lists user, project and local settings", () => {
  const paths = homePaths(envFrom({ HOME: "/home/a" }));
  assert.deepEqual(candidateSettingsFiles(paths, "/work/repo"), [
    "/home/a/.claude/settings.json",
    "/work/repo/.claude/settings.json",
    "/work/repo/.claude/settings.local.json",
  ]);
});

Deno.test("inspectSettingsText() lists our handlers with their command", () => {
  const text = installHooks('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}', {
    command: BINARY,
    registrations: selectRegistrations(),
  }).newText;
  const report = inspectSettingsText(text);
  assert.equal(report.error, null);
  assert.deepEqual(report.events, ["Stop", "SubagentStop"]);
  assert.deepEqual(report.handlers[0], {
    event: "Stop",
    hook: "stop",
    command: "/opt/bin/cliffhanger-bin",
    args: ["hook", "stop"],
    timeout: 60,
    // the second group of Stop: the first holds someone else's handler
    timeoutKey: "hooks.Stop[1].hooks[0].timeout",
  });
  assert.deepEqual(inspectSettingsText(""), { error: null, events: [], handlers: [] });
  assert.deepEqual(inspectSettingsText('{"hooks": []}'), {
    error: '1:11: "hooks" must be an object, found array',
    events: [],
    handlers: [],
  });
});

Deno.test("inspectSettingsText() lists the prompt and pretool events and which hook each runs", () => {
  const text = installHooks("", {
    command: BINARY,
    registrations: selectRegistrations({ hooks: ["stop", "prompt", "pretool"] }),
  }).newText;
  const report = inspectSettingsText(text);
  assert.deepEqual(report.events, ["Stop", "SubagentStop", "UserPromptSubmit", "PreToolUse"]);
  assert.deepEqual(report.handlers.map((h) => [h.event, h.hook, h.timeout]), [
    ["Stop", "stop", 60],
    ["SubagentStop", "stop", 60],
    ["UserPromptSubmit", "prompt", 15],
    ["PreToolUse", "pretool", 15],
  ]);
});

Deno.test("inspectSettings() reports missing, broken and installed files without throwing", async () => {
  await using home = await tempHome();
  const installed = join(home.dir, "installed.json");
  const broken = join(home.dir, "broken.json");
  const missing = join(home.dir, "missing.json");
  const folder = join(home.dir, "folder.json");
  await Deno.writeTextFile(
    installed,
    installHooks("", { command: BINARY, registrations: selectRegistrations() }).newText,
  );
  await Deno.writeTextFile(broken, "{\n  nope\n}");
  await Deno.mkdir(folder);
  const [a, b, c, d] = await inspectSettings([installed, broken, missing, folder]);
  assert.deepEqual([a?.exists, a?.error, a?.events], [true, null, ["Stop", "SubagentStop"]]);
  assert.deepEqual([b?.exists, b?.error], [true, "2:3: invalid JSON: strings must be in double quotes: nope"]);
  assert.deepEqual([c?.path, c?.exists, c?.error, c?.handlers], [missing, false, null, []]);
  assert.equal(d?.exists, true);
  assert.match(d?.error ?? "", /^cannot read: /);
});

Deno.test("inspectSettings(): a settings file that cannot be read says what it is, and the fault its fix depends on", async () => {
  await using home = await tempHome();
  const folder = join(home.dir, "folder.json");
  const fifo = join(home.dir, "fifo.json");
  const linked = join(home.dir, "linked.json");
  const large = join(home.dir, "large.json");
  await Deno.mkdir(folder);
  assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
  await Deno.symlink(folder, linked);
  await Deno.writeTextFile(large, `{"x": "${"a".repeat(MAX_SETTINGS_BYTES)}"}`);
  const reports = await inspectSettings([folder, fifo, linked, large]);
  assert.deepEqual(reports.map((r) => [r.exists, r.readFault, r.error]), [
    [true, "folder", `cannot read: settings file "${folder}" is a folder, not a regular file; not read`],
    [true, "special", `cannot read: settings file "${fifo}" is a FIFO, not a regular file; not read`],
    [true, "folder", `cannot read: settings file "${linked}" is a link to a folder, not a regular file; not read`],
    [
      true,
      "too-large",
      `cannot read: settings file "${large}" is ${MAX_SETTINGS_BYTES + 9} bytes, over the ${MAX_SETTINGS_BYTES}-byte ` +
      "limit; not read",
    ],
  ]);
});

Deno.test("inspectSettings() reads a settings file as Claude Code does: a comment or trailing comma, no handler", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  const installed = installHooks("", { command: BINARY, registrations: selectRegistrations() }).newText;
  const jsonc = installed.replace("{\n", "{\n// my comment\n");
  await Deno.writeTextFile(path, jsonc);
  const [report] = await inspectSettings([path]);
  assert.deepEqual([report?.exists, report?.error, report?.events, report?.handlers], [
    true,
    "Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1",
    [],
    [],
  ]);
  // the text alone (a plugin's hook file) is read as JSONC, unless asked
  assert.deepEqual(inspectSettingsText(jsonc).events, ["Stop", "SubagentStop"]);
  assert.equal(inspectSettingsText(jsonc, { strict: true }).error, report?.error);
  // a file that does not parse says that first
  assert.match(inspectSettingsText("{\n// x\n nope }", { strict: true }).error ?? "", /^3:2: invalid JSON: /);
});

Deno.test({
  name: "inspectSettings(): a file outside the read scope is unknown (exists null), said in the tool's words",
  permissions: { read: false },
  fn: async () => {
    const [report] = await inspectSettings(["/outside/.claude/settings.json"]);
    assert.equal(report?.exists, null);
    assert.match(
      report?.error ?? "",
      /^cannot read: "\/outside\/\.claude\/settings\.json" is outside this binary's read scope \(rebuild for it: /,
    );
    assert.doesNotMatch(report?.error ?? "", /--allow-read/);
  },
});

Deno.test("inspectSettingsText(): hooks or an event given twice is reported as install refuses it; the last copy is read", () => {
  assert.deepEqual(inspectSettingsText('{"hooks":{"Stop":[]},"hooks":{}}'), {
    error: null,
    events: [],
    handlers: [],
    repeated: '1:22: "hooks" is given twice and only the last counts; merge them into one',
  });
  const ours = '{"type": "command", "command": "/b/cliffhanger-bin", "args": ["hook", "stop"]}';
  const twice = inspectSettingsText(`{"hooks": {"Stop": [], "Stop": [{"hooks": [${ours}]}]}}`);
  assert.deepEqual(twice.events, ["Stop"], "Claude Code reads the last copy");
  assert.equal(twice.repeated, '1:24: "hooks.Stop" is given twice and only the last counts; merge them into one');
  assert.equal(inspectSettingsText('{"model": "a", "model": "b", "hooks": {}}').repeated, undefined, "not ours to say");
});

Deno.test("inspectSettingsText(): a handler of ours Claude Code skips is not registered, and says why and what fixes it", () => {
  const installed = JSON.parse(installHooks("", { command: BINARY, registrations: selectRegistrations() }).newText);
  const broken = structuredClone(installed);
  broken.hooks.Stop[0].hooks[0].timeout = "60";
  broken.hooks.SubagentStop[0].matcher = 5;
  broken.hooks.SubagentStop[0].hooks[0].async = "no";
  const report = inspectSettingsText(JSON.stringify(broken));
  assert.deepEqual([report.events, report.handlers], [[], []]);
  assert.deepEqual(report.skipped, [
    {
      event: "Stop",
      hook: "stop",
      key: "hooks.Stop[0].hooks[0]",
      problem: '"timeout" is "60", not a positive number',
      byInstall: true,
      edits: [],
    },
    {
      event: "SubagentStop",
      hook: "stop",
      key: "hooks.SubagentStop[0].hooks[0]",
      problem: 'hooks.SubagentStop[0]: "matcher" is 5, not a string; "async" is "no", not true or false',
      // install takes our handler out from under the matcher and removes "async"
      byInstall: true,
      edits: [],
    },
  ]);
  // what install leaves is an edit by hand
  const shell = structuredClone(installed);
  shell.hooks.Stop[0].hooks[0].shell = "zsh";
  assert.deepEqual(inspectSettingsText(JSON.stringify(shell)).skipped, [{
    event: "Stop",
    hook: "stop",
    key: "hooks.Stop[0].hooks[0]",
    problem: '"shell" is "zsh", not "bash" or "powershell"',
    byInstall: false,
    edits: ['fix or remove "shell" in hooks.Stop[0].hooks[0]'],
  }]);
  // another tool's handler that does not load, beside ours under Stop: only it is skipped, ours runs
  const beside = structuredClone(installed);
  beside.hooks.Stop[0].hooks.push({ type: "command", command: "true", timeout: "60" }, "true");
  assert.deepEqual(inspectSettingsText(JSON.stringify(beside)).events, ["Stop", "SubagentStop"]);
});

Deno.test("inspectSettingsText(): install puts right each field it writes or removes, so the handler runs again", () => {
  const installed = installHooks("", {
    command: BINARY,
    registrations: selectRegistrations({ hooks: ["stop", "prompt"] }),
  });
  const shapes: Record<string, unknown>[] = [
    { timeout: "60" },
    { timeout: 0 },
    { timeout: -1 },
    { timeout: null },
    { type: "cmd" },
    { type: undefined },
    { type: "http" },
    // removed: a value Claude Code skips the handler for, or an "if" on an event that reads none
    { async: "no" },
    { asyncRewake: 1 },
    { if: "Bash(git *)" },
  ];
  for (const shape of shapes) {
    const doc = JSON.parse(installed.newText);
    Object.assign(doc.hooks.Stop[0].hooks[0], shape);
    Object.assign(doc.hooks.UserPromptSubmit[0].hooks[0], shape);
    const text = JSON.stringify(doc, null, 2);
    const before = inspectSettingsText(text);
    assert.deepEqual(before.skipped?.map((s) => [s.event, s.byInstall]), [["Stop", true], ["UserPromptSubmit", true]]);
    const again = installHooks(text, {
      command: BINARY,
      registrations: selectRegistrations({ hooks: ["stop", "prompt"] }),
    });
    const after = inspectSettingsText(again.newText);
    assert.equal(after.skipped, undefined, `${JSON.stringify(shape)}: ${again.newText}`);
    assert.deepEqual(after.events, ["Stop", "SubagentStop", "UserPromptSubmit"]);
  }
});

Deno.test("inspectSettingsText(): a handler of ours that runs with async, a narrower matcher or an if has its limits", () => {
  const installed = JSON.parse(
    installHooks("", { command: BINARY, registrations: selectRegistrations({ hooks: ["stop", "pretool"] }) }).newText,
  );
  assert.deepEqual(inspectSettingsText(JSON.stringify(installed)).handlers.map((h) => h.limits), [
    undefined,
    undefined,
    undefined,
  ]);
  const doc = structuredClone(installed);
  doc.hooks.Stop[0].hooks[0].async = true;
  doc.hooks.PreToolUse[0].matcher = "Bash";
  const report = inspectSettingsText(JSON.stringify(doc));
  // they run: still registered
  assert.deepEqual(report.events, ["Stop", "SubagentStop", "PreToolUse"]);
  assert.deepEqual(report.handlers.map((h) => (h.limits ?? []).map((l) => [l.key, l.severity])), [
    [["hooks.Stop[0].hooks[0].async", "fail"]],
    [],
    [["hooks.PreToolUse[0].matcher", "warn"]],
  ]);
});

Deno.test("inspectSettingsText(): a file Claude Code ignores whole registers nothing and enables no plugin", () => {
  const installed = JSON.parse(
    installHooks("", { command: BINARY, registrations: selectRegistrations({ hooks: ["stop", "pretool"] }) }).newText,
  );
  // another tool's PreToolUse handler that does not load
  const other = structuredClone(installed);
  other.enabledPlugins = { "a@m": true };
  other.hooks.PreToolUse.push({ matcher: "Bash", hooks: [{ type: "command", command: "lint", timeout: "60" }] });
  const report = inspectSettingsText(JSON.stringify(other));
  assert.deepEqual([report.events, report.enabledPlugins], [[], undefined]);
  assert.deepEqual(report.ignored, {
    key: "hooks.PreToolUse[1].hooks[0]",
    problem: '"timeout" is "60", not a positive number',
    hook: null,
    byInstall: false,
  });
  assert.deepEqual(report.skipped?.map((s) => s.event), ["Stop", "SubagentStop", "PreToolUse"]);
  // our own PreToolUse handler: install puts it right
  const ours = structuredClone(installed);
  ours.hooks.PreToolUse[0].hooks[0].type = "cmd";
  assert.deepEqual(inspectSettingsText(JSON.stringify(ours)).ignored, {
    key: "hooks.PreToolUse[0].hooks[0]",
    problem: '"type" is "cmd", not "command"',
    hook: "pretool",
    byInstall: true,
  });
  // the matcher of our own PreToolUse group, alone in it: install takes it away
  const group = structuredClone(installed);
  group.hooks.PreToolUse[0].matcher = 5;
  assert.deepEqual(inspectSettingsText(JSON.stringify(group)).ignored, {
    key: "hooks.PreToolUse[0]",
    problem: '"matcher" is 5, not a string',
    hook: "pretool",
    byInstall: true,
  });
  const regrouped = installHooks(JSON.stringify(group), {
    command: BINARY,
    registrations: selectRegistrations({ hooks: ["stop", "pretool"] }),
  }).newText;
  assert.deepEqual(inspectSettingsText(regrouped).events, ["Stop", "SubagentStop", "PreToolUse"]);
  // with another tool's handler in that group, the group stays as it is: an edit by hand
  group.hooks.PreToolUse[0].hooks.push({ type: "command", command: "lint" });
  assert.equal(inspectSettingsText(JSON.stringify(group)).ignored?.byInstall, false);
  // disableAllHooks that is not true or false
  const off = inspectSettingsText(JSON.stringify({ ...installed, disableAllHooks: "yes" }));
  assert.equal(off.ignored?.key, "disableAllHooks");
  assert.equal(off.disableAllHooks, undefined);
  assert.equal(inspectSettingsText(JSON.stringify({ ...installed, disableAllHooks: true })).disableAllHooks, true);
  // another top-level key given a value that does not fit
  const model = inspectSettingsText(JSON.stringify({ ...installed, model: 5, enabledPlugins: { "a@m": true } }));
  assert.deepEqual([model.events, model.enabledPlugins], [[], undefined]);
  assert.deepEqual(model.ignored, {
    key: "model",
    problem: '"model" is 5, not a string',
    hook: null,
    byInstall: false,
  });
  assert.equal(
    inspectSettingsText(JSON.stringify({ ...installed, permissions: { allow: "Bash" } })).ignored?.key,
    "permissions.allow",
  );
});

Deno.test("inspectSettingsText(): in a managed settings or plugin hook file only disableAllHooks is checked", () => {
  const installed = JSON.parse(
    installHooks("", { command: BINARY, registrations: selectRegistrations({ hooks: ["stop"] }) }).newText,
  );
  const text = JSON.stringify({ ...installed, model: 5 });
  assert.equal(inspectSettingsText(text).ignored?.key, "model");
  for (const source of ["managed", "plugin"] as const) {
    assert.deepEqual(inspectSettingsText(text, { source }).events, ["Stop", "SubagentStop"], source);
    const off = JSON.stringify({ ...installed, model: 5, disableAllHooks: "yes" });
    assert.equal(inspectSettingsText(off, { source }).ignored?.key, "disableAllHooks", source);
  }
});
