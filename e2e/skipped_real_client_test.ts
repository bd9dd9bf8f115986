/**
 * Registered, but not run: settings Claude Code 2.1.328 loads without our handler, or with every hook off, and what
 * doctor says of them. Our `install` writes the user settings; each scenario then breaks them the way a hand edit does,
 * runs the client on one scripted offer to continue (which our Stop hook would block), and runs our `doctor` on the same
 * home. In the first two, a shell recorder in the project's settings, a file the edit does not touch, shows that the
 * client did reach Stop.
 *
 * - a Stop handler of ours whose `timeout` is the string "60": the client skips that handler (no decision logged), and
 *   doctor fails `registered`, naming the key and `install` as the fix;
 * - another tool's PreToolUse handler with a string timeout in the same file: the client ignores the whole file, so
 *   neither our Stop nor our UserPromptSubmit hook runs; doctor names that entry; the same for a top-level key given a
 *   value that does not fit (`"permissions": { "allow": "Bash(git status)" }`, not a list): doctor names the key;
 * - `"disableAllHooks": true` in the user settings: no hook runs, and doctor names the file; with the project's own
 *   settings saying false, the offer is blocked again (the project's file wins over the user's);
 * - `"async": true` on our Stop handler: the client starts it in the background and does not wait for its answer, so
 *   the offer ends the run; doctor fails `registered`, and after our `install` the same offer is blocked.
 *
 * Every shape and top-level key is measured in src/settings/client_schema_test.ts and every precedence in
 * src/doctor/hooks_off_test.ts; these keep the premise checked against the client itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { decisions, describeRun } from "./checks.ts";
import { denoDir, passthroughEnv, runScenario, type ScenarioRun } from "./harness.ts";
import { runProcess } from "./process.ts";
import type { Sandbox } from "./sandbox.ts";
import type { Script } from "./script.ts";
import { cliArgs, SHELL_RECORDER } from "./settings.ts";

const OFFER: Script = {
  prompt: "migrate the call sites",
  allowedTools: "Bash",
  replies: [{
    content: [{ type: "text", text: "Two of five call sites migrated. Want me to continue with the rest?" }],
  }],
};

type Settings = {
  hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
  permissions?: Record<string, unknown>;
};

/** Edits the user settings install wrote, and puts a Stop recorder in the project's own settings. */
async function breakSettings(sandbox: Sandbox, change: (settings: Settings) => void): Promise<void> {
  const settings = JSON.parse(await Deno.readTextFile(sandbox.settingsFile)) as Settings;
  change(settings);
  await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify(settings, null, 2) + "\n");
  const recorder = { type: "command", command: "sh", args: ["-c", SHELL_RECORDER] };
  await Deno.mkdir(join(sandbox.project, ".claude"), { recursive: true });
  await Deno.writeTextFile(
    join(sandbox.project, ".claude", "settings.json"),
    JSON.stringify({ hooks: { Stop: [{ hooks: [recorder] }] } }, null, 2) + "\n",
  );
}

/** Our CLI on the sandbox's home, run as a user runs it, from the project. */
async function ourCli(sandbox: Sandbox, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return await runProcess(Deno.execPath(), {
    args: [...cliArgs(sandbox), ...args],
    cwd: sandbox.project,
    env: {
      ...passthroughEnv(),
      HOME: sandbox.home,
      CLIFFHANGER_HOME: sandbox.cliffhangerHome,
      DENO_DIR: await denoDir(),
      DENO_NO_UPDATE_CHECK: "1",
    },
    clearEnv: true,
    timeoutMs: 60_000,
  });
}

/** `doctor --json` on the sandbox's home: its `registered` check. */
async function doctorRegistered(sandbox: Sandbox): Promise<{ status: string; detail: string; fix: string | null }> {
  const out = await ourCli(sandbox, ["doctor", "--json"]);
  assert.equal(out.code, 1, `doctor should fail:\n${out.stdout}\n${out.stderr}`);
  const checks = JSON.parse(out.stdout).checks as { id: string; status: string; detail: string; fix: string | null }[];
  return checks.find((c) => c.id === "registered")!;
}

