import assert from "node:assert/strict";
import { codeBlock, deriveSeed, Rng, sentence } from "./rng.ts";

Deno.test("rng: the same seed gives the same sequence, another seed another one", () => {
  const a = new Rng(42), b = new Rng(42), c = new Rng(43);
  const seqA = Array.from({ length: 50 }, () => a.next());
  assert.deepEqual(Array.from({ length: 50 }, () => b.next()), seqA);
  assert.notDeepEqual(Array.from({ length: 50 }, () => c.next()), seqA);
});

Deno.test("rng: int stays in its bounds and reaches both ends; float in [0, 1)", () => {
  const rng = new Rng(7);
  const seen = new Set<number>();
  for (let i = 0; i < 2000; i++) {
    const n = rng.int(3, 6);
    assert.ok(n >= 3 && n <= 6);
    seen.add(n);
    const f = rng.float();
    assert.ok(f >= 0 && f < 1);
  }
  assert.deepEqual([...seen].sort(), [3, 4, 5, 6]);
});

Deno.test("rng: uuid-shaped ids, derived seeds differ by label and are stable", () => {
  assert.match(new Rng(1).uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(deriveSeed(1, "base-20"), deriveSeed(1, "base-20"));
  assert.notEqual(deriveSeed(1, "base-20"), deriveSeed(1, "base-200"));
  assert.notEqual(deriveSeed(1, "x"), deriveSeed(2, "x"));
});

Deno.test("rng: text helpers are deterministic", () => {
  assert.equal(sentence(new Rng(5)), sentence(new Rng(5)));
  assert.equal(codeBlock(new Rng(5), 10), codeBlock(new Rng(5), 10));
  assert.equal(codeBlock(new Rng(5), 10).split("\n").length, 10);
});
