import assert from "node:assert/strict";
import fc from "fast-check";
import { parseJsonPrefix } from "./partial_json.ts";

Deno.test("parseJsonPrefix() keeps what is complete before the cut and closes what is open", () => {
  const head = '{"type":"user","n":12,"message":{"role":"user","content":[{"type":"image","source":{"data":"iVBOR';
  assert.deepEqual(parseJsonPrefix(head), {
    type: "user",
    n: 12,
    message: { role: "user", content: [{ type: "image", source: { data: "iVBOR" } }] },
  });
});

Deno.test("parseJsonPrefix() drops a number or literal cut in the middle", () => {
  assert.deepEqual(parseJsonPrefix('{"a":tr'), {});
  assert.deepEqual(parseJsonPrefix('{"a":1,"b":12'), { a: 1 });
  assert.deepEqual(parseJsonPrefix('{"a":"x\\'), { a: "x" });
  assert.deepEqual(parseJsonPrefix('{"a":"\\u00e9\\u00'), { a: "é" });
  assert.deepEqual(parseJsonPrefix('{"ke'), {});
});

Deno.test("parseJsonPrefix() returns undefined for text that is not JSON", () => {
  assert.equal(parseJsonPrefix("hello"), undefined);
  assert.equal(parseJsonPrefix('{"a" 1}'), undefined);
  assert.equal(parseJsonPrefix(""), undefined);
});

Deno.test("parseJsonPrefix() never throws on any prefix and agrees with JSON.parse on the whole text", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat(), (value, cut) => {
      const text = JSON.stringify(value);
      parseJsonPrefix(text.slice(0, cut % (text.length + 1)));
      if (typeof value === "object" && value !== null) {
        assert.deepEqual(parseJsonPrefix(text), JSON.parse(text));
      }
    }),
  );
});
