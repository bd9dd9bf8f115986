import assert from "node:assert/strict";
import { join } from "node:path";
import { readTurnView } from "../../src/transcript/read_view.ts";
import {
  linesToBytes,
  SNAPSHOT_MAX_BYTES,
  SNAPSHOT_MIN_BYTES,
  TranscriptGenerator,
  writeTranscript,
} from "./transcript.ts";

const OPTIONS = {
  seed: 99,
  sessionId: "5e551011-0000-4000-8000-000000000001",
  cwd: "/home/dev/shop",
  startMs: Date.UTC(2026, 0, 1),
};
const TARGET = 700 * 1024;

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "bench-gen-" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// deno-lint-ignore no-explicit-any
type Line = any;

Deno.test("generator: the same options write the same bytes; another seed writes others", async () => {
  await withDir(async (dir) => {
    const a = await writeTranscript(join(dir, "a.jsonl"), TARGET, OPTIONS);
    const b = await writeTranscript(join(dir, "b.jsonl"), TARGET, OPTIONS);
    const c = await writeTranscript(join(dir, "c.jsonl"), TARGET, { ...OPTIONS, seed: 100 });
    const [ta, tb, tc] = await Promise.all(["a", "b", "c"].map((n) => Deno.readFile(join(dir, `${n}.jsonl`))));
    assert.deepEqual(tb, ta);
    assert.deepEqual(b, a);
    assert.notDeepEqual(tc, ta);
    assert.ok(a.bytes >= TARGET * 0.9, `about the target size: ${a.bytes}`);
    assert.equal(a.bytes, ta!.length);
    assert.equal(a.lines, new TextDecoder().decode(ta).trimEnd().split("\n").length);
    assert.equal(c.turns > 0, true);
  });
});

Deno.test("generator: real record shapes (split responses, paired tools, tasks, todos, progress, attachments, snapshots)", () => {
  const gen = new TranscriptGenerator(OPTIONS);
  const lines: Line[] = gen.sessionStart().map((l) => JSON.parse(l));
  const raw: string[] = [];
  for (let i = 0; i < 40; i++) {
    const turn = gen.turn(i === 0 ? { tasks: true, snapshot: true } : {});
    raw.push(...turn.lines, ...turn.after);
    lines.push(...[...turn.lines, ...turn.after].map((l) => JSON.parse(l)));
  }
  const assistants = lines.filter((l) => l.type === "assistant");
  const perMessage = new Map<string, number>();
  for (const a of assistants) perMessage.set(a.message.id, (perMessage.get(a.message.id) ?? 0) + 1);
  assert.ok([...perMessage.values()].some((n) => n >= 2), "a response split over lines sharing message.id");
  assert.ok(assistants.every((a) => a.message.content.length === 1), "one block per assistant line");

  const uses = assistants.flatMap((a) => a.message.content.filter((b: Line) => b.type === "tool_use"));
  const results = lines.filter((l) => l.type === "user" && Array.isArray(l.message.content))
    .flatMap((l) => l.message.content.filter((b: Line) => b.type === "tool_result").map((b: Line) => ({ b, l })));
  assert.deepEqual(
    new Set(results.map((r) => r.b.tool_use_id)),
    new Set(uses.map((u: Line) => u.id)),
    "every tool_use answered",
  );
  assert.ok(results.every((r) => r.l.toolUseResult !== undefined), "every result line carries toolUseResult");
  const names = new Set(uses.map((u: Line) => u.name));
  for (const name of ["TaskCreate", "TaskUpdate", "Bash", "Read", "Edit"]) assert.ok(names.has(name), name);
  const created = results.filter((r) => r.l.toolUseResult?.task?.id !== undefined);
  assert.ok(created.length >= 2, "TaskCreate results carry the task id");

  const kinds = new Set(lines.map((l) => `${l.type}/${l.subtype ?? l.attachment?.type ?? l.data?.type ?? ""}`));
  for (
    const k of [
      "progress/bash_progress",
      "progress/hook_progress",
      "attachment/hook_success",
      "attachment/prompt_snapshot",
      "system/stop_hook_summary",
      "file-history-snapshot/",
    ]
  ) {
    assert.ok(kinds.has(k), k);
  }
  const snapshots = raw.filter((l) => l.includes('"type":"prompt_snapshot"'));
  assert.ok(snapshots.length >= 1);
  for (const s of snapshots) {
    const size = new TextEncoder().encode(s).length;
    assert.ok(size >= SNAPSHOT_MIN_BYTES * 0.98 && size <= SNAPSHOT_MAX_BYTES * 1.02, `snapshot of ${size} bytes`);
  }
  assert.ok(
    snapshots.every((s) => !s.includes('"user"') && !s.includes('"assistant"')),
    "snapshots hold no message roles",
  );
});

Deno.test("generator: TodoWrite lists show up over enough turns", () => {
  const gen = new TranscriptGenerator({ ...OPTIONS, seed: 3 });
  let todo = 0;
  for (let i = 0; i < 120; i++) todo += gen.turn().lines.filter((l) => l.includes('"name":"TodoWrite"')).length;
  assert.ok(todo >= 2, `TodoWrite calls: ${todo}`);
});

Deno.test("generator: the product's reader sees the last turn as a Stop would (finished checklist, final message synced)", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "t.jsonl");
    const written = await writeTranscript(path, TARGET, OPTIONS);
    const { view } = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: written.last.finalText,
      syncMs: 0,
    });
    assert.equal(view.found, true);
    assert.equal(view.stats.malformed, 0);
    assert.equal(view.turnId, written.last.promptId);
    assert.equal(view.turnSeq, written.turns);
    assert.equal(view.finalSynced, true);
    assert.ok(
      view.tasks && view.tasks.length >= 2 && view.tasks.every((t) => t.done),
      "the last turn's tasks, all done",
    );
    assert.deepEqual(view.tools.pending, []);
    assert.ok(view.stats.parsed < view.stats.lines, "some lines are skipped before parsing");
  });
});

Deno.test("generator: an appended turn without its final line is not synced; with it, it is", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "t.jsonl");
    const written = await writeTranscript(path, 200 * 1024, OPTIONS);
    const first = await readTurnView(path, null, {
      includeSidechain: false,
      lastAssistantMessage: written.last.finalText,
      syncMs: 0,
    });
    const more = new TranscriptGenerator({ ...OPTIONS, seed: 5, idPrefix: "a", firstTaskId: 1000 });
    const turn = more.turn({ ending: "offer" });
    await Deno.writeFile(path, linesToBytes(turn.lines.slice(0, -1)), { append: true });
    const race = await readTurnView(path, first.index, {
      includeSidechain: false,
      lastAssistantMessage: turn.finalText,
      syncMs: 0,
    });
    assert.equal(race.view.turnId, turn.promptId);
    assert.equal(race.view.finalSynced, false);
    assert.equal(race.view.stats.fullScan, false);
    await Deno.writeFile(path, linesToBytes(turn.lines.slice(-1)), { append: true });
    const synced = await readTurnView(path, race.index, {
      includeSidechain: false,
      lastAssistantMessage: turn.finalText,
      syncMs: 0,
    });
    assert.equal(synced.view.finalSynced, true);
    assert.ok(synced.view.stats.bytesRead < 64 * 1024, "only the appended line is read");
  });
});
