import assert from "node:assert/strict";
import { classifyLine, lineEntrypoint, MAX_TASK_ID_CHARS } from "./line_event.ts";
import { MAX_MARK_CHARS, NO_MARK } from "./prompt_mark.ts";

const MAIN = { includeSidechain: false };
const SUB = { includeSidechain: true };

function user(content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "user", uuid: "u1", message: { role: "user", content }, ...extra };
}

const CASES: Array<[string, unknown, string]> = [
  ["string prompt", user("add a flag"), "prompt"],
  ["text-block prompt", user([{ type: "text", text: "add a flag" }]), "prompt"],
  ["image-only prompt", user([{ type: "image", source: { type: "base64", data: "AAAA" } }]), "prompt"],
  [
    "IDE context block then the prompt",
    user([{ type: "text", text: "<ide_selection>x</ide_selection>" }, {
      type: "text",
      text: "explain this",
    }]),
    "prompt",
  ],
  ["tool result", user([{ type: "tool_result", tool_use_id: "t1", content: "ok" }]), "tool_results"],
  ["isMeta", user("Caveat: local commands", { isMeta: true }), "ignored"],
  ["compact summary", user("This session is being continued", { isCompactSummary: true }), "ignored"],
  [
    "slash command (model-bound or local)",
    user("<command-message>review</command-message>\n<command-name>/review"),
    "command",
  ],
  ["slash command, name first", user("<command-name>/mcp</command-name>\n<command-message>mcp"), "command"],
  ["local command output", user("<local-command-stdout>ok</local-command-stdout>"), "local_output"],
  ["local command stderr", user("<local-command-stderr>no</local-command-stderr>"), "local_output"],
  ["task notification text", user("<task-notification>\n<status>completed</status>"), "ignored"],
  ["task notification by origin", user("Build output is ready.", { turnOrigin: "task_notification" }), "ignored"],
  ["task notification by promptSource", user("done", { promptSource: "task_notification" }), "ignored"],
  ["Stop hook feedback", user("Stop hook feedback:\nkeep going"), "ignored"],
  ["interrupt marker", user([{ type: "text", text: "[Request interrupted by user for tool use]" }]), "ignored"],
  ["system reminder", user([{ type: "text", text: "<system-reminder>\nStop hook additional context: x" }]), "ignored"],
  ["bash mode input", user("<bash-input>ls</bash-input>"), "ignored"],
  ["teammate message in the main transcript", user('<teammate-message teammate_id="a">done'), "ignored"],
  ["blank prompt", user("   "), "ignored"],
  ["null message", { type: "user", message: null }, "ignored"],
  ["missing message", { type: "user" }, "ignored"],
  ["sidechain prompt in the main transcript", user("find docs", { isSidechain: true }), "ignored"],
  ["progress line", { type: "progress", data: { message: { type: "user" } } }, "ignored"],
  ["not an object", "text", "ignored"],
];

for (const [name, value, kind] of CASES) {
  Deno.test(`classifyLine(): ${name} → ${kind}`, () => {
    assert.equal(classifyLine(value, MAIN).kind, kind);
  });
}

Deno.test("classifyLine(): in a subagent's own transcript sidechain lines and teammate messages are prompts", () => {
  assert.equal(classifyLine(user("find docs", { isSidechain: true }), SUB).kind, "prompt");
  assert.equal(
    classifyLine(user('<teammate-message teammate_id="lead">round 2', { isSidechain: true }), SUB).kind,
    "prompt",
  );
  assert.equal(classifyLine(user("<task-notification>x", { isSidechain: true }), SUB).kind, "ignored");
});

Deno.test("classifyLine(): queued_command attachments typed by a person are prompts, harness ones are not", () => {
  const queued = (attachment: Record<string, unknown>) => ({ type: "attachment", promptId: "p9", attachment });
  assert.deepEqual(
    classifyLine(queued({ type: "queued_command", prompt: "also bump the version", commandMode: "prompt" }), MAIN),
    { kind: "prompt", id: "p9", mark: NO_MARK },
  );
  assert.equal(classifyLine(queued({ type: "queued_command", prompt: "plain" }), MAIN).kind, "prompt");
  assert.equal(
    classifyLine(queued({ type: "queued_command", prompt: [{ type: "text", text: "as blocks" }] }), MAIN).kind,
    "prompt",
  );
  assert.equal(
    classifyLine(
      queued({ type: "queued_command", prompt: "<task-notification>x", commandMode: "task-notification" }),
      MAIN,
    )
      .kind,
    "ignored",
  );
  assert.equal(
    classifyLine(queued({ type: "queued_command", prompt: "x", origin: { kind: "task-notification" } }), MAIN).kind,
    "ignored",
  );
  assert.equal(classifyLine(queued({ type: "hook_success", stdout: "x" }), MAIN).kind, "ignored");
});

Deno.test("classifyLine(): the prompt id is promptId, else uuid", () => {
  assert.deepEqual(classifyLine(user("go", { promptId: "p1" }), MAIN), { kind: "prompt", id: "p1", mark: NO_MARK });
  assert.deepEqual(classifyLine(user("go"), MAIN), { kind: "prompt", id: "u1", mark: NO_MARK });
  assert.deepEqual(classifyLine({ type: "user", message: { content: "go" } }, MAIN), {
    kind: "prompt",
    id: null,
    mark: NO_MARK,
  });
});

