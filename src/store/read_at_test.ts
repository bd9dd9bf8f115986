import assert from "node:assert/strict";
import { join } from "node:path";
import { readAt, readRegularTail, readTailText } from "./read_at.ts";

Deno.test("readAt() reads a slice, and stops short at the end of the file; readTailText() the last bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "f.txt");
    await Deno.writeTextFile(path, "0123456789");
    const file = await Deno.open(path, { read: true });
    try {
      assert.equal(new TextDecoder().decode(await readAt(file, 2, 3)), "234");
      assert.equal(new TextDecoder().decode(await readAt(file, 8, 10)), "89");
      assert.equal((await readAt(file, 20, 4)).length, 0);
    } finally {
      file.close();
    }
    assert.equal(await readTailText(path, 4), "6789");
    assert.equal(await readTailText(path, 100), "0123456789");
    await assert.rejects(() => readTailText(join(dir, "missing"), 4), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRegularTail() reads at most the cap from the end; refuses what is not a regular file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "f.txt");
    await Deno.writeTextFile(path, "0123456789");
    const options = { maxBytes: 4, within: dir, label: "file" };
    const tail = await readRegularTail(path, options);
    assert.equal(new TextDecoder().decode(tail!.bytes), "6789");
    assert.equal(tail!.skipped, 6);
    assert.equal((await readRegularTail(path, { ...options, maxBytes: 100 }))!.skipped, 0);
    assert.equal(await readRegularTail(join(dir, "missing"), options), null);
    await assert.rejects(readRegularTail(dir, options), /is not a regular file; not read/);
    await Deno.symlink("/dev/zero", join(dir, "zero"));
    await assert.rejects(readRegularTail(join(dir, "zero"), { maxBytes: 4, label: "file" }), /not a regular file/);
    await assert.rejects(readRegularTail(join(dir, "zero"), options), /leads out of/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
