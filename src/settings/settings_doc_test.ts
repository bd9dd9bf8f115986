import assert from "node:assert/strict";
import {
  findOurHandlers,
  MAX_SETTINGS_NESTING,
  parseSettings,
  propertyIndex,
  propertyValue,
  SettingsParseError,
} from "./settings_doc.ts";
import { positionOf } from "../jsonc.ts";

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

Deno.test("parseSettings(): nesting past MAX_SETTINGS_NESTING is a parse error at the bracket, not a stack overflow", () => {
  const nest = (depth: number) => `{"env": {"x": ${"[".repeat(depth - 2)}${"]".repeat(depth - 2)}}}`;
  assert.equal(parseSettings(nest(MAX_SETTINGS_NESTING)).root.type, "object");
  for (const depth of [MAX_SETTINGS_NESTING + 1, 300_000]) {
    assert.throws(
      () => parseSettings(`\n${nest(depth)}`),
      (e) =>
        e instanceof SettingsParseError && e.line === 2 && e.column === 14 + MAX_SETTINGS_NESTING - 1 &&
        /nested deeper than 256 levels; not read/.test(e.detail),
    );
  }
  // brackets in strings and comments do not count
  const quoted = `{"a": "${"[".repeat(1000)}", /* ${"{".repeat(1000)} */ "b": 1}`;
  assert.equal(parseSettings(quoted).root.type, "object");
});

Deno.test("parseSettings() refuses a hooks key or an event given twice when asked (install, uninstall), at the second", () => {
  const stop = '[{"hooks": [{"type": "command", "command": "/x/cliffhanger-bin", "args": ["hook", "stop"]}]}]';
  const refuse = { refuseRepeated: true };
  assert.throws(
    () => parseSettings(`{ "hooks": { "Stop": ${stop},\n  "Stop": [] } }`, refuse),
    /2:3: "hooks\.Stop" is given twice and only the last counts; merge them into one/,
  );
  assert.throws(
    () => parseSettings('{\n  "hooks": {"Stop": "disabled"},\n  "hooks": {}\n}', refuse),
    /3:3: "hooks" is given twice/,
  );
  // other keys may repeat as they like (only the last counts, and we touch none of them); one of each is fine
  assert.doesNotThrow(() =>
    parseSettings(`{ "model": "a", "model": "b", "hooks": { "Stop": ${stop}, "SubagentStop": [] } }`, refuse)
  );
  // read as Claude Code reads it (status, doctor): the last copy only
  assert.equal(findOurHandlers(parseSettings(`{ "hooks": { "Stop": ${stop}, "Stop": [] } }`)).length, 0);
  assert.equal(findOurHandlers(parseSettings(`{ "hooks": { "Stop": [], "Stop": ${stop} } }`)).length, 1);
  assert.equal(findOurHandlers(parseSettings(`{ "hooks": {}, "hooks": { "Stop": ${stop} } }`)).length, 1);
  assert.equal(findOurHandlers(parseSettings(`{ "hooks": { "Stop": "disabled", "Stop": ${stop} } }`)).length, 1);
});
