/**
 * No source file refers to a path outside the repository (the sibling shared folder, or a relative path that
 * climbs above the root), so the tests and scripts work from a clean clone alone. Also checks the finder itself.
 */
import assert from "node:assert/strict";
import { outsideRefs } from "./outside_paths.ts";

const ROOT = new URL("../../", import.meta.url);
const SOURCE = /\.(?:ts|mts|js|mjs)$/;

function sourceFiles(dir: URL): URL[] {
  const out: URL[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) out.push(...sourceFiles(url));
    else if (SOURCE.test(entry.name)) out.push(url);
  }
  return out.sort((a, b) => (a.href < b.href ? -1 : 1));
}

Deno.test("no file under src/, scripts/, e2e/ or main.ts refers to a path outside the repository", () => {
  const files = [
    new URL("main.ts", ROOT),
    ...["src/", "scripts/", "e2e/"].flatMap((d) => sourceFiles(new URL(d, ROOT))),
  ];
  assert.ok(files.length > 100, `only ${files.length} source files found`);
  const found: string[] = [];
  for (const file of files) {
    const name = file.href.slice(ROOT.href.length);
    for (const ref of outsideRefs(Deno.readTextFileSync(file), file, ROOT)) {
      found.push(`${name}:${ref.line}: ${ref.why}: ${ref.text}`);
    }
  }
  assert.deepEqual(found, []);
});

// The patterns spelt in pieces, so that the repository scan above does not flag this file's own samples.
const UP = "..";
const SHARED = "shared";
const NEW_URL = "new URL";
const FROM = "from";
const IMPORT = "import";
const FILE = new URL("file:///repo/src/hooks/x_test.ts");
const REPO = new URL("file:///repo/");

function found(text: string): string[] {
  return outsideRefs(text, FILE, REPO).map((r) => `${r.line}: ${r.why}`);
}

Deno.test("outsideRefs() names the line of each reference to the shared folder", () => {
  assert.deepEqual(found(`const a = 1;\n// see ${UP}/${SHARED}/corpus\nconst b = "/work/${SHARED}/corpus";\n`), [
    "2: names the shared folder beside the repository",
    "3: names the shared folder beside the repository",
  ]);
  assert.deepEqual(found(`const c = "/work/${SHARED}x/corpus"; // sharedness\n`), []);
});

Deno.test("outsideRefs() flags new URL(…, import.meta.url) only when it climbs above the root", () => {
  const text = `${NEW_URL}("../../testdata/x.json", import.meta.url);\n${NEW_URL}("../../../", import.meta.url);\n`;
  assert.deepEqual(found(text), ["2: new URL(…, import.meta.url) climbs above the root"]);
  assert.deepEqual(found(`const u = ${NEW_URL}(\n  "../../../corpus/x.json",\n  import.meta.url,\n);\n`), [
    "1: new URL(…, import.meta.url) climbs above the root",
  ]);
  assert.deepEqual(found(`${NEW_URL}(\`../../../\${name}\`, import.meta.url);\n`), [
    "1: new URL(…, import.meta.url) climbs above the root",
  ]);
  assert.deepEqual(
    found(`${NEW_URL}(\`../../testdata/\${name}\`, import.meta.url);\n${NEW_URL}("../../../x", base);\n`),
    [],
  );
});

Deno.test("outsideRefs() flags relative imports that leave the repository", () => {
  const text = `${IMPORT} { a } ${FROM} "../../../lib/a.ts";\n${IMPORT} { b } ${FROM} "../b.ts";\n` +
    `await ${IMPORT}("../../../c.ts");\n`;
  assert.deepEqual(found(text), ["1: imports a module above the root", "3: imports a module above the root"]);
});
