/**
 * The hooks registered twice, in the user settings and in the project settings, inside the real Claude Code client:
 * both copies of `hook pretool` and of `hook stop` run for every call and every stop, and the agent gets one
 * consistent answer. The user settings are our own `install --events stop,pretool`: the home's launcher in exec form
 * (`{"command": "<home>/.cliffhanger/bin/cliffhanger-bin", "args": ["hook", "pretool"]}`). The project's
 * `.claude/settings.json` runs what that launcher execs, without it:
 * `{"command": "<deno>", "args": ["run", <scopes>…, "<checkout>/main.ts", "hook", "pretool"]}`, as a checkout install
 * registered the hook before the launcher existed. The two run the same program under the same scopes.
 *
 * Which copies Claude Code 2.1.328 runs (seen with `--include-hook-events`, which puts a `hook_started` and a
 * `hook_response` message in the stream-json output for each handler it runs):
 * - an exact copy of our handler in the project file runs once, also when only its `timeout` differs (the second
 *   test keeps this premise checked);
 * - handlers whose command or args differ as text run once each, even when they do the same thing: the launcher
 *   beside the deno line it execs (exec form, this test), the exec form beside the same words as one shell string
 *   (`<launcher> hook pretool`, quoted or not). The stop_hook_summary's `hookInfos` names each command.
 *
 * Each of the two copies of a call's hook gets the same payload, the same `tool_use_id`. The first to take the
 * session's lock decides and records the call; the second finds that id answered and gives the same answer without
 * recording it again. The script calls Bash `echo one` three times, then `echo two`, then offers to continue, then
 * reports. Counted twice, the 2nd `echo one` would be the 4th identical call, and denied. Here every call runs (its
 * output is the tool_result the model gets), the 3rd is warned by both copies and logged once, and the history holds
 * four calls. The offer is blocked by both copies with the same reason (logged and counted once), and the report is
 * allowed by both.
 *
 * The copies start close together, not at once: one was seen starting up to ~110 ms after the other, after the first
 * copy had already answered. So a copy is told from a repeat by its id alone (Claude Code never gives two calls one
 * id), and a Stop copy by the transcript's count of finished stops (up to 5 s after the first answered).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertCompleted, assertLogShape, decisions, describeRun, requestForStep, toolResult } from "./checks.ts";
import type { JsonLine, ScenarioRun } from "./harness.ts";
import { runScenario } from "./harness.ts";
import { disposeSandbox, type Sandbox } from "./sandbox.ts";
import type { Script } from "./script.ts";
import { assertNoHookFailure, attachments, stopFeedback, stopHookSummaries } from "./transcript.ts";

const EVENTS = "stop,pretool";
const OFFER = "Both checks print what they should. Want me to continue with the rest?";
const REPORT = "Checked: `echo one` prints one, `echo two` prints two. Nothing else to do.";

const SCRIPT: Script = {
  prompt: "check that the echo commands work",
  allowedTools: "Bash",
  replies: [
    {
      content: [
        { type: "text", text: "Running the first check." },
        { type: "tool_use", name: "Bash", input: { command: "echo one", description: "Print one" } },
      ],
    },
    { content: [{ type: "tool_use", name: "Bash", input: { command: "echo one", description: "Print one" } }] },
    { content: [{ type: "tool_use", name: "Bash", input: { command: "echo one", description: "Print one" } }] },
    { content: [{ type: "tool_use", name: "Bash", input: { command: "echo two", description: "Print two" } }] },
    { content: [{ type: "text", text: OFFER }] },
    { content: [{ type: "text", text: REPORT }] },
  ],
};

/** Mock tool-use ids are `toolu_msg_mock_<message>_<block>`; the first reply has a text block first. */
const CALLS = [
  { id: "toolu_msg_mock_1_1", output: "one" },
  { id: "toolu_msg_mock_2_0", output: "one" },
  { id: "toolu_msg_mock_3_0", output: "one" },
  { id: "toolu_msg_mock_4_0", output: "two" },
];
const WARNED = 2;

interface Registration {
  /** How the stop_hook_summary names the user settings' Stop handler, and the project's. */
  userStop: string;
  projectStop: string;
}

type Handler = { type: string; command: string; args?: string[]; timeout?: number };
type Settings = { hooks: Record<string, { matcher?: string; hooks: Handler[] }[]> };

/** How the client names an exec-form handler (in `hookInfos`): the command and its args, joined by spaces. */
function shown(handler: Handler): string {
  return [handler.command, ...(handler.args ?? [])].join(" ");
}

/** The words of the launcher's `exec '<deno>' '<arg>' … "$@"` line (install quotes each one in single quotes). */
function launcherWords(text: string, launcher: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith("exec "));
  assert.ok(line !== undefined && line.endsWith(` "$@"`), `the launcher has no exec line: ${launcher}\n${text}`);
  const quoted = line.slice("exec ".length, -` "$@"`.length);
  const words = [...quoted.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll(`'\\''`, "'"));
  assert.equal(words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" "), quoted, "the exec line's quoting");
  return words;
}

