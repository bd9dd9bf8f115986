import assert from "node:assert/strict";
import fc from "fast-check";
import { syncKey } from "./final_sync.ts";
import { EMPTY_SYNC_HASH, extendSyncHash, isSyncSpace, syncDigest, syncHashOf } from "./sync_hash.ts";

Deno.test("extendSyncHash() resumes: the hash of A then B equals the hash of A + B", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
      assert.deepEqual(extendSyncHash(syncHashOf(a), b), syncHashOf(a + b));
    }),
    { numRuns: 2000 },
  );
  assert.deepEqual(syncHashOf(""), EMPTY_SYNC_HASH);
});

Deno.test("isSyncSpace() is the whitespace of \\s, for every UTF-16 code unit", () => {
  for (let c = 0; c <= 0xffff; c++) {
    assert.equal(isSyncSpace(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16).padStart(4, "0")}`);
  }
});

Deno.test("syncHashOf() hashes a text's sync key: whitespace anywhere changes nothing, other characters do", () => {
  const spaced = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "\t", "\u00a0", "\u3000", "\ufeff", "é") });
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), spaced, (a, b) => {
      assert.deepEqual(syncHashOf(a), syncHashOf(syncKey(a)));
      assert.deepEqual(syncHashOf(b), syncHashOf(syncKey(b)));
      assert.equal(syncHashOf(b).len, syncKey(b).length);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("syncHashOf() stays exact on long texts and in the unsigned 32-bit range", () => {
  const long = "\uffff".repeat(100_000);
  const h = syncHashOf(long);
  assert.ok(Number.isSafeInteger(h.a) && Number.isSafeInteger(h.b));
  assert.ok(h.a >= 0 && h.b >= 0 && h.a < 2 ** 32 && h.b < 2 ** 32);
  assert.equal(h.len, 100_000);
  assert.deepEqual(extendSyncHash(syncHashOf(long.slice(0, 33_333)), long.slice(33_333)), h);
});

Deno.test("syncDigest() separates near texts and holds no text", () => {
  const texts = ["Done.", "Done!", "done.", "Done.Done.", "", "a", "b", "ab", "ba", "\u0000", "\u0000\u0000"];
  const digests = texts.map((t) => syncDigest(syncHashOf(t)));
  assert.equal(new Set(digests).size, texts.length);
  for (const d of digests) assert.match(d, /^[0-9a-f]{16}\.[0-9a-f]+$/);
});
