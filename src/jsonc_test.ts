/**
 * src/jsonc.ts against jsonc-parser itself: the same value and the same errors (code, offset, length), on
 * generated JSONC (comments, trailing commas, odd whitespace) and on that text with characters inserted or cut.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import * as reference from "jsonc-parser";
import {
  MAX_NESTING,
  parse,
  type ParseError,
  ParseErrorCode,
  parseProblem,
  positionOf,
  printParseErrorCode,
} from "./jsonc.ts";

function ours(text: string, options: { allowTrailingComma?: boolean; disallowComments?: boolean }) {
  const errors: ParseError[] = [];
  const value = parse(text, errors, options);
  return { value, errors: errors.map((e) => ({ ...e })) };
}

function theirs(text: string, options: { allowTrailingComma?: boolean; disallowComments?: boolean }) {
  const errors: reference.ParseError[] = [];
  const value = reference.parse(text, errors, options);
  return { value, errors: errors.map((e) => ({ error: e.error, offset: e.offset, length: e.length })) };
}

function same(text: string, options: { allowTrailingComma?: boolean; disallowComments?: boolean }) {
  const a = ours(text, options);
  const b = theirs(text, options);
  assert.deepEqual(a.errors, b.errors, `errors for ${JSON.stringify(text)}`);
  if (b.errors.length === 0) assert.deepEqual(a.value, b.value, `value for ${JSON.stringify(text)}`);
}

const ws = fc.constantFrom("", " ", "\t", "\n", "\r\n", "  ", " // note\n", "/* c */", "/*\n*/ ", "\v", "\u00a0");
// no key holds a backslash: once one has, the runtime's JSON.parse can read a later escaped key as it (the defect
// pinned at the end of this file, and docs/reliability.md), which is not this parser's to match
const key = fc.oneof(
  fc.string({ maxLength: 6 }).filter((s) => !s.includes("\\")).map((s) => JSON.stringify(s)),
  fc.constantFrom('"a"', '"b"', '"\\u00e9"', '"__proto__"'),
);
const scalar = fc.oneof(
  fc.constantFrom("true", "false", "null", "0", "-0", "1.5", "-12e3", "1E+2", '"x"', '"a\\nb"', '"\\/"'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object")),
  array: fc.tuple(fc.array(fc.tuple(ws, tie("value"), ws), { maxLength: 4 }), fc.boolean()).map(([items, trailing]) =>
    `[${items.map(([a, v, b]) => `${a}${v}${b}`).join(",")}${trailing && items.length ? "," : ""}]`
  ),
  object: fc.tuple(fc.array(fc.tuple(ws, key, ws, tie("value")), { maxLength: 4 }), fc.boolean()).map((
    [entries, trailing],
  ) => `{${entries.map(([a, k, b, v]) => `${a}${k}${b}:${v}`).join(",")}${trailing && entries.length ? "," : ""}}`),
}));
const doc = fc.tuple(ws, value, ws).map(([a, v, b]) => `${a}${v}${b}`);
const noise = fc.constantFrom(
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  '"',
  "\\",
  "/",
  "*",
  "-",
  "0",
  "1",
  ".",
  "e",
  "u",
  "t",
  "x",
  "'",
  "\n",
  "\t",
  "\u0001",
  " ",
);
const mutated = fc.tuple(
  doc,
  fc.array(fc.tuple(fc.nat(), fc.oneof(noise, fc.constant(""))), { minLength: 1, maxLength: 3 }),
)
  .map(([text, edits]) => {
    let t = text;
    for (const [at, ch] of edits) {
      const i = at % (t.length + 1);
      t = ch === "" ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + ch + t.slice(i);
    }
    return t;
  });
const options = fc.record({ allowTrailingComma: fc.boolean(), disallowComments: fc.boolean() });

Deno.test("jsonc: the same value and no errors as jsonc-parser on generated JSONC", () => {
  fc.assert(fc.property(doc, options, (text, o) => same(text, o)), { numRuns: 3000 });
});

