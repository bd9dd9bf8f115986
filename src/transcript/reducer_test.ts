import assert from "node:assert/strict";
import { MAX_LIST_ITEMS } from "./item_text.ts";
import { reduceLine } from "./reducer.ts";
import { initialState, MAX_PENDING_CREATES, turnChecklists } from "./reducer_state.ts";
import { fixture, line, peer, readOnce } from "../testing/transcript_lines.ts";

const open = (text: string) => ({ text, done: false });
const done = (text: string) => ({ text, done: true });

Deno.test("reducer: a task's id comes from the TaskCreate result, so updates hit the right task", async () => {
  const { view } = await readOnce(fixture("tasks_id_from_result.jsonl"));
  assert.deepEqual(view.tasks, [open("Add endpoint"), done("Write docs")]);
  assert.equal(view.turnSeq, 1);
  assert.equal(view.turnId, "p1");
});

Deno.test("reducer: a create whose result is an error or has no task id adds nothing", async () => {
  const { view, index } = await readOnce(fixture("tasks_failed_create.jsonl"));
  assert.deepEqual(view.tasks, [done("Real task")]);
  assert.deepEqual(index?.state.pendingCreates, []);
});

Deno.test("reducer: deleted tasks go, renames apply, the list counts only in a turn that touched it", async () => {
  const path = fixture("tasks_across_turns.jsonl");
  const full = await readOnce(path);
  // Turn 3 only completed task 1, yet the whole live list counts: task 3 (renamed) is still open.
  assert.deepEqual(full.view.tasks, [done("Step one"), open("Step three (renamed)")]);
  assert.equal(full.view.turnSeq, 3);
  // Cut after turn 2 (a question with no task calls): the old list does not count.
  const text = await Deno.readTextFile(path);
  const upToTurn2 = text.split("\n").slice(0, 14).join("\n") + "\n";
  let state = initialState();
  for (const l of upToTurn2.split("\n").filter(Boolean)) {
    state = reduceLine(state, JSON.parse(l), { includeSidechain: false });
  }
  assert.equal(state.turnSeq, 2);
  assert.equal(turnChecklists(state).tasks, null);
  assert.equal(state.tasks.length, 2, "the session's task list is kept across turns");
});

Deno.test("reducer: the latest TodoWrite of the current turn wins", async () => {
  const { view } = await readOnce(fixture("todo_latest.jsonl"));
  assert.deepEqual(view.todo, [done("Parse"), open("Render")]);
  assert.equal(view.tasks, null);
});

Deno.test("reducer: a Markdown list from an earlier prompt expires at the next prompt", async () => {
  const { view } = await readOnce(fixture("markdown_expiry.jsonl"));
  assert.equal(view.markdown, null);
  assert.equal(view.turnSeq, 2);
});

Deno.test("reducer: task notifications (text, origin, queued) are not a new turn", async () => {
  const { view } = await readOnce(fixture("task_notification_not_turn.jsonl"));
  assert.equal(view.turnSeq, 1);
  assert.deepEqual(view.markdown, [done("start build"), open("fix lint")]);
});

Deno.test("reducer: Stop hook feedback and system reminders continue the same turn", async () => {
  const { view } = await readOnce(fixture("stop_feedback_not_turn.jsonl"));
  assert.equal(view.turnSeq, 1);
  assert.deepEqual(view.tasks, [open("Migrate call sites")]);
});

Deno.test("reducer: a queued_command typed mid-turn starts a new turn", async () => {
  const { view } = await readOnce(fixture("queued_command.jsonl"));
  assert.equal(view.turnSeq, 2);
  assert.equal(view.turnId, "p2");
  assert.equal(view.todo, null, "the TodoWrite belongs to the turn before the queued prompt");
});

Deno.test("reducer: sidechain lines are skipped in a main transcript and read in a subagent's", async () => {
  const main = await readOnce(fixture("sidechain_mixed.jsonl"));
  assert.equal(main.view.todo, null);
  assert.equal(main.view.markdown, null);
  assert.equal(main.view.model, "claude-opus-5-5");
  const sub = await readOnce(fixture("sidechain_mixed.jsonl"), { includeSidechain: true });
  assert.equal(sub.view.turnSeq, 2, "the subagent's own prompt starts its turn");
  assert.deepEqual(sub.view.todo, [open("Subagent item")]);
  assert.deepEqual(sub.view.markdown, [open("subagent private item")]);
});

