import assert from "node:assert/strict";
import fc from "fast-check";
import { LineScanner, type LineSink, type OversizeLine, TEXT_PIECE_BYTES } from "./line_scanner.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Collected {
  lines: string[];
  oversize: OversizeLine[];
  /** The line number reported with each line or oversize line, in order. */
  numbers: number[];
}

/** Feeds `bytes` in chunks of the given sizes (cycled) and collects what the scanner reports. */
function scan(bytes: Uint8Array, chunkSizes: number[], maxLineBytes?: number): Collected & { scanner: LineScanner } {
  const scanner = new LineScanner(
    maxLineBytes === undefined ? { start: 0 } : { start: 0, maxLineBytes, keepBytes: 16 },
  );
  const out: Collected = { lines: [], oversize: [], numbers: [] };
  const sink = {
    line: (b: Uint8Array, n: number) => {
      out.lines.push(dec.decode(b));
      out.numbers.push(n);
    },
    oversize: (o: OversizeLine, n: number) => {
      out.oversize.push(o);
      out.numbers.push(n);
    },
  };
  feedInChunks(scanner, bytes, chunkSizes, sink);
  return { ...out, scanner };
}

/** Feeds `bytes` to `scanner` in chunks of the given sizes (cycled), each through a read buffer that is reused. */
function feedInChunks(scanner: LineScanner, bytes: Uint8Array, chunkSizes: number[], sink: LineSink): void {
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const size = Math.max(1, chunkSizes[i++ % chunkSizes.length]!);
    // A reused read buffer: the scanner must copy what it keeps.
    const buffer = new Uint8Array(size);
    const piece = bytes.subarray(at, at + size);
    buffer.set(piece);
    scanner.feed(buffer.subarray(0, piece.length), sink);
    buffer.fill(0x21);
    at += piece.length;
  }
}

Deno.test("LineScanner gives the same lines whatever the chunk boundaries", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replaceAll("\n", " ").replaceAll("\r", " ")),
        {
          maxLength: 30,
        },
      ),
      fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }),
      (lines, chunks) => {
        const text = lines.map((l) => l + "\n").join("");
        const got = scan(enc.encode(text), chunks);
        assert.deepEqual(got.lines, lines.filter((l) => l !== ""));
        const numbers = lines.flatMap((l, i) => (l === "" ? [] : [i + 1]));
        assert.deepEqual(got.numbers, numbers, "1-based numbers, blank lines counted");
        assert.equal(got.scanner.lines, lines.length);
        assert.equal(got.scanner.consumed, enc.encode(text).length);
        assert.equal(got.scanner.pendingBytes, 0);
      },
    ),
  );
});

Deno.test("LineScanner drops CR of CRLF and skips blank lines, counting them", () => {
  const got = scan(enc.encode('{"a":1}\r\n\r\n\n{"b":2}\r\n'), [3]);
  assert.deepEqual(got.lines, ['{"a":1}', '{"b":2}']);
  assert.deepEqual(got.numbers, [1, 4]);
});

Deno.test("LineScanner numbers lines from startLine and counts oversize lines", () => {
  const scanner = new LineScanner({ start: 500, startLine: 41, maxLineBytes: 8, keepBytes: 4 });
  const numbers: Array<[string, number]> = [];
  const sink = {
    line: (b: Uint8Array, n: number) => numbers.push([dec.decode(b), n]),
    oversize: (_: OversizeLine, n: number) => numbers.push(["<oversize>", n]),
  };
  scanner.feed(enc.encode("a\n\nbbbbbbbbbbbb\nc\ntorn"), sink);
  assert.deepEqual(numbers, [["a", 42], ["<oversize>", 44], ["c", 45]]);
  assert.equal(scanner.lines, 45, "the torn line is not counted until it ends");
});