Deno.test("jsonc: the same errors as jsonc-parser on broken text", () => {
  fc.assert(fc.property(mutated, options, (text, o) => same(text, o)), { numRuns: 5000 });
});

Deno.test("jsonc: nesting past MAX_NESTING is an error at the bracket that goes past it, not a stack overflow", () => {
  // at the limit: read as jsonc-parser reads it
  const atLimit = `{"a":${"[".repeat(MAX_NESTING - 1)}${"]".repeat(MAX_NESTING - 1)}}`;
  assert.deepEqual(ours(atLimit, {}), theirs(atLimit, {}));
  for (const depth of [MAX_NESTING + 1, 200_000]) {
    const text = `{"a":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    const { value, errors } = ours(text, {});
    assert.equal(value, undefined);
    assert.deepEqual(errors, [{ error: ParseErrorCode.NestingTooDeep, offset: 5 + MAX_NESTING - 1, length: 1 }]);
    assert.equal(printParseErrorCode(errors[0]!.error), "NestingTooDeep");
  }
  // errors found before the deep part are kept, in order
  const both = `{"a" 1, "b":${'{"c":'.repeat(MAX_NESTING + 5)}1${"}".repeat(MAX_NESTING + 5)}}`;
  assert.deepEqual(ours(both, {}).errors.map((e) => e.error), [
    ParseErrorCode.ColonExpected,
    ParseErrorCode.NestingTooDeep,
  ]);
});

Deno.test("jsonc: the cases the config, rule and quirk files meet", () => {
  const cases = [
    "",
    "  ",
    "{",
    "}",
    '{"a":1,}',
    "[1,2,]",
    '{"a" 1}',
    '{"a":}',
    "{a:1}",
    "[1 2]",
    "tru",
    "1.",
    "01",
    "-",
    '"abc',
    '"a\\x"',
    '"a\tb"',
    "/* x",
    "// c\n{}",
    "{} x",
    '{"a":1,,}',
    "[,]",
    "{,}",
    "'a'",
    "NaN",
    '"\\u12"',
    "\ufeff{}",
    '{\n  // the cap\n  "max": 5,\n  /* observe first */ "observe": true,\n}\n',
    '{"a":1}/*',
    "/",
    "-x",
    "1e",
    "1e+",
    '{"a":1 "b":2}',
  ];
  for (const text of cases) for (const allowTrailingComma of [true, false]) same(text, { allowTrailingComma });
  const errors: ParseError[] = [];
  parse('{ "max": }', errors, { allowTrailingComma: true });
  assert.equal(
    printParseErrorCode(errors[0]!.error),
    reference.printParseErrorCode(errors[0]!.error as reference.ParseErrorCode),
  );
});

// docs/reliability.md, "JSON.parse and escaped keys": the runtime's own defect, which the generated-JSONC test above
// met (seed 1424855204) before its keys left out backslashes (its keys here are longer than it makes, as well). Once an
// object has had a key that decodes to a backslash, a later object with the same keys before it reads an escaped key
// that starts with a backslash as that key. When a Deno upgrade fixes it, this fails: then the doc's section goes, and
// this test with it.
Deno.test("runtime: JSON.parse in this Deno reads an escaped key as an earlier sibling's backslash key (documented)", () => {
  assert.deepEqual(Object.keys(JSON.parse('{"probe-key-b":0,"\\u00e9":0}')), ["probe-key-b", "é"]);
  JSON.parse('{"probe-key-b":1,"\\\\":{}}');
  assert.deepEqual(Object.keys(JSON.parse('{"probe-key-b":0,"\\u00e9":0}')), ["probe-key-b", "\\"]);
  assert.deepEqual(Object.keys(JSON.parse('{"probe-key-b":0,"\\n":0}')), ["probe-key-b", "\\"]);
  // other keys before it, another order, or a key without an escape: read as written
  assert.deepEqual(Object.keys(JSON.parse('{"probe-key-c":0,"\\u00e9":0}')), ["probe-key-c", "é"]);
  assert.deepEqual(Object.keys(JSON.parse('{"\\u00e9":0,"probe-key-b":0}')), ["é", "probe-key-b"]);
  assert.deepEqual(Object.keys(JSON.parse('{"probe-key-b":0,"é":0}')), ["probe-key-b", "é"]);
});

Deno.test("parse(): onDuplicateKey hears each key given again in one object, with its offset and depth; the last counts", () => {
  const heard: [string, number, number][] = [];
  const text = '{"a": 1, "b": {"c": 1, "c": 2}, "\\u0061": 3, "d": [{"e": 1}, {"e": 2}]}';
  const value = parse(text, [], { onDuplicateKey: (key, offset, depth) => void heard.push([key, offset, depth]) });
  assert.deepEqual(value, { a: 3, b: { c: 2 }, d: [{ e: 1 }, { e: 2 }] });
  assert.deepEqual(heard, [["c", 23, 2], ["a", 32, 1]], "an escaped key is the key it decodes to; siblings only");
  // without it nothing is compared, and a repeat is never an error
  const errors: ParseError[] = [];
  assert.deepEqual(parse('{"a": 1, "a": 2}', errors), { a: 2 });
  assert.deepEqual(errors, []);
});

Deno.test("parseProblem() puts the first error in words, with its line and column", () => {
  const first = (text: string) => {
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: true });
    return parseProblem(text, errors[0]!);
  };
  assert.equal(
    first("{ observe: true }"),
    '1:3: invalid JSON: property names must be in double quotes: write "observe"',
  );
  assert.equal(
    first('{\n  "a": 1,\n  max : 2 }'),
    '3:3: invalid JSON: property names must be in double quotes: write "max"',
  );
  assert.equal(
    first("{ 'observe': true }"),
    "1:3: invalid JSON: strings and property names must be in double quotes, not single: 'observe'",
  );
  assert.equal(
    first('{ "observe": True }'),
    "1:14: invalid JSON: true, false and null are written in lower case: True",
  );
  assert.equal(first('{ "attended": block }'), "1:15: invalid JSON: strings must be in double quotes: block");
  assert.equal(first('{ "max" = 3 }'), '1:9: invalid JSON: unexpected "="');
  // numbers JSON does not have: named as numbers, with the digits before the part the parser stopped at
  assert.match(first('{ "max": 0x10 }'), /invalid JSON: numbers must be plain decimals \(no hex, _ or suffix\): 0x10$/);
  assert.match(
    first('{ "max": 1_000 }'),
    /invalid JSON: numbers must be plain decimals \(no hex, _ or suffix\): 1_000$/,
  );
  assert.match(first('{ "syncMs": NaN }'), /invalid JSON: NaN and Infinity are not JSON numbers: NaN$/);
  assert.equal(first('{ "max": 3 "observe": true }'), "1:12: invalid JSON: comma expected");
  assert.equal(
    first('{ "a": "x\n" }'),
    '1:8: invalid JSON: string not closed (a " missing, or a line break inside the string)',
  );
  assert.equal(first('{ "a": 1 } }'), "1:12: invalid JSON: end of file expected (more text after the top-level value)");
  assert.equal(first("[".repeat(300)), "1:257: invalid JSON: arrays and objects nested deeper than 256 levels");
  assert.equal(
    first(`{ "a": ${"x".repeat(100)} }`),
    `1:8: invalid JSON: strings must be in double quotes: ${"x".repeat(40)}…`,
  );
});

Deno.test("positionOf() counts lines and columns from 1, a \\r\\n as one break", () => {
  assert.deepEqual(positionOf("ab\ncd", 0), { line: 1, column: 1 });
  assert.deepEqual(positionOf("ab\ncd", 4), { line: 2, column: 2 });
  assert.deepEqual(positionOf("ab\r\ncd", 5), { line: 2, column: 2 });
});
