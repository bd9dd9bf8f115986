import assert from "node:assert/strict";
import fc from "fast-check";
import { EMPTY_SYNC_HASH, extendSyncHash, syncDigest, syncHashOf } from "./sync_hash.ts";

Deno.test("extendSyncHash() resumes: the hash of A then B equals the hash of A + B", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
      assert.deepEqual(extendSyncHash(syncHashOf(a), b), syncHashOf(a + b));
    }),
    { numRuns: 2000 },
  );
  assert.deepEqual(syncHashOf(""), EMPTY_SYNC_HASH);
});

Deno.test("syncHashOf() stays exact on long texts and in the 31-bit range", () => {
  const long = "\uffff".repeat(100_000);
  const h = syncHashOf(long);
  assert.ok(Number.isSafeInteger(h.a) && Number.isSafeInteger(h.b));
  assert.ok(h.a < 2 ** 31 && h.b < 2 ** 31);
  assert.equal(h.len, 100_000);
  assert.deepEqual(extendSyncHash(syncHashOf(long.slice(0, 33_333)), long.slice(33_333)), h);
});

Deno.test("syncDigest() separates near texts and holds no text", () => {
  const texts = ["Done.", "Done!", "done.", "Done.Done.", "", "a", "b", "ab", "ba", "\u0000", "\u0000\u0000"];
  const digests = texts.map((t) => syncDigest(syncHashOf(t)));
  assert.equal(new Set(digests).size, texts.length);
  for (const d of digests) assert.match(d, /^[0-9a-f]{16}\.[0-9a-f]+$/);
});