Deno.test("LineScanner holds a torn last line and reports it once completed", () => {
  const scanner = new LineScanner({ start: 100 });
  const lines: string[] = [];
  const sink = { line: (b: Uint8Array) => lines.push(dec.decode(b)), oversize: () => assert.fail("no oversize") };
  scanner.feed(enc.encode('{"a":1}\n{"b":'), sink);
  assert.deepEqual(lines, ['{"a":1}']);
  assert.equal(scanner.consumed, 108);
  assert.equal(scanner.pendingBytes, 5);
  scanner.feed(enc.encode("2}\n"), sink);
  assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  assert.equal(scanner.consumed, 116);
  assert.equal(scanner.pendingBytes, 0);
});

Deno.test("LineScanner skips a multi-MB line, keeping only its head and tail", () => {
  const big = "x".repeat(5 * 1024 * 1024);
  const text = `first\n{"type":"user","data":"${big}","end":true}\r\nlast\n`;
  const got = scan(enc.encode(text), [64 * 1024], 1024 * 1024);
  assert.deepEqual(got.lines, ["first", "last"]);
  assert.equal(got.oversize.length, 1);
  const o = got.oversize[0]!;
  assert.equal(o.length, big.length + '{"type":"user","data":"","end":true}'.length);
  assert.equal(dec.decode(o.head), '{"type":"user","');
  assert.equal(dec.decode(o.tail), 'xx","end":true}'); // 16 kept bytes less the CR
});

Deno.test("LineScanner: a line of exactly maxLineBytes is kept, one byte more is oversize", () => {
  const got = scan(enc.encode("a".repeat(32) + "\n" + "b".repeat(33) + "\n"), [7], 32);
  assert.deepEqual(got.lines, ["a".repeat(32)]);
  assert.equal(got.oversize.length, 1);
  assert.equal(got.oversize[0]!.length, 33);
});

Deno.test("LineScanner: an oversize line inside one chunk is skipped too", () => {
  const got = scan(enc.encode("s\n" + "z".repeat(100) + "\nt\n"), [1000], 40);
  assert.deepEqual(got.lines, ["s", "t"]);
  assert.equal(got.oversize.length, 1);
  assert.equal(got.oversize[0]!.head.length, 16);
  assert.equal(got.oversize[0]!.tail.length, 16);
});

Deno.test("LineScanner passes invalid UTF-8 through as bytes", () => {
  const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a, 0x61, 0x0a]);
  const got = scan(bytes, [2]);
  assert.equal(got.lines.length, 2);
  assert.equal(got.lines[1], "a");
});

/** What a sink is told, in order: each line as text (from `text`, or `line`'s bytes decoded) and each oversize line. */
function told(bytes: Uint8Array, chunkSizes: number[], options: { text: boolean; maxLineBytes?: number }) {
  const scanner = new LineScanner({
    start: 0,
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
  });
  const out: string[] = [];
  const ways = { text: 0, bytes: 0 };
  const decoder = new TextDecoder();
  const sink = {
    line: (b: Uint8Array, n: number) => {
      ways.bytes++;
      out.push(`${n}:${decoder.decode(b)}`);
    },
    oversize: (o: OversizeLine, n: number) =>
      out.push(`${n}:<oversize ${o.length} ${o.head.join(",")}|${o.tail.join(",")}>`),
    ...(options.text
      ? {
        text: (t: string, n: number) => {
          ways.text++;
          out.push(`${n}:${t}`);
        },
      }
      : {}),
  };
  feedInChunks(scanner, bytes, chunkSizes, sink);
  return { out, ways, lines: scanner.lines, consumed: scanner.consumed, pending: scanner.pendingBytes };
}

