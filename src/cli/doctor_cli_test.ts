/** `doctor`, black-box under the binary's scopes: a healthy install passes; a deliberately broken setup fails with fixes. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, tempHome, withTempHome } from "../testing/run_cli.ts";
import { VERSION } from "../version.ts";
import { installPluginFixture, ourPluginHooks, PYTHON_PLUGIN_HOOKS } from "../testing/plugin_fixture.ts";

import type { Check } from "../doctor/checks.ts";

const byId = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c]));

Deno.test("doctor: a fresh install of all hooks has nothing broken", async () => {
  const home = await tempHome();
  const install = await runCli(["install", "--events", "stop,prompt,pretool"], { home });
  assert.equal(install.code, 0, install.stderr);
  const run = await runCli(["doctor", "--json"], { home });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(report.ok, true);
  const c = byId(report.checks);
  for (
    const id of [
      "binary",
      "settings-parse",
      "registered",
      "timeouts",
      "home-writable",
      "rules",
      "transcripts",
      "duplicates",
      "handlers-start",
      "hooks-load",
    ]
  ) {
    assert.equal(c[id]?.status, "ok", `${id}: ${JSON.stringify(c[id])}`);
  }
  assert.match(c["rules"]!.detail, /^\d+ rules load from \d+ files$/);
  // the launcher install registered was started with --version and printed this version
  assert.match(c["handlers-start"]!.detail, /\/bin\/cliffhanger-bin --version → cliffhanger-bin \d/);
  assert.equal(c["recent-decisions"]?.status, "warn", "installed but no decision logged yet");
});

Deno.test("doctor: a broken setup exits 1 and names each problem with a fix", async () => {
  const home = await tempHome();
  const claude = join(home, ".claude");
  // a binary that was deleted (inside the read scope, the cliffhanger home, so doctor can see it is gone)
  const gone = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
  const handler = (args: string[], timeout: number) => ({ type: "command", command: gone, args, timeout });
  await Deno.writeTextFile(
    join(claude, "settings.json"),
    JSON.stringify({
      hooks: {
        Stop: [{ hooks: [handler(["hook", "stop"], 5)] }],
        UserPromptSubmit: [{ hooks: [handler(["hook", "prompt"], 120)] }],
      },
    }),
  );
  await Deno.writeTextFile(
    join(claude, "also.json"),
    JSON.stringify({
      // the same program written another way (shell form): Claude Code runs both (an identical one it runs once)
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `${gone} hook prompt`, timeout: 10 }] }] },
    }),
  );
  await Deno.writeTextFile(join(claude, "broken.json"), '{ "hooks": { "Stop": [ }');
  await Deno.mkdir(join(home, ".cliffhanger", "rules"), { recursive: true });
  await Deno.writeTextFile(join(home, ".cliffhanger", "rules", "mine.json"), "{ not json");
  await Deno.writeTextFile(
    join(home, ".cliffhanger", "log.jsonl"),
    JSON.stringify({
      ts: "2020-01-01T00:00:00.000Z",
      session: "s",
      event: "Stop",
      action: "allow",
      rule: "no-pattern",
    }) + "\n",
  );
  const args = ["doctor", "--settings", join(claude, "also.json"), "--settings", join(claude, "broken.json")];
  const json = await runCli([...args, "--json"], { home });
  assert.equal(json.code, 1, json.stderr);
  const c = byId(JSON.parse(json.stdout).checks);
  assert.equal(c["binary"]?.status, "fail");
  assert.match(c["binary"]!.detail, /bin\/cliffhanger-bin, which does not exist/);
  assert.equal(c["settings-parse"]?.status, "fail");
  assert.match(c["settings-parse"]!.detail, /broken\.json/);
  assert.equal(c["timeouts"]?.status, "fail");
  assert.match(c["timeouts"]!.detail, /UserPromptSubmit timeout 120 s is over 30 s/);
  assert.match(c["timeouts"]!.detail, /Stop timeout 5 s leaves less than 5 s over the hook's budget of 10 s/);
  assert.equal(c["rules"]?.status, "fail");
  assert.equal(c["duplicates"]?.status, "fail");
  assert.match(c["duplicates"]!.detail, /UserPromptSubmit ×2/);
  assert.equal(c["recent-decisions"]?.status, "warn");
  assert.equal(c["home-writable"]?.status, "ok");
  for (const check of Object.values(c)) if (check.status !== "ok") assert.ok(check.fix, `${check.id} has a fix`);

  const text = await runCli(args, { home });
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^fail {2}binary: /m);
  assert.match(text.stdout, /^ {6}fix: /m);
  assert.match(text.stdout, /\d+ broken, \d+ warnings?\n$/);
});

Deno.test("doctor: a comment added to the settings after install fails settings-parse: Claude Code ignores the file", () =>
  withTempHome(async (home) => {
    const install = await runCli(["install"], { home });
    assert.equal(install.code, 0, install.stderr);
    const settings = join(home, ".claude", "settings.json");
    await Deno.writeTextFile(settings, (await Deno.readTextFile(settings)).replace("{\n", "{\n// my comment\n"));
    const run = await runCli(["doctor", "--json"], { home });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["settings-parse"]?.status, "fail");
    assert.equal(
      c["settings-parse"]!.detail,
      `${settings}: Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1`,
    );
    assert.match(c["settings-parse"]!.fix ?? "", /^remove the comments and trailing commas at the positions shown/);
    // its handlers do not run: nothing is registered
    assert.equal(c["registered"]?.status, "fail");
    const status = await runCli(["status"], { home });
    assert.ok(
      status.stdout.includes(
        `  ${settings}: ERROR Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1\n`,
      ),
      status.stdout,
    );
  }));

Deno.test("doctor: a home that cannot be written and an unknown flag", async () => {
  const home = await tempHome();
  // CLIFFHANGER_HOME is a file: nothing can be created in it
  await Deno.writeTextFile(join(home, "not-a-dir"), "");
  const run = await runCli(["doctor", "--json"], { home, env: { CLIFFHANGER_HOME: join(home, "not-a-dir") } });
  assert.equal(run.code, 1);
  assert.equal(byId(JSON.parse(run.stdout).checks)["home-writable"]?.status, "fail");
  const bad = await runCli(["doctor", "--jsn"], { home });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /did you mean "--json"/);
});

Deno.test("doctor: just after log.jsonl was rotated, the last decision is found in log.jsonl.1", () =>
  withTempHome(async (home) => {
    const install = await runCli(["install", "--events", "stop"], { home });
    assert.equal(install.code, 0, install.stderr);
    const log = join(home, ".cliffhanger", "log.jsonl");
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    const ts = new Date().toISOString();
    const decision = { ts, session: "s", event: "Stop", action: "allow", rule: "no-pattern" };
    await Deno.writeTextFile(`${log}.1`, JSON.stringify(decision) + "\n");
    await Deno.writeTextFile(log, JSON.stringify({ ts, session: "s", kind: "prompt", band: "short" }) + "\n");
    const run = await runCli(["doctor", "--json"], { home });
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["recent-decisions"]?.status, "ok", JSON.stringify(c["recent-decisions"]));
    assert.equal(c["recent-decisions"]?.detail, `last decision ${ts}`);
  }));

Deno.test("status and doctor list the same config problems, an unknown key with the nearest known one", () =>
  withTempHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "observ": true, "max": "three" }');
    const status = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    const doctor = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    const fromStatus: string[] = status.config.problems;
    assert.equal(fromStatus.length, 2, fromStatus.join("; "));
    assert.ok(fromStatus.some((p) => /Unknown key "observ".*did you mean "observe"/.test(p)), fromStatus.join("; "));
    assert.ok(fromStatus.some((p) => /Bad value for "max"/.test(p)), fromStatus.join("; "));
    assert.equal(doctor["config"]?.detail, fromStatus.join("; "), "doctor says exactly what status says");
    assert.doesNotMatch(doctor["config"]?.fix ?? "", /defaults meanwhile/);
  }));

Deno.test("a config.jsonc that cannot be parsed: the Stop hook answers nothing, status and doctor say observe mode and why", () =>
  withTempHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    // the observe week's line with a bare key: the observe it asks for cannot be read, so nothing may block
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), "{ observe: true }");
    const stdin = JSON.stringify({
      session_id: "s",
      hook_event_name: "Stop",
      last_assistant_message: "Two of five call sites migrated. Want me to continue with the rest?",
    });
    const hook = await runCli(["hook", "stop"], { home, stdin });
    assert.deepEqual([hook.code, hook.stdout], [0, ""]);
    assert.match(
      await Deno.readTextFile(join(home, ".cliffhanger", "errors.log")),
      /config: observe mode: ".*config\.jsonc" cannot be parsed, so the stop and pretool hooks decide and log/,
    );
    const status = await runCli(["status"], { home });
    assert.match(status.stdout, /^mode: observe \(".*config\.jsonc" cannot be parsed: nothing is blocked or denied/m);
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.equal(json.mode, "observe");
    assert.match(json.observeBecause, /config\.jsonc" cannot be parsed$/);
    const checks = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.match(checks["switches"]!.detail, /observe mode is on because ".*config\.jsonc" cannot be parsed/);
    assert.match(checks["config"]!.fix ?? "", /the stop and pretool hooks run in observe mode/);
  }));

Deno.test("a bad value of a setting whose default is stricter: the hook it tunes observes, status and doctor say why", () =>
  withTempHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    // the user asked for no continuation at all (in quotes): the default cap would block
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "max": "0", "noTerse": "yes" }');
    const stdin = JSON.stringify({
      session_id: "s",
      hook_event_name: "Stop",
      last_assistant_message: "Two of five call sites migrated. Want me to continue with the rest?",
    });
    const hook = await runCli(["hook", "stop"], { home, stdin });
    assert.deepEqual([hook.code, hook.stdout], [0, ""]);
    const status = await runCli(["status"], { home });
    assert.match(
      status.stdout,
      /^mode: block, but the stop hook observes \("max" in ".*config\.jsonc" has a value it does not take: it blocks nothing until it is fixed\); attended/m,
    );
    assert.match(
      status.stdout,
      /; length nudge off \("noTerse" in ".*config\.jsonc" has a value it does not take: off/,
    );
    assert.match(
      status.stdout,
      /problem: Bad value for "max" in ".*": max must be a whole number, written without quotes \(0\)$/m,
    );
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.deepEqual([json.mode, json.observeBecause, Object.keys(json.heldBack)], ["block", null, ["stop", "terse"]]);
    const checks = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.match(checks["switches"]!.detail, /the stop hook decides and logs but blocks nothing because "max" in /);
    assert.match(checks["switches"]!.detail, /the prompt hook adds no length nudge because "noTerse" in /);
    assert.match(checks["config"]!.fix ?? "", /holds back what it tunes instead/);
    // a bad variable is said with its reason, as a value in the file is
    const doctor = await runCli(["doctor", "--json"], { home, env: { CLIFFHANGER_MAX: "2.5" } });
    assert.match(
      byId(JSON.parse(doctor.stdout).checks)["config"]!.detail,
      /Bad value for CLIFFHANGER_MAX: "2\.5": CLIFFHANGER_MAX must be a whole number/,
    );
  }));

Deno.test("status shows the anti-loop guard's and the prompt hook's settings; doctor checks the quirk files", () =>
  withTempHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "loopMaxRetries": 5, "noTerse": true }');
    await Deno.writeTextFile(join(home, ".cliffhanger", "quirks.jsonc"), "{ bad");
    const status = await runCli(["status"], { home });
    assert.match(
      status.stdout,
      /anti-loop guard: on; tools Bash,Agent,Task,AskUserQuestion; 5 identical calls allowed/,
    );
    assert.match(status.stdout, /prompt hook: clock on \(the system zone, [^)]+\); length nudge off; model notes on/);
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.deepEqual([json.loop.maxRetries, json.prompt.terse], [5, false]);
    assert.equal(json.prompt.quirkProblems.length, 1);
    const doctor = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    // the zone status names is the one doctor names
    const zone = /clock on \(the system zone, ([^)]+)\)/.exec(status.stdout)![1]!;
    assert.ok(doctor["prompt"]?.detail.includes(`clock on (${zone})`), doctor["prompt"]?.detail);
    assert.equal(doctor["quirks"]?.status, "warn");
    assert.match(
      doctor["quirks"]!.detail,
      /quirks\.jsonc: 1:3: invalid JSON: strings must be in double quotes: bad; file ignored/,
    );
  }));

Deno.test("status and doctor show loopTools and stallMaxRetries alike: normalised, and off when nothing can happen", () =>
  withTempHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    const config = join(home, ".cliffhanger", "config.jsonc");
    await Deno.writeTextFile(config, '{ "loopTools": " Bash , Task " }');
    const spaced = await runCli(["status"], { home });
    assert.match(spaced.stdout, /^anti-loop guard: on; tools Bash,Task; 3 identical calls allowed/m);
    assert.deepEqual(JSON.parse((await runCli(["status", "--json"], { home })).stdout).loop.tools, ["Bash", "Task"]);
    let doctor = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.match(doctor["loop"]!.detail, /tools Bash,Task; 3 identical calls allowed/);

    await Deno.writeTextFile(config, '{ "loopTools": "", "stallMaxRetries": 0 }');
    const off = await runCli(["status"], { home });
    assert.match(off.stdout, /^anti-loop guard: off \(loopTools names no tool\); tools none; /m);
    assert.match(
      off.stdout,
      /^stall nudges: off \(stallMaxRetries is 0: no tool call is ever nudged\); 0 per tool call/m,
    );
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.deepEqual([json.loop.on, json.loop.off, json.loop.tools], [false, "loopTools names no tool", []]);
    assert.equal(json.stall.on, false);
    doctor = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.equal(doctor["loop"]!.status, "warn");
    assert.match(doctor["loop"]!.detail, /tools none; .*loopTools names no tool, so the guard watches nothing/);
    assert.equal(doctor["switches"]!.status, "warn");
    assert.match(doctor["switches"]!.detail, /stallMaxRetries is 0: silent tool stalls are never nudged/);
    assert.match(doctor["switches"]!.fix ?? "", /"stallMaxRetries" \(or CLIFFHANGER_STALL_MAX_RETRIES, which wins\)/);

    // a warning doctor gives is one status prints too
    await Deno.writeTextFile(config, '{ "loopWarn": 5 }');
    const never = await runCli(["status"], { home });
    assert.match(
      never.stdout,
      /^ {2}warning: a cycle is denied before \(or when\) it would be warned, so the warning never shows/m,
    );
  }));

Deno.test('a loopTools name in the wrong case ("bash"): status and doctor warn and name the tool meant', () =>
  withTempHome(async (home) => {
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "loopTools": "bash" }');
    const doctor = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.equal(doctor["loop"]!.status, "warn");
    assert.match(doctor["loop"]!.detail, /tools bash; .*loopTools names "bash" \(did you mean "Bash"\?\)/);
    assert.match(doctor["loop"]!.fix ?? "", /as Claude Code does: Bash$/);
    const status = await runCli(["status"], { home });
    assert.match(
      status.stdout,
      /^anti-loop guard: off \(loopTools names no tool in Claude Code's spelling\); tools bash; /m,
    );
    assert.match(
      status.stdout,
      /^ {2}warning: loopTools names "bash" \(did you mean "Bash"\?\): names are matched exactly/m,
    );
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.equal(json.loop.problems.length, 1);
    assert.match(json.loop.problems[0], /did you mean "Bash"\?/);
  }));

Deno.test("doctor checks what a checkout install's launcher runs: another checkout's main.ts is named", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
    const ok = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.equal(ok["launcher"]?.status, "ok", JSON.stringify(ok["launcher"]));
    const text = await Deno.readTextFile(launcher);
    await Deno.writeTextFile(launcher, text.replace(/'[^']*\/main\.ts'/g, "'/nowhere/moved/main.ts'"));
    const moved = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.notEqual(moved["launcher"]?.status, "ok");
    assert.match(moved["launcher"]!.detail, /\/nowhere\/moved\/main\.ts/);
    assert.match(moved["launcher"]!.fix ?? "", /install` again/);
    // started, the launcher fails: every hook would
    assert.equal(moved["handlers-start"]?.status, "fail", JSON.stringify(moved["handlers-start"]));
    assert.match(moved["handlers-start"]!.detail, /cliffhanger-bin --version: exit code 1/);
  }));

Deno.test("doctor looks at the program and the --config a launcher runs: each must be a regular file, else cannot check", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
    const text = await Deno.readTextFile(launcher);
    const ok = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.equal(ok["launcher"]?.status, "ok", JSON.stringify(ok["launcher"]));
    assert.match(ok["launcher"]!.detail, /main\.ts with \/.*\/deno\.json$/);
    // a --config that is not there: deno exits 1 on every hook call ("Error reading config file")
    const fake = join(home, "checkout");
    await Deno.mkdir(join(fake, "main.ts"), { recursive: true });
    await Deno.writeTextFile(launcher, text.replace(/'--config=[^']*'/, `'--config=${fake}/deno.json'`));
    const noConfig = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.equal(noConfig["launcher"]?.status, "fail", JSON.stringify(noConfig["launcher"]));
    assert.match(noConfig["launcher"]!.detail, new RegExp(`runs ${fake}/deno\\.json, which does not exist`));
    // a program that is a folder, not a file
    await Deno.writeTextFile(launcher, text.replace(/'[^']*\/main\.ts'/g, `'${fake}/main.ts'`));
    const folder = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
    assert.equal(folder["launcher"]?.status, "fail", JSON.stringify(folder["launcher"]));
    assert.match(folder["launcher"]!.detail, new RegExp(`runs ${fake}/main\\.ts, which is not a regular file`));
    // under a scope that cannot look at the checkout (the compiled binary's, a bundle's): a warning, never ok
    await Deno.writeTextFile(launcher, text);
    const run = await runCli(["doctor", "--json"], { home, scopeArgs: ["status"] });
    const blind = byId(JSON.parse(run.stdout).checks);
    assert.equal(blind["launcher"]?.status, "warn", JSON.stringify(blind["launcher"]));
    assert.match(
      blind["launcher"]!.detail,
      /main\.ts and \/.*\/deno\.json: cannot check, outside this run's read scope/,
    );
    // not verified, and said so: the paths in --json and in the summary line, and the launcher names what is gone
    assert.deepEqual(blind["launcher"]!.unverified?.map((p) => p.split("/").at(-1)), ["main.ts", "deno.json"]);
    assert.equal(blind["launcher"]!.fix, `run \`${launcher} --version\`: it names a file it runs that is gone`);
    const summary = (await runCli(["doctor"], { home, scopeArgs: ["status"] })).stdout.trimEnd().split("\n").at(-1)!;
    assert.match(
      summary,
      /^not verified: could not check \/\S+\/main\.ts, \/\S+\/deno\.json \(launcher\), which a hook runs; /,
    );
  }));

Deno.test("doctor under the compiled binary's run scope (none) does not start a handler, and says so", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["handlers-start"]?.status, "warn", JSON.stringify(c["handlers-start"]));
    assert.match(c["handlers-start"]!.detail, /not started \(outside this binary's run scope\)/);
    assert.match(c["handlers-start"]!.fix ?? "", /cliffhanger-bin --version$/);
  }));

Deno.test("doctor and status see an installed plugin: enabled beside an install it is a duplicate, with this setup's fix", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,prompt,pretool"], { home })).code, 0);
    const hooksFile = await installPluginFixture(join(home, ".claude"), {
      id: "ch@mkt",
      hooks: await ourPluginHooks(),
      enabled: true,
    });
    const settings = join(home, ".claude", "settings.json");
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    assert.equal(run.code, 1, "a doubled prompt hook is broken");
    const c = byId(JSON.parse(run.stdout).checks);
    assert.match(c["registered"]!.detail, new RegExp(`in ${settings}, ${hooksFile}`));
    assert.equal(c["duplicates"]?.status, "fail");
    assert.ok(
      c["duplicates"]!.detail.includes(`UserPromptSubmit ×2 (${settings}, ${hooksFile})`),
      c["duplicates"]!.detail,
    );
    assert.equal(c["duplicates"]!.fix, "keep one registration: claude plugin disable ch@mkt");
    const status = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.deepEqual(status.plugins.map((p: { plugin: string; enabled: boolean }) => [p.plugin, p.enabled]), [[
      "ch@mkt",
      true,
    ]]);
    assert.match((await runCli(["status"], { home })).stdout, /plugin ch@mkt \(enabled\): .*registered for Stop/);
  }));

Deno.test("doctor: a plugin with our hooks that is not enabled registers nothing, and is named", () =>
  withTempHome(async (home) => {
    await installPluginFixture(join(home, ".claude"), { id: "ch@mkt", hooks: await ourPluginHooks(), enabled: false });
    const c = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(c["registered"]?.status, "fail");
    assert.match(c["registered"]!.detail, /plugin ch@mkt has cliffhanger hooks .* but is not enabled/);
    // run from a checkout, the fix names the command a checkout has
    assert.equal(c["registered"]!.fix, "enable it: claude plugin enable ch@mkt (or deno task cli install)");
    assert.equal(c["duplicates"]?.status, "ok");
  }));

Deno.test("status and doctor report the same relay fit and the same errors.log count", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const cliff = join(home, ".cliffhanger");
    await Deno.writeTextFile(join(cliff, "config.jsonc"), JSON.stringify({ relayDir: join(home, "relay") }));
    // the Stop handler's timeout cut to 60 s, under the default wait plus headroom
    const settings = join(home, ".claude", "settings.json");
    const doc = JSON.parse(await Deno.readTextFile(settings));
    doc.hooks.Stop[0].hooks[0].timeout = 60;
    await Deno.writeTextFile(settings, JSON.stringify(doc));
    const now = new Date().toISOString();
    await Deno.writeTextFile(join(cliff, "errors.log"), `${now} hook stop: one\n${now} hook stop: two\n`);
    const status = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    const c = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.ok(status.relay.warning, "status warns");
    assert.equal(c["timeouts"]?.status, "fail");
    assert.ok(c["timeouts"]!.detail.includes(status.relay.warning), "doctor says what status says");
    assert.equal(status.errors.recent, 2);
    assert.match(c["errors"]!.detail, /^2 lines in /);
  }));

Deno.test("doctor: the Python cliffhanger installed as an enabled plugin is flagged, with the plugin to disable", () =>
  withTempHome(async (home) => {
    await installPluginFixture(join(home, ".claude"), {
      id: "cliffhanger@mkt",
      hooks: PYTHON_PLUGIN_HOOKS,
      enabled: true,
    });
    const c = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(c["python"]?.status, "fail");
    assert.match(c["python"]!.detail, /hooks\.json runs hooks\/cliffhanger\.py for Stop, SubagentStop/);
    assert.equal(c["python"]!.fix, "claude plugin disable cliffhanger@mkt");
    const status = await runCli(["status"], { home });
    assert.match(
      status.stdout,
      /plugin cliffhanger@mkt \(enabled\): .*runs the Python cliffhanger for Stop, SubagentStop/,
    );
  }));

Deno.test("doctor checks the loop guard's and the prompt hook's settings; status shows the zone problem", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,prompt,pretool"], { home })).code, 0);
    await Deno.writeTextFile(
      join(home, ".cliffhanger", "config.jsonc"),
      JSON.stringify({ loopWarn: 5, loopBlock: 3, tz: "Mars/Olympus_Mons" }),
    );
    const c = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(c["loop"]?.status, "warn");
    assert.match(c["loop"]!.detail, /cycles warned at 5, denied at 3/);
    assert.equal(c["prompt"]?.status, "warn");
    assert.match(c["prompt"]!.detail, /Mars\/Olympus_Mons/);
    // the zone was set in config.jsonc: said as the file's key, and a bad value of the file's
    const config = join(home, ".cliffhanger", "config.jsonc");
    const said = `Bad value for "tz" in "${config}": "Mars/Olympus_Mons" is not an IANA time zone`;
    assert.ok(c["prompt"]!.detail.includes(said), c["prompt"]!.detail);
    assert.equal(c["config"]?.status, "fail", JSON.stringify(c["config"]));
    assert.ok(c["config"]!.detail.includes(said), c["config"]!.detail);
    const status = await runCli(["status"], { home });
    assert.ok(status.stdout.includes(`prompt hook: clock on`), status.stdout);
    assert.ok(status.stdout.includes(`  problem: ${said}`), status.stdout);
    assert.doesNotMatch(status.stdout, /CLIFFHANGER_TZ/);
    const now = await runCli(["now"], { home });
    assert.ok(now.stderr.includes(`warning: ${said}`), now.stderr);
  }));

Deno.test("status and doctor --project DIR read that project's settings and local settings, as install --project writes", () =>
  withTempHome(async (home) => {
    const project = join(home, "elsewhere", "proj");
    await Deno.mkdir(join(project, ".claude"), { recursive: true });
    assert.equal((await runCli(["install", "--project", project, "--events", "pretool"], { home })).code, 0);
    await Deno.writeTextFile(join(project, ".claude", "settings.local.json"), "{ torn");
    const c = byId(JSON.parse((await runCli(["doctor", "--project", project, "--json"], { home })).stdout).checks);
    assert.match(c["registered"]!.detail, new RegExp(`PreToolUse in ${join(project, ".claude", "settings.json")}`));
    assert.equal(c["settings-parse"]?.status, "fail", "the local file is read, and it does not parse");
    assert.match(c["settings-parse"]!.detail, /settings\.local\.json/);
    const status = await runCli(["status", "--project", project], { home });
    assert.match(status.stdout, /proj\/\.claude\/settings\.json: registered for PreToolUse/);
  }));

Deno.test("a checkout launcher checked against this home and this project's relay folder (doctor, relay on)", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    // CLIFFHANGER_HOME set after the install: the launcher's scopes hold the old home, every hook fails open
    const elsewhere = join(home, "elsewhere");
    await Deno.mkdir(elsewhere);
    const moved = byId(
      JSON.parse((await runCli(["doctor", "--json"], { home, env: { CLIFFHANGER_HOME: elsewhere } })).stdout).checks,
    );
    assert.equal(moved["launcher"]?.status, "fail", JSON.stringify(moved["launcher"]));
    assert.match(moved["launcher"]!.detail, new RegExp(`without ${elsewhere} \\(CLIFFHANGER_HOME\\)`));
    assert.match(moved["launcher"]!.fix ?? "", /deno task cli install` again/);
    // relay on in a project the launcher was not written for: said at once, and by doctor
    const project = join(home, "proj");
    await Deno.mkdir(project);
    const on = await runCli(["relay", "on"], { home, cwd: project });
    assert.equal(on.code, 0, on.stderr);
    assert.match(on.stderr, new RegExp(`the Stop hook .*cliffhanger-bin may not read ${project}/relay`));
    assert.match(on.stderr, new RegExp(`CLIFFHANGER_RELAY_DIR=${project}/relay deno task cli install`));
    const relay = byId(JSON.parse((await runCli(["doctor", "--json"], { home, cwd: project })).stdout).checks);
    assert.equal(relay["launcher"]?.status, "warn", JSON.stringify(relay["launcher"]));
    assert.match(relay["launcher"]!.detail, /may not read the relay folder/);
  }));

Deno.test("doctor: a named file never enables a plugin, a plugin's file named again counts once, a missing one is said", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,prompt,pretool"], { home })).code, 0);
    const hooksFile = await installPluginFixture(join(home, ".claude"), {
      id: "ch@mkt",
      hooks: await ourPluginHooks(),
      enabled: true,
    });
    const off = join(home, "off.json");
    await Deno.writeTextFile(off, JSON.stringify({ enabledPlugins: { "ch@mkt": false } }));
    const run = async (...named: string[]) =>
      byId(JSON.parse((await runCli(["doctor", ...named, "--json"], { home, runCommands: [] })).stdout).checks);
    const c = await run("--settings", off);
    assert.equal(c["duplicates"]?.status, "fail", "the plugin is still enabled by the user settings");
    const again = await run("--settings", hooksFile);
    assert.match(again["duplicates"]!.detail, /UserPromptSubmit ×2 /, "the plugin's file once, not twice");
    const missing = await run("--settings", join(home, "nowhere", "s.json"));
    assert.equal(missing["settings-parse"]?.status, "warn");
    assert.match(missing["settings-parse"]!.detail, /nowhere\/s\.json does not exist/);
    const status = await runCli(["status", "--settings", join(home, "nowhere", "s.json")], { home });
    assert.match(status.stdout, /nowhere\/s\.json: does not exist/);
  }));

Deno.test("doctor: a handler moved under another event (Stop running hook prompt, pretool under PostToolUse) fails", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,prompt,pretool"], { home })).code, 0);
    const settings = join(home, ".claude", "settings.json");
    const doc = JSON.parse(await Deno.readTextFile(settings));
    doc.hooks.Stop[0].hooks[0].args = ["hook", "prompt"];
    doc.hooks.PostToolUse = doc.hooks.PreToolUse;
    delete doc.hooks.PreToolUse;
    await Deno.writeTextFile(settings, JSON.stringify(doc));
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    assert.equal(run.code, 1, run.stdout);
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["registered"]?.status, "fail", JSON.stringify(c["registered"]));
    assert.match(c["registered"]!.detail, /Stop runs `hook prompt` .*which answers only UserPromptSubmit/);
    assert.match(c["registered"]!.detail, /PostToolUse runs `hook pretool` .*which answers only PreToolUse/);
    assert.match(c["registered"]!.fix ?? "", /deno task cli uninstall --settings .*, then deno task cli install /);
  }));

Deno.test("doctor and status: a handler of ours Claude Code skips (a timeout that is a string) is not a registration", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,prompt"], { home })).code, 0);
    const settings = join(home, ".claude", "settings.json");
    const doc = JSON.parse(await Deno.readTextFile(settings));
    doc.hooks.Stop[0].hooks[0].timeout = "60";
    await Deno.writeTextFile(settings, JSON.stringify(doc, null, 2));
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    assert.equal(run.code, 1, run.stdout);
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["registered"]?.status, "fail", JSON.stringify(c["registered"]));
    assert.match(
      c["registered"]!.detail,
      /^Claude Code skips our Stop handler in .*settings\.json \(hooks\.Stop\[0\]\.hooks\[0\]\): "timeout" is "60", not a positive number; so no handler of ours runs for Stop; registered for SubagentStop, UserPromptSubmit in /,
    );
    assert.equal(c["registered"]!.fix, `deno task cli install --settings ${settings} --events stop`);
    const status = await runCli(["status"], { home });
    assert.match(
      status.stdout,
      /settings\.json: registered for SubagentStop, UserPromptSubmit; NOT RUN: Claude Code skips our Stop handler \(hooks\.Stop\[0\]\.hooks\[0\]\): "timeout" is "60", not a positive number \(doctor says how to fix it\)\n/,
    );
    // the fix named puts it right
    assert.equal((await runCli(["install", "--settings", settings, "--events", "stop"], { home })).code, 0);
    const again = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(again["registered"]?.status, "ok", JSON.stringify(again["registered"]));
    // another tool's PreToolUse entry that does not load: Claude Code ignores the whole file, ours included
    doc.hooks.Stop[0].hooks[0].timeout = 60;
    doc.hooks.PreToolUse = [{ matcher: "Bash", hooks: [{ type: "command", command: "lint", timeout: "30" }] }];
    await Deno.writeTextFile(settings, JSON.stringify(doc, null, 2));
    const ignored = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(ignored["registered"]?.status, "fail");
    assert.match(
      ignored["registered"]!.detail,
      /^Claude Code ignores the whole file .*hooks\.PreToolUse\[0\]\.hooks\[0\]/,
    );
    const off = await runCli(["status"], { home });
    assert.match(
      off.stdout,
      /^cliffhanger-bin [^\n]*: on, but Claude Code runs none of the handlers of ours it can see/,
    );
  }));

Deno.test("doctor, status and install: async on our Stop handler is failed, shown and removed; a matcher on PreToolUse too", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,pretool"], { home })).code, 0);
    const settings = join(home, ".claude", "settings.json");
    const doc = JSON.parse(await Deno.readTextFile(settings));
    doc.hooks.Stop[0].hooks[0].async = true;
    await Deno.writeTextFile(settings, JSON.stringify(doc, null, 2));
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    assert.equal(run.code, 1, run.stdout);
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["registered"]?.status, "fail", JSON.stringify(c["registered"]));
    assert.match(
      c["registered"]!.detail,
      /^our Stop handler in .*settings\.json \(hooks\.Stop\[0\]\.hooks\[0\]\.async\): "async" is true: Claude Code runs the hook in the background and does not use its answer, so a stop it would block goes through; so Claude Code uses the answer of no handler of ours for Stop; registered for Stop, SubagentStop, PreToolUse in /,
    );
    assert.equal(
      c["registered"]!.fix,
      `deno task cli install --settings ${settings} --events stop (it removes "async" from our entry)`,
    );
    const status = await runCli(["status"], { home });
    assert.match(
      status.stdout,
      /settings\.json: registered for Stop, SubagentStop, PreToolUse; ANSWER NOT USED: our Stop handler \(hooks\.Stop\[0\]\.hooks\[0\]\.async\): "async" is true: .* \(doctor says how to fix it\)\n/,
    );
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    const entry = json.settings.find((s: { path: string }) => s.path === settings);
    assert.deepEqual(entry.handlers[0].limits.map((l: { key: string }) => l.key), ["hooks.Stop[0].hooks[0].async"]);
    // install is no longer "Already installed": it removes the key and says so
    const install = await runCli(["install", "--events", "stop"], { home });
    assert.equal(install.code, 0, install.stderr);
    assert.match(
      install.stdout,
      /^Removed "async": true from the cliffhanger handler for Stop in .*settings\.json: Claude Code ran the hook in the background and did not use its answer\n/,
    );
    assert.equal(JSON.parse(await Deno.readTextFile(settings)).hooks.Stop[0].hooks[0].async, undefined);
    const fixed = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(fixed["registered"]?.status, "ok", JSON.stringify(fixed["registered"]));

    // a matcher on our PreToolUse group: registered and loop warn; install --events pretool takes it away
    const again = JSON.parse(await Deno.readTextFile(settings));
    again.hooks.PreToolUse[0].matcher = "Bash";
    await Deno.writeTextFile(settings, JSON.stringify(again, null, 2));
    const warned = await runCli(["doctor", "--json"], { home, runCommands: [] });
    const w = byId(JSON.parse(warned.stdout).checks);
    assert.equal(w["registered"]?.status, "warn", JSON.stringify(w["registered"]));
    assert.match(
      w["registered"]!.detail,
      /\(hooks\.PreToolUse\[0\]\.matcher\): "matcher" is "Bash": the hook sees only/,
    );
    assert.equal(w["loop"]?.status, "warn", JSON.stringify(w["loop"]));
    assert.match(w["loop"]!.detail, /lets no Agent, Task, AskUserQuestion call through/);
    const stillOk = await runCli(["install", "--events", "stop"], { home });
    assert.match(stillOk.stdout, /^Already installed/, "installing other hooks leaves it");
    const pretool = await runCli(["install", "--events", "pretool"], { home });
    assert.match(
      pretool.stdout,
      /^Removed "matcher": "Bash" from the cliffhanger group for PreToolUse in .*: it hid the other tools' calls from the hook\n/,
    );
    const clean = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.deepEqual([clean["registered"]?.status, clean["loop"]?.status], ["ok", "ok"]);
  }));

Deno.test("status says off and doctor fails while disableAllHooks is true; the project's false wins in its folder", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const settings = join(home, ".claude", "settings.json");
    const doc = JSON.parse(await Deno.readTextFile(settings));
    await Deno.writeTextFile(settings, JSON.stringify({ ...doc, disableAllHooks: true }, null, 2));
    const status = await runCli(["status"], { home });
    assert.ok(
      status.stdout.startsWith(
        `cliffhanger-bin ${VERSION}: off ("disableAllHooks" is true in ${settings}: Claude Code runs no hook of ` +
          "settings files or plugins)\n",
      ),
      status.stdout,
    );
    assert.match(status.stdout, /settings\.json: registered for Stop, SubagentStop; sets disableAllHooks: true\n/);
    assert.equal(JSON.parse((await runCli(["status", "--json"], { home })).stdout).on, false);
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    assert.equal(run.code, 1, run.stdout);
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["registered"]?.status, "fail");
    assert.match(c["registered"]!.detail, /^"disableAllHooks" is true in .*settings\.json: Claude Code runs no hook/);
    assert.match(c["registered"]!.fix ?? "", /^remove "disableAllHooks" from .*settings\.json, or set it to false/);
    // a project that sets it false: hooks run in a session started there
    const project = join(home, "work");
    await Deno.mkdir(join(project, ".claude"), { recursive: true });
    await Deno.writeTextFile(join(project, ".claude", "settings.json"), '{ "disableAllHooks": false }');
    const there = await runCli(["status"], { home, cwd: project });
    assert.match(there.stdout, new RegExp(`^cliffhanger-bin ${VERSION.replaceAll(".", "\\.")}: on\\n`), there.stdout);
  }));

Deno.test("doctor: a file where the state folder should be, a folder where log.jsonl should be, is broken", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install"], { home })).code, 0);
    const cliff = join(home, ".cliffhanger");
    await Deno.writeTextFile(join(cliff, "state"), "");
    await Deno.mkdir(join(cliff, "log.jsonl"));
    const run = await runCli(["doctor", "--json"], { home, runCommands: [] });
    assert.equal(run.code, 1, run.stdout);
    const c = byId(JSON.parse(run.stdout).checks)["home-writable"]!;
    assert.equal(c.status, "fail", JSON.stringify(c));
    assert.match(c.detail, /state folder .*\/state is a file, not a folder: every hook fails open/);
    assert.match(c.detail, /log\.jsonl" is a folder: no decision is logged/);
  }));

Deno.test("doctor: a budget over the registered timeouts is fixed by a lower budget or a key raised by hand, not install", () =>
  withTempHome(async (home) => {
    assert.equal((await runCli(["install", "--events", "stop,prompt"], { home })).code, 0);
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{"budgetMs": 60000}');
    const c = byId(JSON.parse((await runCli(["doctor", "--json"], { home, runCommands: [] })).stdout).checks);
    assert.equal(c["timeouts"]?.status, "fail");
    assert.match(c["timeouts"]!.fix ?? "", /^lower budgetMs \(CLIFFHANGER_BUDGET_MS\) to 10000 or less/);
    assert.match(c["timeouts"]!.fix ?? "", /raise by hand "hooks\.Stop\[0\]\.hooks\[0\]\.timeout", /);
    // install writes the same timeouts again ("Already installed"): it is not the fix
    assert.doesNotMatch(c["timeouts"]!.fix ?? "", /install` again/);
    assert.match((await runCli(["install", "--events", "stop,prompt"], { home })).stdout, /Already installed/);
  }));

Deno.test("doctor --project DIR: a missing settings.local.json is not a warning; a missing file named with --settings is", () =>
  withTempHome(async (home) => {
    const project = join(home, "proj");
    await Deno.mkdir(join(project, ".claude"), { recursive: true });
    assert.equal((await runCli(["install", "--project", project], { home })).code, 0);
    const run = async (...args: string[]) =>
      byId(JSON.parse((await runCli(["doctor", ...args, "--json"], { home, runCommands: [] })).stdout).checks);
    const c = await run("--project", project);
    assert.equal(c["settings-parse"]?.status, "ok", JSON.stringify(c["settings-parse"]));
    const local = join(project, ".claude", "settings.local.json");
    const named = await run("--project", project, "--settings", local);
    assert.equal(named["settings-parse"]?.status, "warn");
    assert.match(named["settings-parse"]!.detail, /settings\.local\.json does not exist/);
    const status = await runCli(["status", "--project", project], { home });
    assert.match(status.stdout, /proj\/\.claude\/settings\.local\.json: not present/);
  }));

Deno.test("doctor: a bad environment variable is fixed in the environment; status shows config.jsonc's value in force", () =>
  withTempHome(async (home) => {
    const env = { CLIFFHANGER_MAX: "abc" };
    const bare = byId(JSON.parse((await runCli(["doctor", "--json"], { home, env, runCommands: [] })).stdout).checks);
    assert.equal(
      bare["config"]?.detail,
      'Bad value for CLIFFHANGER_MAX: "abc": CLIFFHANGER_MAX must be a whole number',
    );
    assert.match(bare["config"]!.fix ?? "", /^set CLIFFHANGER_MAX to a valid value, or unset it/);
    assert.doesNotMatch(bare["config"]!.fix ?? "", /config\.jsonc:/);
    // the bad variable is passed over: the file's value is in force, as docs/configuration.md says
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    await Deno.writeTextFile(join(home, ".cliffhanger", "config.jsonc"), '{ "max": 5 }');
    const status = JSON.parse((await runCli(["status", "--json"], { home, env })).stdout);
    assert.equal(status.cap, 5);
  }));

Deno.test("doctor and status: a rule file's warning (a mistyped disable id, with the id it is nearest) is shown, not only in status --json", async () => {
  const home = await tempHome();
  assert.equal((await runCli(["install"], { home })).code, 0);
  const rules = join(home, ".cliffhanger", "rules");
  await Deno.mkdir(rules, { recursive: true });
  await Deno.writeTextFile(
    join(rules, "mine.json"),
    '{"kind":"early-stop","disable":["offers-to-continu"],"rules":[]}',
  );
  const doctor = await runCli(["doctor", "--json"], { home });
  const c = byId(JSON.parse(doctor.stdout).checks);
  assert.equal(c["rules"]!.status, "warn");
  assert.match(
    c["rules"]!.detail,
    /mine\.json: disable: "offers-to-continu" is not a built-in rule id \(did you mean "offers-to-continue"\?\)/,
  );
  const status = await runCli(["status"], { home });
  assert.match(
    status.stdout,
    /mine\.json: 0 rules\n {4}warning: disable: "offers-to-continu" is not a built-in rule id \(did you mean/,
  );
  // a file of one rule is "1 rule"
  const one = {
    id: "florp",
    description: "d",
    patterns: ["\\bflorp\\b"],
    examples: { match: ["a florp"], pass: ["b"] },
  };
  await Deno.writeTextFile(join(rules, "one.json"), JSON.stringify({ kind: "early-stop", rules: [one] }));
  assert.match((await runCli(["status"], { home })).stdout, /one\.json: 1 rule\n/);
});

Deno.test("doctor under a fixed scope: a project's settings it may not read are 'cannot check', not files that fail to parse", () =>
  withTempHome(async (home) => {
    // a project the binary was not built for (its scopes are those of a bare doctor, as compiled for this home)
    const project = await Deno.makeTempDir({ prefix: "cliffhanger-doctor-project-" });
    try {
      await Deno.mkdir(join(project, ".claude"));
      await Deno.writeTextFile(join(project, ".claude", "settings.json"), "{}");
      const run = await runCli(["doctor", "--project", project, "--json"], {
        home,
        runCommands: [],
        scopeArgs: ["doctor"],
      });
      const c = byId(JSON.parse(run.stdout).checks);
      const files = `${project}/.claude/settings.json and ${project}/.claude/settings.local.json`;
      assert.equal(c["settings-parse"]?.status, "warn", JSON.stringify(c["settings-parse"]));
      assert.equal(c["settings-parse"]!.detail, `cannot check: ${files} are outside this binary's read scope`);
      assert.match(c["duplicates"]!.detail, /^cannot check: 2 settings files are outside this binary's read scope; /);
    } finally {
      await Deno.remove(project, { recursive: true });
    }
  }));

Deno.test("doctor run in a project outside its scope, not named: no warning for its settings; status says unknown", () =>
  withTempHome(async (home) => {
    const project = await Deno.makeTempDir({ prefix: "cliffhanger-doctor-cwd-" });
    try {
      // the scopes of a binary built in the home, run in the project (as `cd / && cliffhanger-bin doctor`)
      const options = { home, cwd: project, scopeCwd: home, runCommands: [] };
      const run = await runCli(["doctor", "--json"], options);
      const c = byId(JSON.parse(run.stdout).checks);
      const files = `${project}/.claude/settings.json and ${project}/.claude/settings.local.json`;
      assert.equal(c["settings-parse"]?.status, "ok", JSON.stringify(c["settings-parse"]));
      assert.equal(
        c["settings-parse"]!.detail,
        `0 settings files parse; not looked at: ${files} are outside this binary's read scope (the project of the ` +
          "folder it runs in; `doctor --project DIR` says how to check one)",
      );
      assert.equal(c["duplicates"]?.status, "ok", JSON.stringify(c["duplicates"]));
      const status = JSON.parse((await runCli(["status", "--json"], options)).stdout);
      const entry = status.settings.find((s: { path: string }) => s.path === `${project}/.claude/settings.json`);
      assert.equal(entry.exists, null, "unknown, not there");
      assert.match(entry.error, /^cannot read: ".*" is outside this binary's read scope \(rebuild for it: /);
      assert.doesNotMatch(entry.error, /--allow-read/);
      const text = (await runCli(["status"], options)).stdout;
      assert.ok(text.includes(`  ${project}/.claude/settings.json: cannot check (outside this binary's read scope)\n`));
    } finally {
      await Deno.remove(project, { recursive: true });
    }
  }));

Deno.test("doctor and status flag what install refuses (hooks given twice) and a key given twice in config.jsonc", () =>
  withTempHome(async (home) => {
    const settings = join(home, ".claude", "settings.json");
    await Deno.writeTextFile(settings, '{"hooks":{"Stop":[]},"hooks":{}}');
    await Deno.mkdir(join(home, ".cliffhanger"), { recursive: true });
    const config = join(home, ".cliffhanger", "config.jsonc");
    await Deno.writeTextFile(config, '{"max":3,"max":4}');
    const twice = '1:22: "hooks" is given twice and only the last counts; merge them into one';
    const key =
      `Key "max" is given more than once in "${config}" (again at 1:10): the last one counts (4); remove the others`;
    const run = await runCli(["doctor", "--json"], { home });
    const c = byId(JSON.parse(run.stdout).checks);
    assert.equal(c["settings-parse"]?.status, "warn");
    assert.equal(c["settings-parse"]!.detail, `${settings}: ${twice}`);
    assert.match(c["settings-parse"]!.fix ?? "", /^merge the copies into one/);
    assert.equal(c["config"]?.status, "fail");
    assert.equal(c["config"]!.detail, key);
    assert.match(c["config"]!.fix ?? "", /a key given more than once takes its last value/);
    const status = await runCli(["status"], { home });
    assert.ok(status.stdout.includes(`  ${settings}: not registered\n    problem: ${twice}\n`), status.stdout);
    assert.ok(status.stdout.includes(`  problem: ${key}\n`), status.stdout);
    assert.match(status.stdout, /cap: 4 per user turn/);
    const json = JSON.parse((await runCli(["status", "--json"], { home })).stdout);
    assert.equal(json.settings[0].repeated, twice);
    assert.deepEqual(json.config.problems, [key]);
    // install refuses the same file, with the same words
    const install = await runCli(["install"], { home });
    assert.equal(install.code, 1);
    assert.match(install.stderr, /1:22: "hooks" is given twice and only the last counts; merge them into one/);
  }));

Deno.test("status and doctor: an absolute relayDir in the home's config.jsonc is said to reach every session", async () => {
  const home = await tempHome();
  assert.equal((await runCli(["install"], { home })).code, 0);
  const plain = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
  assert.equal(plain["relay-dir"]?.status, "ok");
  const config = join(home, ".cliffhanger", "config.jsonc");
  const relay = join(home, "app", "relay");
  await Deno.writeTextFile(config, JSON.stringify({ relayDir: relay }));
  const doctor = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks);
  const check = doctor["relay-dir"]!;
  assert.equal(check.status, "warn");
  assert.ok(check.detail.includes(`"${relay}": every session on this machine`), check.detail);
  // from a checkout, the fix is the install with the variable for that run only
  assert.ok(check.fix?.includes(`CLIFFHANGER_RELAY_DIR=${relay} deno task cli install`), check.fix ?? "");
  const status = await runCli(["status"], { home });
  assert.match(
    status.stdout,
    new RegExp(`\\n  warning: ${config} sets an absolute relayDir, "${relay}": every session`),
  );
  assert.equal(JSON.parse((await runCli(["status", "--json"], { home })).stdout).relay.sharedDir, relay);
});

Deno.test("doctor under deno: settings that run another, older program than this run's launcher warn on binary", async () => {
  const home = await tempHome();
  assert.equal((await runCli(["install"], { home })).code, 0);
  const settings = join(home, ".claude", "settings.json");
  const old = join(home, "old", "cliffhanger-bin");
  await Deno.mkdir(join(home, "old"));
  await Deno.writeTextFile(old, "#!/bin/sh\necho cliffhanger-bin 0.0.1\n");
  await Deno.chmod(old, 0o755);
  const registered = JSON.parse(await Deno.readTextFile(settings));
  for (const event of ["Stop", "SubagentStop"]) registered.hooks[event][0].hooks[0].command = old;
  await Deno.writeTextFile(settings, JSON.stringify(registered, null, 2));
  const binary = byId(JSON.parse((await runCli(["doctor", "--json"], { home })).stdout).checks)["binary"]!;
  assert.equal(binary.status, "warn", binary.detail);
  const launcher = join(home, ".cliffhanger", "bin", "cliffhanger-bin");
  assert.ok(binary.detail.includes(`settings run ${old}, not ${launcher} (the launcher install writes`), binary.detail);
  assert.doesNotMatch(binary.detail, /not compared/);
});
