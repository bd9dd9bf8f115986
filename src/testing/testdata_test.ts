/**
 * The copied trees of testdata/ are exactly what their SOURCES.md lists: every file on disk has a row (and every
 * row a file) with its licence, size and SHA-256, and each licence is one we may copy. The corpus also keeps the
 * per-file "### `file`" / "- License:" sections that scripts/eval/extract_corpus.ts reads.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { filesUnder } from "./files.ts";
import { CORPUS, PEERS, TESTDATA } from "./testdata.ts";

interface Row {
  file: string;
  licence: string;
  bytes: number;
  sha256: string;
}

/** The rows of the "## Files" table: | `file` | licence | bytes | `sha256` |. */
function filesTable(sourcesMd: string): Row[] {
  const section = sourcesMd.split(/^## Files$/m)[1];
  assert.ok(section !== undefined, "SOURCES.md has no '## Files' section");
  const rows: Row[] = [];
  for (const line of section.split("\n")) {
    const m = /^\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|\s*(\d+)\s*\|\s*`([0-9a-f]{64})`\s*\|$/.exec(line);
    if (m) rows.push({ file: m[1]!, licence: m[2]!, bytes: Number(m[3]), sha256: m[4]! });
    else if (line.startsWith("| `")) assert.fail(`unreadable row in SOURCES.md: ${line}`);
  }
  return rows;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const TREES: { dir: string; licences: string[]; count: number }[] = [
  { dir: CORPUS, licences: ["MIT", "Apache-2.0"], count: 36 },
  { dir: PEERS, licences: ["MIT", "Apache-2.0"], count: 30 },
  { dir: `${TESTDATA}client/`, licences: ["own capture"], count: 14 },
];

for (const tree of TREES) {
  const name = relative(TESTDATA, tree.dir);
  Deno.test(`testdata/${name}: every file is listed in SOURCES.md with an allowed licence, its size and SHA-256`, async () => {
    const rows = filesTable(await Deno.readTextFile(join(tree.dir, "SOURCES.md")));
    const onDisk = filesUnder(tree.dir).map((p) => relative(tree.dir, p)).filter((p) => p !== "SOURCES.md").sort();
    assert.deepEqual(rows.map((r) => r.file).sort(), onDisk);
    assert.equal(rows.length, tree.count);
    for (const row of rows) {
      assert.ok(tree.licences.includes(row.licence), `${row.file}: licence ${row.licence}`);
      const bytes = await Deno.readFile(join(tree.dir, row.file));
      assert.equal(bytes.length, row.bytes, `${row.file}: size`);
      assert.equal(await sha256(bytes), row.sha256, `${row.file}: SHA-256`);
    }
  });
}

Deno.test("testdata/corpus: every real transcript has a '### `file`' section whose licence line names its table licence", async () => {
  const md = await Deno.readTextFile(join(CORPUS, "SOURCES.md"));
  const sections = new Map<string, string>();
  for (const section of md.split(/^### /m).slice(1)) {
    const file = /^`([^`]+)`/.exec(section)?.[1];
    const licence = /^- License: (\S+)/m.exec(section)?.[1];
    if (file && /^- Source: /m.test(section) && licence) sections.set(file, licence);
  }
  const real = filesTable(md).filter((r) => r.file.startsWith("transcripts/"));
  assert.equal(real.length, 27);
  for (const row of real) {
    assert.equal(sections.get(row.file.slice("transcripts/".length)), row.licence, row.file);
  }
});

Deno.test("testdata/peers: the peer folder without a licence is not there", () => {
  assert.deepEqual([...Deno.readDirSync(PEERS)].filter((e) => e.isDirectory).map((e) => e.name).sort(), [
    "agent-behavior-hooks",
    "cliffhanger",
    "no-cliffhanger",
    "ralph-claude-code",
  ]);
});
