/**
 * The reader's two read buffers take turns (the next read is under way while the last one is parsed): the state it
 * reaches must not depend on the buffer size, on how many reads a call may make, or on where reads cut lines.
 */
import assert from "node:assert/strict";
import { initialState } from "./reducer_state.ts";
import { TranscriptReader, type TranscriptReaderOptions } from "./transcript_reader.ts";
import { CLIENT, CORPUS, fixture } from "../testing/transcript_lines.ts";

const FILES = [
  fixture("split_message.jsonl"),
  fixture("tools_split_parallel.jsonl"),
  `${CLIENT}transcripts/tasks-bash-session.jsonl`,
  `${CORPUS}transcripts/entireio__cli__44-54089969c1-0__full.jsonl`,
];

async function readAll(path: string, options: Partial<TranscriptReaderOptions>, maxBytes?: number) {
  const file = await Deno.open(path);
  try {
    const reader = new TranscriptReader(file, { includeSidechain: false, start: 0, state: initialState(), ...options });
    let calls = 0;
    const reads: number[] = [];
    while (true) {
      const n = await reader.readAvailable(maxBytes);
      calls++;
      if (n === 0) break;
      reads.push(n);
    }
    return {
      result: {
        state: reader.state,
        consumed: reader.consumed,
        lines: reader.lineCount,
        position: reader.position,
        stats: reader.stats,
      },
      calls,
      reads,
    };
  } finally {
    file.close();
  }
}

for (const path of FILES) {
  const name = path.split("/").pop();
  Deno.test(`TranscriptReader: any buffer size reaches the state of one read: ${name}`, async () => {
    const whole = await readAll(path, {});
    assert.ok(whole.result.lines > 0);
    for (const bufferBytes of [5, 64, 1000, 4096]) {
      const small = await readAll(path, { bufferBytes });
      assert.deepEqual(small.result, whole.result, `buffer of ${bufferBytes} bytes`);
    }
  });

  Deno.test(`TranscriptReader: readAvailable(maxBytes) stops after whole buffers and goes on where it stopped: ${name}`, async () => {
    const whole = await readAll(path, {});
    const size = (await Deno.stat(path)).size;
    for (const [bufferBytes, maxBytes] of [[64, 1], [64, 200], [500, 1000], [4096, 4096]] as const) {
      const bounded = await readAll(path, { bufferBytes }, maxBytes);
      assert.deepEqual(bounded.result, whole.result, `buffer ${bufferBytes}, at most ${maxBytes} per call`);
      const perCall = Math.ceil(maxBytes / bufferBytes) * bufferBytes;
      for (const n of bounded.reads) assert.ok(n <= perCall, `a call read ${n} bytes, over ${perCall}`);
      assert.equal(bounded.reads.reduce((a, b) => a + b, 0), size);
    }
  });
}

Deno.test("TranscriptReader: an error while a read is under way reaches the caller, and that read settles", async () => {
  class Failing extends TranscriptReader {
    seen = 0;
    override line(bytes: Uint8Array, lineNo: number): void {
      if (++this.seen === 3) throw new Error("the third line");
      super.line(bytes, lineNo);
    }
  }
  const file = await Deno.open(FILES[2]!);
  try {
    const reader = new Failing(file, { includeSidechain: false, start: 0, state: initialState(), bufferBytes: 16 });
    // the test's op sanitizer fails it if the read under way is left pending
    await assert.rejects(() => reader.readAvailable(), /the third line/);
    assert.equal(reader.seen, 3);
  } finally {
    file.close();
  }
});
