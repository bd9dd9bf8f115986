import assert from "node:assert/strict";
import { installHooks } from "../settings/edit.ts";
import { type HookSubcommand, selectRegistrations } from "../settings/hook_command.ts";
import { inspectSettingsText, type SettingsFileReport } from "../settings/inspect.ts";
import {
  checkBinary,
  checkDuplicates,
  checkErrors,
  checkLoop,
  checkPrompt,
  checkPython,
  checkRecentDecisions,
  checkRegistered,
  checkSettingsParse,
  checkSwitches,
  checkTimeouts,
  exitCodeFor,
  renderChecks,
  type Switches,
} from "./checks.ts";

const file = (
  path: string,
  handlers: Array<[string, string, number | null]>,
  command = "/bin/cliffhanger-bin",
): SettingsFileReport => ({
  path,
  exists: true,
  error: null,
  events: [...new Set(handlers.map(([e]) => e))],
  handlers: handlers.map(([event, hook, timeout]) => ({ event, hook, command, args: ["hook", hook], timeout })),
});

Deno.test("timeouts: every event needs budget + 5 s; prompt over 30 s (or unset: 600 s) fails", () => {
  const fits = [["Stop", "stop", 60], ["UserPromptSubmit", "prompt", 15], ["PreToolUse", "pretool", 15]] as Array<
    [string, string, number]
  >;
  assert.equal(checkTimeouts([file("a", fits)], 10_000).status, "ok");
  assert.equal(checkTimeouts([file("a", [["UserPromptSubmit", "prompt", null]])], 10_000).status, "fail");
  assert.equal(checkTimeouts([file("a", [["SubagentStop", "stop", 9]])], 10_000).status, "fail");
  // a timeout equal to the budget is killed at the budget: no margin
  for (const [event, hook] of [["PreToolUse", "pretool"], ["UserPromptSubmit", "prompt"], ["Stop", "stop"]]) {
    const check = checkTimeouts([file("a", [[event!, hook!, 10]])], 10_000);
    assert.equal(check.status, "fail", event);
    assert.match(check.detail, new RegExp(`${event} timeout 10 s leaves less than 5 s`));
  }
  // a bigger configured budget needs bigger timeouts
  assert.equal(checkTimeouts([file("a", [["PreToolUse", "pretool", 15]])], 20_000).status, "fail");
  // nothing registered: no claim that timeouts fit
  const none = checkTimeouts([file("a", [])], 10_000);
  assert.equal(none.status, "ok");
  assert.match(none.detail, /^no handler registered to time/);
  assert.match(checkTimeouts([file("a", fits)], 10_000).detail, /^timeouts fit/);
});

Deno.test("duplicates: a doubled Stop is deduplicated (warn); a doubled prompt hook is broken", () => {
  // two commands that differ as text both run
  const stop = checkDuplicates([
    file("a", [["Stop", "stop", 60]]),
    file("b", [["Stop", "stop", 60]], "/other/cliffhanger-bin"),
  ]);
  assert.equal(stop.status, "warn");
  assert.match(stop.detail, /deduplicated/);
  assert.equal(
    checkDuplicates([
      file("a", [["UserPromptSubmit", "prompt", 10]]),
      file("b", [["UserPromptSubmit", "prompt", 10]], "/other/cliffhanger-bin"),
    ]).status,
    "fail",
  );
  // an identical handler (another timeout only) runs once: no double
  const same = checkDuplicates([
    file("a", [["UserPromptSubmit", "prompt", 10]]),
    file("b", [["UserPromptSubmit", "prompt", 15]]),
  ]);
  assert.equal(same.status, "ok");
  assert.equal(same.detail, "each event registered once");
  // nothing registered: no claim that each event is registered once
  assert.equal(checkDuplicates([file("a", [])]).detail, "no event registered, so none twice");
});

Deno.test("binary: missing, another binary than this one, on PATH by name", () => {
  const files = [file("a", [["Stop", "stop", 60]])];
  assert.equal(
    checkBinary({ files, self: "/bin/cliffhanger-bin", onPath: undefined, exists: () => false }).status,
    "fail",
  );
  assert.equal(
    checkBinary({ files, self: "/opt/cliffhanger-bin", onPath: undefined, exists: () => null }).status,
    "fail",
  );
  assert.equal(
    checkBinary({ files, self: "/bin/cliffhanger-bin", onPath: undefined, exists: () => true }).status,
    "ok",
  );
  const plugin = [file("a", [["Stop", "stop", 60]], "cliffhanger-bin")];
  assert.equal(checkBinary({ files: plugin, self: null, onPath: null, exists: () => true }).status, "fail");
  assert.equal(
    checkBinary({ files: plugin, self: null, onPath: "/bin/cliffhanger-bin", exists: () => true }).status,
    "ok",
  );
});

Deno.test("recent decisions and the exit code", () => {
  const now = new Date("2026-12-01T00:00:00Z");
  assert.equal(checkRecentDecisions("2026-11-30T10:00:00Z", now, true).status, "ok");
  assert.equal(checkRecentDecisions("2026-10-01T10:00:00Z", now, true).status, "warn");
  assert.equal(exitCodeFor([checkRecentDecisions(null, now, true)]), 0);
});

Deno.test("timeouts: the relay's warning, when there is one, is a failure with the same text", () => {
  const stop60 = [file("a", [["Stop", "stop", 60]])];
  assert.equal(checkTimeouts(stop60, 10_000, null).status, "ok", "no relay warning: 60 s fits the budget");
  const check = checkTimeouts(stop60, 10_000, "relay: the wait does not fit");
  assert.equal(check.status, "fail");
  assert.equal(check.detail, "relay: the wait does not fit");
});

