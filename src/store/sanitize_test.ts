import assert from "node:assert/strict";
import { sanitizeId } from "./sanitize.ts";

Deno.test("sanitizeId() keeps plain uuids and agent ids as they are", () => {
  assert.equal(sanitizeId("000dc7d4-ea99-4839-ab85-5e87ccf659d0"), "000dc7d4-ea99-4839-ab85-5e87ccf659d0");
  assert.equal(sanitizeId("a1"), "a1");
});

Deno.test("sanitizeId() never lets an id leave the directory or collide", () => {
  const hostile = ["../../etc/passwd", "..", ".", "", "a/b", "a\\b", "a\u0000b", "x".repeat(500), "-rf", "ok id"];
  const seen = new Set<string>();
  for (const id of hostile) {
    const safe = sanitizeId(id);
    assert.match(safe, /^[A-Za-z0-9][A-Za-z0-9_-]*$/, `unsafe result for ${JSON.stringify(id)}: ${safe}`);
    assert.ok(safe.length <= 80);
    assert.ok(!seen.has(safe), `collision for ${JSON.stringify(id)}`);
    seen.add(safe);
  }
  assert.notEqual(sanitizeId("a/b"), sanitizeId("a_b"));
});
