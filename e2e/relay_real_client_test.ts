/**
 * The relay end to end against the real Claude Code client (issue 5): a `claude -p` session finishes its first task;
 * with `relay/ACTIVE` present our Stop hook waits on the mailbox; the test, acting as the manager, runs `relay send`
 * while the client runs; the hook hands the instruction over as the Stop block reason, the mock model receives it as
 * Stop hook feedback and its scripted Write calls put the report in relay/to-agent.md; the manager reads it with
 * `relay read`, and `relay off` (STOP) lets the next stop through, so the session ends with a success.
 *
 * The hook command is our own `install`'s, with `<project>/relay` (and `<project>/PROGRESS.md`) added to its read and
 * write scope as a `compile --relay-dir` build has them (harness option `relayDirs`). Waits are kept short through
 * CLIFFHANGER_RELAY_POLL_S and CLIFFHANGER_RELAY_MAX_WAIT_S, well under the Stop handler's 60 s timeout.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeStderr } from "../src/output.ts";
import { type CliRun, runCli } from "../src/testing/run_cli.ts";
import {
  assertCompleted,
  assertLogShape,
  assertModelWasSent,
  decisions,
  describeRun,
  requestForStep,
} from "./checks.ts";
import { type JsonLine, type LiveSession, runScenario, type ScenarioRun } from "./harness.ts";
import { disposeSandbox, makeSandbox, type Sandbox } from "./sandbox.ts";
import { loadScript } from "./script.ts";
import { assertNoHookFailure, attachments, stopFeedback } from "./transcript.ts";

const INSTRUCTION = "Now write USAGE.md: one line on how to call parse(text).";
const REPORT = "USAGE.md now explains parse(text).";
const FINAL = "USAGE.md is written and the report is in relay/to-agent.md.";
const POLL_S = 0.2;
const MAX_WAIT_S = 20;

const relayDir = (sandbox: Sandbox): string => join(sandbox.project, "relay");

/** `cliffhanger-bin relay <args> --dir <project>/relay`, run from the project as a manager would. */
function manager(sandbox: Sandbox, args: string[]): Promise<CliRun> {
  return runCli(["relay", ...args, "--dir", relayDir(sandbox)], {
    home: sandbox.home,
    cwd: sandbox.project,
    relayDirs: [relayDir(sandbox)],
  });
}

function readOr(path: string, fallback = ""): string {
  return existsSync(path) ? readFileSync(path, "utf8") : fallback;
}

function assertOk(run: CliRun, what: string): void {
  assert.equal(run.code, 0, `${what} failed (exit ${run.code}): ${run.stderr}${run.stdout}`);
}

