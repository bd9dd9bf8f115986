import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chunksToInclude, dynamicImports, hideBundleImports, hideDynamicImports } from "./bundle_hidden.ts";

Deno.test("hideDynamicImports(): a chunk's own literal imports are hidden; other imports, strings and comments stay", () => {
  const source = [
    'import { a } from "./static.js";',
    'const x = () => import("./hook-A.js");',
    "const y = async () => (await import( './cold-B.js' )).command;",
    'const node = () => import("node:fs");',
    'const up = () => import("../outside.js");',
    'const deep = () => import("./dir/deep.js");',
    "const computed = (n) => import(n);",
    'const text = "import(\\"./in-a-string.js\\")"; // import("./in-a-comment.js")',
    "",
  ].join("\n");
  const { source: out, hidden } = hideDynamicImports(source);
  assert.equal(hidden, 2);
  assert.ok(out.includes('import(["./hook-A.js"][0])'));
  assert.ok(out.includes('(await import( ["./cold-B.js"][0] )).command'));
  for (const kept of ['import("node:fs")', 'import("../outside.js")', 'import("./dir/deep.js")', "import(n)"]) {
    assert.ok(out.includes(kept), kept);
  }
  assert.ok(out.includes('"import(\\"./in-a-string.js\\")"') && out.includes('// import("./in-a-comment.js")'));
  assert.ok(out.startsWith('import { a } from "./static.js";'));
  assert.deepEqual(dynamicImports(out), [
    { specifier: "./hook-A.js", hidden: true },
    { specifier: "./cold-B.js", hidden: true },
  ]);
  assert.deepEqual(dynamicImports(source).map((d) => d.hidden), [false, false]);
  // hiding again changes nothing
  assert.deepEqual(hideDynamicImports(out), { source: out, hidden: 0 });
});

Deno.test("a hidden import loads the same module as the literal one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-hidden-" });
  try {
    await Deno.writeTextFile(join(dir, "target.js"), "export const value = 42;\n");
    const literal = 'export const load = async () => (await import("./target.js")).value;\n';
    await Deno.writeTextFile(join(dir, "entry.js"), hideDynamicImports(literal).source);
    const entry = await import(pathToFileURL(join(dir, "entry.js")).href);
    assert.equal(await entry.load(), 42);
    assert.match(await Deno.readTextFile(join(dir, "entry.js")), /import\(\["\.\/target\.js"\]\[0\]\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hideBundleImports(): rewrites every chunk, or none when one cannot be parsed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cliffhanger-hidden-" });
  try {
    await Deno.writeTextFile(
      join(dir, "main.js"),
      'const a = () => import("./a.js"); const b = () => import("./b.js");',
    );
    await Deno.writeTextFile(join(dir, "a.js"), 'export const c = () => import("./b.js");');
    await Deno.writeTextFile(join(dir, "b.js"), "export const b = 1;");
    await Deno.writeTextFile(join(dir, "notes.txt"), 'import("./a.js")');
    assert.deepEqual(await hideBundleImports(dir), { imports: 3, chunks: 2 });
    assert.equal(await Deno.readTextFile(join(dir, "notes.txt")), 'import("./a.js")');
    assert.deepEqual(await chunksToInclude(dir, join(dir, "main.js")), [join(dir, "a.js"), join(dir, "b.js")]);

    await Deno.writeTextFile(join(dir, "a.js"), 'export const c = () => import("./b.js");');
    await Deno.writeTextFile(join(dir, "z.js"), "this is not ( JavaScript");
    await assert.rejects(() => hideBundleImports(dir));
    assert.equal(await Deno.readTextFile(join(dir, "a.js")), 'export const c = () => import("./b.js");');
    assert.deepEqual([...Deno.readDirSync(dir)].filter((e) => e.name.includes("-tmp")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