/**
 * `<project>/.claude/settings.json` with every handler of the user settings (install's: the launcher, exec form)
 * either as it is (`same`) or as the deno command line the launcher execs, with the handler's args (`direct`).
 */
async function registerInProject(sandbox: Sandbox, how: "direct" | "same"): Promise<Registration> {
  const user = JSON.parse(await Deno.readTextFile(sandbox.settingsFile)) as Settings;
  const handlers = Object.values(user.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks));
  const launcher = handlers[0]?.command ?? "";
  assert.ok(
    handlers.length > 0 && handlers.every((h) => h.command === launcher && h.args?.length === 2),
    `install did not register the launcher in exec form: ${JSON.stringify(user)}`,
  );
  const [deno, ...prefix] = launcherWords(await Deno.readTextFile(launcher), launcher);
  assert.equal(deno, Deno.execPath(), "the launcher runs another deno");
  const project: Settings = structuredClone(user);
  if (how === "direct") {
    for (const handler of Object.values(project.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks))) {
      handler.command = deno;
      handler.args = [...prefix, ...handler.args!];
    }
  }
  await Deno.mkdir(join(sandbox.project, ".claude"), { recursive: true });
  await Deno.writeTextFile(join(sandbox.project, ".claude", "settings.json"), JSON.stringify(project, null, 2) + "\n");
  const stop = (settings: Settings) => shown(settings.hooks.Stop![0]!.hooks[0]!);
  return { userStop: stop(user), projectStop: stop(project) };
}

/** One handler the client ran, from its `hook_started` / `hook_response` messages (`--include-hook-events`). */
interface HookRun {
  id: string;
  name: string;
  /** For PreToolUse, the tool_use it ran for (the newest one the model asked for); for Stop, which stop (0-based). */
  at: string | number;
  stdout: string | null;
  exitCode: unknown;
  outcome: unknown;
}

function hookRuns(output: readonly JsonLine[]): HookRun[] {
  const runs = new Map<string, HookRun>();
  let toolUse = "";
  let stops = -1;
  let stopSeen = false;
  for (const message of output) {
    if (message.type === "assistant") {
      const content = ((message.message as JsonLine | undefined)?.content ?? []) as JsonLine[];
      for (const block of content) if (block.type === "tool_use") toolUse = String(block.id);
      stopSeen = false;
      continue;
    }
    if (message.type !== "system") continue;
    const id = String(message.hook_id);
    if (message.subtype === "hook_started") {
      const name = String(message.hook_name);
      if (message.hook_event === "Stop" && !stopSeen) {
        stops++;
        stopSeen = true;
      }
      const at = message.hook_event === "Stop" ? stops : toolUse;
      runs.set(id, { id, name, at, stdout: null, exitCode: null, outcome: null });
    } else if (message.subtype === "hook_response") {
      const run = runs.get(id);
      assert.ok(run, `hook_response without hook_started: ${JSON.stringify(message)}`);
      Object.assign(run, { stdout: message.stdout, exitCode: message.exit_code, outcome: message.outcome });
    }
  }
  return [...runs.values()];
}

function pick(line: JsonLine, keys: readonly string[]): JsonLine {
  return Object.fromEntries(keys.map((k) => [k, line[k]]));
}

async function runDouble(how: "direct" | "same"): Promise<{ run: ScenarioRun; registration: Registration }> {
  let registration: Registration | undefined;
  const run = await runScenario(SCRIPT, {
    events: EVENTS,
    inputFormat: "stream-json",
    args: ["--include-hook-events"],
    keepSandbox: true,
    setup: async (sandbox) => {
      registration = await registerInProject(sandbox, how);
    },
  });
  assert.ok(registration, "setup did not run");
  return { run, registration };
}

