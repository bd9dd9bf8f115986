import assert from "node:assert/strict";
import { applyEdits, type Node, parseTree } from "jsonc-parser";
import { insertMember, type NewMember, removeMember, replaceValue } from "./jsonc_edits.ts";
import { detectFormat, renderValue, type TextFormat, usesTrailingCommas } from "./jsonc_format.ts";

const TWO: TextFormat = { indent: "  ", eol: "\n" };

function tree(text: string): Node {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root) throw new Error("no tree");
  return root;
}

function child(node: Node, ...path: number[]): Node {
  let current = node;
  for (const i of path) current = current.children![i]!;
  return current;
}

function insert(text: string, path: number[], member: NewMember): string {
  return applyEdits(text, insertMember(text, child(tree(text), ...path), member, TWO));
}

function remove(text: string, path: number[], index: number): string {
  return applyEdits(text, removeMember(text, child(tree(text), ...path), index));
}

Deno.test("insertMember() fills empty containers", () => {
  assert.equal(insert("{}", [], { key: "a", value: 1 }), '{\n  "a": 1\n}');
  assert.equal(insert("[ ]", [], { value: { b: [1, 2] } }), '[\n  {\n    "b": [1, 2]\n  }\n]');
  assert.equal(insert("{\n  // none yet\n}", [], { key: "a", value: true }), '{\n  // none yet\n  "a": true\n}');
  assert.equal(insert("{ /* x */ }", [], { key: "a", value: 1 }), '{ /* x */ \n  "a": 1\n}');
});

Deno.test("insertMember() appends after the last member, keeping its comment and comma style", () => {
  assert.equal(insert('{\n  "a": 1 // one\n}', [], { key: "b", value: 2 }), '{\n  "a": 1, // one\n  "b": 2\n}');
  assert.equal(insert('{\n  "a": 1, // one\n}', [], { key: "b", value: 2 }), '{\n  "a": 1, // one\n  "b": 2,\n}');
  assert.equal(insert('{\n  "a": 1}', [], { key: "b", value: 2 }), '{\n  "a": 1,\n  "b": 2}');
  assert.equal(insert("[1, 2,]", [], { value: 3 }), "[1, 2, 3,]");
  assert.equal(insert('{"x": [1]}', [0, 1], { value: [2] }), '{"x": [1, [2]]}');
});

Deno.test("removeMember() removes whole lines and the separator", () => {
  const text = '{\n  "a": 1, // one\n  "b": 2, // two\n  "c": 3 // three\n}\n';
  assert.equal(remove(text, [], 1), '{\n  "a": 1, // one\n  "c": 3 // three\n}\n');
  assert.equal(remove(text, [], 2), '{\n  "a": 1, // one\n  "b": 2 // two\n}\n');
  assert.equal(remove(text, [], 0), '{\n  "b": 2, // two\n  "c": 3 // three\n}\n');
});

Deno.test("removeMember() on one line", () => {
  assert.equal(remove("[1, 2, 3]", [], 0), "[2, 3]");
  assert.equal(remove("[1, 2, 3]", [], 1), "[1, 3]");
  assert.equal(remove("[1, 2, 3]", [], 2), "[1, 2]");
  assert.equal(remove("[1, 2,]", [], 1), "[1,]");
  assert.equal(remove("[1, /* c */ 2]", [], 1), "[1 /* c */]");
});

Deno.test("removeMember() closes up a container it empties", () => {
  assert.equal(remove('{\n  "a": 1\n}\n', [], 0), "{}\n");
  assert.equal(remove("[ 1 ]", [], 0), "[]");
  assert.equal(remove('{\n  // keep\n  "a": 1\n}', [], 0), "{\n  // keep\n}");
});

Deno.test("replaceValue() keeps one-line values on one line", () => {
  const text = '{\n  "args": ["a"],\n  "deep": {\n    "x": 1\n  }\n}';
  const root = tree(text);
  const args = replaceValue(text, child(root, 0, 1), ["b", "c"], TWO);
  const deep = replaceValue(text, child(root, 1, 1), { y: [2] }, TWO);
  assert.equal(applyEdits(text, [args, deep]), '{\n  "args": ["b", "c"],\n  "deep": {\n    "y": [2]\n  }\n}');
});

Deno.test("detectFormat() reads the indent unit and line ending", () => {
  assert.deepEqual(detectFormat('{\n    "a": 1\n}', tree('{\n    "a": 1\n}')), { indent: "    ", eol: "\n" });
  assert.deepEqual(detectFormat('{\r\n\t"a": 1\r\n}', tree('{\r\n\t"a": 1\r\n}')), { indent: "\t", eol: "\r\n" });
  assert.deepEqual(detectFormat('{"a": 1}', tree('{"a": 1}')), { indent: "  ", eol: "\n" });
  assert.deepEqual(detectFormat("{}", tree("{}")), { indent: "  ", eol: "\n" });
});

Deno.test("renderValue() nests objects and keeps scalar arrays inline", () => {
  const format: TextFormat = { indent: "\t", eol: "\r\n" };
  assert.equal(
    renderValue({ a: [{ b: ["x", 1, null] }], c: {}, d: [] }, "\t", format),
    '{\r\n\t\t"a": [\r\n\t\t\t{\r\n\t\t\t\t"b": ["x", 1, null]\r\n\t\t\t}\r\n\t\t],\r\n\t\t"c": {},\r\n\t\t"d": []\r\n\t}',
  );
});

Deno.test("usesTrailingCommas() counts multi-line containers only, by majority", () => {
  const cases: [string, boolean][] = [
    ['{\n  "a": 1,\n}', true],
    ['{\n  "a": 1\n}', false],
    ['{"a": [1, 2,], "b": {"c": 1,}}', false], // one line: says nothing
    ['{\n  "a": [\n    1,\n  ],\n  "b": {\n    "c": 1\n  }\n}', false], // one of three
    ['{\n  "a": [\n    1,\n  ],\n  "b": {\n    "c": 1, // note\n  },\n}', true],
    ['{\n  "a": 1 /* x */ ,\n}', true], // a comment before the comma
    ["{}", false],
  ];
  for (const [text, expected] of cases) assert.equal(usesTrailingCommas(text, tree(text)), expected, text);
  assert.deepEqual(detectFormat('{\n  "a": 1,\n}', tree('{\n  "a": 1,\n}')), {
    indent: "  ",
    eol: "\n",
    trailingCommas: true,
  });
});

Deno.test("renderValue() ends each multi-line container with a comma under trailingCommas", () => {
  const format: TextFormat = { indent: "  ", eol: "\n", trailingCommas: true };
  assert.equal(
    renderValue({ a: [{ b: ["x", 1] }], c: {}, d: [] }, "", format),
    '{\n  "a": [\n    {\n      "b": ["x", 1],\n    },\n  ],\n  "c": {},\n  "d": [],\n}',
  );
});
