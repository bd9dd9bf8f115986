import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { chunkFacts, CORE_FILE, mergeBundleCore, mergeCore } from "./bundle_merge.ts";

Deno.test("chunkFacts(): each form the merge cannot keep the same is named, and a plain chunk is mergeable", () => {
  const cases: [string, string, RegExp | null][] = [
    ["plain", 'import { a } from "./a.js";\nvar b = (function () { return a; });\nexport { b, b as c };\n', null],
    ["side-effect import", 'import "./a.js";\nvar b = 1;\nexport { b };\n', null],
    ["string export name", 'var b = 1;\nexport { b as "x y" };\n', null],
    ["import.meta", "var u = import.meta.url;\nexport { u };\n", /import\.meta/],
    ["top-level await", "var v = await Promise.resolve(1);\nexport { v };\n", /top-level await/],
    ["top-level for await", "for await (const x of []) {}\n", /top-level await/],
    ["export default", "export default 1;\n", /export other/],
    ["export declaration", "export const a = 1;\n", /export other/],
    ["export from", 'export { a } from "./a.js";\n', /export other/],
    ["export star", 'export * from "./a.js";\n', /export other/],
    ["namespace import", 'import * as a from "./a.js";\nvar b = a;\nexport { b };\n', /namespace or default/],
    ["default import", 'import a from "./a.js";\nvar b = a;\nexport { b };\n', /namespace or default/],
    ["another module", 'import { readFile } from "node:fs";\nvar b = readFile;\nexport { b };\n', /another module/],
    ["a folder's module", 'import { a } from "./x/a.js";\nexport { a };\n', /another module/],
    ["assigned later", "var n = 0;\nvar bump = (function () { n++; });\nexport { n, bump };\n", /export n/],
    ["assigned in a function", "let s = 1;\nfunction set() { s = 2; }\nexport { s, set };\n", /export s/],
    ["reassigned by destructuring", "let s = 1;\n[s] = [2];\nexport { s };\n", /export s/],
    ["declared twice", "var d = 1;\nvar d = 2;\nexport { d };\n", /export d/],
    ["a parameter of its name", "var p = 1;\nvar f = (function (p) { return p; });\nexport { p, f };\n", /export p/],
    ["the merge's own prefix", "var __merged$0 = 1;\nvar x = 1;\nexport { x };\n", /__merged\$/],
  ];
  for (const [label, source, why] of cases) {
    const facts = chunkFacts(source);
    if (why === null) assert.equal(facts.unmergeable, null, label);
    else assert.match(facts.unmergeable ?? "(mergeable)", why, label);
  }
  assert.throws(() => chunkFacts("export {"), /Unexpected token/);
});

/** Writes a bundle folder, imports its entry in this process, and returns what it logged (globalThis.__log). */
async function runBundle(dir: string, files: ReadonlyMap<string, string>): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, source] of files) await Deno.writeTextFile(join(dir, name), source);
  const log: string[] = [];
  (globalThis as { __log?: string[] }).__log = log;
  const entry = await import(pathToFileURL(join(dir, "main.js")).href);
  await entry.done;
  return log;
}

const LOG = "globalThis.__log.push";

/** A small bundle like deno bundle's: an entry, chunks it imports, and a cold chunk it imports dynamically. */
const BUNDLE = new Map([
  [
    "main.js",
    [
      'import { Shape, make } from "./shapes.js";',
      'import { count } from "./counter.js";',
      'import "./side.js";',
      `${LOG}("main " + count + " " + (make() instanceof Shape));`,
      'var done = import(["./cold.js"][0]).then((m) => m.run());',
      "export { done };",
      "",
    ].join("\n"),
  ],
  [
    "shapes.js",
    [
      'import { count as seen } from "./counter.js";',
      `${LOG}("shapes after counter " + seen);`,
      "var Shape = class { };",
      "var make = (function () { return new Shape(); });",
      "export { Shape, make, make as build };",
      "",
    ].join("\n"),
  ],
  ["counter.js", `${LOG}("counter");\nvar count = 3;\nexport { count };\n`],
  ["side.js", `${LOG}("side");\n`],
  [
    "cold.js",
    [
      'import { build, Shape } from "./shapes.js";',
      'import { count } from "./counter.js";',
      `var run = (function () { ${LOG}("cold " + count + " " + (build() instanceof Shape)); });`,
      "export { run };",
      "",
    ].join("\n"),
  ],
]);

Deno.test("mergeCore(): the entry's chunks become one module; the program logs the same, in the same order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-merge-" });
  try {
    const { plan, files } = mergeCore(BUNDLE);
    assert.deepEqual(plan, { merged: ["counter.js", "shapes.js", "side.js"], kept: [] });
    assert.deepEqual([...files.keys()].sort(), ["cold.js", CORE_FILE, "main.js"]);
    const after = new Map([...BUNDLE].filter(([name]) => !plan.merged.includes(name)));
    for (const [name, source] of files) after.set(name, source);
    // the entry and the cold chunk import only the merged file now
    for (const name of ["main.js", "cold.js"]) {
      assert.doesNotMatch(after.get(name)!, /from "\.\/(counter|shapes|side)\.js"/, name);
      assert.match(after.get(name)!, /from "\.\/main-core\.js"/, name);
    }
    const before = await runBundle(join(dir, "before"), BUNDLE);
    assert.deepEqual(before, ["counter", "shapes after counter 3", "side", "main 3 true", "cold 3 true"]);
    assert.deepEqual(await runBundle(join(dir, "after"), after), before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mergeCore(): a chunk that cannot be merged stays a file, and so does each chunk importing it", () => {
  const bundle = new Map(BUNDLE);
  bundle.set("counter.js", `${LOG}("counter " + import.meta.url);\nvar count = 3;\nexport { count };\n`);
  const { plan, files } = mergeCore(bundle);
  assert.deepEqual(plan.kept, [
    { chunk: "counter.js", why: "import.meta" },
    { chunk: "shapes.js", why: "it imports counter.js, which is kept" },
  ]);
  // one chunk is left to merge: nothing is done
  assert.deepEqual(plan.merged, []);
  assert.equal(files.size, 0);
});