Deno.test("reducer: lines of one response sharing message.id are merged before the Markdown list is read", async () => {
  const { view, index } = await readOnce(fixture("split_message.jsonl"));
  assert.deepEqual(view.markdown, [done("schema"), done("tests"), open("changelog")]);
  assert.equal(index?.state.message?.id, "msg_B");
});

Deno.test("reducer: a slash command the model answers is a turn; a local command is not", async () => {
  const { view } = await readOnce(fixture("slash_command_turn.jsonl"));
  assert.equal(view.turnSeq, 2);
  assert.equal(view.turnId, "p2");
  assert.equal(view.markdown, null, "the list from before /review does not count");
  const text = (await Deno.readTextFile(fixture("slash_command_turn.jsonl"))).split("\n").slice(0, 4);
  let state = initialState();
  for (const l of text) state = reduceLine(state, JSON.parse(l), { includeSidechain: false });
  assert.equal(state.turnSeq, 1, "/status printed locally and left the turn alone");
  assert.deepEqual(turnChecklists(state).markdown, [open("one"), open("two")]);
});

const PEER_CASES: Array<[string, (v: Awaited<ReturnType<typeof readOnce>>["view"]) => void, boolean?]> = [
  [
    "open_task_items.jsonl",
    (v) => assert.deepEqual(v.tasks, [done("Add /health endpoint"), open("Test /health"), open("Document /health")]),
  ],
  ["all_tasks_done.jsonl", (v) => assert.deepEqual(v.tasks, [done("A"), done("B")])],
  ["deleted_task.jsonl", (v) => assert.deepEqual(v.tasks, [done("A")])],
  ["failed_task_create.jsonl", (v) => assert.deepEqual(v.tasks, [done("A")])],
  [
    "todowrite_open.jsonl",
    (v) => assert.deepEqual(v.todo, [done("Add model field"), open("Migrate data"), open("Update docs")]),
  ],
  ["latest_todowrite.jsonl", (v) => assert.deepEqual(v.todo, [done("A"), done("B")])],
  ["markdown_expired.jsonl", (v) => assert.equal(v.markdown, null)],
  ["markdown_bg_notification.jsonl", (v) => assert.deepEqual(v.markdown, [done("one"), open("two")])],
  ["sidechain.jsonl", (v) => assert.equal(v.markdown, null)],
  ["prompt_only.jsonl", (v) => assert.deepEqual([v.tasks, v.todo, v.markdown, v.turnSeq], [null, null, null, 1])],
  ["blocker_phrase_open.jsonl", (v) => assert.deepEqual(v.tasks, [open("Write migration")])],
  ["subagent_todo.jsonl", (v) => assert.deepEqual(v.todo, [done("Scan src/"), open("Scan tests/")]), true],
];

for (const [name, check, includeSidechain] of PEER_CASES) {
  Deno.test(`reducer: cliffhanger peer transcript ${name}`, async () => {
    const { view } = await readOnce(peer(name), { includeSidechain: includeSidechain ?? false });
    assert.equal(view.found, true);
    check(view);
  });
}

Deno.test("reduceLine() does not change the state it is given", () => {
  const before = initialState();
  const frozen = JSON.stringify(before);
  const after = reduceLine(before, line.toolUse("m1", "t1", "TaskCreate", { subject: "A" }), {
    includeSidechain: false,
  });
  assert.equal(JSON.stringify(before), frozen);
  assert.equal(after.pendingCreates.length, 1);
  assert.equal(after.tasksTurn, 0);
});

Deno.test("reducer: creates that never get a result are bounded", () => {
  let state = initialState();
  for (let i = 0; i < MAX_PENDING_CREATES + 10; i++) {
    state = reduceLine(state, line.toolUse(`m${i}`, `t${i}`, "TaskCreate", { subject: `S${i}` }), {
      includeSidechain: false,
    });
  }
  assert.equal(state.pendingCreates.length, MAX_PENDING_CREATES);
  assert.equal(state.pendingCreates.at(-1)?.subject, `S${MAX_PENDING_CREATES + 9}`);
});

Deno.test("reducer: placeholder '<synthetic>' messages do not replace the model", () => {
  let state = reduceLine(initialState(), line.text("m1", "hi"), { includeSidechain: false });
  state = reduceLine(state, {
    type: "assistant",
    message: { id: "m2", model: "<synthetic>", content: [{ type: "text", text: "No response requested." }] },
  }, { includeSidechain: false });
  assert.equal(state.model, "claude-opus-5-5");
});

