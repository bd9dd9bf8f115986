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
  assert.equal((await Deno.stat(first)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(first)).nlink, 1, "the temp file's name is gone");
});

Deno.test("writeBackup(): a write that fails part way (a full disk) leaves no file, under a backup's name or any other", async () => {
  await using home = await tempHome();
  const backups = join(home.dir, "backups");
  const now = new Date("2026-08-22T10:15:30.123Z");
  const full = new Deno.errors.WriteZero("No space left on device (os error 28)");
  const bytes = new TextEncoder().encode(`{ "env": { "NOTES": "${"y".repeat(30_000)}" } }`);
  const write = async (file: Deno.FsFile, data: Uint8Array) => {
    await file.write(data.subarray(0, 8192));
    throw full;
  };
  await assert.rejects(
    writeBackup(backups, "/x/settings.json", bytes, now, { write, link: Deno.link }),
    (e) => e === full,
  );
  assert.deepEqual(await listDir(backups), []);
  // with room again, the whole file is backed up
  const path = await writeBackup(backups, "/x/settings.json", bytes, now);
  assert.deepEqual(await Deno.readFile(path), bytes);
  assert.deepEqual(await listDir(backups), [`${backupPrefix("/x/settings.json")}.20260822T101530123Z.bak`]);
});

Deno.test("writeBackup() on a file system without hard links: renamed into a free name, never over a backup", async () => {
  await using home = await tempHome();
  const backups = join(home.dir, "backups");
  const now = new Date("2026-08-22T10:15:30.123Z");
  const link = () => Promise.reject(new Deno.errors.PermissionDenied("Operation not permitted (os error 1)"));
  const io = { write: (file: Deno.FsFile, data: Uint8Array) => file.write(data).then(() => {}), link };
  const first = await writeBackup(backups, "/x/settings.json", new TextEncoder().encode("one"), now, io);
  const second = await writeBackup(backups, "/x/settings.json", new TextEncoder().encode("two"), now, io);
  assert.deepEqual(await listDir(backups), [
    `${backupPrefix("/x/settings.json")}.20260822T101530123Z-2.bak`,
    `${backupPrefix("/x/settings.json")}.20260822T101530123Z.bak`,
  ]);
  assert.equal(await Deno.readTextFile(first), "one");
  assert.equal(await Deno.readTextFile(second), "two");
});
