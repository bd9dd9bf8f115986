import assert from "node:assert/strict";
import fc from "fast-check";
import { textHash64 } from "./text_hash.ts";

Deno.test("textHash64() is 16 hex digits, stable across calls and pinned for known texts", () => {
  for (const text of ["", "a", 'Bash\u0000{"command":"ls"}', "😀".repeat(10)]) {
    assert.match(textHash64(text), /^[0-9a-f]{16}$/);
  }
  // pinned: a change of the function changes every stored signature and fingerprint, which must be deliberate
  assert.equal(textHash64(""), "488bdcb81aee8d83");
  assert.equal(textHash64('Bash\u0000{"command":"npm test"}'), "cc540358c1d833f7");
});

Deno.test("textHash64() changes when any one character changes, is added or is removed", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.nat(),
      fc.integer({ min: 1, max: 0xffff }),
      (text, at, delta) => {
        const base = textHash64(text);
        assert.notEqual(textHash64(text + "x"), base);
        assert.notEqual(textHash64("x" + text), base);
        if (text.length === 0) return;
        const i = at % text.length;
        const changed = text.slice(0, i) + String.fromCharCode((text.charCodeAt(i) + delta) % 0x10000) +
          text.slice(i + 1);
        assert.notEqual(textHash64(changed), base, `position ${i}`);
        assert.notEqual(textHash64(text.slice(0, i) + text.slice(i + 1)), base, `removed ${i}`);
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("textHash64() gives 200,000 distinct near-identical texts 200,000 distinct hashes, bits spread evenly", () => {
  const seen = new Set<string>();
  const ones = new Array<number>(64).fill(0);
  const n = 200_000;
  for (let i = 0; i < n; i++) {
    const h = textHash64(`Bash\u0000{"command":"npm test -- --shard=${i}"}`);
    seen.add(h);
    for (let d = 0; d < 16; d++) {
      const nibble = parseInt(h[d]!, 16);
      for (let b = 0; b < 4; b++) if (nibble & (1 << b)) ones[d * 4 + b]!++;
    }
  }
  assert.equal(seen.size, n);
  for (const [bit, count] of ones.entries()) {
    assert.ok(Math.abs(count / n - 0.5) < 0.01, `bit ${bit} is set in ${(100 * count / n).toFixed(2)} % of hashes`);
  }
});
