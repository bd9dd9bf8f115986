import assert from "node:assert/strict";
import builtin from "../../../rules/quirks.json" with { type: "json" };
import { keyOrder } from "../../testing/same_output.ts";
import {
  BUILTIN_QUIRKS,
  exampleFailure,
  fillQuirkFile,
  type Quirk,
  type QuirkFile,
  quirkMatches,
  quirksFor,
} from "./quirks.ts";
import { buildQuirkSet, quirkSchemas, type SchemaQuirk, type SchemaQuirkFile } from "./quirks_user.ts";

/** Compiles only when A and B are the same type: quirks.ts writes the schema's output types by hand. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const quirkTypesAgree: [Same<Quirk, SchemaQuirk>, Same<QuirkFile, SchemaQuirkFile>] = [true, true];

const { QuirkFileSchema } = quirkSchemas();

Deno.test("rules/quirks.json: every built-in entry matches its examples.match and none of its examples.pass", () => {
  const file = QuirkFileSchema.parse(builtin);
  assert.ok(file.quirks.length >= 4);
  const ids = new Set<string>();
  for (const quirk of file.quirks) {
    assert.ok(!ids.has(quirk.id), `duplicate id ${quirk.id}`);
    ids.add(quirk.id);
    assert.ok((quirk.examples?.match.length ?? 0) > 0, `quirk "${quirk.id}" needs examples.match`);
    assert.ok((quirk.examples?.pass.length ?? 0) > 0, `quirk "${quirk.id}" needs examples.pass`);
    for (const model of quirk.examples!.match) {
      assert.ok(quirkMatches(quirk, model), `Missing: quirk "${quirk.id}" did not match "${model}"`);
    }
    for (const model of quirk.examples!.pass) {
      assert.ok(!quirkMatches(quirk, model), `Wrong: quirk "${quirk.id}" matched "${model}"`);
    }
    assert.ok(quirk.lines.length <= 3, `quirk "${quirk.id}": keep it to a few lines`);
    for (const line of quirk.lines) assert.ok(line.length <= 160, `quirk "${quirk.id}": line too long: ${line}`);
  }
  for (const family of ["opus", "sonnet", "haiku", "fable"]) assert.ok(ids.has(family), family);
});

Deno.test("quirksFor(): the real model ids of the corpus get their family's notes", () => {
  const table: [string | null, string[]][] = [
    ["claude-opus-4-5-20251101", ["opus"]],
    ["claude-sonnet-4-20250514", ["sonnet"]],
    ["claude-haiku-4-5-20251001", ["haiku"]],
    ["claude-fable-5", ["fable"]],
    ["gpt-5-codex", []],
    [null, []],
  ];
  for (const [model, ids] of table) {
    assert.deepEqual(quirksFor(model, BUILTIN_QUIRKS).map((q) => q.id), ids, String(model));
  }
});

const userFile = (text: string, origin = "/h/.cliffhanger/quirks.jsonc") => ({ origin, text });

Deno.test("buildQuirkSet(): a user file replaces, disables and adds entries (JSONC)", () => {
  const set = buildQuirkSet([userFile(`{
    // mine
    "disable": ["haiku"],
    "quirks": [
      { "id": "opus", "match": ["opus"], "lines": ["Be brief."] },
      { "id": "local-llama", "match": ["llama"], "lines": ["Cite the file you read."],
        "examples": { "match": ["llama-3.1-70b"], "pass": ["claude-opus-4-7"] } },
    ],
  }`)]);
  assert.deepEqual(set.problems, []);
  assert.deepEqual(set.quirks.map((q) => q.id), ["opus", "sonnet", "fable", "local-llama"]);
  assert.deepEqual(quirksFor("claude-opus-4-7", set.quirks)[0]!.lines, ["Be brief."]);
  assert.deepEqual(quirksFor("claude-haiku-4-5", set.quirks), []);
  assert.deepEqual(quirksFor("Llama-3.1-70B", set.quirks).map((q) => q.id), ["local-llama"]);
});

Deno.test("buildQuirkSet(): a bad user file is reported and ignored whole", () => {
  const cases: [string, RegExp][] = [
    [`{ "quirks": [ `, /quirks\.jsonc: 1:15: invalid JSON: close bracket expected; file ignored$/],
    [`{ quirks: [] }`, /: 1:3: invalid JSON: property names must be in double quotes: write "quirks"; file ignored$/],
    [`{ "quirks": [{ "id": "x", "match": [], "lines": ["a"] }] }`, /quirks\.0\.match/],
    [`{ "quirks": [{ "id": "Bad Id", "match": ["a"], "lines": ["a"] }] }`, /kebab-case/],
    [`{ "colour": 1 }`, /colour|Unrecognized/i],
    [`[1]`, /top level|expected object/i],
    [
      `{ "quirks": [{ "id": "x", "match": ["opus"], "lines": ["a"], "examples": { "match": ["sonnet"] } }] }`,
      /quirk "x" did not match examples.match\[0\] "sonnet"/,
    ],
    [
      `{ "quirks": [{ "id": "x", "match": ["a"], "lines": ["a"] }, { "id": "x", "match": ["b"], "lines": ["b"] }] }`,
      /appears twice/,
    ],
  ];
  for (const [text, pattern] of cases) {
    const set = buildQuirkSet([userFile(text)]);
    assert.deepEqual(set.quirks, BUILTIN_QUIRKS, text);
    assert.equal(set.problems.length, 1, text);
    assert.match(set.problems[0]!, pattern, text);
    assert.match(set.problems[0]!, /^\/h\/\.cliffhanger\/quirks\.jsonc: .*; file ignored$/);
  }
  const unknown = buildQuirkSet([userFile(`{ "disable": ["nope"] }`)]);
  assert.match(unknown.problems[0]!, /disable: unknown quirk id "nope"/);
});

Deno.test("exampleFailure() names the first example that misbehaves", () => {
  const quirk = { id: "q", match: ["abc"], lines: ["x"], examples: { match: ["xabcx"], pass: ["ABC-1"] } };
  assert.equal(exampleFailure(quirk), 'quirk "q" matched examples.pass[0] "ABC-1"');
  assert.equal(exampleFailure({ ...quirk, examples: { match: [], pass: [] } }), null);
});

Deno.test("rules/quirks.json: the hand-filled built-ins are the schema's output, key order included", () => {
  const parsed = QuirkFileSchema.parse(builtin);
  const filled = fillQuirkFile(builtin as Parameters<typeof fillQuirkFile>[0]);
  assert.deepStrictEqual(filled, parsed);
  assert.deepStrictEqual(BUILTIN_QUIRKS, parsed.quirks);
  assert.deepStrictEqual(keyOrder(filled), keyOrder(parsed));
  // and on entries with every optional part left out or given, untrimmed
  const variants = {
    disable: ["x"],
    quirks: [
      { id: "a", match: [" opus "], lines: ["  line  "] },
      { id: "b", description: "d", match: ["m"], lines: ["l"], examples: {} },
      { id: "c", match: ["m"], lines: ["l"], examples: { match: ["m1"] } },
      { id: "d", match: ["m"], lines: ["l"], examples: { pass: ["zz"], match: ["m"] } },
    ],
  };
  assert.deepStrictEqual(keyOrder(fillQuirkFile(variants)), keyOrder(QuirkFileSchema.parse(variants)));
  assert.deepStrictEqual(fillQuirkFile(variants), QuirkFileSchema.parse(variants));
});

Deno.test("quirks.ts's Quirk and QuirkFile are the schema's output types", () => {
  assert.deepEqual(quirkTypesAgree, [true, true]);
});
