import assert from "node:assert/strict";
import fc from "fast-check";
import { hash53, includesAny, indexOfBytes, needles } from "./bytes.ts";

const enc = new TextEncoder();

Deno.test("indexOfBytes() finds a needle, including at the edges and after false starts", () => {
  const hay = enc.encode('aa"usr"use""user"');
  assert.equal(indexOfBytes(hay, enc.encode('"user"')), 11);
  assert.equal(indexOfBytes(hay, enc.encode("aa")), 0);
  assert.equal(indexOfBytes(hay, enc.encode('user"')), 12);
  assert.equal(indexOfBytes(hay, enc.encode('"user"'), 12), -1);
  assert.equal(indexOfBytes(hay, enc.encode('"assistant"')), -1);
  assert.equal(indexOfBytes(enc.encode("ab"), enc.encode("abc")), -1);
});

Deno.test("includesAny() is true when one needle occurs", () => {
  const list = needles(['"user"', "queued_command"]);
  assert.equal(includesAny(enc.encode('{"type":"attachment","attachment":{"type":"queued_command"}}'), list), true);
  assert.equal(includesAny(enc.encode('{"type":"progress"}'), list), false);
});

Deno.test("includesAny() agrees with one indexOfBytes per needle (shared first bytes, overlaps, edges)", () => {
  const alphabet = fc.constantFrom(...enc.encode('"uasq'));
  const bytes = (max: number) => fc.array(alphabet, { maxLength: max }).map((a) => Uint8Array.from(a));
  fc.assert(
    fc.property(bytes(40), fc.array(bytes(4), { maxLength: 5 }), (hay, list) => {
      const expected = list.some((n) => indexOfBytes(hay, n) !== -1);
      assert.equal(includesAny(hay, list), expected);
      assert.equal(includesAny(hay, list), expected, "again, from the cached grouping");
    }),
    { numRuns: 5000 },
  );
});

Deno.test("hash53() is stable, hex, and separates near texts", () => {
  assert.equal(hash53("Done."), hash53("Done."));
  assert.match(hash53("Done."), /^[0-9a-f]{14}$/);
  assert.notEqual(hash53("Done."), hash53("Done!"));
  assert.equal(hash53(enc.encode("abc")), hash53("abc"), "ASCII bytes and text hash alike");
});
