import assert from "node:assert/strict";
import { join } from "node:path";
import { chunksOnCycles, eagerFunctions, makeBundleEager, staticImports } from "./bundle_eager.ts";

/** Evaluates a module's source and returns its namespace. */
async function load(source: string): Promise<Record<string, unknown>> {
  const url = `data:text/javascript;base64,${btoa(unescape(encodeURIComponent(source)))}`;
  return await import(url);
}

const CHUNK = `// a leading comment
import { join } from "node:path";
var early = helper(2);

// src/a.ts
function helper(n) {
  return n * 21;
}
async function later(x) {
  return await Promise.resolve(x + 1);
}
function* count(n) {
  for (let i = 0; i < n; i++) yield i;
}
function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}
class Box {
  get value() { return helper(1); }
}
export function kept() {
  function inner() { return "inner"; }
  return inner();
}
export { early, helper, later, count, fact, Box, join };
`;

Deno.test("eagerFunctions turns each top-level declaration into a parenthesized expression at the top", () => {
  const result = eagerFunctions(CHUNK);
  assert.equal(result.functions, 4);
  assert.ok(result.source.startsWith("// a leading comment\nvar helper = (function (n) {"));
  for (
    const head of [
      "var later = (async function (x) {",
      "var count = (function* (n) {",
      "var fact = (function (n) {",
    ]
  ) {
    assert.ok(result.source.includes(head), head);
  }
  // not top-level declarations: left as they are
  assert.ok(result.source.includes("export function kept() {\n  function inner() {"));
  assert.ok(result.source.includes("class Box {"));
  assert.equal(result.source.match(/return n \* 21;/g)?.length, 1, "each function is written once");
  assert.ok(!/^function /m.test(result.source), "no top-level declaration is left");
});

Deno.test("a rewritten chunk behaves as the original: a call before the definition, names, recursion, exports", async () => {
  const before = await load(CHUNK);
  const after = await load(eagerFunctions(CHUNK).source);
  assert.equal(after["early"], 42);
  assert.equal(after["early"], before["early"]);
  for (const name of ["helper", "later", "count", "fact"]) {
    assert.equal(typeof after[name], "function", name);
    assert.equal((after[name] as { name: string }).name, name);
  }
  assert.equal((after["fact"] as (n: number) => number)(5), 120);
  assert.equal(await (after["later"] as (x: number) => Promise<number>)(1), 2);
  assert.deepEqual([...(after["count"] as (n: number) => Iterable<number>)(3)], [0, 1, 2]);
  assert.equal(new (after["Box"] as new () => { value: number })().value, 21);
  assert.equal((after["kept"] as () => string)(), "inner");
});

Deno.test("a rewritten function still sees the chunk's binding of its name: it may replace itself, or be wrapped", async () => {
  const source = `var calls = 0;
function config() {
  const value = { loaded: true };
  config = () => value;
  return value;
}
function fib(n) {
  calls++;
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function memo(f) {
  const seen = new Map();
  return (n) => seen.has(n) ? seen.get(n) : (seen.set(n, f(n)), seen.get(n));
}
fib = memo(fib);
var first = config() === config();
var result = fib(20);
export { calls, first, result };
`;
  const before = await load(source);
  const after = await load(eagerFunctions(source).source);
  assert.deepEqual([after["first"], after["result"], after["calls"]], [true, 6765, 21]);
  assert.deepEqual([after["first"], after["result"], after["calls"]], [
    before["first"],
    before["result"],
    before["calls"],
  ]);
});

Deno.test("eagerFunctions leaves a chunk without top-level functions byte for byte", () => {
  const source = 'import { a } from "./a.js";\nvar b = () => a;\nexport { b };\n';
  assert.deepEqual(eagerFunctions(source), { source, functions: 0 });
});

Deno.test("eagerFunctions refuses what is not a module", () => {
  assert.throws(() => eagerFunctions("function (\n"));
});