Deno.test("reducer: lists stay bounded at MAX_LIST_ITEMS (Markdown over a message's lines, TodoWrite, live tasks)", () => {
  const n = MAX_LIST_ITEMS + 50;
  let state = reduceLine(initialState(), { type: "user", promptId: "p1", message: { role: "user", content: "go" } }, {
    includeSidechain: false,
  });
  for (let i = 0; i < n; i++) {
    state = reduceLine(state, {
      type: "assistant",
      message: { id: "m1", role: "assistant", content: [{ type: "text", text: `- [ ] item ${i}` }] },
    }, { includeSidechain: false });
  }
  assert.equal(state.markdown?.items.length, MAX_LIST_ITEMS);
  assert.equal(state.markdown?.items[0]?.text, "item 0", "a long list keeps its first items");
  const todos = Array.from({ length: n }, (_, i) => ({ content: `todo ${i}`, status: "pending" }));
  state = reduceLine(state, {
    type: "assistant",
    message: {
      id: "m2",
      role: "assistant",
      content: [{ type: "tool_use", id: "tw", name: "TodoWrite", input: { todos } }],
    },
  }, { includeSidechain: false });
  assert.equal(state.todo?.items.length, MAX_LIST_ITEMS);
  for (let i = 0; i < n; i++) {
    state = reduceLine(state, {
      type: "assistant",
      message: {
        id: `c${i}`,
        role: "assistant",
        content: [{ type: "tool_use", id: `tc${i}`, name: "TaskCreate", input: { subject: `task ${i}` } }],
      },
    }, { includeSidechain: false });
    state = reduceLine(state, {
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: `tc${i}`,
          content: `Task #${i} created successfully: task ${i}`,
        }],
      },
    }, { includeSidechain: false });
  }
  assert.equal(state.tasks.length, MAX_LIST_ITEMS);
  assert.equal(state.tasks.at(-1)?.subject, `task ${n - 1}`, "tasks keep the newest");
});

Deno.test("reducer: past MAX_LIST_ITEMS a done item goes before an open one (an old open task still blocks)", () => {
  const opts = { includeSidechain: false };
  let state = reduceLine(
    initialState(),
    { type: "user", promptId: "p1", message: { role: "user", content: "go" } },
    opts,
  );
  const create = (i: number) => {
    state = reduceLine(state, {
      type: "assistant",
      message: {
        id: `c${i}`,
        role: "assistant",
        content: [{ type: "tool_use", id: `tc${i}`, name: "TaskCreate", input: { subject: `task ${i}` } }],
      },
    }, opts);
    state = reduceLine(state, {
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: `tc${i}`,
          content: `Task #${i} created successfully: task ${i}`,
        }],
      },
    }, opts);
  };
  const update = (i: number, status: string) => {
    state = reduceLine(state, {
      type: "assistant",
      message: {
        id: `u${i}-${status}`,
        role: "assistant",
        content: [{
          type: "tool_use",
          id: `tu${i}${status}`,
          name: "TaskUpdate",
          input: { taskId: String(i), status },
        }],
      },
    }, opts);
  };
  create(0);
  update(0, "in_progress");
  for (let i = 1; i <= MAX_LIST_ITEMS + 20; i++) {
    create(i);
    update(i, "completed");
  }
  assert.equal(state.tasks.length, MAX_LIST_ITEMS);
  assert.deepEqual(state.tasks[0], { id: "0", subject: "task 0", status: "in_progress" }, "the open task is kept");
  assert.deepEqual(turnChecklists(state).tasks?.filter((t) => !t.done).map((t) => t.text), ["task 0"]);

  const lines = [
    ...Array.from({ length: 150 }, (_, i) => `- [x] done ${i}`),
    ...Array.from({ length: 100 }, (_, i) => `- [ ] open ${i}`),
  ];
  state = reduceLine(state, {
    type: "assistant",
    message: { id: "md", role: "assistant", content: [{ type: "text", text: lines.join("\n") }] },
  }, opts);
  const markdown = turnChecklists(state).markdown ?? [];
  assert.equal(markdown.length, MAX_LIST_ITEMS);
  assert.equal(markdown.filter((i) => !i.done).length, 100, "every open Markdown item is kept");
});
