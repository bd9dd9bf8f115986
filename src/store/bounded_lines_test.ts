import assert from "node:assert/strict";
import fc from "fast-check";
import { forEachBoundedLine } from "./bounded_lines.ts";

/** A reader over bytes, giving at most `step` bytes a read (so lines and characters straddle reads). */
function readerOf(bytes: Uint8Array, step: number) {
  let at = 0;
  return {
    read(p: Uint8Array): Promise<number | null> {
      if (at >= bytes.length) return Promise.resolve(null);
      const n = Math.min(p.length, step, bytes.length - at);
      p.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
  };
}

async function lines(text: string, maxLineBytes: number, chunkBytes: number, step: number) {
  const out: (string | null)[] = [];
  await forEachBoundedLine(readerOf(new TextEncoder().encode(text), step), { maxLineBytes, chunkBytes }, (l) => {
    out.push(l);
  });
  return out;
}

/** What the reader must give: split on \n, empty lines dropped, lines over the limit (in UTF-8 bytes) as null. */
function expected(text: string, maxLineBytes: number): (string | null)[] {
  return text.split("\n").filter((l) => l !== "").map((l) =>
    new TextEncoder().encode(l).length > maxLineBytes ? null : l
  );
}

Deno.test("forEachBoundedLine(): the lines of split('\\n'), empty ones dropped, long ones null, at any read size", async () => {
  const text = fc.array(fc.oneof(fc.constant("\n"), fc.constant("\r\n"), fc.string({ unit: "binary" })), {
    maxLength: 30,
  }).map((pieces) => pieces.join(""));
  await fc.assert(
    fc.asyncProperty(
      text,
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 1, max: 17 }),
      fc.integer({ min: 1, max: 23 }),
      async (t, max, chunk, step) => {
        assert.deepEqual(await lines(t, max, chunk, step), expected(t, max));
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("forEachBoundedLine(): a line of 64 MiB without a newline is one null, read in bounded memory", async () => {
  let left = 64 * 1024 * 1024;
  const reader = {
    read(p: Uint8Array): Promise<number | null> {
      if (left === 0) return Promise.resolve(null);
      const n = Math.min(p.length, left);
      p.fill(48, 0, n);
      left -= n;
      return Promise.resolve(n);
    },
  };
  const out: (string | null)[] = [];
  await forEachBoundedLine(reader, { maxLineBytes: 1024 }, (l) => out.push(l));
  assert.deepEqual(out, [null]);
});