Deno.test("staticImports names the chunks a chunk imports or re-exports statically", () => {
  const source = 'import { a } from "./a.js";\nimport "./side.js";\nimport { b } from "node:fs";\n' +
    'export { c } from "./c.js";\nexport * from "../d.js";\nconst e = () => import("./lazy.js");\nexport { e };\n';
  assert.deepEqual(staticImports(source), ["a.js", "side.js", "c.js"], "chunks of the same (flat) folder, by name");
});

Deno.test("chunksOnCycles finds the chunks that can reach themselves, not those that only reach a cycle", () => {
  const graph = new Map([
    ["main.js", ["a.js", "d.js"]],
    ["a.js", ["b.js"]],
    ["b.js", ["a.js", "c.js"]],
    ["c.js", []],
    ["d.js", ["d.js"]],
  ]);
  assert.deepEqual([...chunksOnCycles(graph)].sort(), ["a.js", "b.js", "d.js"]);
  assert.deepEqual([...chunksOnCycles(new Map([["main.js", ["c.js"]], ["c.js", []]]))], []);
});

Deno.test("makeBundleEager rewrites a folder's chunks, except those on an import cycle, and they still run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-eager-" });
  try {
    const files: Record<string, string> = {
      "main.js": 'import { twice } from "./util.js";\nvar out = twice(compute());\nfunction compute() { return 4; }\n' +
        "export { out };\n",
      "util.js": "function twice(n) { return n * 2; }\nexport { twice };\n",
      "x.js": 'import { y } from "./y.js";\nfunction x() { return y(); }\nexport { x };\n',
      "y.js": 'import { x } from "./x.js";\nfunction y() { return 1; }\nexport { y, x };\n',
    };
    for (const [name, source] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), source);
    const result = await makeBundleEager(dir);
    assert.deepEqual(result, { functions: 2, skipped: ["x.js", "y.js"] });
    const read = (name: string) => Deno.readTextFileSync(join(dir, name));
    assert.ok(read("main.js").startsWith("var compute = (function ()"));
    assert.ok(read("util.js").startsWith("var twice = (function (n)"));
    assert.equal(read("x.js"), files["x.js"]);
    assert.equal(read("y.js"), files["y.js"]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), Object.keys(files).sort(), "no temp file");
    const main = await import(`file://${join(dir, "main.js")}`);
    assert.equal(main.out, 8);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("why a chunk on an import cycle is left lazy: its functions may be called before it runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-eager-cycle-" });
  try {
    // x.js runs after y.js (its import), and y.js calls x.js's function while it runs
    const files: Record<string, string> = {
      "x.js": 'import { y } from "./y.js";\nfunction fx() { return 7; }\nexport { fx, y };\n',
      "y.js": 'import { fx } from "./x.js";\nvar y = fx();\nexport { y };\n',
    };
    const write = async (sub: string, rewrite: boolean) => {
      await Deno.mkdir(join(dir, sub));
      for (const [name, source] of Object.entries(files)) {
        await Deno.writeTextFile(join(dir, sub, name), rewrite ? eagerFunctions(source).source : source);
      }
    };
    await write("lazy", false);
    await write("forced", true);
    assert.equal((await import(`file://${join(dir, "lazy", "x.js")}`)).y, 7, "the declaration is hoisted");
    await assert.rejects(import(`file://${join(dir, "forced", "x.js")}`), TypeError, "the var is not set yet");
    assert.deepEqual(await makeBundleEager(join(dir, "lazy")), { functions: 0, skipped: ["x.js", "y.js"] });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("makeBundleEager rewrites no chunk when one cannot be parsed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-eager-bad-" });
  try {
    const good = "function a() { return 1; }\nexport { a };\n";
    await Deno.writeTextFile(join(dir, "a.js"), good);
    await Deno.writeTextFile(join(dir, "z.js"), "function (\n");
    await assert.rejects(makeBundleEager(dir));
    assert.equal(await Deno.readTextFile(join(dir, "a.js")), good);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["a.js", "z.js"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
