/**
 * `hook prompt` (UserPromptSubmit) and `hook pretool` (PreToolUse) inside the real Claude Code client, registered
 * by our own `install --events stop,prompt,pretool`: the wall clock, the length nudge and the model notes reach the
 * model in its request, and a scripted agent that repeats the same Bash call is warned (next to the tool result)
 * and then denied (the denial reason is the tool_result the model gets). The Stop guard runs too, so every
 * scenario also shows that the three hooks live side by side without a hook failure.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertCompleted,
  assertLogShape,
  assertModelWasSent,
  decisions,
  describeRun,
  requestForStep,
  toolResult,
} from "./checks.ts";
import type { JsonLine, ScenarioRun } from "./harness.ts";
import { runScenario } from "./harness.ts";
import { messageTexts } from "./mock_api.ts";
import { disposeSandbox } from "./sandbox.ts";
import { loadScript } from "./script.ts";
import { assertNoHookFailure, attachments } from "./transcript.ts";

const EVENTS = "stop,prompt,pretool";
/** A zone without DST, so the expected clock line is plain arithmetic on the log's timestamp. */
const ZONE = "Asia/Tokyo";
const SHORT_NUDGE = (words: number) =>
  `<answer-length>The user asked a short question (${words} words): answer in one or two sentences, no headers, ` +
  "no bullets, no preamble.</answer-length>";

Deno.test("real client prompt hook: a short question gets the wall clock and the terse nudge in the request", async () => {
  const run = await runScenario(loadScript("prompt_short_question"), { events: EVENTS, env: { CLIFFHANGER_TZ: ZONE } });
  const why = describeRun(run);
  assertCompleted(run, 1);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "no-pattern" }], why);

  const [line] = promptLines(run);
  assert.equal(promptLines(run).length, 1, why);
  assert.deepEqual(pick(line!, ["session", "band", "reason", "words", "nudged", "firstTurn", "clock", "zone"]), {
    session: run.result?.session_id,
    band: "short",
    reason: null,
    words: 7,
    nudged: true,
    firstTurn: true,
    clock: true,
    zone: ZONE,
  });

  const context = promptContext(run, 0);
  assert.equal(
    context,
    [
      `<wall-clock note="the user's current local time; use it instead of guessing">`,
      `Now: ${tokyoClock(String(line!.ts))}.`,
      "First message of this session.",
      "</wall-clock>",
      SHORT_NUDGE(7),
    ].join("\n"),
    why,
  );
  const request = requestForStep(run, 0);
  assertModelWasSent(request, `UserPromptSubmit hook additional context: ${context}`);
  assertModelWasSent(request, "which node version does this project need?");
});

Deno.test("real client prompt hook: a long build-shaped prompt gets the clock but no nudge", async () => {
  const run = await runScenario(loadScript("prompt_build_task"), { events: EVENTS, env: { CLIFFHANGER_TZ: ZONE } });
  const why = describeRun(run);
  assertCompleted(run, 1);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "no-pattern" }], why);

  const [line] = promptLines(run);
  assert.deepEqual(pick(line!, ["band", "reason", "words", "nudged", "firstTurn"]), {
    band: "silent",
    reason: "build",
    words: 24,
    nudged: false,
    firstTurn: true,
  }, why);
  const context = promptContext(run, 0);
  assert.equal(
    context,
    `<wall-clock note="the user's current local time; use it instead of guessing">\n` +
      `Now: ${tokyoClock(String(line!.ts))}.\nFirst message of this session.\n</wall-clock>`,
  );
  const request = requestForStep(run, 0);
  assertModelWasSent(request, `UserPromptSubmit hook additional context: ${context}`);
  const texts = messageTexts(request);
  assert.ok(!texts.some((t) => t.includes("<answer-length>")), "a build-shaped prompt was nudged");
  assert.ok(!texts.some((t) => t.includes("The user asked a short question")), "a build-shaped prompt was nudged");
});

