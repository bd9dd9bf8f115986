import assert from "node:assert/strict";
import fc from "fast-check";
import * as reference from "fastest-levenshtein";
import { closest, didYouMean, distance, suggestion } from "./did_you_mean.ts";

Deno.test("distance and closest equal fastest-levenshtein's", () => {
  const word = fc.string({ unit: fc.constantFrom(..."abcdeé-_ "), maxLength: 12 });
  fc.assert(
    fc.property(word, word, fc.array(word, { minLength: 1, maxLength: 6 }), (a, b, list) => {
      assert.equal(distance(a, b), reference.distance(a, b));
      assert.equal(closest(a, list), reference.closest(a, list));
    }),
    { numRuns: 3000 },
  );
  assert.equal(distance("x".repeat(70), "y".repeat(40)), reference.distance("x".repeat(70), "y".repeat(40)));
});

Deno.test("didYouMean: a near name is suggested, a far one is not", () => {
  assert.equal(didYouMean("stpo", ["stop", "prompt", "pretool"]), "stop");
  assert.equal(didYouMean("pretol", ["stop", "prompt", "pretool"]), "pretool");
  assert.equal(didYouMean("zzzzzz", ["stop", "prompt", "pretool"]), null);
  assert.equal(didYouMean("x", []), null);
  assert.equal(
    suggestion("stauts", ["status", "stats"]),
    ' (did you mean "stats"?)',
    "one deletion beats a transposition",
  );
  assert.equal(suggestion("qqqqqqq", ["status"]), "");
});
