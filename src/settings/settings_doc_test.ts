import assert from "node:assert/strict";
import { findOurHandlers, parseSettings, positionOf, propertyIndex, propertyValue } from "./settings_doc.ts";

Deno.test("positionOf() counts lines and columns from 1", () => {
  assert.deepEqual(positionOf("ab\ncd", 0), { line: 1, column: 1 });
  assert.deepEqual(positionOf("ab\ncd", 4), { line: 2, column: 2 });
  assert.deepEqual(positionOf("ab\r\ncd", 5), { line: 2, column: 2 });
});

Deno.test("propertyValue() and propertyIndex() read the last copy of a repeated key", () => {
  const { root } = parseSettings('{"a": 1, "b": 2, "a": 3}');
  assert.equal(propertyValue(root, "a")?.value, 3);
  assert.equal(propertyIndex(root, "a"), 2);
  assert.equal(propertyIndex(root, "z"), -1);
});

Deno.test("findOurHandlers() skips malformed groups and handlers", () => {
  const doc = parseSettings(`{"hooks": {
    "Stop": [1, {"hooks": 2}, {"hooks": ["x", {"type": "command", "command": "/b/cliffhanger-bin", "args": ["hook", "stop"]}]}],
    "SubagentStop": [{"matcher": "Plan", "hooks": [{"type": "command", "command": "/b/cliffhanger-bin", "args": ["hook", "stop"]}]}]
  }}`);
  const refs = findOurHandlers(doc);
  assert.deepEqual(refs.map((r) => [r.event, r.eventIndex, r.groupIndex, r.handlerIndex]), [
    ["Stop", 0, 2, 1],
    ["SubagentStop", 1, 0, 0],
  ]);
  assert.equal(findOurHandlers(doc, "SubagentStop").length, 1);
  assert.deepEqual(findOurHandlers(parseSettings("{}")), []);
});