Deno.test("real client prompt hook: the second prompt gets the session timing and the model's notes", async () => {
  const script = loadScript("prompt_two_questions");
  const second = "and what does EOL stand for?";
  const run = await runScenario(script, {
    events: EVENTS,
    env: { CLIFFHANGER_TZ: ZONE },
    inputFormat: "stream-json",
    drive: async (session) => {
      const results = () => session.outputNow().filter((m) => m.type === "result").length;
      await session.waitFor("the first turn's result", () => results() >= 1, 60_000);
      await session.sendUserMessage(second);
      await session.waitFor("the second turn's result", () => results() >= 2, 60_000);
    },
  });
  const why = describeRun(run);
  assertCompleted(run, 2);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [
    { action: "allow", rule: "no-pattern" },
    { action: "allow", rule: "no-pattern" },
  ], why);

  // The model id the client asked for; the mock answers as that model, so the transcript names it.
  const model = String(requestForStep(run, 0).body?.model ?? "");
  assert.match(model, /opus/, `the client's default model changed (${model}); pick a quirk that matches it`);
  const lines = promptLines(run);
  assert.deepEqual(lines.map((l) => pick(l, ["band", "words", "firstTurn", "quirks", "model", "modelSource"])), [
    { band: "short", words: 5, firstTurn: true, quirks: [], model: null, modelSource: "none" },
    { band: "short", words: 6, firstTurn: false, quirks: ["opus"], model, modelSource: "transcript" },
  ], why);

  const first = promptContext(run, 0);
  assert.ok(first.includes("First message of this session."), first);
  assert.ok(first.endsWith(SHORT_NUDGE(5)), first);
  assert.ok(!first.includes("<model-notes"), "notes before the transcript names a model");

  const context = promptContext(run, 1);
  const lines2 = context.split("\n");
  assert.equal(lines2[1], `Now: ${tokyoClock(String(lines[1]!.ts))}.`);
  assert.match(lines2[2]!, /^Session open [0-9dhms]+; [0-9dhms]+ since the user's previous message\.$/, context);
  assert.ok(context.includes(`${SHORT_NUDGE(6)}\n<model-notes model="${model}">\n- `), context);
  assert.ok(context.endsWith("</model-notes>"), context);
  const request = requestForStep(run, 1);
  assertModelWasSent(request, `UserPromptSubmit hook additional context: ${context}`);
  assertModelWasSent(request, second);
});

const REPEATED = "ls /nonexistent-dir";
/** Mock tool-use ids are `toolu_msg_mock_<message>_<block>`; the first reply has a text block first. */
const CALL_IDS = ["toolu_msg_mock_1_1", "toolu_msg_mock_2_0", "toolu_msg_mock_3_0", "toolu_msg_mock_4_0"];
const LS_ERROR = "ls: cannot access '/nonexistent-dir': No such file or directory";

