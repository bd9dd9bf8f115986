import assert from "node:assert/strict";
import { join } from "node:path";
import { readManagedSettings } from "./managed.ts";

Deno.test("readManagedSettings(): the file, then the drop-ins *.json in name order; hidden and other files left out", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.deepEqual(await readManagedSettings(join(dir, "none")), { files: [], problem: null });
    const dropIns = join(dir, "managed-settings.d");
    await Deno.mkdir(dropIns);
    for (const name of ["b.json", "a.json", ".hidden.json", "notes.txt"]) {
      await Deno.writeTextFile(join(dropIns, name), '{ "disableAllHooks": true }');
    }
    await Deno.mkdir(join(dropIns, "folder.json"));
    const read = await readManagedSettings(dir);
    assert.deepEqual(read.files.map((f) => [f.path, f.disableAllHooks]), [
      [join(dropIns, "a.json"), true],
      [join(dropIns, "b.json"), true],
    ]);
    await Deno.writeTextFile(join(dir, "managed-settings.json"), '{ "allowManagedHooksOnly": true }');
    const withFile = await readManagedSettings(dir);
    assert.equal(withFile.files[0]?.path, join(dir, "managed-settings.json"));
    assert.equal(withFile.files[0]?.allowManagedHooksOnly, true);
    assert.equal(withFile.problem, null);
    // of the top-level keys only disableAllHooks is checked here (Claude Code reads many of them leniently there)
    await Deno.writeTextFile(join(dir, "managed-settings.json"), '{ "allowManagedHooksOnly": true, "model": 5 }');
    const lenient = await readManagedSettings(dir);
    assert.deepEqual([lenient.files[0]?.ignored, lenient.files[0]?.allowManagedHooksOnly], [undefined, true]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "readManagedSettings(): outside the read scope it is a problem, not a file",
  permissions: { read: false },
  fn: async () => {
    const read = await readManagedSettings("/etc/claude-code");
    assert.deepEqual(read.files, []);
    assert.match(read.problem ?? "", /^cannot list \/etc\/claude-code\/managed-settings\.d: /);
  },
});