/** Bytes a transcript may hold: JSON-ish text, multi-byte characters, BOMs, CRs, invalid sequences, raw bytes, long lines. */
const transcriptBytes = fc.array(
  fc.oneof(
    { weight: 20, arbitrary: fc.string({ unit: "grapheme", maxLength: 60 }).map((s) => enc.encode(s)) },
    {
      weight: 8,
      arbitrary: fc.constantFrom("\n", "\r\n", "\n\n", "\r\r\n", '{"type":"user"}\n').map((s) => enc.encode(s)),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom("\uFEFF", "\uFEFF\uFEFF", "\r", "é", "日本", "\u{1F600}").map((s) => enc.encode(s)),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        [0xff],
        [0xf5],
        [0x80],
        [0xbf],
        [0xc0, 0xaf],
        [0xc1],
        [0xe2, 0x82],
        [0xc3],
        [0xed, 0xa0, 0x80],
        [0xf0, 0x80],
        [0xf0, 0x9f, 0x98],
        [0xef, 0xbf, 0xbd],
      ).map((b) => new Uint8Array(b)),
    },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 40 }) },
    // lines about a piece long, and some much longer
    {
      weight: 2,
      arbitrary: fc.integer({ min: -6, max: 6 }).map((d) => enc.encode("x".repeat(TEXT_PIECE_BYTES + d - 2) + "\n")),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 70 * 1024 }).map((n) => enc.encode("x".repeat(n) + "ü")) },
  ),
  { minLength: 4, maxLength: 80, size: "medium" },
).map((parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
});

Deno.test("LineScanner tells a text sink exactly what it tells a bytes sink, whatever the bytes and chunks", () => {
  let textLines = 0;
  fc.assert(
    fc.property(
      transcriptBytes,
      fc.array(
        fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 4096, max: 200 * 1024 }) },
          { weight: 2, arbitrary: fc.integer({ min: TEXT_PIECE_BYTES - 4, max: TEXT_PIECE_BYTES + 4 }) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 }) },
        ),
        { minLength: 1, maxLength: 6 },
      ),
      fc.constantFrom(
        undefined,
        2 * 1024 * 1024,
        64,
        30 * 1024,
        TEXT_PIECE_BYTES - 1,
        TEXT_PIECE_BYTES,
        TEXT_PIECE_BYTES + 1,
      ),
      (bytes, chunks, maxLineBytes) => {
        const options = maxLineBytes === undefined ? {} : { maxLineBytes };
        const viaBytes = told(bytes, chunks, { text: false, ...options });
        const viaText = told(bytes, chunks, { text: true, ...options });
        assert.deepEqual(viaText.out, viaBytes.out);
        assert.deepEqual(
          [viaText.lines, viaText.consumed, viaText.pending],
          [viaBytes.lines, viaBytes.consumed, viaBytes.pending],
        );
        textLines += viaText.ways.text;
      },
    ),
    { numRuns: 300 },
  );
  // about a thousand in 300 runs: the bound only proves the text way is exercised, without making the test flaky
  assert.ok(textLines > 300, `the text way was taken (${textLines} lines)`);
});

Deno.test("LineScanner: a text line is its bytes' decoding: invalid sequences, U+FFFD, one BOM dropped, CR dropped", () => {
  const bytes = new Uint8Array([
    ...enc.encode('{"a":1}\n'),
    ...[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf],
    ...enc.encode('{"b":2}\r\n'),
    ...[0x61, 0xff, 0xe2, 0x82, 0x0a, 0xe2, 0x0a],
    ...enc.encode("\uFFFD\n\r\n"),
  ]);
  const viaText = told(bytes, [1024], { text: true });
  assert.deepEqual(viaText.out, ['1:{"a":1}', '2:\uFEFF{"b":2}', "3:a\uFFFD\uFFFD", "4:\uFFFD", "5:\uFFFD"]);
  assert.deepEqual(viaText.ways, { text: 5, bytes: 0 });
  assert.deepEqual(told(bytes, [1024], { text: false }).out, viaText.out);
  // a line longer than a piece goes the byte way
  const long = told(enc.encode(`s\n${"y".repeat(TEXT_PIECE_BYTES)}\nt\n`), [256 * 1024], { text: true });
  assert.deepEqual(long.ways, { text: 2, bytes: 1 });
});

