/**
 * Every real and synthetic transcript of the corpus (testdata/corpus/), read by the streaming reader and by a naive
 * whole-file computation written here independently (JSON.parse every line, replay the checklist tools).
 * The final task list and the latest TodoWrite over the whole file must agree, in both reading modes.
 * Test names state what was found per file.
 */
import assert from "node:assert/strict";
import { readTurnView } from "./read_view.ts";
import { CORPUS } from "../testing/transcript_lines.ts";

const FOLDERS = [`${CORPUS}transcripts`, `${CORPUS}synthetic`];

interface Naive {
  tasks: Array<{ id: string; text: string; done: boolean }>;
  todo: Array<{ text: string; done: boolean }> | null;
}

/** `value[key]` for any JSON value, undefined when there is none. */
function at(value: unknown, key: string | number): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string | number, unknown>)[key] : undefined;
}

function naive(text: string, includeSidechain: boolean): Naive {
  const pending = new Map<string, string>();
  const tasks = new Map<string, { text: string; status: string }>();
  let todo: Naive["todo"] = null;
  // Like the reader, a last line without "\n" is torn (still being written) and not read: the Entire
  // checkpoint files in the corpus all end that way.
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  for (const raw of complete.split("\n")) {
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch {
      continue;
    }
    if (at(o, "isSidechain") === true && !includeSidechain) continue;
    const content = at(at(o, "message"), "content");
    if (!Array.isArray(content)) continue;
    const resultCount = content.filter((b) => at(b, "type") === "tool_result").length;
    for (const b of content) {
      const input = at(b, "input");
      if (at(o, "type") === "assistant" && at(b, "type") === "tool_use" && typeof at(b, "id") === "string") {
        const name = at(b, "name");
        const subject = at(input, "subject");
        const taskId = at(input, "taskId");
        const status = at(input, "status");
        if (name === "TaskCreate" && typeof subject === "string") pending.set(at(b, "id") as string, subject);
        if (name === "TaskUpdate" && taskId != null && tasks.has(String(taskId))) {
          const t = tasks.get(String(taskId))!;
          if (status === "deleted") tasks.delete(String(taskId));
          if (typeof status === "string") t.status = status;
          if (typeof subject === "string") t.text = subject;
        }
        const todos = at(input, "todos");
        if (name === "TodoWrite" && Array.isArray(todos)) {
          todo = todos
            .filter((t) => typeof at(t, "content") === "string")
            .map((t) => ({ text: at(t, "content") as string, done: at(t, "status") === "completed" }));
        }
      }
      const useId = at(b, "tool_use_id");
      if (
        at(o, "type") === "user" && at(b, "type") === "tool_result" && typeof useId === "string" && pending.has(useId)
      ) {
        const subject = pending.get(useId)!;
        pending.delete(useId);
        if (at(b, "is_error") === true) continue;
        const structured = resultCount === 1 ? at(at(at(o, "toolUseResult"), "task"), "id") : undefined;
        const c = at(b, "content");
        const resultText = typeof c === "string" ? c : at(at(c, 0), "text");
        const fromText = typeof resultText === "string"
          ? /^Task #([^\s:]+) created/.exec(resultText.trimStart())?.[1]
          : undefined;
        const id = structured != null ? String(structured) : fromText;
        if (id !== undefined) tasks.set(id, { text: subject, status: "pending" });
      }
    }
  }
  return { tasks: [...tasks].map(([id, t]) => ({ id, text: t.text, done: t.status === "completed" })), todo };
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...listFiles(path));
    else if (e.name.endsWith(".jsonl")) out.push(path);
  }
  return out.sort();
}

const files = FOLDERS.flatMap((d) => listFiles(d));

Deno.test("corpus: the in-repo corpus is present (27 real and 9 synthetic transcripts)", () => {
  assert.equal(files.length, 36, `found ${files.length} transcripts under ${CORPUS}`);
});

for (const path of files) {
  const text = Deno.readTextFileSync(path);
  const main = naive(text, false);
  const side = naive(text, true);
  const name = path.slice(CORPUS.length);
  const summary = (n: Naive) =>
    `${n.tasks.length} tasks (${n.tasks.filter((t) => !t.done).length} open), ` +
    `${n.todo?.length ?? "no"} todos`;
  Deno.test(`corpus: ${name}: main ${summary(main)}; sidechain ${summary(side)}`, async () => {
    for (const [includeSidechain, expected] of [[false, main], [true, side]] as const) {
      const { view, index } = await readTurnView(path, null, {
        includeSidechain,
        lastAssistantMessage: null,
        syncMs: 0,
      });
      assert.equal(view.found, true);
      assert.equal(view.stats.malformed, 0);
      const state = index!.state;
      assert.deepEqual(
        state.tasks.map((t) => ({ id: t.id, text: t.subject, done: t.status === "completed" })),
        expected.tasks,
        `tasks, includeSidechain=${includeSidechain}`,
      );
      assert.deepEqual(state.todo?.items ?? null, expected.todo, `todo, includeSidechain=${includeSidechain}`);
      if (view.tasks) assert.deepEqual(view.tasks, expected.tasks.map(({ text, done }) => ({ text, done })));
      if (view.todo) assert.deepEqual(view.todo, expected.todo);
    }
  });
}