/** Switches with nothing on: what the switches tests change one field of. */
const none: Switches = {
  offFile: null,
  stallOffFile: null,
  stallNoRetries: false,
  disableEnv: false,
  disableConfig: false,
  observe: false,
  observeBecause: null,
  heldBack: {},
  loopBypass: false,
};

Deno.test("switches: each switch that softens or stops the hooks is a warning that says what it does", () => {
  assert.equal(checkSwitches(none).status, "ok");
  const all = checkSwitches({
    offFile: "/h/off",
    stallOffFile: "/h/stall-off",
    stallNoRetries: true,
    disableEnv: true,
    disableConfig: true,
    observe: true,
    observeBecause: null,
    heldBack: {},
    loopBypass: true,
  });
  assert.equal(all.status, "warn");
  for (
    const said of [
      "CLIFFHANGER_DISABLE",
      "config disable",
      "/h/off exists",
      "stalls are not nudged",
      "stallMaxRetries is 0: silent tool stalls are never nudged",
      "observe mode",
      "anti-loop guard is off",
    ]
  ) {
    assert.ok(all.detail.includes(said), said);
  }
  assert.match(all.fix ?? "", /cliffhanger-bin on/);
  // a broken config's observe mode says why, and the fix is the config, not the end of an observe week
  const broken = checkSwitches({ ...none, observe: true, observeBecause: '"/h/config.jsonc" cannot be parsed' });
  assert.equal(broken.status, "warn");
  assert.match(
    broken.detail,
    /observe mode is on because "\/h\/config\.jsonc" cannot be parsed: decisions are logged/,
  );
  assert.match(broken.fix ?? "", /fix the config problem/);
  assert.doesNotMatch(broken.fix ?? "", /observe week/);
});

Deno.test("switches: what a bad value of a setting whose default is stricter holds back is a warning that says why", () => {
  const max = '"max" in "/h/config.jsonc" has a value it does not take';
  const held = checkSwitches({
    ...none,
    heldBack: { stop: max, terse: "CLIFFHANGER_NO_TERSE is set to a value it does not take" },
  });
  assert.equal(held.status, "warn");
  assert.equal(
    held.detail,
    `the stop hook decides and logs but blocks nothing because ${max}, until it is fixed; the prompt hook adds no ` +
      "length nudge because CLIFFHANGER_NO_TERSE is set to a value it does not take, until it is fixed",
  );
  assert.match(held.fix ?? "", /^fix the bad value the config check names/);
  // the whole config in observe mode: that reason is said, not the stop hook's again
  const whole = checkSwitches({
    ...none,
    observe: true,
    observeBecause: '"/h/config.jsonc" cannot be read',
    heldBack: { stop: max, stall: max },
  });
  assert.doesNotMatch(whole.detail, /the stop hook decides/);
  assert.match(whole.detail, /the stop hook sends no stall nudge because/);
});

Deno.test("errors: recent errors.log lines are a warning with the newest shown; none is ok", () => {
  assert.equal(checkErrors({ path: "/h/errors.log", recent: 0, newest: [], days: 7 }).status, "ok");
  const some = checkErrors({ path: "/h/errors.log", recent: 2, newest: ["a", "b"], days: 7 });
  assert.equal(some.status, "warn");
  assert.match(some.detail, /^2 lines in \/h\/errors\.log in the last 7 days; newest: a \| b$/);
});

Deno.test("renderChecks(): warnings are never summed up as all good", () => {
  const warn = { id: "x", status: "warn" as const, detail: "d", fix: null };
  const good = { id: "y", status: "ok" as const, detail: "d", fix: null };
  assert.match(renderChecks([good]), /\nall good\n$/);
  assert.match(renderChecks([good, warn]), /\nnothing broken, but 1 warning above/);
  assert.doesNotMatch(renderChecks([good, warn]), /all good/);
});