Deno.test("LineScanner: a text sink and a bytes sink agree at a piece's edges", () => {
  const line = (n: number, end = "\n") => "z".repeat(n) + end;
  const cases: [string, Uint8Array][] = [
    [
      "a file that starts with two BOMs",
      new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...enc.encode('{"a":1}\nb\n')]),
    ],
    ["a BOM right after a long line", enc.encode(line(TEXT_PIECE_BYTES + 10) + "\uFEFF{}\n")],
    ...[-2, -1, 0, 1].flatMap((d): [string, Uint8Array][] => [
      [`a line of ${TEXT_PIECE_BYTES + d} bytes`, enc.encode(`a\n${line(TEXT_PIECE_BYTES + d - 1)}b\n`)],
      [
        `a line of ${TEXT_PIECE_BYTES + d} bytes ending in CR`,
        enc.encode(`a\n${line(TEXT_PIECE_BYTES + d - 2, "\r\n")}b\n`),
      ],
    ]),
  ];
  for (const [name, bytes] of cases) {
    for (const chunks of [[bytes.length], [TEXT_PIECE_BYTES], [TEXT_PIECE_BYTES + 1], [7]]) {
      for (const maxLineBytes of [undefined, TEXT_PIECE_BYTES, TEXT_PIECE_BYTES + 1]) {
        const options = maxLineBytes === undefined ? {} : { maxLineBytes };
        const viaText = told(bytes, chunks, { text: true, ...options });
        assert.deepEqual(
          viaText.out,
          told(bytes, chunks, { text: false, ...options }).out,
          `${name}, chunks ${chunks}`,
        );
      }
    }
  }
  const twoBoms = told(cases[0]![1], [1024], { text: true });
  assert.deepEqual(twoBoms.out, ['1:\uFEFF{"a":1}', "2:b"]);
  assert.deepEqual(twoBoms.ways, { text: 2, bytes: 0 });
});

Deno.test("LineScanner: a scan that goes on inside an over-long line (inLine) reports what one scan does", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 20 }).map((s) => s.replaceAll("\n", " ")),
      fc.integer({ min: 41, max: 300 }),
      fc.string({ maxLength: 30 }),
      fc.nat(),
      fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
      (before, longLength, after, cut, chunks) => {
        // a line before, an over-long line (limit 40), then whatever comes after it
        const long = Array.from({ length: longLength }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
        const bytes = enc.encode(`${before}\n${long}\r\n${after}`);
        const start = enc.encode(`${before}\n`).length;
        const whole = scan(bytes, chunks, 40);
        // the first scan stops inside the long line, past the limit (where a scanner is `skipping`)
        const at = start + 41 + (cut % (longLength - 40));
        const first = scan(bytes.subarray(0, at), chunks, 40);
        assert.equal(first.scanner.skipping, true);
        assert.equal(first.scanner.consumed, start);
        // the next goes on from `at`, with the line's head and the tail before `at` read again
        const next = new LineScanner({
          start,
          startLine: first.scanner.lines,
          maxLineBytes: 40,
          keepBytes: 16,
          inLine: { at, head: bytes.subarray(start, start + 16), tail: bytes.subarray(Math.max(start, at - 16), at) },
        });
        const out: Collected = { lines: [], oversize: [], numbers: [] };
        feedInChunks(next, bytes.subarray(at), chunks, {
          line: (b, n) => void (out.lines.push(dec.decode(b)), out.numbers.push(n)),
          oversize: (o, n) => void (out.oversize.push(o), out.numbers.push(n)),
        });
        assert.deepEqual([...first.lines, ...out.lines], whole.lines);
        assert.deepEqual([...first.numbers, ...out.numbers], whole.numbers);
        assert.deepEqual(out.oversize, whole.oversize, "the same head, tail and length");
        assert.equal(next.consumed, whole.scanner.consumed);
        assert.equal(next.lines, whole.scanner.lines);
        assert.equal(next.skipping, false);
      },
    ),
  );
});
