import assert from "node:assert/strict";
import fc from "fast-check";
import { LineScanner, type OversizeLine } from "./line_scanner.ts";

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
  return { ...out, scanner };
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
