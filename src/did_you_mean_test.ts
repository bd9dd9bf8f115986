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

Deno.test("didYouMean(): a short name is suggested only one typo away", () => {
  assert.equal(didYouMean("foo", ["on", "off", "send", "read", "status", "log"]), null);
  assert.equal(didYouMean("of", ["on", "off", "send"]), "on");
  assert.equal(didYouMean("ofF", ["on", "off"]), "off");
  assert.equal(didYouMean("--versio", ["--version", "--help"]), "--version");
});
