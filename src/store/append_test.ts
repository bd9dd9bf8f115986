import assert from "node:assert/strict";
import { join } from "node:path";
import { appendToFile } from "./append.ts";

Deno.test("appendToFile() creates the file with the mode, appends, and many writers at once never interleave", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "a.log");
    await appendToFile(path, "first\n", 0o640);
    const umask = Deno.umask();
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640 & ~umask);
    await appendToFile(path, "");
    const lines = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(3, "0")} ${"x".repeat(3000)}\n`);
    await Promise.all(lines.map((line) => appendToFile(path, new TextEncoder().encode(line))));
    const got = (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "");
    assert.equal(got[0], "first");
    assert.deepEqual(got.slice(1).sort(), lines.map((l) => l.slice(0, -1)).sort(), "every line whole, none twice");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendToFile() detaches a file with another hard link: the line lands in ours, the other name is untouched", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const elsewhere = join(dir, "elsewhere.txt");
    await Deno.writeTextFile(elsewhere, "VICTIM\n");
    const ours = join(dir, "log.jsonl");
    await Deno.link(elsewhere, ours);
    await appendToFile(ours, "line\n");
    assert.equal(await Deno.readTextFile(elsewhere), "VICTIM\n", "the other name keeps its data");
    assert.equal(await Deno.readTextFile(ours), "VICTIM\nline\n", "ours keeps what it had, and the new line");
    assert.equal((await Deno.lstat(ours)).nlink, 1);
    await appendToFile(ours, "more\n");
    assert.equal(await Deno.readTextFile(elsewhere), "VICTIM\n");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["elsewhere.txt", "log.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
