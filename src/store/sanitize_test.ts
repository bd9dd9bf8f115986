import assert from "node:assert/strict";
import { sanitizeId } from "./sanitize.ts";
import { sha256Hex } from "./sha256.ts";

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

Deno.test("sanitizeId(): an id shaped like another id's hashed name is hashed too, so the two never share a file", () => {
  const hashed = sanitizeId("a/b");
  assert.match(hashed, /^a_b-[0-9a-f]{16}$/);
  assert.notEqual(sanitizeId(hashed), hashed);
  assert.match(sanitizeId(hashed), /^[A-Za-z0-9][A-Za-z0-9_-]*-[0-9a-f]{16}$/);
  // ids Claude Code sends keep their names
  assert.equal(sanitizeId("agent-a1b2c3d4e5f6a7b8c"), "agent-a1b2c3d4e5f6a7b8c");
  assert.equal(sanitizeId("a1b2c3d4e5f6a7b8"), "a1b2c3d4e5f6a7b8");
  // over many ids, kept and hashed alike: no two share a name
  const ids = new Set<string>();
  const names = new Map<string, string>();
  for (let i = 0; i < 3000; i++) {
    const base = ["s", "a/b", "x.y", "../z", "a_b"][i % 5]!;
    for (const id of [`${base}${i}`, sanitizeId(`${base}${i}`)]) {
      if (ids.has(id)) continue;
      ids.add(id);
      const name = sanitizeId(id);
      assert.ok(!names.has(name) || names.get(name) === id, `${id} and ${names.get(name)} share ${name}`);
      names.set(name, id);
    }
  }
});

Deno.test("sanitizeId(): ids that differ only in a lone surrogate never share a file, and a well-formed id keeps its name", () => {
  const ids = ["\ud800s", "\ud801s", "\udc00s", "\udfffs", "\ufffds", "s\ud800", "s\udc00"];
  const names = ids.map(sanitizeId);
  assert.equal(new Set(names).size, ids.length, names.join(" "));
  // a well-formed id is hashed as its UTF-8, as before
  assert.equal(sanitizeId("a/b"), `a_b-${sha256Hex("a/b").slice(0, 16)}`);
});