Deno.test("classifyLine(): a prompt carries its line's entrypoint, promptSource and turnOrigin, bounded", () => {
  // the marks Claude Code 2.1.328 writes: the terminal UI, a prompt queued while it worked, and `claude -p`
  const typed = { entrypoint: "cli", promptSource: "typed", turnOrigin: "human" };
  const queued = { entrypoint: "cli", promptSource: "queued", turnOrigin: "human" };
  const headless = { entrypoint: "sdk-cli", promptSource: "sdk", turnOrigin: "sdk" };
  for (const mark of [typed, queued, headless]) {
    assert.deepEqual(classifyLine(user("go", { promptId: "p1", ...mark }), MAIN), { kind: "prompt", id: "p1", mark });
  }
  const command = classifyLine(user("<command-name>/review</command-name>", typed), MAIN);
  assert.deepEqual(command.kind === "command" ? command.mark : null, typed);
  const long = classifyLine(user("go", { entrypoint: "x".repeat(500), promptSource: 7, turnOrigin: "" }), MAIN);
  assert.deepEqual(long.kind === "prompt" ? long.mark : null, {
    entrypoint: "x".repeat(MAX_MARK_CHARS),
    promptSource: null,
    turnOrigin: null,
  });
});

Deno.test("lineEntrypoint(): any line's entrypoint, not a skipped sidechain line's", () => {
  assert.equal(lineEntrypoint({ type: "attachment", entrypoint: "cli" }, MAIN), "cli");
  assert.equal(lineEntrypoint({ type: "assistant", entrypoint: "sdk-cli" }, MAIN), "sdk-cli");
  assert.equal(lineEntrypoint({ type: "assistant" }, MAIN), null);
  assert.equal(lineEntrypoint({ type: "assistant", entrypoint: 1 }, MAIN), null);
  assert.equal(lineEntrypoint({ type: "user", isSidechain: true, entrypoint: "cli" }, MAIN), null);
  assert.equal(lineEntrypoint({ type: "user", isSidechain: true, entrypoint: "cli" }, SUB), "cli");
  assert.equal(lineEntrypoint("cli", MAIN), null);
});

Deno.test("classifyLine(): assistant lines give texts, tool uses, message id and model; other blocks are skipped", () => {
  const event = classifyLine({
    type: "assistant",
    message: {
      id: "msg_1",
      model: "claude-opus-5-5",
      content: [
        { type: "thinking", thinking: "hmm", signature: "s" },
        { type: "text", text: "Plan:" },
        { type: "text", text: "  " },
        { type: "tool_use", id: "t1", name: "TodoWrite", input: { todos: [] } },
        { type: "server_tool_use", id: "s1" },
      ],
    },
  }, MAIN);
  assert.deepEqual(event, {
    kind: "assistant",
    messageId: "msg_1",
    model: "claude-opus-5-5",
    texts: ["Plan:"],
    toolUses: [{ id: "t1", name: "TodoWrite", input: { todos: [] } }],
    partial: false,
  });
});

Deno.test("classifyLine(): a TaskCreate result's id comes from toolUseResult, else from the result text", () => {
  const withResult = user([{ type: "tool_result", tool_use_id: "t1", content: "Task #4 created successfully: A" }], {
    toolUseResult: { task: { id: 9, subject: "A" } },
  });
  assert.deepEqual(classifyLine(withResult, MAIN), {
    kind: "tool_results",
    results: [{ toolUseId: "t1", isError: false, createdTaskId: "9", empty: false }],
  });
  const textOnly = user([{
    type: "tool_result",
    tool_use_id: "t2",
    content: [{ type: "text", text: "Task #5 created successfully: B" }],
  }]);
  assert.deepEqual(classifyLine(textOnly, MAIN), {
    kind: "tool_results",
    results: [{ toolUseId: "t2", isError: false, createdTaskId: "5", empty: false }],
  });
  const failed = user([{
    type: "tool_result",
    tool_use_id: "t3",
    content: "Task #6 created successfully: C",
    is_error: true,
  }]);
  assert.deepEqual(classifyLine(failed, MAIN), {
    kind: "tool_results",
    results: [{ toolUseId: "t3", isError: true, createdTaskId: null, empty: false }],
  });
});

Deno.test("classifyLine(): a result's emptiness uses toolUseResult only when the line holds that one result", () => {
  const silentBash = { stdout: "", stderr: "", interrupted: false, isImage: false };
  const one = user([{ type: "tool_result", tool_use_id: "t1", content: "" }], { toolUseResult: silentBash });
  assert.deepEqual(classifyLine(one, MAIN), {
    kind: "tool_results",
    results: [{ toolUseId: "t1", isError: false, createdTaskId: null, empty: false }],
  });
  const two = user([
    { type: "tool_result", tool_use_id: "t1", content: "" },
    { type: "tool_result", tool_use_id: "t2", content: "ok" },
  ], { toolUseResult: silentBash });
  const event = classifyLine(two, MAIN);
  assert.equal(event.kind, "tool_results");
  if (event.kind === "tool_results") assert.deepEqual(event.results.map((r) => r.empty), [true, false]);
});

Deno.test("classifyLine(): a created task id longer than MAX_TASK_ID_CHARS is not taken (it would be tool output in state)", () => {
  const long = "x".repeat(MAX_TASK_ID_CHARS + 1);
  const ok = "y".repeat(MAX_TASK_ID_CHARS);
  for (const [id, expected] of [[long, null], [ok, ok]] as const) {
    const fromText = classifyLine(
      {
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: `Task #${id} created successfully: A` }],
        },
      },
      { includeSidechain: false },
    );
    assert.equal(fromText.kind === "tool_results" ? fromText.results[0]?.createdTaskId : "?", expected);
  }
});