Deno.test("mergeCore(): a chunk the bundle imports dynamically keeps its file", () => {
  const bundle = new Map(BUNDLE);
  bundle.set("main.js", bundle.get("main.js")!.replace('import(["./cold.js"][0])', 'import(["./side.js"][0])'));
  const { plan } = mergeCore(bundle);
  assert.deepEqual(plan.kept, [{ chunk: "side.js", why: "imported dynamically" }]);
  assert.deepEqual(plan.merged, ["counter.js", "shapes.js"]);
});

Deno.test("mergeCore(): a chunk importing a binding its import does not export is an error", () => {
  const bundle = new Map(BUNDLE);
  bundle.set("cold.js", 'import { nothing } from "./shapes.js";\nvar run = () => nothing;\nexport { run };\n');
  assert.throws(() => mergeCore(bundle), /cold\.js imports nothing, which shapes\.js does not export/);
  const missing = new Map(BUNDLE);
  missing.delete("side.js");
  assert.throws(() => mergeCore(missing), /side\.js, imported in the bundle, is not in its folder/);
});

Deno.test("mergeBundleCore(): writes the merged file, rewrites the importers and removes the merged chunks", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-merge-" });
  try {
    for (const [name, source] of BUNDLE) await Deno.writeTextFile(join(dir, name), source);
    const plan = await mergeBundleCore(dir);
    assert.equal(plan.merged.length, 3);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["cold.js", CORE_FILE, "main.js"]);
    // a second merge finds the merged file and one chunk besides the entry: nothing to do
    await assert.rejects(() => mergeBundleCore(dir), /already has a chunk named main-core\.js/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Generated bundles: chunks in a random import graph (each imports some earlier ones, by name or for their side
 * effects), each logging at the top level and exporting a value, a function and a class; the entry and a dynamically
 * imported cold chunk use them. Merged and unmerged, a program logs the same lines in the same order.
 */
Deno.test("mergeCore(): generated bundles log the same lines in the same order, merged or not", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-merge-gen-" });
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 7 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            // for each chunk: which earlier chunks it imports (0 none, 1 by name, 2 for its side effects)
            edges: fc.array(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }), {
              minLength: n,
              maxLength: n,
            }),
            entry: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
            cold: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
          })
        ),
        async ({ n, edges, entry, cold }) => {
          const bundle = new Map<string, string>();
          const chunk = (i: number) => `c${i}.js`;
          for (let i = 0; i < n; i++) {
            const lines: string[] = [];
            const uses: string[] = [];
            for (let j = 0; j < i; j++) {
              if (edges[i]![j] === 1) {
                lines.push(`import { v${j} as w${j}, f${j}, K${j} } from "./${chunk(j)}";`);
                uses.push(`w${j}`, `f${j}()`, `(new K${j}() instanceof K${j})`);
              } else if (edges[i]![j] === 2) lines.push(`import "./${chunk(j)}";`);
            }
            lines.push(`${LOG}("c${i} " + [${uses.join(", ")}].join(","));`);
            lines.push(`var v${i} = ${i} + [${uses.join(", ")}].length;`);
            lines.push(`var f${i} = (function () { return v${i} * 2; });`);
            lines.push(`var K${i} = class { };`);
            lines.push(`export { v${i}, f${i}, K${i} };`);
            bundle.set(chunk(i), lines.join("\n") + "\n");
          }
          const imports = (picked: boolean[]) => picked.flatMap((p, i) => p ? [i] : []);
          const main = imports(entry);
          const coldUses = imports(cold);
          bundle.set(
            "main.js",
            [
              ...main.map((i) => `import { f${i} } from "./${chunk(i)}";`),
              `${LOG}("main " + [${main.map((i) => `f${i}()`).join(", ")}].join(","));`,
              'var done = import(["./cold.js"][0]).then((m) => m.run());',
              "export { done };",
            ].join("\n"),
          );
          bundle.set(
            "cold.js",
            [
              ...coldUses.map((i) => `import { v${i}, K${i} } from "./${chunk(i)}";`),
              `var run = (function () { ${LOG}("cold " + [${
                coldUses.map((i) => `v${i}, K${i}.name`).join(", ")
              }]); });`,
              "export { run };",
            ].join("\n"),
          );
          const { plan, files } = mergeCore(bundle);
          const after = new Map([...bundle].filter(([name]) => !plan.merged.includes(name)));
          for (const [name, source] of files) after.set(name, source);
          run++;
          const before = await runBundle(join(dir, `${run}-before`), bundle);
          const merged = await runBundle(join(dir, `${run}-after`), after);
          assert.deepEqual(merged, before);
          assert.equal(plan.kept.length, 0);
        },
      ),
      { numRuns: 40 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