/** The client ran to the end on the one reply, our hooks logged nothing, and the recorder saw the Stop. */
function assertStopNotRun(run: ScenarioRun): void {
  const why = describeRun(run);
  assert.equal(run.exitCode, 0, why);
  assert.equal(run.result?.subtype, "success", why);
  assert.equal(run.played, 1, why);
  assert.equal(run.overruns, 0, `the offer was blocked: our Stop hook ran\n  ${why}`);
  assert.deepEqual(run.rawLog, [], why);
  assert.deepEqual(run.hookEvents.map((e) => e.event), ["Stop"], `the client did not reach Stop\n  ${why}`);
}

Deno.test("real client: a Stop handler of ours with a string timeout is skipped; doctor fails registered", async () => {
  let registered: Awaited<ReturnType<typeof doctorRegistered>> | null = null;
  const run = await runScenario(OFFER, {
    setup: async (sandbox) => {
      await breakSettings(sandbox, (s) => void (s.hooks.Stop![0]!.hooks[0]!.timeout = "60"));
      registered = await doctorRegistered(sandbox);
    },
  });
  assertStopNotRun(run);
  assert.equal(registered!.status, "fail");
  assert.match(registered!.detail, /Claude Code skips our Stop handler .*"timeout" is "60", not a positive number/);
  assert.match(registered!.fix ?? "", /install --settings .*settings\.json --events stop$/);
});

Deno.test("real client: another tool's PreToolUse entry, or a top-level key that does not fit, makes it ignore our file", async () => {
  let registered: Awaited<ReturnType<typeof doctorRegistered>> | null = null;
  const run = await runScenario(OFFER, {
    events: "stop,prompt",
    setup: async (sandbox) => {
      await breakSettings(sandbox, (s) => {
        s.hooks.PreToolUse = [{ matcher: "Bash", hooks: [{ type: "command", command: "true", timeout: "30" }] }];
      });
      registered = await doctorRegistered(sandbox);
    },
  });
  // neither Stop nor UserPromptSubmit ran ours: the prompt hook logs a line on every prompt
  assertStopNotRun(run);
  assert.equal(registered!.status, "fail");
  assert.match(
    registered!.detail,
    /^Claude Code ignores the whole file .*hooks\.PreToolUse\[0\]\.hooks\[0\]: "timeout"/,
  );
  assert.match(registered!.fix ?? "", /fix or remove hooks\.PreToolUse\[0\]\.hooks\[0\]/);

  // a top-level key the client knows, given a value that does not fit: the same, and doctor names the key
  let byKey: Awaited<ReturnType<typeof doctorRegistered>> | null = null;
  const key = await runScenario(OFFER, {
    events: "stop,prompt",
    setup: async (sandbox) => {
      await breakSettings(sandbox, (s) => void (s.permissions = { allow: "Bash(git status)" }));
      byKey = await doctorRegistered(sandbox);
    },
  });
  assertStopNotRun(key);
  assert.equal(byKey!.status, "fail");
  assert.match(
    byKey!.detail,
    /^Claude Code ignores the whole file .*"permissions\.allow" is "Bash\(git status\)", not a list/,
  );
  assert.match(byKey!.fix ?? "", /fix or remove "permissions\.allow"/);
});