Deno.test("settings-parse: a file outside the read scope is 'cannot check', never counted as parsed", () => {
  const readable = file("/h/.claude/settings.json", [["Stop", "stop", 60]]);
  const outside = { ...file("/p/.claude/settings.json", []), error: 'cannot read: Requires read access to "/p"' };
  const check = checkSettingsParse([readable, outside]);
  assert.equal(check.status, "warn");
  assert.equal(
    check.detail,
    "cannot check: /p/.claude/settings.json is outside this binary's read scope; 1 settings file parses",
  );
  assert.match(check.fix ?? "", /^to check it, rebuild with /);
  const dup = checkDuplicates([readable, outside]);
  assert.equal(dup.status, "warn", "no 'registered once' claim over a file it could not read");
  assert.match(dup.detail, /^cannot check: 1 settings file is outside this binary's read scope; /);
});

Deno.test("settings-parse: a project's files outside the read scope are 'cannot check', not files that fail to parse", () => {
  // the compiled binary run in a project: the project's two files are outside its scope, the user's is not there
  const outside = (path: string) => ({ ...file(path, []), error: `cannot read: Requires read access to "${path}"` });
  const user = { ...file("/h/.claude/settings.json", []), exists: false };
  const files = [user, outside("/p/.claude/settings.json"), outside("/p/.claude/settings.local.json")];
  const check = checkSettingsParse(files);
  assert.equal(check.status, "warn");
  assert.equal(
    check.detail,
    "cannot check: /p/.claude/settings.json and /p/.claude/settings.local.json are outside this binary's read scope",
  );
  assert.doesNotMatch(check.detail, /\bparse/);
  assert.match(check.fix ?? "", /^to check them, rebuild with /, "two files");
  const dup = checkDuplicates(files);
  assert.match(dup.detail, /^cannot check: 2 settings files are outside this binary's read scope; /);
});

Deno.test("settings-parse, duplicates: the project's files outside the scope warn only when named (--project)", () => {
  // exists null: outside the read scope, whether the file is there is unknown
  const unknown = (path: string) => ({
    ...file(path, []),
    exists: null,
    error: `cannot read: "${path}" is outside this binary's read scope (rebuild for it: …)`,
  });
  const user = file("/h/.claude/settings.json", [["Stop", "stop", 60]]);
  const files = [user, unknown("/p/.claude/settings.json"), unknown("/p/.claude/settings.local.json")];
  const unseenProject = ["/p/.claude/settings.json", "/p/.claude/settings.local.json"];
  const bare = checkSettingsParse(files, { unseenProject });
  assert.equal(bare.status, "ok");
  assert.equal(
    bare.detail,
    "1 settings file parses; not looked at: /p/.claude/settings.json and /p/.claude/settings.local.json are outside " +
      "this binary's read scope (the project of the folder it runs in; `doctor --project DIR` says how to check one)",
  );
  assert.equal(checkDuplicates(files, unseenProject).status, "ok");
  // named: the user asked, so it is a warning
  const named = checkSettingsParse(files);
  assert.equal(named.status, "warn");
  assert.match(
    named.detail,
    /^cannot check: \/p\/\.claude\/settings\.json and \/p\/\.claude\/settings\.local\.json are /,
  );
  assert.equal(checkDuplicates(files).status, "warn");
});

Deno.test("settings-parse: hooks or an event given twice is a warning (install refuses it), with the merge as the fix", () => {
  const twice = {
    ...file("/h/.claude/settings.json", []),
    repeated: '1:22: "hooks" is given twice and only the last counts; merge them into one',
  };
  const check = checkSettingsParse([twice]);
  assert.equal(check.status, "warn");
  assert.equal(
    check.detail,
    '/h/.claude/settings.json: 1:22: "hooks" is given twice and only the last counts; merge them into one',
  );
  assert.equal(
    check.fix,
    "merge the copies into one: Claude Code reads only the last, and install and uninstall refuse the file until then",
  );
  // beside a file that fails, both are said
  const broken = { ...file("/p/.claude/settings.json", []), error: "1:3: invalid JSON: value expected" };
  const both = checkSettingsParse([twice, broken]);
  assert.equal(both.status, "fail");
  assert.match(both.detail, /value expected; \/h\/\.claude\/settings\.json: 1:22: "hooks" is given twice/);
  assert.match(both.fix ?? "", /; merge the copies into one/);
});

Deno.test("python: the Python cliffhanger still registered fails, with the replace command for its file", () => {
  assert.equal(checkPython([file("/h/s.json", [["Stop", "stop", 60]])]).status, "ok");
  const check = checkPython([{ ...file("/h/s.json", []), python: ["Stop", "SubagentStop"] }]);
  assert.equal(check.status, "fail");
  assert.match(check.detail, /\/h\/s\.json runs hooks\/cliffhanger\.py for Stop, SubagentStop/);
  assert.match(check.fix ?? "", /install --settings \/h\/s\.json --replace-python/);
  // ours already guards Stop from the user settings: installing over the project's Python guard would double it
  const both = checkPython([
    file("/h/user.json", [["Stop", "stop", 60]]),
    { ...file("/p/.claude/settings.json", []), python: ["Stop"] },
  ]);
  assert.match(both.fix ?? "", /^cliffhanger-bin uninstall --settings \/p\/\.claude\/settings\.json --replace-python/);
});

Deno.test("loop: a warning threshold at or over the block one, and a guard that watches nothing, are warnings", () => {
  const base = {
    bypass: false,
    tools: "Bash,Agent",
    maxRetries: 3,
    warnAt: 3,
    blockAt: 5,
    windowMin: 5,
    registered: true,
  };
  const fine = checkLoop(base);
  assert.equal(fine.status, "ok");
  assert.equal(
    fine.detail,
    "tools Bash,Agent; 3 identical calls allowed; cycles warned at 3, denied at 5; window 5 min",
  );
  const never = checkLoop({ ...base, warnAt: 5 });
  assert.equal(never.status, "warn");
  assert.match(never.detail, /the warning never shows/);
  assert.match(never.fix ?? "", /"loopWarn" \(or CLIFFHANGER_LOOP_WARN, which wins\) below "loopBlock" \(5\)/);
  assert.match(
    checkLoop({ ...base, tools: " , " }).detail,
    /tools none; .*: loopTools names no tool, so the guard watches nothing$/,
  );
  // the names as the hook reads them: trimmed, blank ones dropped, each once; `*` is every tool
  assert.match(checkLoop({ ...base, tools: " Bash , Task ,,Bash" }).detail, /^tools Bash,Task; /);
  assert.match(checkLoop({ ...base, tools: ["Read", "*"] }).detail, /^tools \* \(every tool\); /);
  // both problems at once, each with its fix
  const both = checkLoop({ ...base, tools: "", warnAt: 5 });
  assert.match(both.detail, /watches nothing; a cycle is denied before/);
  assert.match(both.fix ?? "", /"loopTools".*; set "loopWarn"/);
  assert.match(checkLoop({ ...base, registered: false }).detail, /^not registered \(install --events pretool\)/);
});

Deno.test("loop: a PreToolUse matcher that hides every guarded tool fails, one that hides some warns", () => {
  const base = {
    tools: "Bash,Agent",
    bypass: false,
    maxRetries: 3,
    warnAt: 3,
    blockAt: 5,
    windowMin: 5,
    registered: true,
  };
  const at = (...matchers: (string | null)[]) =>
    checkLoop({ ...base, matchers: matchers.map((m) => ({ path: "/h/s.json", matcher: m })) });
  assert.equal(at(null).status, "ok");
  assert.equal(at("Bash|Task").status, "ok", "Task is the subagent tool's old name");
  const none = at("Edit|Write");
  assert.equal(none.status, "fail");
  assert.match(
    none.detail,
    /: the PreToolUse matcher "Edit\|Write" on our handler lets none of the guarded tools through, so the guard sees no call it guards$/,
  );
  assert.equal(
    none.fix,
    "cliffhanger-bin install --settings /h/s.json --events pretool (it takes our handler out from under the matcher)",
  );
  const some = at("Bash");
  assert.equal(some.status, "warn");
  assert.match(some.detail, /lets no Agent call through, so the guard never sees Agent$/);
  // another copy of ours without a matcher sees them all
  assert.equal(at("Edit", null).status, "ok");
  // every tool guarded: the registered check says what a matcher hides
  assert.equal(checkLoop({ ...base, tools: "*", matchers: [{ path: "/h/s.json", matcher: "Edit" }] }).status, "ok");
  assert.match(
    checkLoop({ ...base, matchers: [{ path: "/p/hooks.json", plugin: "p@m", matcher: "Edit" }] }).fix ?? "",
    /^update or disable the plugin \(claude plugin disable p@m\)/,
  );
});

Deno.test("prompt: a bad zone, and a registered hook with everything off, are warnings", () => {
  const base = {
    clock: true,
    terse: true,
    quirks: true,
    shortMaxWords: 15,
    mediumMaxWords: 60,
    zone: "UTC",
    zoneProblem: null,
    registered: true,
  };
  assert.equal(checkPrompt(base).status, "ok");
  const zone = checkPrompt({ ...base, zoneProblem: 'Bad value for CLIFFHANGER_TZ: "Mars/Base"; using UTC' });
  assert.equal(zone.status, "warn");
  assert.match(zone.fix ?? "", /^set CLIFFHANGER_TZ to an IANA zone/);
  // a zone set in config.jsonc is fixed there
  const inFile = checkPrompt({
    ...base,
    zoneProblem: 'Bad value for "tz" in "/h/config.jsonc": "Mars/Base"; using UTC',
  });
  assert.match(inFile.fix ?? "", /^set "tz" in config\.jsonc to an IANA zone/);
  // the clock off: its zone does not matter
  assert.equal(checkPrompt({ ...base, clock: false, zoneProblem: "bad" }).status, "ok");
  const nothing = checkPrompt({ ...base, clock: false, terse: false, quirks: false });
  assert.match(
    nothing.fix ?? "",
    /unset CLIFFHANGER_NO_CLOCK, CLIFFHANGER_NO_TERSE, CLIFFHANGER_NO_QUIRKS, which win\), or cliffhanger-bin uninstall --events prompt/,
  );
  assert.match(nothing.fix ?? "", /uninstall --events prompt/);
  assert.equal(checkPrompt({ ...base, clock: false, terse: false, quirks: false, registered: false }).status, "ok");
});

Deno.test("prompt: a short band wider than the medium one is a warning, as a loop warning at its block is", () => {
  const base = {
    clock: true,
    terse: true,
    quirks: true,
    shortMaxWords: 15,
    mediumMaxWords: 60,
    zone: "UTC",
    zoneProblem: null,
    registered: true,
  };
  // equal bands are fine: a question up to 10 words is short, any other prompt up to 10 medium
  assert.equal(checkPrompt({ ...base, shortMaxWords: 10, mediumMaxWords: 10 }).status, "ok");
  const wide = checkPrompt({ ...base, shortMaxWords: 20, mediumMaxWords: 10 });
  assert.equal(wide.status, "warn");
  assert.match(
    wide.detail,
    /: terseShortMaxWords \(20\) is above terseMediumMaxWords \(10\): .* a question of 11 to 20 words gets none/,
  );
  assert.equal(
    wide.fix,
    'set "terseShortMaxWords" at or below "terseMediumMaxWords" (10) in config.jsonc, or raise "terseMediumMaxWords" ' +
      "to 20 or more",
  );
  // the length nudge off: its bands do not matter; a bad zone as well: both are said
  assert.equal(checkPrompt({ ...base, terse: false, shortMaxWords: 20, mediumMaxWords: 10 }).status, "ok");
  const both = checkPrompt({
    ...base,
    shortMaxWords: 20,
    mediumMaxWords: 10,
    zoneProblem: "Bad value for CLIFFHANGER_TZ: x",
  });
  assert.match(both.detail, /Bad value for CLIFFHANGER_TZ: x; terseShortMaxWords \(20\)/);
  assert.match(both.fix ?? "", /^set CLIFFHANGER_TZ .*; set "terseShortMaxWords"/);
});

Deno.test("binary: a shell-form handler is checked by its program, with ~ and $HOME expanded", () => {
  const shell = (command: string): SettingsFileReport => ({
    path: "s",
    exists: true,
    error: null,
    events: ["Stop"],
    handlers: [{ event: "Stop", hook: "stop", command, args: [], timeout: 60 }],
  });
  const seen: string[] = [];
  const exists = (p: string) => {
    seen.push(p);
    return p === "/h/.cliffhanger/bin/cliffhanger-bin";
  };
  const check = checkBinary({
    files: [shell("$HOME/.cliffhanger/bin/cliffhanger-bin hook stop")],
    self: "/h/.cliffhanger/bin/cliffhanger-bin",
    onPath: undefined,
    exists,
    home: "/h",
  });
  assert.equal(check.status, "ok", check.detail);
  assert.deepEqual(seen, ["/h/.cliffhanger/bin/cliffhanger-bin"]);
});

Deno.test("registered: a hook under an event it does not answer fails, naming both, with uninstall then install", () => {
  const right = file("/s.json", [["Stop", "stop", 60], ["SubagentStop", "stop", 60], ["PreToolUse", "pretool", 15]]);
  assert.equal(checkRegistered([right]).status, "ok");
  const wrong = file("/s.json", [["Stop", "prompt", 60], ["SubagentStop", "stop", 60], ["PostToolUse", "pretool", 15]]);
  const check = checkRegistered([wrong]);
  assert.equal(check.status, "fail");
  assert.match(check.detail, /Stop runs `hook prompt` \(in \/s\.json\), which answers only UserPromptSubmit/);
  assert.match(check.detail, /PostToolUse runs `hook pretool` \(in \/s\.json\), which answers only PreToolUse/);
  assert.doesNotMatch(check.detail, /SubagentStop runs/);
  assert.equal(
    check.fix,
    "cliffhanger-bin uninstall --settings /s.json, then cliffhanger-bin install --settings /s.json --events " +
      "stop,prompt,pretool (install alone keeps the misplaced handler)",
  );
});

Deno.test("timeouts: the fix lowers the budget to the shortest timeout or names each key to raise, never install", () => {
  const installed = file("/s.json", [["Stop", "stop", 60], ["UserPromptSubmit", "prompt", 15]]);
  installed.handlers[0]!.timeoutKey = "hooks.Stop[0].hooks[0].timeout";
  installed.handlers[1]!.timeoutKey = "hooks.UserPromptSubmit[0].hooks[0].timeout";
  const big = checkTimeouts([installed], 60_000);
  assert.equal(big.status, "fail");
  assert.doesNotMatch(big.fix ?? "", /install` again|run .*install/);
  assert.match(
    big.fix ?? "",
    /^lower budgetMs \(CLIFFHANGER_BUDGET_MS\) to 10000 or less, the shortest timeout \(15 s\)/,
  );
  assert.match(big.fix ?? "", /install cannot help, it writes fixed timeouts \(Stop 60 s, SubagentStop 60 s, /);
  // Stop can go up to 65 s by hand; UserPromptSubmit cannot (30 s at most), so it is not offered
  assert.match(big.fix ?? "", /or raise by hand "hooks\.Stop\[0\]\.hooks\[0\]\.timeout" in \/s\.json to 65 or more/);
  assert.doesNotMatch(big.fix ?? "", /raise by hand [^;]*UserPromptSubmit\[0\]/);
  assert.match(big.fix ?? "", /UserPromptSubmit's cannot go over 30 s/);
  // a UserPromptSubmit timeout over 30 s: its key, set to 30 or less
  const over = file("/s.json", [["UserPromptSubmit", "prompt", 120]]);
  over.handlers[0]!.timeoutKey = "hooks.UserPromptSubmit[0].hooks[0].timeout";
  assert.equal(
    checkTimeouts([over], 10_000).fix,
    'set "hooks.UserPromptSubmit[0].hooks[0].timeout" in /s.json to 30 or less',
  );
});

Deno.test("settings-parse: a file nested past our limit says that our limit is why, not that Claude Code ignores it", () => {
  const deep = {
    ...file("/h/.claude/settings.json", []),
    error: "1:261: arrays and objects nested deeper than 256 levels; not read",
  };
  const check = checkSettingsParse([deep]);
  assert.equal(check.status, "fail");
  assert.match(
    check.fix ?? "",
    /^flatten the arrays and objects at the position shown: cliffhanger-bin reads settings/,
  );
  const broken = { ...file("/h/.claude/settings.json", []), error: "1:3: invalid JSON: value expected" };
  assert.match(checkSettingsParse([broken]).fix ?? "", /Claude Code ignores a settings file it cannot parse/);
});

Deno.test("settings-parse: a settings file that cannot be read gets the fix for what it is, not a JSON fix", () => {
  const faulty = (readFault: SettingsFileReport["readFault"], error: string): SettingsFileReport => ({
    ...file("/h/.claude/settings.json", []),
    error,
    ...(readFault === undefined ? {} : { readFault }),
  });
  const fix = (f: SettingsFileReport) => {
    const check = checkSettingsParse([f]);
    assert.equal(check.status, "fail");
    assert.doesNotMatch(check.fix ?? "", /fix the JSON/);
    return check.fix ?? "";
  };
  const not = 'cannot read: settings file "/h/.claude/settings.json" is a FIFO, not a regular file; not read';
  assert.equal(
    fix(faulty("special", not)),
    "replace it with a regular file: rm /h/.claude/settings.json, then put your settings back into " +
      "/h/.claude/settings.json (install keeps a copy of each file it edits in the cliffhanger home's backups/ " +
      "folder), or run cliffhanger-bin install --settings /h/.claude/settings.json to write a new one with our hooks",
  );
  assert.match(
    fix(faulty("folder", not.replace("a FIFO", "a folder"))),
    /^move the folder away and put a regular file there: mv \/h\/\.claude\/settings\.json \/h\/\.claude\/settings\.json\.folder, then /,
  );
  assert.match(
    fix(faulty("too-large", 'cannot read: settings file "/h/.claude/settings.json" is 9999999 bytes, over …')),
    /^make \/h\/\.claude\/settings\.json smaller than 4194304 bytes/,
  );
  assert.equal(
    fix(faulty("denied", "cannot read: Permission denied (os error 13)")),
    "make it readable by you (chmod u+r /h/.claude/settings.json): Claude Code, which runs as you, cannot read it " +
      "either",
  );
});

Deno.test("settings-parse: a settings file with a comment or a trailing comma fails: Claude Code ignores it whole", () => {
  const jsonc = {
    ...file("/h/.claude/settings.json", []),
    error: "Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1, a trailing comma at 5:20",
  };
  const check = checkSettingsParse([jsonc, file("/p/.claude/settings.json", [])]);
  assert.equal(check.status, "fail");
  assert.equal(
    check.detail,
    "/h/.claude/settings.json: Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1, a trailing " +
      "comma at 5:20",
  );
  assert.equal(
    check.fix,
    "remove the comments and trailing commas at the positions shown (while one is there Claude Code ignores the " +
      "whole file, hooks included, and install refuses it)",
  );
  // beside a file that does not parse at all, each gets its fix
  const broken = { ...file("/p/.claude/settings.json", []), error: "1:3: invalid JSON: value expected" };
  const both = checkSettingsParse([jsonc, broken]).fix ?? "";
  assert.match(both, /^remove the comments and trailing commas .*; fix the JSON at the position shown/);
});

Deno.test("checkRegistered(): nothing registered anywhere it can see is a failure, not a warning: no hook runs", () => {
  const c = checkRegistered([]);
  assert.equal(c.status, "fail");
  assert.match(c.detail, /^no settings file or installed plugin it can read registers cliffhanger, so no hook runs/);
  assert.equal(c.fix, "cliffhanger-bin install (or load plugin/ as a Claude Code plugin)");
});

Deno.test("binary: a run under deno says what it could not check, and fails on what it can see is missing", () => {
  const files = [file("a", [["Stop", "stop", 60]])];
  const unread = checkBinary({ files, self: "/usr/local/bin/deno", onPath: undefined, exists: () => null });
  assert.equal(unread.status, "warn");
  assert.match(unread.detail, /cliffhanger-bin: cannot check, outside this run's read scope \(whether it exists is/);
  assert.match(unread.fix ?? "", /^check that `ls -l \/.*cliffhanger-bin` shows it \(else every hook it runs fails/);
  assert.match(unread.fix ?? "", /if one is gone, run `cliffhanger-bin install` again/);
  assert.deepEqual(unread.unverified, ["/bin/cliffhanger-bin"]);
  // the summary says it, never "nothing broken" alone
  assert.match(
    renderChecks([unread]),
    /\nnot verified: could not check \/\S+cliffhanger-bin \(binary\), which a hook runs;/,
  );
  assert.doesNotMatch(renderChecks([unread]), /\nnothing broken/);
  assert.equal(checkBinary({ files, self: "/usr/local/bin/deno", onPath: undefined, exists: () => true }).status, "ok");
  // the launcher this run's install writes is what it would register: that one is fine, another program is not
  const deno = { files, self: "/usr/local/bin/deno", onPath: undefined, exists: () => true } as const;
  assert.equal(checkBinary({ ...deno, ownLauncher: "/bin/cliffhanger-bin" }).status, "ok");
  const older = checkBinary({ ...deno, ownLauncher: "/h/.cliffhanger/bin/cliffhanger-bin" });
  assert.equal(older.status, "warn");
  assert.match(
    older.detail,
    /settings run \/bin\/cliffhanger-bin, not \/h\/\.cliffhanger\/bin\/cliffhanger-bin \(the launcher install writes from this run\): the hooks run another program than this one/,
  );
  assert.doesNotMatch(older.detail, /not compared/);
  assert.match(
    older.fix ?? "",
    /^run `cliffhanger-bin install` again to register the program you run here .*`\/bin\/cliffhanger-bin doctor`/,
  );
  // through a launcher: it is named as the one running now
  const through = checkBinary({
    ...deno,
    launcher: "/h/.cliffhanger/bin/cliffhanger-bin",
    ownLauncher: "/h/.cliffhanger/bin/cliffhanger-bin",
  });
  assert.equal(through.status, "warn");
  assert.match(through.detail, /not \/h\/\.cliffhanger\/bin\/cliffhanger-bin \(the launcher running now\)/);
  assert.equal(
    checkBinary({ files, self: "/usr/local/bin/deno", onPath: undefined, exists: () => false }).status,
    "fail",
  );
});

Deno.test("binary: the launcher running now is not compared; another registered program it cannot see is unverified", () => {
  const launcher = "/h/.cliffhanger/bin/cliffhanger-bin";
  const files = [file("/h/.claude/settings.json", [["Stop", "stop", 60]], launcher)];
  const old = file("/h/.claude/settings.json", [["Stop", "stop", 60]], "/opt/old/cliffhanger-bin");
  const exists = (p: string) => (p === launcher ? true : null);
  const self = "/usr/local/bin/deno";
  const running = checkBinary({ files, self, onPath: undefined, exists, launcher });
  assert.equal(running.status, "ok", running.detail);
  assert.match(running.detail, /cliffhanger-bin is the launcher running now/);
  const both = checkBinary({ files: [...files, old], self, onPath: undefined, exists, launcher });
  assert.equal(both.status, "warn");
  assert.deepEqual(both.unverified, ["/opt/old/cliffhanger-bin"]);
  assert.match(both.fix ?? "", /^check that `ls -l \/opt\/old\/cliffhanger-bin` shows it/);
});

Deno.test("renderChecks(): what could not be checked is named in the summary, with or without a failure", () => {
  const unverified = { id: "launcher", status: "warn" as const, detail: "d", fix: "f", unverified: ["/b/main.js"] };
  const warn = { id: "x", status: "warn" as const, detail: "d", fix: null };
  const fail = { id: "y", status: "fail" as const, detail: "d", fix: "f" };
  assert.match(
    renderChecks([unverified, warn]),
    /\nnot verified: could not check \/b\/main\.js \(launcher\), which a hook runs; nothing else found broken, but 2 warnings above: read them before you rely on it\n$/,
  );
  assert.match(renderChecks([fail, unverified]), /\n1 broken, 1 warning; not verified: could not check \/b\/main\.js/);
});

/** A settings file as inspect reads it, from install's text with `change` applied. */
function edited(path: string, hooks: HookSubcommand[], change: (doc: Settings) => void): SettingsFileReport {
  const doc = JSON.parse(
    installHooks("", { command: BIN, registrations: selectRegistrations({ hooks }) }).newText,
  ) as Settings;
  change(doc);
  return { path, exists: true, ...inspectSettingsText(JSON.stringify(doc)) };
}
type Settings =
  & { hooks: Record<string, { matcher?: unknown; hooks: Record<string, unknown>[] }[]> }
  & Record<
    string,
    unknown
  >;
const BIN = { command: "/bin/cliffhanger-bin", prefixArgs: [] };

Deno.test("registered: a handler of ours Claude Code skips fails when no copy of that event runs, with install as the fix", () => {
  const f = edited("/h/.claude/settings.json", ["stop"], (d) => void (d.hooks.Stop![0]!.hooks[0]!.timeout = "60"));
  const check = checkRegistered([f]);
  assert.equal(check.status, "fail");
  assert.equal(
    check.detail,
    'Claude Code skips our Stop handler in /h/.claude/settings.json (hooks.Stop[0].hooks[0]): "timeout" is "60", not ' +
      "a positive number; so no handler of ours runs for Stop; registered for SubagentStop in /h/.claude/settings.json",
  );
  assert.equal(check.fix, "cliffhanger-bin install --settings /h/.claude/settings.json --events stop");
  // without a SubagentStop handler of ours, install is told not to add one
  const alone = edited("/h/s.json", ["stop"], (d) => {
    delete d.hooks.SubagentStop;
    delete d.hooks.Stop![0]!.hooks[0]!.type;
  });
  assert.equal(
    checkRegistered([alone]).fix,
    "cliffhanger-bin install --settings /h/s.json --events stop --no-subagent",
  );
  assert.match(checkRegistered([alone]).detail, /^Claude Code skips our Stop handler .*: has no "type"; so no handler/);
});

Deno.test("registered: install puts right a matcher, async or if Claude Code skips for; the rest is an edit by hand", () => {
  const f = edited("/h/s.json", ["stop", "prompt"], (d) => {
    d.hooks.Stop![0]!.matcher = 5;
    d.hooks.UserPromptSubmit![0]!.hooks[0]!.async = "no";
    d.hooks.SubagentStop![0]!.hooks[0]!.if = "Bash(git *)";
  });
  const check = checkRegistered([f]);
  assert.equal(check.status, "fail");
  assert.equal(check.fix, "cliffhanger-bin install --settings /h/s.json --events stop,prompt");
  assert.match(check.detail, /so no handler of ours runs for Stop, SubagentStop, UserPromptSubmit$/);
  // a key install leaves
  const shell = edited("/h/s.json", ["stop"], (d) => void (d.hooks.Stop![0]!.hooks[0]!.shell = "zsh"));
  assert.equal(
    checkRegistered([shell]).fix,
    'in /h/s.json, fix or remove "shell" in hooks.Stop[0].hooks[0] (install leaves these keys as they are)',
  );
});

Deno.test("registered: async on our Stop handler fails (its answer is not used); a narrower matcher warns", () => {
  const f = edited("/h/s.json", ["stop", "pretool"], (d) => void (d.hooks.Stop![0]!.hooks[0]!.async = true));
  const check = checkRegistered([f]);
  assert.equal(check.status, "fail");
  assert.equal(
    check.detail,
    'our Stop handler in /h/s.json (hooks.Stop[0].hooks[0].async): "async" is true: Claude Code runs the hook in the ' +
      "background and does not use its answer, so a stop it would block goes through; so Claude Code uses the answer " +
      "of no handler of ours for Stop; registered for Stop, SubagentStop, PreToolUse in /h/s.json",
  );
  assert.equal(
    check.fix,
    'cliffhanger-bin install --settings /h/s.json --events stop (it removes "async" from our entry)',
  );
  // asyncRewake the same
  const rewake = edited("/h/s.json", ["stop"], (d) => void (d.hooks.SubagentStop![0]!.hooks[0]!.asyncRewake = true));
  assert.equal(checkRegistered([rewake]).status, "fail");
  assert.match(checkRegistered([rewake]).detail, /"asyncRewake" is true: in an interactive or stream-json session/);
  // another copy of ours, without it, answers: a warning
  const elsewhere = file("/h/.claude/settings.json", [["Stop", "stop", 60]]);
  const covered = checkRegistered([elsewhere, f]);
  assert.equal(covered.status, "warn");
  assert.match(covered.detail, /; another copy of ours answers for Stop$/);
  // a matcher on our PreToolUse group: the guard sees fewer calls
  const matcher = edited("/h/s.json", ["pretool"], (d) => void (d.hooks.PreToolUse![0]!.matcher = "Bash"));
  const narrower = checkRegistered([matcher]);
  assert.equal(narrower.status, "warn");
  assert.match(
    narrower.detail,
    /^registered for PreToolUse in \/h\/s\.json; our PreToolUse handler in \/h\/s\.json \(hooks\.PreToolUse\[0\]\.matcher\): "matcher" is "Bash": the hook sees only the calls it matches, .* an edit-then-test loop is denied like a burst$/,
  );
  assert.equal(
    narrower.fix,
    'cliffhanger-bin install --settings /h/s.json --events pretool (it removes "matcher" from our entry)',
  );
  // on Stop Claude Code reads no matcher
  const stop = edited("/h/s.json", ["stop"], (d) => void (d.hooks.Stop![0]!.matcher = "Bash"));
  assert.equal(checkRegistered([stop]).status, "ok");
  // in a plugin's hook file: the plugin's to fix
  const plugin = {
    ...edited("/c/p/hooks/hooks.json", ["stop"], (d) => void (d.hooks.Stop![0]!.hooks[0]!.async = true)),
  };
  assert.equal(
    checkRegistered([{ ...plugin, plugin: "p@m" } as SettingsFileReport]).fix,
    "update or disable the plugin (claude plugin disable p@m): its hook file /c/p/hooks/hooks.json is not ours to edit",
  );
});

Deno.test("registered: a skipped copy beside one that runs elsewhere is a warning", () => {
  const skipped = edited("/p/.claude/settings.json", ["stop"], (d) => void (d.hooks.Stop![0]!.hooks[0]!.timeout = 0));
  const check = checkRegistered([file("/h/.claude/settings.json", [["Stop", "stop", 60]]), skipped]);
  assert.equal(check.status, "warn");
  assert.match(check.detail, /^registered for Stop, SubagentStop in .*; Claude Code skips our Stop handler in \/p\//);
  assert.equal(check.fix, "cliffhanger-bin install --settings /p/.claude/settings.json --events stop");
});

Deno.test("registered: a file Claude Code ignores whole (another tool's PreToolUse entry) names the entry to fix", () => {
  const other = edited("/h/s.json", ["stop"], (d) => {
    d.hooks.PreToolUse = [{ hooks: [{ type: "command", command: "lint", timeout: "60" }] }];
  });
  const check = checkRegistered([other]);
  assert.equal(check.status, "fail");
  assert.equal(
    check.detail,
    "Claude Code ignores the whole file /h/s.json, our handlers for Stop, SubagentStop included: " +
      'hooks.PreToolUse[0].hooks[0]: "timeout" is "60", not a positive number (under PreToolUse or PermissionRequest ' +
      "one entry that does not load makes it ignore the file); so no handler of ours runs for Stop, SubagentStop",
  );
  assert.equal(
    check.fix,
    "in /h/s.json, fix or remove hooks.PreToolUse[0].hooks[0]: while it does not load, Claude Code ignores the whole file",
  );
  // our own PreToolUse handler: install
  const ours = edited("/h/s.json", ["stop", "pretool"], (d) => void (d.hooks.PreToolUse![0]!.hooks[0]!.type = "cmd"));
  assert.equal(checkRegistered([ours]).fix, "cliffhanger-bin install --settings /h/s.json --events pretool");
  // disableAllHooks that is not true or false
  const off = edited("/h/s.json", ["stop"], (d) => void (d.disableAllHooks = "no"));
  assert.match(
    checkRegistered([off]).detail,
    /ignores the whole file .*: "disableAllHooks" is "no", not true or false/,
  );
  assert.equal(
    checkRegistered([off]).fix,
    'in /h/s.json, set "disableAllHooks" to true or false (false, or no key, lets hooks run)',
  );
  // another top-level key given a value that does not fit, or a field of one
  const model = edited("/h/s.json", ["stop"], (d) => void (d.model = 5));
  assert.equal(checkRegistered([model]).status, "fail");
  assert.match(
    checkRegistered([model]).detail,
    /ignores the whole file \/h\/s\.json, .*included: "model" is 5, not a string;/,
  );
  assert.equal(
    checkRegistered([model]).fix,
    'in /h/s.json, fix or remove "model": while it does not fit, Claude Code ignores the whole file',
  );
  const allow = edited("/h/s.json", ["stop"], (d) => void (d.permissions = { allow: "Bash" }));
  assert.match(checkRegistered([allow]).detail, /included: "permissions\.allow" is "Bash", not a list;/);
  assert.match(checkRegistered([allow]).fix ?? "", /^in \/h\/s\.json, fix or remove "permissions\.allow": /);
});

Deno.test("registered: a plugin's hook file that Claude Code skips is the plugin's to fix", () => {
  const f = edited("/c/plugins/cache/m/p/1/hooks/hooks.json", ["stop"], (d) => {
    d.hooks.Stop![0]!.hooks[0]!.timeout = "60";
  });
  const check = checkRegistered([{ ...f, plugin: "p@m" } as SettingsFileReport]);
  assert.equal(
    check.fix,
    "update or disable the plugin (claude plugin disable p@m): its hook file /c/plugins/cache/m/p/1/hooks/hooks.json " +
      "is not ours to edit",
  );
});

Deno.test("registered: disableAllHooks in force fails with the file that sets it, registered or not", () => {
  const off = { file: "/h/.claude/settings.json", key: "disableAllHooks" as const, managed: false };
  const installed = file("/h/.claude/settings.json", [["Stop", "stop", 60]]);
  const check = checkRegistered([installed], [], null, off);
  assert.equal(check.status, "fail");
  assert.equal(
    check.detail,
    '"disableAllHooks" is true in /h/.claude/settings.json: Claude Code runs no hook of settings files or plugins; ' +
      "registered for Stop in /h/.claude/settings.json",
  );
  assert.match(check.fix ?? "", /^remove "disableAllHooks" from \/h\/\.claude\/settings\.json, or set it to false/);
  // nothing registered either: both are said, both fixed
  const none = checkRegistered([], [], null, off);
  assert.match(none.detail, /; no settings file or installed plugin it can read registers cliffhanger/);
  assert.match(none.fix ?? "", /; cliffhanger-bin install$/);
  assert.equal(checkRegistered([installed]).status, "ok");
});
