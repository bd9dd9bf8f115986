import assert from "node:assert/strict";
import { handlerProgram, handlerWords, shellWords } from "./handler_words.ts";

Deno.test("shellWords: plain words and quotes; anything a shell would expand is not guessed at", () => {
  assert.deepEqual(shellWords(`a "b c" 'd e' f`), ["a", "b c", "d e", "f"]);
  assert.equal(shellWords("a $HOME/b"), null);
  assert.equal(shellWords("a; rm -rf x"), null);
  assert.equal(shellWords("a 'unclosed"), null);
  assert.deepEqual(shellWords("'$literal' x"), ["$literal", "x"]);
});

Deno.test("handlerWords: exec form as written; shell form split, with a leading ~, $HOME or ${HOME} expanded", () => {
  assert.deepEqual(handlerWords({ command: "/b/cliffhanger-bin", args: ["hook", "stop"] }, "/h"), [
    "/b/cliffhanger-bin",
    "hook",
    "stop",
  ]);
  for (const prefix of ["~", "$HOME", "${HOME}"]) {
    assert.deepEqual(
      handlerWords({ command: `${prefix}/.cliffhanger/bin/cliffhanger-bin hook stop`, args: [] }, "/h"),
      [
        "/h/.cliffhanger/bin/cliffhanger-bin",
        "hook",
        "stop",
      ],
      prefix,
    );
  }
  assert.equal(
    handlerProgram({ command: "'/my dir/cliffhanger-bin' hook stop", args: [] }, "/h"),
    "/my dir/cliffhanger-bin",
  );
  assert.equal(handlerWords({ command: "$OTHER/cliffhanger-bin hook stop", args: [] }, "/h"), null);
  assert.equal(handlerWords({ command: "cliffhanger-bin hook stop | tee x", args: [] }, "/h"), null);
});
