/**
 * The reader's two read buffers take turns (the next read is under way while the last one is parsed): the state it
 * reaches must not depend on the buffer size, on how many reads a call may make, or on where reads cut lines.
 */
import assert from "node:assert/strict";
import { initialState } from "./reducer_state.ts";
import fc from "fast-check";
import { includesAny, needles } from "./bytes.ts";
import { TEXT_PIECE_BYTES } from "./line_scanner.ts";
import {
  isRelevantLargeLine,
  isRelevantText,
  LARGE_LINE_BYTES,
  parseRelevantLine,
  parseRelevantText,
  PROBES,
  RELEVANT,
  TranscriptReader,
  type TranscriptReaderOptions,
} from "./transcript_reader.ts";
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
      const n = await reader.readAvailable(maxBytes === undefined ? {} : { maxBytes });
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
    const longest = Math.max(
      ...(await Deno.readTextFile(path)).split("\n").map((l) => new TextEncoder().encode(l).length),
    );
    for (const [bufferBytes, maxBytes] of [[64, 1], [64, 200], [500, 1000], [4096, 4096]] as const) {
      const bounded = await readAll(path, { bufferBytes }, maxBytes);
      assert.deepEqual(bounded.result, whole.result, `buffer ${bufferBytes}, at most ${maxBytes} per call`);
      // whole buffers up to maxBytes, and past it only until a line has ended since the call began (its progress)
      const perCall = Math.ceil(maxBytes / bufferBytes) * bufferBytes;
      const withProgress = perCall + (Math.ceil((longest + 1) / bufferBytes) + 1) * bufferBytes;
      for (const n of bounded.reads) assert.ok(n <= withProgress, `a call read ${n} bytes, over ${withProgress}`);
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

Deno.test("isRelevantLargeLine() finds a needle exactly when the bytes hold it, wherever pieces cut the line", () => {
  const relevant = needles(RELEVANT);
  const encoder = new TextEncoder();
  const part = fc.oneof(
    fc.constantFrom(...RELEVANT, '"use', 'r"', '"assist', 'ant"', "é", "€", "😀", '"', "\n", "x"),
    fc.string({ maxLength: 6 }),
    fc.uint8Array({ maxLength: 4 }).map((b) => b), // invalid UTF-8 too
  );
  fc.assert(
    fc.property(fc.array(part, { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), (parts, piece) => {
      const chunks = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      assert.equal(isRelevantLargeLine(bytes, piece), includesAny(bytes, relevant));
      assert.equal(isRelevantText(new TextDecoder().decode(bytes)), includesAny(bytes, relevant));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("isRelevantText() finds a RELEVANT string exactly when the text holds one, wherever its probe recurs", () => {
  // the parts a probe search can be fooled by: every needle cut around its probe, probes alone, near misses
  const pieces = PROBES.flatMap(({ needle, probe, at }) => [
    needle,
    probe,
    needle.slice(0, at),
    needle.slice(at + probe.length),
    needle.slice(0, -1),
    needle.slice(1),
  ]).filter((p) => p !== "");
  const part = fc.oneof(fc.constantFrom(...pieces, '"', "é", "😀", "x"), fc.string({ maxLength: 4 }));
  fc.assert(
    fc.property(fc.array(part, { maxLength: 24 }), (parts) => {
      const text = parts.join("");
      assert.equal(isRelevantText(text), RELEVANT.some((needle) => text.includes(needle)), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});

Deno.test("each RELEVANT string has a probe: the whole string, or a part of it of at most 6 characters", () => {
  assert.deepEqual(PROBES.map((p) => p.needle), [...RELEVANT]);
  for (const { needle, probe, at } of PROBES) {
    assert.ok(at >= 0 && needle.slice(at, at + probe.length) === probe, needle);
    assert.ok(probe === needle || probe.length <= 6, needle);
  }
});

Deno.test("parseRelevantLine() reads a large line that matters and skips one that does not", () => {
  const decoder = new TextDecoder();
  const counts = { lines: 0, parsed: 0, malformed: 0 };
  const filler = "é".repeat(LARGE_LINE_BYTES);
  const user = new TextEncoder().encode(JSON.stringify({ text: filler, type: "user" }));
  const other = new TextEncoder().encode(JSON.stringify({ type: "progress", text: filler }));
  assert.ok(user.length > LARGE_LINE_BYTES && other.length > LARGE_LINE_BYTES);
  assert.deepEqual(parseRelevantLine(user, decoder, counts), { text: filler, type: "user" });
  assert.equal(parseRelevantLine(other, decoder, counts), undefined);
  assert.deepEqual(counts, { lines: 2, parsed: 1, malformed: 0 });
});

Deno.test("a line the scanner gives as text is one parseRelevantLine searches whole, and parses the same", () => {
  assert.ok(TEXT_PIECE_BYTES <= LARGE_LINE_BYTES, "a text line is never a large line");
  const enc = new TextEncoder();
  const lines = ['{"type":"user","message":{"content":"hi"}}', '{"type":"progress"}', '{"type":"assistant",', "x"];
  for (const line of lines) {
    const [a, b] = [{ lines: 0, parsed: 0, malformed: 0 }, { lines: 0, parsed: 0, malformed: 0 }];
    assert.deepEqual(parseRelevantText(line, a), parseRelevantLine(enc.encode(line), new TextDecoder(), b), line);
    assert.deepEqual(a, b, line);
  }
});