Deno.test("real client pretool hook: the same Bash call is warned on the 3rd try and denied on the 4th", async () => {
  const run = await runScenario(loadScript("pretool_repeat_bash"), {
    events: EVENTS,
    recordHooks: ["PostToolUse", "PostToolUseFailure"],
  });
  const why = describeRun(run);
  assertCompleted(run, 5);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "blocker-token" }], why);
  assert.deepEqual(
    loopLines(run).map((l) => pick(l, ["session", "action", "pattern", "period", "repeats", "tool", "observe"])),
    [
      {
        session: run.result?.session_id,
        action: "warn",
        pattern: "burst",
        period: 1,
        repeats: 3,
        tool: "Bash",
        observe: false,
      },
      {
        session: run.result?.session_id,
        action: "deny",
        pattern: "burst",
        period: 1,
        repeats: 4,
        tool: "Bash",
        observe: false,
      },
    ],
    why,
  );

  // Calls 1 and 2 pass silently: their results reach the model with no word from the guard.
  for (const step of [1, 2]) {
    const request = requestForStep(run, step);
    assert.equal(toolResult(request, CALL_IDS[step - 1]!).text, `Exit code 2\n${LS_ERROR}`);
    assert.ok(!messageTexts(request).some((t) => t.includes("anti-loop-guard")), `guard text before call 3`);
  }

  // Call 3 runs, and the warning reaches the model next to its result.
  const warned = requestForStep(run, 3);
  assert.deepEqual(toolResult(warned, CALL_IDS[2]!), { text: `Exit code 2\n${LS_ERROR}`, isError: true });
  const warning = attachments(run.transcript, "hook_additional_context").filter((a) => a.hookEvent === "PreToolUse");
  assert.equal(warning.length, 1, why);
  assert.equal(warning[0]!.toolUseID, CALL_IDS[2]);
  const warningText = String((warning[0]!.content as unknown[])[0]);
  assert.ok(
    warningText.startsWith(
      `anti-loop-guard warning: this is the 3rd identical Bash call in a row within 5 min (\`${REPEATED}\`).`,
    ),
    warningText,
  );
  assert.ok(warningText.includes("one more identical call will be denied"), warningText);
  assertModelWasSent(warned, `PreToolUse:Bash hook additional context: ${warningText}`);
  const afterResult = messageTexts(warned);
  assert.ok(
    afterResult.lastIndexOf(`PreToolUse:Bash hook additional context: ${warningText}`) >
      afterResult.lastIndexOf(`Exit code 2\n${LS_ERROR}`),
    "the warning should come after the 3rd call's result",
  );

  // Call 4 is not run: the model gets the denial reason as an error tool_result.
  const denied = requestForStep(run, 4);
  const result = toolResult(denied, CALL_IDS[3]!);
  assert.equal(result.isError, true);
  assert.ok(
    result.text.startsWith(
      `PreToolUse:Bash hook error: anti-loop-guard: denied the same Bash call requested 4 times in a row within 5 min (\`${REPEATED}\`).`,
    ),
    result.text,
  );
  assert.ok(result.text.includes("It was not run"), result.text);
  assert.ok(result.text.includes("BLOCKED:"), result.text);
  assert.ok(!result.text.includes(LS_ERROR), "the denied call ran");
  const ran = run.hookEvents.filter((e) => String(e.event).startsWith("PostToolUse"));
  assert.deepEqual(
    ran.map((e) => (e.input as JsonLine).tool_use_id),
    CALL_IDS.slice(0, 3),
    `only the first three calls ran\n  ${why}`,
  );
  assert.deepEqual(attachments(run.transcript, "hook_blocking_error"), []);
});

Deno.test("real client pretool hook: an unguarded Read between the calls reaches the hook and breaks the streak", async () => {
  const run = await runScenario(loadScript("pretool_read_breaks_streak"), {
    events: EVENTS,
    recordHooks: ["PostToolUse", "PostToolUseFailure"],
    setup: (sandbox) => Deno.writeTextFile(join(sandbox.project, "notes.txt"), "The files moved to /srv/data.\n"),
    keepSandbox: true,
  });
  try {
    const why = describeRun(run);
    assertCompleted(run, 6);
    assertNoHookFailure(run.transcript);
    assertLogShape(run);
    assert.deepEqual(decisions(run.log), [{ action: "allow", rule: "no-pattern" }], why);
    // The 3rd ls is warned; after the Read the 4th ls is the first of a new streak: allowed, and it runs.
    assert.deepEqual(loopLines(run).map((l) => pick(l, ["action", "repeats", "tool"])), [
      { action: "warn", repeats: 3, tool: "Bash" },
    ], why);
    const ran = run.hookEvents.filter((e) => String(e.event).startsWith("PostToolUse"));
    assert.deepEqual(ran.map((e) => (e.input as JsonLine).tool_name), ["Bash", "Bash", "Bash", "Read", "Bash"], why);
    const last = requestForStep(run, 5);
    assert.deepEqual(toolResult(last, "toolu_msg_mock_5_0"), { text: `Exit code 2\n${LS_ERROR}`, isError: true });
    assert.equal(messageTexts(last).filter((t) => t.includes("anti-loop-guard")).length, 1, "only the one warning");

    // The hook saw the Read: no matcher on our PreToolUse group, so it records every tool.
    const state = join(run.sandbox.cliffhangerHome, "state", `${run.result?.session_id}.loop.json`);
    const history = JSON.parse(await Deno.readTextFile(state)).history as JsonLine[];
    assert.deepEqual(history.map((h) => h.tool), ["Bash", "Bash", "Bash", "Read", "Bash"]);
    const settings = JSON.parse(await Deno.readTextFile(run.sandbox.settingsFile));
    assert.equal("matcher" in settings.hooks.PreToolUse[0], false);
  } finally {
    await disposeSandbox(run.sandbox);
  }
});

