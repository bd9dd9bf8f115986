import assert from "node:assert/strict";
import { join } from "node:path";
import { appendToFile, sameFileAtPath } from "./append.ts";
import { UnsafeFileError } from "./safe_file.ts";

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

Deno.test("appendToFile(): a detach whose copy fails part way (a full disk) removes the partial copy", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const elsewhere = join(dir, "snapshot.jsonl");
    await Deno.writeTextFile(elsewhere, "old line\n".repeat(1000));
    const ours = join(dir, "log.jsonl");
    await Deno.link(elsewhere, ours);
    const full = new Deno.errors.WriteZero("No space left on device (os error 28)");
    const copyFile = async (_from: string, to: string) => {
      await Deno.writeTextFile(to, "old line\n".repeat(100));
      throw full;
    };
    await assert.rejects(appendToFile(ours, "line\n", 0o600, { copyFile }), (e) => e === full);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["log.jsonl", "snapshot.jsonl"]);
    assert.equal((await Deno.lstat(ours)).nlink, 2, "nothing was renamed over ours");
    // with room again the next append detaches as usual
    await appendToFile(ours, "line\n");
    assert.equal(await Deno.readTextFile(elsewhere), "old line\n".repeat(1000));
    assert.equal(await Deno.readTextFile(ours), "old line\n".repeat(1000) + "line\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendToFile() never appends through a link swapped in between the check and the open", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const outside = join(dir, "outside.txt");
    await Deno.writeTextFile(outside, "OUTSIDE\n");
    const ours = join(dir, "log.md");
    await Deno.writeTextFile(ours, "ours\n");
    // an existing file: replaced by a link to the outside file after the check
    const swap = async () => {
      await Deno.remove(ours);
      await Deno.symlink(outside, ours);
    };
    await assert.rejects(appendToFile(ours, "line\n", 0o600, { beforeOpen: swap }), UnsafeFileError);
    assert.equal(await Deno.readTextFile(outside), "OUTSIDE\n", "nothing landed outside");
    // a missing file: a dangling link planted after the check is never followed to create its target
    await Deno.remove(ours);
    const target = join(dir, "created-outside.txt");
    const plant = () => Deno.symlink(target, ours);
    await assert.rejects(appendToFile(ours, "line\n", 0o600, { beforeOpen: plant }), UnsafeFileError);
    await assert.rejects(Deno.lstat(target), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendToFile() writes into the file at the path when the old one is renamed away, or one is made, before the open", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "log.jsonl");
    await Deno.writeTextFile(path, "old\n");
    let calls = 0;
    const rotate = async () => {
      if (calls++ > 0) return;
      await Deno.rename(path, `${path}.1`);
      await Deno.writeTextFile(path, "");
    };
    await appendToFile(path, "line\n", 0o600, { beforeOpen: rotate });
    assert.equal(await Deno.readTextFile(path), "line\n");
    assert.equal(await Deno.readTextFile(`${path}.1`), "old\n");
    // missing at the check, made by another writer before the exclusive create: looked at again, appended to
    await Deno.remove(path);
    const make = async () => {
      if (calls++ === 1) await Deno.writeTextFile(path, "theirs\n");
    };
    await appendToFile(path, "mine\n", 0o600, { beforeOpen: make });
    assert.equal(await Deno.readTextFile(path), "theirs\nmine\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sameFileAtPath(): the opened file against what is at the path now", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "a.log");
    await Deno.writeTextFile(path, "");
    using file = await Deno.open(path, { append: true });
    assert.equal(await sameFileAtPath(path, file), "same");
    // the same file, but through a link now: refused all the same
    await Deno.rename(path, join(dir, "b.log"));
    assert.equal(await sameFileAtPath(path, file), "other", "nothing there");
    await Deno.symlink(join(dir, "b.log"), path);
    assert.equal(await sameFileAtPath(path, file), "link");
    await Deno.remove(path);
    await Deno.writeTextFile(path, "");
    assert.equal(await sameFileAtPath(path, file), "other", "another file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendToFile({ lines }): a line a full disk cut short does not swallow the next one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "log.jsonl");
    await appendToFile(path, '{"n":1}\n', 0o600, { lines: true });
    // a write that takes half the line, then finds the disk full, as write(2) does on ENOSPC
    const full = new Deno.errors.WriteZero("No space left on device (os error 28)");
    const short = async (file: Deno.FsFile, bytes: Uint8Array) => {
      await file.write(bytes.subarray(0, 4));
      throw full;
    };
    await assert.rejects(appendToFile(path, '{"n":2}\n', 0o600, { lines: true, write: short }), (e) => e === full);
    assert.equal(await Deno.readTextFile(path), '{"n":1}\n{"n"');
    await appendToFile(path, '{"n":3}\n', 0o600, { lines: true });
    await appendToFile(path, '{"n":4}\n', 0o600, { lines: true });
    assert.deepEqual((await Deno.readTextFile(path)).split("\n"), ['{"n":1}', '{"n"', '{"n":3}', '{"n":4}', ""]);
    // without `lines` the data is appended as it is (a file of other text)
    await Deno.writeTextFile(path, "abc");
    await appendToFile(path, "def");
    assert.equal(await Deno.readTextFile(path), "abcdef");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