Deno.test("real client relay: a finished session takes the manager's next instruction, reports, and ends on relay off", async () => {
  const manage: Record<"on" | "send" | "read" | "off", CliRun | null> = { on: null, send: null, read: null, off: null };
  let stopHandler: JsonLine | undefined;
  let toAgentAtRead = "";

  let driveError: unknown;
  const drive = async (live: LiveSession): Promise<void> => {
    try {
      await actAsManager(live);
    } catch (e) {
      // let the held stop go at once and finish the run, so the failure comes with the run's account
      driveError = e;
      await manager(live.sandbox, ["off"]);
    }
  };
  const actAsManager = async (live: LiveSession): Promise<void> => {
    const log = join(relayDir(live.sandbox), "log.md");
    // 1. the first task is done and the stop is held open: the hook announces its wait in log.md
    await live.waitFor(
      "the hook's first relay wait",
      () => readOr(log).includes("hook: waiting for the manager (turn > 0"),
    );
    manage.send = await manager(live.sandbox, ["send", INSTRUCTION]);
    assertOk(manage.send, "relay send");
    // 2. the agent carries it out, writes its report, and stops again: the hook waits for turn 2
    await live.waitFor(
      "the hook's second relay wait",
      () => readOr(log).includes("hook: waiting for the manager (turn > 1"),
    );
    toAgentAtRead = readOr(join(relayDir(live.sandbox), "to-agent.md"));
    manage.read = await manager(live.sandbox, ["read"]);
    // 3. STOP: the waiting stop ends at its next poll, the session may end
    manage.off = await manager(live.sandbox, ["off"]);
    assertOk(manage.off, "relay off");
  };

  const sandbox = await makeSandbox();
  try {
    const run = await runScenario(loadScript("relay_second_instruction"), {
      sandbox,
      env: { CLIFFHANGER_RELAY_POLL_S: String(POLL_S), CLIFFHANGER_RELAY_MAX_WAIT_S: String(MAX_WAIT_S) },
      relayDirs: (sandbox) => [relayDir(sandbox)],
      setup: async (sandbox) => {
        const settings = JSON.parse(readFileSync(sandbox.settingsFile, "utf8"));
        stopHandler = settings.hooks?.Stop?.[0]?.hooks?.[0];
        manage.on = await manager(sandbox, ["on"]);
        assertOk(manage.on, "relay on");
      },
      drive,
    });
    try {
      assertRun(run);
    } catch (e) {
      reportRun(run);
      throw e;
    }
  } finally {
    await disposeSandbox(sandbox);
  }

  function assertRun(run: ScenarioRun): void {
    const why = describeRun(run);
    const dir = relayDir(run.sandbox);
    assert.equal(driveError, undefined, `the manager side failed: ${driveError}\n  ${why}`);
    // The registered Stop handler: our install's, with the relay folder in scope and time for the whole wait.
    // install from a checkout registers a launcher that execs deno with the scopes: its exec line holds the flags
    const command = String(stopHandler?.command ?? "");
    const launched = command.endsWith("/bin/cliffhanger-bin")
      ? [...Deno.readTextFileSync(command).matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll("'\\''", "'"))
      : [];
    const args = [...launched, ...((stopHandler?.args ?? []) as string[])];
    const scope = (flag: string) => args.find((a) => a.startsWith(`${flag}=`)) ?? "";
    for (const flag of ["--allow-read", "--allow-write"]) {
      assert.ok(scope(flag).split(",").includes(dir), `${flag} lacks ${dir}: ${scope(flag)}`);
      assert.ok(scope(flag).split(",").includes(join(run.sandbox.project, "PROGRESS.md")), `${flag} lacks PROGRESS.md`);
    }
    assert.deepEqual(args.slice(-2), ["hook", "stop"]);
    assert.ok(Number(stopHandler?.timeout) > MAX_WAIT_S + 15, `Stop timeout ${stopHandler?.timeout} s is too short`);

    // The session: three script replies, a success, no hook failure, nothing in errors.log.
    assertCompleted(run, 3);
    assertNoHookFailure(run.transcript);
    assertLogShape(run);
    assert.equal(run.result?.result, FINAL, why);

    // Decisions: the first stop allowed by the guard then blocked by the relay with turn 1; the last one allowed.
    assert.deepEqual(decisions(run.log), [
      { action: "allow", rule: "no-pattern" },
      { action: "block", rule: "relay-turn" },
      { action: "allow", rule: "no-pattern" },
    ], why);
    assert.equal(run.log[1]?.relayTurn, 1);
    assert.equal(run.log[1]?.observe, false);

    // The instruction reached the model as the Stop hook feedback, with where and how to report.
    const feedback = stopFeedback(run.transcript);
    assert.equal(feedback.length, 1, why);
    const reason = feedback[0]!;
    assert.match(reason, /^RELAY: a new instruction arrived from the manager \(turn 1\)\. Do not stop\./);
    assert.ok(
      reason.includes(`write your report to ${join(dir, "to-agent.md")}, starting with the line "turn: 1"`),
      reason,
    );
    assert.ok(reason.endsWith(`--- instruction, turn 1 ---\n${INSTRUCTION}`), reason);
    assert.equal(attachments(run.transcript, "hook_blocking_error").length, 1, why);
    const continued = requestForStep(run, 1);
    assertModelWasSent(continued, "Stop hook blocking error from command:");
    assertModelWasSent(continued, INSTRUCTION);
    assertModelWasSent(continued, reason);

    // The agent's tool calls did the work and wrote the report; the manager read it.
    assert.equal(readOr(join(run.sandbox.project, "USAGE.md")), "Call parse(text) to get the tree.\n");
    const report = `turn: 1\n\n${REPORT}\n`;
    assert.equal(toAgentAtRead, report, "to-agent.md when the hook waited again");
    assert.equal(readOr(join(dir, "to-agent.md")), report);
    assert.ok(manage.read, "relay read did not run");
    assertOk(manage.read, "relay read");
    assert.ok(manage.read.stdout.includes("turn: 1") && manage.read.stdout.includes(REPORT), manage.read.stdout);
    assert.equal(JSON.parse(readOr(join(dir, "manager-state.json"), "{}")).last_agent_turn_consumed, 1);
    assert.equal(JSON.parse(readOr(join(dir, "state.json"), "{}")).last_code_turn_consumed, 1);
    assert.ok(existsSync(join(dir, "STOP")), "relay off did not create STOP");

    // log.jsonl: the relay's own events, in order, for this session and mailbox.
    const relayLog = run.rawLog.filter((l) => l.kind === "relay");
    assert.deepEqual(relayLog.map((l) => [l.name, l.turn, l.detail]), [
      ["wait_started", null, null],
      ["turn_taken", 1, null],
      ["wait_started", null, null],
      ["stop_exit", null, "during"],
    ], JSON.stringify(relayLog));
    for (const line of relayLog) {
      assert.equal(line.session, run.result?.session_id);
      assert.equal(line.event, "Stop");
      assert.equal(line.dir, dir);
      assert.equal(line.cwd, run.sandbox.project);
    }
    assert.deepEqual(relayLog.map((l) => l.lastConsumed), [0, 1, 1, 1]);
    const exit = relayLog[3]!;
    assert.ok(Number(exit.waitedS) < MAX_WAIT_S, `the last stop waited ${exit.waitedS} s: not ended by STOP`);

    // log.md: both sides' records.
    const logMd = readOr(join(dir, "log.md"));
    for (
      const line of [
        "manager: relay on",
        `manager: turn 1 sent: ${INSTRUCTION}`,
        "manager: report turn 1 read",
        "hook: turn 1 taken from the manager",
        "manager: relay off (STOP created)",
        "hook: relay STOP appeared while waiting - session allowed to end",
      ]
    ) {
      assert.ok(logMd.includes(line), `log.md lacks ${JSON.stringify(line)}:\n${logMd}`);
    }
  }
});

/** On failure: the mailbox's log.md and our log.jsonl, which the assertion messages do not carry. */
function reportRun(run: ScenarioRun): void {
  writeStderr(`relay/log.md:\n${readOr(join(relayDir(run.sandbox), "log.md"), "(no log.md)\n")}`);
  writeStderr(`log.jsonl:\n${run.rawLog.map((l) => JSON.stringify(l)).join("\n")}\n`);
}
