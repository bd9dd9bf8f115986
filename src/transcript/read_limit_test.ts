/**
 * A transcript bigger than one stop may read: each call reads up to its limit, keeps its progress in the index, and
 * says the view is partial (not `found`); the next call goes on from there, until the whole file is read and the
 * view is the one a single full read gives. The same for a read that runs out of its time (`readUntil`), on a clock
 * that moves on at each look, so that no test depends on how fast the machine reads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readTurnView } from "./read_view.ts";
import { initialState } from "./reducer_state.ts";
import { READ_BUFFER_BYTES, TranscriptReader } from "./transcript_reader.ts";

function line(value: unknown): string {
  return JSON.stringify(value) + "\n";
}

Deno.test("readTurnView(): over maxReadBytes, progress is kept and the next calls finish the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.jsonl");
    const filler = "x".repeat(2000);
    const lines = [line({ type: "user", message: { role: "user", content: "do it" }, promptId: "p1", uuid: "u1" })];
    for (let i = 0; i < 1500; i++) {
      lines.push(
        line({
          type: "assistant",
          uuid: `a${i}`,
          message: { id: `m${i}`, role: "assistant", content: [{ type: "text", text: filler }] },
        }),
      );
    }
    lines.push(line({
      type: "assistant",
      uuid: "todo",
      message: {
        id: "mt",
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "t1",
          name: "TodoWrite",
          input: { todos: [{ content: "ship it", status: "pending" }] },
        }],
      },
    }));
    await Deno.writeTextFile(path, lines.join(""));
    const size = (await Deno.stat(path)).size;
    const options = { includeSidechain: false, lastAssistantMessage: null, syncMs: 0, maxReadBytes: 1024 * 1024 };
    let index = null;
    const partials: number[] = [];
    for (let call = 0; call < 10; call++) {
      const read = await readTurnView(path, index, options);
      index = read.index;
      if (!read.view.stats.partial) {
        assert.equal(read.view.found, true);
        assert.deepEqual(read.view.todo?.map((t) => t.text), ["ship it"], "the whole file, read over several calls");
        const full = await readTurnView(path, null, { ...options, maxReadBytes: Infinity });
        assert.deepEqual(read.view.todo, full.view.todo);
        assert.equal(index?.offset, size);
        break;
      }
      assert.equal(read.view.found, false, "a partial read decides from the final message alone");
      partials.push(index!.offset);
    }
    assert.ok(partials.length >= 2, `read in ${partials.length + 1} calls`);
    assert.deepEqual(partials, [...partials].sort((a, b) => a - b), "each call goes on from the last");
    assert.ok(partials.every((o, i) => i === 0 || o > partials[i - 1]!));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A clock that moves on by `step` each time it is read, whatever the wall time: one look a read buffer. */
function tickingClock(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

Deno.test("TranscriptReader: a read with `until` stops at the buffer where its clock reaches it, at a whole line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.jsonl");
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push(line({ type: "user", message: { role: "user", content: `prompt ${i}` }, promptId: `p${i}` }));
    }
    await Deno.writeTextFile(path, lines.join(""));
    const size = (await Deno.stat(path)).size;
    using file = await Deno.open(path);
    const reader = new TranscriptReader(file, {
      includeSidechain: false,
      start: 0,
      state: initialState(),
      bufferBytes: 1024,
    });
    // looks at 1, 2, 3: the first read is always made, then one more each look before the clock reaches 3
    const read = await reader.readAvailable({ until: { at: 3, now: tickingClock(1) } });
    assert.equal(read, 3 * 1024);
    assert.ok(reader.consumed < read && reader.consumed > 2 * 1024, `consumed ${reader.consumed}`);
    assert.equal(lines.slice(0, reader.lineCount).join("").length, reader.consumed, "the index ends at a whole line");
    await reader.readAvailable();
    assert.equal(reader.consumed, size);
    using whole = await Deno.open(path);
    const full = new TranscriptReader(whole, { includeSidechain: false, start: 0, state: initialState() });
    await full.readAvailable();
    assert.deepEqual(reader.state, full.state, "read in two calls, the state of one read");
    // a clock already past: one buffer, so each call makes progress
    using again = await Deno.open(path);
    const late = new TranscriptReader(again, {
      includeSidechain: false,
      start: 0,
      state: initialState(),
      bufferBytes: 1024,
    });
    assert.equal(await late.readAvailable({ until: { at: 0, now: () => 5 } }), 1024);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTurnView(): past readUntil, progress is kept like past maxReadBytes, and the next calls finish the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.jsonl");
    const lines = [line({ type: "user", message: { role: "user", content: "do it" }, promptId: "p1", uuid: "u1" })];
    for (let i = 0; i < 40_000; i++) {
      lines.push(line({ type: "user", message: { role: "user", content: "hi" } }));
    }
    lines.push(line({
      type: "assistant",
      uuid: "todo",
      message: {
        id: "mt",
        role: "assistant",
        content: [{
          type: "tool_use",
          id: "t1",
          name: "TodoWrite",
          input: { todos: [{ content: "ship it", status: "pending" }] },
        }],
      },
    }));
    await Deno.writeTextFile(path, lines.join(""));
    const size = (await Deno.stat(path)).size;
    assert.ok(size > 4 * READ_BUFFER_BYTES && size < 8 * 1024 * 1024, `${size} bytes: over two calls' reads`);
    const options = { includeSidechain: false, lastAssistantMessage: null, syncMs: 0, maxLineBytes: 4096 };
    let index = null;
    const partials: number[] = [];
    for (let call = 0; call < 40; call++) {
      // the clock reaches the deadline at its second look: each call reads two buffers (the last one, what is left)
      const read = await readTurnView(path, index, { ...options, readUntil: { at: 2, now: tickingClock(1) } });
      index = read.index;
      if (!read.view.stats.partial) {
        assert.equal(read.view.found, true);
        const full = await readTurnView(path, null, options);
        assert.deepEqual(read.view.todo?.map((t) => t.text), ["ship it"], "the whole file, read over several calls");
        assert.deepEqual(read.view.todo, full.view.todo);
        assert.deepEqual(read.index?.state, full.index?.state);
        assert.equal(index?.offset, size);
        break;
      }
      assert.equal(read.view.found, false, "a partial read decides from the final message alone");
      assert.equal(read.view.stats.bytesRead, 2 * READ_BUFFER_BYTES, "two buffers: the first, and one more look");
      partials.push(index!.offset);
    }
    assert.ok(partials.length >= 1, `read in ${partials.length + 1} calls`);
    assert.ok(partials.every((o, i) => i === 0 || o > partials[i - 1]!), "each call goes on from the last");
    assert.equal(index?.offset, size, "finished");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
