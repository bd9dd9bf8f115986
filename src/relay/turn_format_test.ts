import assert from "node:assert/strict";
import { formatMessage, parseMessage } from "./turn_format.ts";

Deno.test("turn format: the accepted turn lines", () => {
  const cases: [string, number, string][] = [
    ["turn: 3\n\nDo it.", 3, "Do it."],
    ["Turn 3\nDo it.", 3, "Do it."],
    ["TURN #3\n\nDo it.\n", 3, "Do it."],
    ["# Turn 3\n\nDo it.", 3, "Do it."],
    ["## turn: 12\nDo it.", 12, "Do it."],
    ["# 3\n\nDo it.", 3, "Do it."],
    ["#3\nDo it.", 3, "Do it."],
    ["3\n\nDo it.", 3, "Do it."],
    ["3:\nDo it.", 3, "Do it."],
    ["\n\n  turn 5 — fix the parser\n\nDetails.", 5, "fix the parser\n\nDetails."],
    ["turn 5: ship it", 5, "ship it"],
    ["\uFEFFturn: 2\r\n\r\nWindows line ends\r\n", 2, "Windows line ends"],
  ];
  for (const [text, turn, body] of cases) assert.deepEqual(parseMessage(text), { turn, body }, JSON.stringify(text));
});

Deno.test("turn format: a body without a turn line is no message", () => {
  for (
    const text of [
      "",
      "\n \n",
      "1. Do this\n2. Then that",
      "Please fix the tests",
      "turn: x",
      "# Title\n\nturn: 3",
      "3 things to do",
    ]
  ) {
    assert.equal(parseMessage(text), null, JSON.stringify(text));
  }
});

Deno.test("turn format: formatMessage round-trips", () => {
  assert.equal(formatMessage(4, "  body\n"), "turn: 4\n\nbody\n");
  assert.deepEqual(parseMessage(formatMessage(4, "1. first\n2. second")), { turn: 4, body: "1. first\n2. second" });
  assert.deepEqual(parseMessage(formatMessage(1, "")), { turn: 1, body: "" });
});
