import assert from "node:assert/strict";
import { join } from "node:path";
import { backupPath, backupPrefix, resolveSymlinks, writeBackup } from "./target.ts";
import { listDir, tempHome } from "../testing/settings_support.ts";

Deno.test("resolveSymlinks() follows a chain of links, relative ones included", async () => {
  await using home = await tempHome();
  const real = join(home.dir, "real.json");
  await Deno.writeTextFile(real, "{}");
  await Deno.symlink("real.json", join(home.dir, "one.json"));
  await Deno.symlink(join(home.dir, "one.json"), join(home.dir, "two.json"));
  assert.equal(await resolveSymlinks(join(home.dir, "two.json")), real);
  assert.equal(await resolveSymlinks(real), real);
  await Deno.symlink("later.json", join(home.dir, "dangling.json"));
  assert.equal(await resolveSymlinks(join(home.dir, "dangling.json")), join(home.dir, "later.json"));
  assert.equal(await resolveSymlinks(join(home.dir, "none.json")), join(home.dir, "none.json"));
});

Deno.test("backupPath() and writeBackup() never overwrite an older backup", async () => {
  await using home = await tempHome();
  const now = new Date("2026-08-22T10:15:30.123Z");
  const prefix = backupPrefix("/x/settings.json");
  assert.match(prefix, /^settings\.json\.[0-9a-f]{8}$/);
  assert.notEqual(backupPrefix("/y/settings.json"), prefix, "two files of one name have their own backups");
  assert.equal(backupPath("/b", "/x/settings.json", now), `/b/${prefix}.20260822T101530123Z.bak`);
  const backups = join(home.dir, "backups");
  const first = await writeBackup(backups, "/x/settings.json", new TextEncoder().encode("one"), now);
  const second = await writeBackup(backups, "/x/settings.json", new TextEncoder().encode("two"), now);
  assert.deepEqual(await listDir(backups), [
    `${prefix}.20260822T101530123Z-2.bak`,
    `${prefix}.20260822T101530123Z.bak`,
  ]);
  assert.equal(await Deno.readTextFile(first), "one");
  assert.equal(await Deno.readTextFile(second), "two");
});
