import assert from "node:assert/strict";
import { randomToken } from "./random_token.ts";

Deno.test("randomToken gives lowercase hex of twice the byte count, different each time", () => {
  assert.match(randomToken(), /^[0-9a-f]{16}$/);
  assert.match(randomToken(16), /^[0-9a-f]{32}$/);
  assert.match(randomToken(4), /^[0-9a-f]{8}$/);
  const seen = new Set(Array.from({ length: 2000 }, () => randomToken()));
  assert.equal(seen.size, 2000);
});

Deno.test("randomToken writes every byte value as two hex digits", () => {
  const original = crypto.getRandomValues;
  try {
    crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T): T => {
      const view = array as unknown as Uint8Array;
      for (let i = 0; i < view.length; i++) view[i] = [0, 15, 16, 255][i % 4]!;
      return array;
    }) as typeof crypto.getRandomValues;
    assert.equal(randomToken(4), "000f10ff");
  } finally {
    crypto.getRandomValues = original;
  }
});