Deno.test("real client double registration: user and project settings each run the hooks; one answer per call and stop", async () => {
  const { run, registration } = await runDouble("direct");
  try {
    const why = describeRun(run);
    assertCompleted(run, SCRIPT.replies.length);
    assertNoHookFailure(run.transcript);
    assertLogShape(run);
    const runs = hookRuns(run.output);
    assert.ok(runs.every((r) => r.exitCode === 0 && r.outcome === "success"), JSON.stringify(runs));

    // Both copies ran for every call, and answered alike: nothing, except both warn the 3rd call.
    const pretool = runs.filter((r) => r.name === "PreToolUse:Bash");
    assert.deepEqual(pretool.map((r) => r.at), CALLS.flatMap((c) => [c.id, c.id]), `PreToolUse runs\n  ${why}`);
    CALLS.forEach((call, i) => {
      const [first, second] = pretool.filter((r) => r.at === call.id);
      assert.equal(first!.stdout, second!.stdout, `the two copies answered ${call.id} differently`);
      if (i === WARNED) {
        const out = JSON.parse(first!.stdout!) as { hookSpecificOutput: JsonLine };
        assert.equal(out.hookSpecificOutput.permissionDecision, undefined, `the 3rd call was denied: ${first!.stdout}`);
        assert.match(String(out.hookSpecificOutput.additionalContext), /^anti-loop-guard warning: this is the 3rd /);
      } else {
        assert.equal(first!.stdout, "", `call ${i + 1} was not passed silently: ${first!.stdout}`);
      }
    });

    // No call was denied: each one ran, and its output is the tool_result the model got next.
    CALLS.forEach((call, i) => {
      assert.deepEqual(toolResult(requestForStep(run, i + 1), call.id), { text: call.output, isError: false }, why);
    });
    assert.deepEqual(attachments(run.transcript, "hook_blocking_error").filter((a) => a.hookEvent !== "Stop"), []);
    // the client hands the model each copy's (identical) warning, in one attachment for the call
    const warning = String(
      (JSON.parse(pretool.find((r) => r.at === CALLS[WARNED]!.id)!.stdout!) as { hookSpecificOutput: JsonLine })
        .hookSpecificOutput.additionalContext,
    );
    const warnings = attachments(run.transcript, "hook_additional_context").filter((a) => a.hookEvent === "PreToolUse");
    assert.deepEqual(warnings.map((a) => [a.toolUseID, a.content]), [[CALLS[WARNED]!.id, [warning, warning]]], why);

    // The copy that came second left no trace of its own: one warn line, four calls in the history.
    const loop = run.rawLog.filter((l) => l.kind === "loop");
    assert.deepEqual(loop.map((l) => pick(l, ["action", "pattern", "repeats", "tool"])), [
      { action: "warn", pattern: "burst", repeats: 3, tool: "Bash" },
    ], why);
    const session = String(run.result?.session_id);
    const state = (name: string) => Deno.readTextFile(join(run.sandbox.cliffhangerHome, "state", name));
    const loopState = JSON.parse(await state(`${session}.loop.json`)) as { history: JsonLine[]; answered: JsonLine[] };
    assert.deepEqual(loopState.history.map((h) => [h.desc, h.denied]), [
      ["echo one", false],
      ["echo one", false],
      ["echo one", false],
      ["echo two", false],
    ]);
    assert.deepEqual(loopState.answered.map((a) => a.id), CALLS.map((c) => c.id));

    // Stop: both copies ran at each stop (the summary names both commands) and gave the same decision.
    const summaries = stopHookSummaries(run.transcript);
    const infos = run.transcript.filter((l) => l.type === "system" && l.subtype === "stop_hook_summary");
    assert.deepEqual(infos.map((l) => (l.hookInfos as JsonLine[]).map((h) => h.command).sort()), [
      [registration.userStop, registration.projectStop].sort(),
      [registration.userStop, registration.projectStop].sort(),
    ], why);
    const stops = runs.filter((r) => r.name === "Stop");
    assert.deepEqual(stops.map((r) => r.at), [0, 0, 1, 1], why);
    const [offerA, offerB, reportA, reportB] = stops.map((r) => r.stdout);
    assert.equal(offerA, offerB, "the two copies decided the offer differently");
    const block = JSON.parse(offerA!) as { decision: string; reason: string };
    assert.equal(block.decision, "block");
    assert.deepEqual([reportA, reportB], ["", ""], "the final report was not allowed by both copies");
    // the client hands the model each copy's (identical) reason
    assert.deepEqual(summaries[0]!.hookErrors, [block.reason, block.reason]);
    assert.deepEqual(stopFeedback(run.transcript), [block.reason, block.reason], why);

    // Logged and counted once: one block, one allow, one stall check per stop; the turn has one block.
    assert.deepEqual(decisions(run.log), [
      { action: "block", rule: "offers-to-continue" },
      { action: "allow", rule: "no-pattern" },
    ], why);
    assert.deepEqual(run.stallLog.map((l) => l.name), ["healthy_stop", "healthy_stop"], why);
    const stopState = JSON.parse(await state(`${session}.json`)) as { turn: { blocks: number }; recent: JsonLine[] };
    assert.equal(stopState.turn.blocks, 1, "the block was counted twice");
    assert.equal(stopState.recent.length, 2, "a copy was remembered as a stop of its own");
    assert.equal(run.result?.result, REPORT);
  } finally {
    await disposeSandbox(run.sandbox);
  }
});

Deno.test("real client double registration: an exact copy of our handler in the project settings runs once", async () => {
  const { run, registration } = await runDouble("same");
  try {
    const why = describeRun(run);
    assertCompleted(run, SCRIPT.replies.length);
    assertNoHookFailure(run.transcript);
    const runs = hookRuns(run.output);
    assert.deepEqual(
      runs.filter((r) => r.name === "PreToolUse:Bash").map((r) => r.at),
      CALLS.map((c) => c.id),
      `an identical PreToolUse handler ran more than once\n  ${why}`,
    );
    assert.deepEqual(runs.filter((r) => r.name === "Stop").map((r) => r.at), [0, 1], why);
    const infos = run.transcript.filter((l) => l.type === "system" && l.subtype === "stop_hook_summary");
    assert.deepEqual(infos.map((l) => (l.hookInfos as JsonLine[]).map((h) => h.command)), [
      [registration.userStop],
      [registration.userStop],
    ]);
    assert.deepEqual(stopFeedback(run.transcript).length, 1, why);
  } finally {
    await disposeSandbox(run.sandbox);
  }
});
