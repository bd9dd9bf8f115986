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
import { longLineTurn } from "../testing/transcript_lines.ts";

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

/**
 * A transcript with one line longer than a call reads (a progress line, or a NUL run of a sparse file, of 2 MiB), then
 * a turn whose TodoWrite list has an open item. Small as it is, each call reads one buffer (its clock is past its
 * deadline at the first look), so the line spans four calls.
 */
async function longLineTranscript(dir: string, longLine: string): Promise<string> {
  const path = join(dir, "t.jsonl");
  const lines = longLineTurn(longLine, "Task A is done.");
  await Deno.writeTextFile(path, lines.join(""));
  return path;
}

const LONG = 2 * 1024 * 1024;

for (
  const [what, longLine] of [
    ["a progress line", `{"type":"progress","data":"${"x".repeat(LONG)}"}`],
    ["a run of NULs", "\0".repeat(LONG)],
  ] as const
) {
  Deno.test(`readTurnView(): ${what} longer than a call reads is skipped over several calls, and the turn after it is read`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const path = await longLineTranscript(dir, longLine);
      const size = (await Deno.stat(path)).size;
      const lineStart = lineEnd(await Deno.readFile(path), 0);
      const options = {
        includeSidechain: false,
        lastAssistantMessage: "Task A is done.",
        syncMs: 0,
        maxLineBytes: 64 * 1024,
      };
      let index = null;
      const reached: number[] = [];
      for (let call = 0; call < 20; call++) {
        const read = await readTurnView(path, index, { ...options, readUntil: { at: 0, now: () => 1 } });
        index = read.index;
        if (!read.view.stats.partial) {
          assert.equal(read.view.found, true);
          assert.deepEqual(read.view.todo, [{ text: "task A", done: true }, { text: "task B", done: false }]);
          assert.equal(read.view.stats.oversize, 1, "skipped as too long, as any line over the limit");
          assert.equal(index?.offset, size);
          assert.equal(index?.longLine, undefined, "past the line");
          const full = await readTurnView(path, null, options);
          assert.deepEqual(read.index?.state, full.index?.state, "the state of one read of the whole file");
          assert.equal(read.index?.line, full.index?.line);
          break;
        }
        assert.equal(read.view.found, false, "a partial read decides from the final message alone");
        // the index stays at the line's start, and records how far into it the read got
        assert.equal(index?.offset, lineStart);
        assert.equal(index?.line, 1);
        assert.ok(index?.longLine !== undefined && index.longLine.at === index.size, JSON.stringify(index?.longLine));
        assert.deepEqual(read.view.stats.longLine, { line: 2, bytes: index!.longLine!.at - lineStart });
        assert.ok(read.view.stats.bytesRead <= READ_BUFFER_BYTES, "one buffer: none of the line is read again");
        reached.push(index!.longLine!.at);
      }
      assert.equal(index?.offset, size, "finished");
      assert.ok(reached.length >= 3, `the line spans several calls: ${reached}`);
      assert.ok(
        reached.every((at, i) => i === 0 || at > reached[i - 1]!),
        `each call goes on from the last: ${reached}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

/** Where the line that starts at `from` ends: just past its "\n". */
function lineEnd(bytes: Uint8Array, from: number): number {
  return bytes.indexOf(0x0a, from) + 1;
}

Deno.test("readTurnView(): a line under the limit that one call cannot finish is finished by reading on, never read again and again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // 800 KiB: under the 1 MiB limit, over one buffer. A call cut short at one buffer reads on until it ends
    const path = await longLineTranscript(dir, `{"type":"progress","data":"${"y".repeat(800 * 1024)}"}`);
    const options = { includeSidechain: false, lastAssistantMessage: "Task A is done.", syncMs: 0 };
    let index = null;
    const offsets = [0];
    for (let call = 0; call < 5; call++) {
      const read = await readTurnView(path, index, { ...options, readUntil: { at: 0, now: () => 1 } });
      index = read.index;
      assert.equal(index?.longLine, undefined, "a line under the limit is never skipped");
      assert.ok(index!.offset > offsets.at(-1)!, `call ${call} ends a line at least: ${offsets} then ${index!.offset}`);
      offsets.push(index!.offset);
      if (!read.view.stats.partial) {
        assert.deepEqual(read.view.todo?.map((t) => t.done), [true, false]);
        // the first call ends at the long line's start; the second reads on past one buffer, to the line's end
        assert.equal(offsets[1], lineEnd(await Deno.readFile(path), 0));
        return;
      }
    }
    assert.fail(`never finished: ${offsets}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTurnView(): an index without longLine (an older build's) reads on from its offset; one that is not of ours rescans", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = await longLineTranscript(dir, `{"type":"progress","data":"${"x".repeat(LONG)}"}`);
    const options = { includeSidechain: false, lastAssistantMessage: null, syncMs: 0, maxLineBytes: 64 * 1024 };
    const first = await readTurnView(path, null, { ...options, readUntil: { at: 0, now: () => 1 } });
    assert.ok(first.index?.longLine !== undefined);
    // as stored by an older build: no longLine, the offset at the line's start: read from there, as before
    const { longLine: _, ...older } = JSON.parse(JSON.stringify(first.index));
    const fromOld = await readTurnView(path, older, options);
    assert.equal(fromOld.view.stats.fullScan, false);
    assert.deepEqual(fromOld.view.todo?.map((t) => t.text), ["task A", "task B"]);
    // a longLine at or before the offset, or past what the index saw, is no index this reader writes: read again
    for (const at of [first.index!.offset, first.index!.size + 1]) {
      const odd = await readTurnView(path, { ...first.index, longLine: { at } }, options);
      assert.equal(odd.view.stats.fullScan, true, `at ${at}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
