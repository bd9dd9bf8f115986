import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { KEEP_BACKUPS, parseBackupName, planBackupPrune, pruneBackups } from "./backup_prune.ts";
import { backupPath, backupPrefix } from "./target.ts";
import { applySettingsEdit } from "./apply.ts";
import { installHooks } from "./edit.ts";
import { selectRegistrations } from "./hook_command.ts";
import { envFrom } from "../env.ts";
import { homePaths } from "../store/paths.ts";
import { BINARY, listDir, tempHome } from "../testing/settings_support.ts";

const NOW = new Date("2026-08-22T10:15:30.123Z");
const HOUR = 60 * 60 * 1000;

/** The backup name of `target` written `hoursAgo` hours before NOW. */
function nameOf(target: string, hoursAgo: number, attempt = 1): string {
  return backupPath("/b", target, new Date(NOW.getTime() - hoursAgo * HOUR), attempt).slice("/b/".length);
}

Deno.test("parseBackupName(): the prefix, the time and the attempt of a backup's name; anything else is not one", () => {
  const prefix = backupPrefix("/x/settings.json");
  assert.deepEqual(parseBackupName(`${prefix}.20260822T101530123Z.bak`), {
    prefix,
    at: NOW.getTime(),
    attempt: 1,
  });
  assert.deepEqual(parseBackupName("settings.json.20260822T101530123Z-3.bak"), {
    prefix: "settings.json",
    at: NOW.getTime(),
    attempt: 3,
  });
  for (const name of ["settings.json", "notes.bak", "settings.json.2026-08-22.bak", ".20260822T101530123Z.bak"]) {
    assert.equal(parseBackupName(name), null, name);
  }
});

Deno.test("planBackupPrune(): the newest 20 of the file stay, and none less than a day old goes", () => {
  const file = "/x/settings.json";
  const prefix = backupPrefix(file);
  // 30 backups, one an hour: the 20 newest stay, and of the 10 older the 20-23 h ones (under a day old) stay too
  const names = Array.from({ length: 30 }, (_, i) => nameOf(file, i));
  assert.deepEqual(planBackupPrune(names, prefix, NOW.getTime()), names.slice(24));
  // all within a day: none goes, however many
  const today = Array.from({ length: 40 }, (_, i) => nameOf(file, i * 0.5));
  assert.deepEqual(planBackupPrune(today, prefix, NOW.getTime()), []);
  // two in one millisecond: the -2 is the newer
  const same = [...Array.from({ length: 20 }, (_, i) => nameOf(file, 1 + i)), nameOf(file, 48), nameOf(file, 48, 2)];
  assert.deepEqual(planBackupPrune(same, prefix, NOW.getTime(), 21), [nameOf(file, 48)]);
});

Deno.test("planBackupPrune(): another file's backups, old-style names and other files are not this file's", () => {
  const file = "/x/settings.json";
  const mine = Array.from({ length: 25 }, (_, i) => nameOf(file, 48 + i));
  const other = Array.from({ length: 25 }, (_, i) => nameOf("/project/.claude/settings.json", 48 + i));
  const legacy = Array.from(
    { length: 25 },
    (_, i) => nameOf(file, 48 + i).replace(`${backupPrefix(file)}.`, "settings.json."),
  );
  const all = [...mine, ...other, ...legacy, "notes.txt"];
  assert.deepEqual(planBackupPrune(all, backupPrefix(file), NOW.getTime()), mine.slice(20));
  assert.deepEqual(planBackupPrune(all, "settings.json", NOW.getTime()), legacy.slice(20));
});

Deno.test("pruneBackups(): removes only regular files of the file's backups; links and folders stay", async () => {
  await using home = await tempHome();
  const dir = join(home.dir, "backups");
  await Deno.mkdir(dir);
  const file = join(home.dir, "settings.json");
  const other = join(home.dir, "project", "settings.json");
  for (let i = 0; i < 23; i++) await Deno.writeTextFile(join(dir, nameOf(file, 48 + i)), `${i}`);
  for (let i = 0; i < 22; i++) await Deno.writeTextFile(join(dir, nameOf(other, 48 + i)), `${i}`);
  // old-style names, from before the path tag: pruned as one group per file name
  for (let i = 0; i < 21; i++) {
    await Deno.writeTextFile(join(dir, nameOf(file, 48 + i).replace(`${backupPrefix(file)}.`, "settings.json.")), "");
  }
  // the oldest names of all, but a link (to a file outside) and a folder: never removed
  const outside = join(home.dir, "outside.txt");
  await Deno.writeTextFile(outside, "keep");
  await Deno.symlink(outside, join(dir, nameOf(file, 500)));
  await Deno.mkdir(join(dir, nameOf(file, 501)));
  const removed = await pruneBackups(dir, file, NOW);
  assert.deepEqual(
    removed.sort(),
    [
      nameOf(file, 68),
      nameOf(file, 69),
      nameOf(file, 70),
      nameOf(file, 68).replace(`${backupPrefix(file)}.`, "settings.json."),
    ].sort(),
  );
  const left = await listDir(dir);
  assert.equal(left.filter((n) => n.startsWith(backupPrefix(file))).length, 20 + 2, "20, the link and the folder");
  assert.equal(left.filter((n) => n.startsWith(backupPrefix(other))).length, 22, "another file's are its own");
  assert.equal(await Deno.readTextFile(outside), "keep");
  // a missing folder is nothing to prune
  assert.deepEqual(await pruneBackups(join(home.dir, "none"), file, NOW), []);
});

Deno.test("applySettingsEdit(): after its backup, the file keeps its newest 20 backups", async () => {
  await using home = await tempHome();
  const env = envFrom({ HOME: home.dir });
  const paths = homePaths(env);
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, '{ "model": "opus" }\n');
  const target = await Deno.realPath(home.settings);
  await Deno.mkdir(paths.backups, { recursive: true });
  for (let i = 0; i < 27; i++) await Deno.writeTextFile(join(paths.backups, nameOf(target, 30 + i)), "{}");
  const result = await applySettingsEdit({
    settingsPath: home.settings,
    paths,
    now: NOW,
    edit: (text) => installHooks(text, { command: BINARY, registrations: selectRegistrations() }),
  });
  assert.ok(result.backup !== null);
  const left = await listDir(paths.backups);
  assert.equal(left.length, KEEP_BACKUPS);
  assert.ok(left.includes(nameOf(target, 0)), "the new backup is one of them");
  assert.ok(!left.includes(nameOf(target, 56)), "the oldest went");
});