Deno.test("real client: disableAllHooks true in the user settings runs no hook; the project's false turns them back on", async () => {
  let registered: Awaited<ReturnType<typeof doctorRegistered>> | null = null;
  const off = await runScenario(OFFER, {
    events: "stop,prompt",
    setup: async (sandbox) => {
      const settings = JSON.parse(await Deno.readTextFile(sandbox.settingsFile));
      await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify({ ...settings, disableAllHooks: true }, null, 2));
      registered = await doctorRegistered(sandbox);
    },
  });
  const why = describeRun(off);
  assert.equal(off.result?.subtype, "success", why);
  assert.deepEqual([off.played, off.overruns], [1, 0], `the offer was blocked: a hook ran\n  ${why}`);
  assert.deepEqual(off.rawLog, [], why);
  assert.equal(registered!.status, "fail");
  assert.match(registered!.detail, /^"disableAllHooks" is true in .*settings\.json: Claude Code runs no hook/);

  // the same user settings, and the project's own settings.json saying false: the offer is blocked once
  const finish = { content: [{ type: "text" as const, text: "All five call sites migrated; tests pass." }] };
  const on = await runScenario({ ...OFFER, replies: [...OFFER.replies, finish] }, {
    setup: async (sandbox) => {
      const settings = JSON.parse(await Deno.readTextFile(sandbox.settingsFile));
      await Deno.writeTextFile(sandbox.settingsFile, JSON.stringify({ ...settings, disableAllHooks: true }, null, 2));
      await Deno.mkdir(join(sandbox.project, ".claude"), { recursive: true });
      await Deno.writeTextFile(join(sandbox.project, ".claude", "settings.json"), '{ "disableAllHooks": false }\n');
    },
  });
  assert.deepEqual(decisions(on.log), [
    { action: "block", rule: "offers-to-continue" },
    { action: "allow", rule: "no-pattern" },
  ], describeRun(on));
});

Deno.test("real client: async on our Stop handler lets an offer end the run; doctor fails registered; install fixes it", async () => {
  let registered: Awaited<ReturnType<typeof doctorRegistered>> | null = null;
  const async = await runScenario(OFFER, {
    setup: async (sandbox) => {
      await breakSettings(sandbox, (s) => void (s.hooks.Stop![0]!.hooks[0]!.async = true));
      registered = await doctorRegistered(sandbox);
    },
  });
  // the client ran our hook in the background and went on: the offer is the result of a one-reply run (whether the
  // hook got as far as logging before the client exited is not asserted)
  const why = describeRun(async);
  assert.equal(async.exitCode, 0, why);
  assert.equal(async.result?.result, "Two of five call sites migrated. Want me to continue with the rest?", why);
  assert.deepEqual([async.played, async.overruns], [1, 0], `the offer was blocked\n  ${why}`);
  assert.deepEqual(async.hookEvents.map((e) => e.event), ["Stop"], `the client did not reach Stop\n  ${why}`);
  assert.equal(registered!.status, "fail");
  assert.match(
    registered!.detail,
    /\(hooks\.Stop\[0\]\.hooks\[0\]\.async\): "async" is true: Claude Code runs the hook/,
  );
  assert.match(registered!.fix ?? "", /install --settings .*settings\.json --events stop \(it removes "async"/);

  // the same settings, then our install: it removes the key, and the offer is blocked once
  let installed = "";
  const finish = { content: [{ type: "text" as const, text: "All five call sites migrated; tests pass." }] };
  const fixed = await runScenario({ ...OFFER, replies: [...OFFER.replies, finish] }, {
    setup: async (sandbox) => {
      await breakSettings(sandbox, (s) => void (s.hooks.Stop![0]!.hooks[0]!.async = true));
      const out = await ourCli(sandbox, ["install", "--settings", sandbox.settingsFile]);
      assert.equal(out.code, 0, out.stderr);
      installed = out.stdout;
    },
  });
  assert.match(installed, /^Removed "async": true from the cliffhanger handler for Stop in /);
  assert.deepEqual(decisions(fixed.log), [
    { action: "block", rule: "offers-to-continue" },
    { action: "allow", rule: "no-pattern" },
  ], describeRun(fixed));
  assert.equal(fixed.result?.result, "All five call sites migrated; tests pass.");
});
