/** `uninstall` of a settings file `install` created: removed again once nothing but `{}` is left in it. */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { BINARY, exitCodeOf, type FakeContext, fakeContext, listDir, tempHome } from "../testing/settings_support.ts";
import { runInstall } from "./install.ts";
import { run } from "./uninstall.ts";

function install(ctx: FakeContext, argv: string[] = []): Promise<number> {
  return exitCodeOf(ctx, () => runInstall(ctx, argv, { hookCommand: BINARY }));
}

function uninstall(ctx: FakeContext, argv: string[] = []): Promise<number> {
  return exitCodeOf(ctx, () => run(ctx, argv));
}

Deno.test("install into a home with no settings file, then uninstall: no settings file is left", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  assert.equal(await install(ctx), 0);
  assert.equal(ctx.stderr(), "");
  assert.equal(await Deno.readTextFile(ctx.paths.createdSettings), JSON.stringify([home.settings]) + "\n");
  const installed = await Deno.readTextFile(home.settings);

  const out = fakeContext(home.dir, new Date("2026-08-22T11:00:00Z"));
  assert.equal(await uninstall(out), 0, out.stderr());
  const lines = out.stdout().split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    `Removed cliffhanger hooks for Stop, SubagentStop from ${home.settings}`,
    `Removed ${home.settings}: install created it, and nothing was left in it but {}`,
  ]);
  assert.match(lines[2] ?? "", /^Backup of the previous file: /);
  assert.equal(out.stderr(), "");
  assert.deepEqual(await listDir(dirname(home.settings)), [], "no settings file, temp file or lock");
  // the backup holds the file as it was before uninstall
  const backup = lines[2]!.slice("Backup of the previous file: ".length);
  assert.equal(await Deno.readTextFile(backup), installed);
  assert.deepEqual(await listDir(ctx.paths.root), ["backups"], "the record is gone with its last path");

  // --json says so too, and a second uninstall finds nothing
  assert.equal(await install(fakeContext(home.dir)), 0);
  const json = fakeContext(home.dir, new Date("2026-08-22T12:00:00Z"));
  assert.equal(await uninstall(json, ["--json"]), 0);
  const body = JSON.parse(json.stdout());
  assert.deepEqual([body.changed, body.deleted, body.dryRun], [true, true, false]);
  const again = fakeContext(home.dir);
  assert.equal(await uninstall(again), 0);
  assert.equal(again.stdout(), `Nothing to remove in ${home.settings} (no such file)\n`);
});

Deno.test("uninstall keeps a file install created once a key or a comment was added to it by hand", async () => {
  await using home = await tempHome();
  for (const [added, left] of [['"model": "opus",', '{\n  "model": "opus"\n}\n'], ["// mine", "{\n  // mine\n}\n"]]) {
    await Deno.remove(home.settings).catch(() => {});
    assert.equal(await install(fakeContext(home.dir)), 0);
    await Deno.writeTextFile(home.settings, (await Deno.readTextFile(home.settings)).replace("{\n", `{\n  ${added}\n`));
    const ctx = fakeContext(home.dir);
    assert.equal(await uninstall(ctx, ["--json"]), 0, ctx.stderr());
    assert.equal(JSON.parse(ctx.stdout()).deleted, undefined);
    assert.equal(await Deno.readTextFile(home.settings), left);
  }
});

Deno.test("uninstall keeps a {} file that was there before install", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, "{}\n");
  const ctx = fakeContext(home.dir);
  assert.equal(await install(ctx), 0);
  assert.deepEqual(await listDir(ctx.paths.root), ["backups"], "nothing recorded");
  const out = fakeContext(home.dir);
  assert.equal(await uninstall(out), 0);
  assert.doesNotMatch(out.stdout(), /install created it/);
  assert.equal(await Deno.readTextFile(home.settings), "{}\n");
});

Deno.test("a corrupt record is read as empty, with a warning: install and uninstall go on", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  assert.equal(await install(ctx), 0);
  await Deno.writeTextFile(ctx.paths.createdSettings, '{"not": "a list"');
  const out = fakeContext(home.dir);
  assert.equal(await uninstall(out), 0);
  assert.equal(
    out.stderr(),
    `cliffhanger-bin: warning: the record of settings files install created, ${ctx.paths.createdSettings}, is not ` +
      "JSON; read as empty\n",
  );
  assert.equal(await Deno.readTextFile(home.settings), "{}\n", "not known as created: kept");

  // install over a corrupt record replaces it, so a later uninstall removes the file it creates
  await Deno.remove(home.settings);
  const again = fakeContext(home.dir);
  assert.equal(await install(again), 0);
  assert.match(again.stderr(), /^cliffhanger-bin: warning: the record .* is not JSON; read as empty\n$/);
  assert.equal(await uninstall(fakeContext(home.dir)), 0);
  assert.deepEqual(await listDir(dirname(home.settings)), []);
});

Deno.test("uninstall --dry-run says it would remove a file install created, and removes nothing", async () => {
  await using home = await tempHome();
  const ctx = fakeContext(home.dir);
  assert.equal(await install(ctx), 0);
  const installed = await Deno.readTextFile(home.settings);
  const record = await Deno.readTextFile(ctx.paths.createdSettings);

  const dry = fakeContext(home.dir);
  assert.equal(await uninstall(dry, ["--dry-run"]), 0);
  assert.ok(dry.stdout().startsWith(`--- ${home.settings}\n+++ /dev/null\n`));
  assert.ok(
    dry.stdout().endsWith(
      `\nWould remove ${home.settings}: install created it, and nothing would be left in it but {}\n`,
    ),
  );
  const json = fakeContext(home.dir);
  assert.equal(await uninstall(json, ["--dry-run", "--json"]), 0);
  const body = JSON.parse(json.stdout());
  assert.deepEqual([body.deleted, body.dryRun, body.backup], [true, true, null]);

  assert.equal(await Deno.readTextFile(home.settings), installed);
  assert.equal(await Deno.readTextFile(ctx.paths.createdSettings), record);
  assert.deepEqual(await listDir(ctx.paths.root), ["created-settings.json"], "no backup written");
});
