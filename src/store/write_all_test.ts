import assert from "node:assert/strict";
import { writeAll } from "./write_all.ts";

Deno.test("writeAll(): a writer that takes a few bytes at a time still gets every byte, in order", async () => {
  const got: number[] = [];
  const slow = { write: (p: Uint8Array) => Promise.resolve(got.push(...p.subarray(0, 3)) && Math.min(3, p.length)) };
  await writeAll(slow, new TextEncoder().encode("hello, world"));
  assert.equal(new TextDecoder().decode(new Uint8Array(got)), "hello, world");
});
