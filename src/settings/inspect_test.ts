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
