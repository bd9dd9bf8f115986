import assert from "node:assert/strict";
import { oncePerText } from "./text_memo.ts";
import { languagesOf } from "./closing/languages.ts";

Deno.test("oncePerText(): computes each text once while it is kept, and again after the store is cleared", () => {
  const seen: string[] = [];
  const length = oncePerText((text) => {
    seen.push(text);
    return { length: text.length };
  }, 2);
  const first = length("ab");
  assert.equal(length("ab"), first);
  length("c");
  assert.deepEqual(seen, ["ab", "c"]);
  // a third text clears both
  length("def");
  length("ab");
  assert.deepEqual(seen, ["ab", "c", "def", "ab"]);
  assert.notEqual(length("ab"), first);
});

Deno.test("languagesOf(): one reading per message, the same answer for every caller", () => {
  const text = "Parser fixed, tests verdes.";
  assert.equal(languagesOf(text), languagesOf(`${text}`));
  assert.ok(languagesOf(text).has("es"));
});
