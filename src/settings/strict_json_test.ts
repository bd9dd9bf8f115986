import assert from "node:assert/strict";
import { isStrictJsonProblem, strictJsonProblem, strictJsonProblems } from "./strict_json.ts";

Deno.test("strictJsonProblems() finds each comment and trailing comma, where it starts", () => {
  const text = [
    "{",
    "// my comment", // 2:1
    '  "hooks": { /* inline */ },', // 2:14
    '  "list": [1, 2,],', // 4:16
    '  "env": { "A": "1", },', // 5:20
    '  "url": "http://x//y, /* not a comment */",',
    '  "last": 1,', // 7:12 (before the closing brace, past a comment)
    "  // trailing note", // 8:3
    "}",
  ].join("\n");
  assert.deepEqual(strictJsonProblems(text), [
    { kind: "comment", line: 2, column: 1 },
    { kind: "comment", line: 3, column: 14 },
    { kind: "trailing comma", line: 4, column: 16 },
    { kind: "trailing comma", line: 5, column: 20 },
    { kind: "trailing comma", line: 7, column: 12 },
    { kind: "comment", line: 8, column: 3 },
  ]);
});

Deno.test("strictJsonProblems() finds nothing in strict JSON, strings that look like comments included", () => {
  assert.deepEqual(strictJsonProblems(""), []);
  assert.deepEqual(strictJsonProblems('{"a": "// no", "b": ["/* no */", ","], "c": {}}'), []);
  assert.deepEqual(strictJsonProblems('{\r\n  "a": [1, 2]\r\n}\r\n'), []);
});

Deno.test("strictJsonProblem() says what Claude Code does with the file and where, the first three places", () => {
  assert.equal(strictJsonProblem('{"a": 1}'), null);
  const one = strictJsonProblem('{\n// my comment\n"a": 1\n}');
  assert.equal(one, "Claude Code reads it as strict JSON and ignores it whole: a comment at 2:1");
  assert.ok(isStrictJsonProblem(one));
  assert.equal(
    strictJsonProblem('{"a": [1,], "b": {"c": 2,}, // x\n "d": 3, /* y */ "e": 4,}'),
    "Claude Code reads it as strict JSON and ignores it whole: a trailing comma at 1:9, a trailing comma at 1:25, " +
      "a comment at 1:29 and 2 more",
  );
  assert.equal(isStrictJsonProblem("3:5: invalid JSON: comma expected"), false);
  assert.equal(isStrictJsonProblem(null), false);
});
