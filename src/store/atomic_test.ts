import assert from "node:assert/strict";
import { folderMode, writeFileAtomic } from "./atomic.ts";

Deno.test("writeFileAtomic(): a folder it makes is as private as the file (0o700 for 0o600, 0o755 for 0o644)", async () => {
  const root = await Deno.makeTempDir();
  try {
    await writeFileAtomic(`${root}/a/b/state.json`, "{}");
    for (const dir of ["a", "a/b"]) assert.equal((await Deno.stat(`${root}/${dir}`)).mode! & 0o777, 0o700, dir);
    assert.equal((await Deno.stat(`${root}/a/b/state.json`)).mode! & 0o777, 0o600);
    assert.equal(await Deno.readTextFile(`${root}/a/b/state.json`), "{}");
    await writeFileAtomic(`${root}/shared/x.md`, "x", { mode: 0o644 });
    // the umask may take more away, never add
    const mask = Deno.umask();
    Deno.umask(mask);
    assert.equal((await Deno.stat(`${root}/shared`)).mode! & 0o777, 0o755 & ~mask);
    assert.equal(folderMode(0o600), 0o700);
    assert.equal(folderMode(0o644), 0o755);
    assert.equal(folderMode(0o640), 0o750);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
