import assert from "node:assert/strict";
import { didYouMean, suggestion } from "./did_you_mean.ts";

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