Deno.test("real client pretool hook: CLIFFHANGER_OBSERVE=1 logs the warning and the denial but runs every call", async () => {
  const script = loadScript("pretool_repeat_bash");
  const finished = "The folder /nonexistent-dir does not exist; there is nothing to list.";
  const run = await runScenario(
    { ...script, replies: [...script.replies.slice(0, 4), { content: [{ type: "text", text: finished }] }] },
    { events: EVENTS, env: { CLIFFHANGER_OBSERVE: "1" } },
  );
  const why = describeRun(run);
  assertCompleted(run, 5);
  assertNoHookFailure(run.transcript);
  assertLogShape(run);
  assert.deepEqual(
    loopLines(run).map((l) => pick(l, ["action", "repeats", "observe"])),
    [{ action: "warn", repeats: 3, observe: true }, { action: "deny", repeats: 4, observe: true }],
    why,
  );
  const last = requestForStep(run, 4);
  assert.deepEqual(toolResult(last, CALL_IDS[3]!), { text: `Exit code 2\n${LS_ERROR}`, isError: true });
  for (const request of run.requests) {
    assert.ok(!messageTexts(request).some((t) => t.includes("anti-loop-guard")), "observe mode said something");
  }
  assert.deepEqual(
    attachments(run.transcript, "hook_additional_context").filter((a) => a.hookEvent === "PreToolUse"),
    [],
  );
  assert.equal(run.result?.result, finished);
});

/** The `kind: "prompt"` lines of log.jsonl. */
function promptLines(run: ScenarioRun): JsonLine[] {
  return run.rawLog.filter((l) => l.kind === "prompt");
}

/** The `kind: "loop"` lines of log.jsonl. */
function loopLines(run: ScenarioRun): JsonLine[] {
  return run.rawLog.filter((l) => l.kind === "loop");
}

/** The additionalContext of the n-th UserPromptSubmit, as the client recorded it in the transcript. */
function promptContext(run: ScenarioRun, n: number): string {
  const found = attachments(run.transcript, "hook_additional_context").filter((a) =>
    a.hookEvent === "UserPromptSubmit"
  );
  const content = found[n]?.content;
  assert.ok(
    Array.isArray(content) && content.length === 1,
    `no UserPromptSubmit context #${n + 1}\n  ${describeRun(run)}`,
  );
  return String(content[0]);
}

/** The clock line `hook prompt` writes for an ISO timestamp in Asia/Tokyo (UTC+09:00 all year). */
function tokyoClock(iso: string): string {
  const local = new Date(Date.parse(iso) + 9 * 3_600_000);
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][local.getUTCDay()];
  const hour = local.getUTCHours();
  const part = hour < 5 || hour >= 22 ? "night" : hour < 12 ? "morning" : hour < 17 ? "afternoon" : "evening";
  return `${weekday} ${local.toISOString().slice(0, 10)} ${local.toISOString().slice(11, 16)} JST (UTC+09:00), ${part}`;
}

function pick(line: JsonLine, keys: readonly string[]): JsonLine {
  return Object.fromEntries(keys.map((k) => [k, line[k]]));
}
