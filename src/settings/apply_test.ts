import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { CommandError } from "../errors.ts";
import { envFrom } from "../env.ts";
import { settingsTempPath } from "../permissions.ts";
import { homePaths } from "../store/paths.ts";
import { type ApplyOptions, applySettingsEdit, removeIfWritten } from "./apply.ts";
import { installHooks, uninstallHooks } from "./edit.ts";
import { type HookCommand, selectRegistrations } from "./hook_command.ts";
import { inspectSettingsText } from "./inspect.ts";
import { backupPrefix } from "./target.ts";
import { assertOneSet, BINARY, listDir, tempHome } from "../testing/settings_support.ts";

const NOW = new Date("2026-08-22T10:15:30.123Z");
const FOREIGN = `{
  // mine
  "model": "opus",
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "say hi"}]}
    ]
  }
}
`;

function options(home: string, settingsPath: string, extra: Partial<ApplyOptions> = {}): ApplyOptions {
  return {
    settingsPath,
    paths: homePaths(envFrom({ HOME: home })),
    edit: (text) => installHooks(text, { command: BINARY, registrations: selectRegistrations() }),
    now: NOW,
    ...extra,
  };
}

Deno.test("applySettingsEdit() creates a missing file and its folder, with no backup", async () => {
  await using home = await tempHome();
  const result = await applySettingsEdit(options(home.dir, home.settings));
  assert.deepEqual(
    { changed: result.changed, existed: result.existed, backup: result.backup, events: result.events },
    { changed: true, existed: false, backup: null, events: ["Stop", "SubagentStop"] },
  );
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(home.settings)).events, ["Stop", "SubagentStop"]);
  assert.equal((await Deno.stat(home.settings)).mode! & 0o777, 0o600);
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger", "backups")), []);
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"]);
});

Deno.test("applySettingsEdit() backs up the previous bytes and keeps the file mode", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN, { mode: 0o644 });
  await Deno.chmod(home.settings, 0o644);
  const result = await applySettingsEdit(options(home.dir, home.settings));
  const backups = join(home.dir, ".cliffhanger", "backups");
  assert.equal(result.backup, join(backups, `${backupPrefix(home.settings)}.20260822T101530123Z.bak`));
  assert.equal(await Deno.readTextFile(result.backup!), FOREIGN);
  assert.equal((await Deno.stat(home.settings)).mode! & 0o777, 0o644);
  const after = await Deno.readTextFile(home.settings);
  assert.ok(after.startsWith('{\n  // mine\n  "model": "opus",\n'));
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"], "no temp file left");

  const again = await applySettingsEdit(options(home.dir, home.settings));
  assert.deepEqual([again.changed, again.backup], [false, null]);
  assert.equal(await Deno.readTextFile(home.settings), after);
  assert.equal((await listDir(backups)).length, 1);
});

Deno.test("applySettingsEdit() edits a symlink's target and keeps the link", async () => {
  await using home = await tempHome();
  const real = join(home.dir, "dotfiles", "claude-settings.json");
  await Deno.mkdir(dirname(real), { recursive: true });
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(real, FOREIGN);
  await Deno.symlink(real, home.settings);
  const result = await applySettingsEdit(options(home.dir, home.settings));
  assert.equal(result.target, real);
  assert.equal(result.settings, home.settings);
  assert.ok((await Deno.lstat(home.settings)).isSymlink);
  assert.equal(await Deno.readLink(home.settings), real);
  assert.deepEqual(inspectSettingsText(await Deno.readTextFile(real)).events, ["Stop", "SubagentStop"]);
  assert.match(result.backup ?? "", /claude-settings\.json\.[0-9a-f]{8}\.20260822T101530123Z\.bak$/);
  assert.deepEqual(await listDir(dirname(real)), ["claude-settings.json"]);
});

Deno.test("applySettingsEdit() on a dry run returns the diff and writes nothing", async () => {
  await using home = await tempHome();
  const missing = await applySettingsEdit(options(home.dir, home.settings, { dryRun: true }));
  assert.equal(missing.changed, true);
  assert.ok(missing.diff?.startsWith(`--- /dev/null\n+++ ${home.settings}\n@@ -0,0 +1,`));
  assert.deepEqual(await listDir(home.dir), [], "no settings folder, no cliffhanger home");

  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN);
  const existing = await applySettingsEdit(options(home.dir, home.settings, { dryRun: true }));
  assert.match(existing.diff ?? "", /^\+ {12}"command": "\/opt\/bin\/cliffhanger-bin",$/m);
  assert.equal(existing.backup, null);
  assert.equal(await Deno.readTextFile(home.settings), FOREIGN);
  assert.deepEqual(await listDir(home.dir), [".claude"]);

  const none = await applySettingsEdit(options(home.dir, home.settings, { dryRun: true, edit: uninstallHooks }));
  assert.deepEqual([none.changed, none.diff], [false, ""]);
});

Deno.test("applySettingsEdit() refuses a file that does not parse and writes nothing", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  const broken = '{\n  "model": "opus"\n  "hooks": {}\n}\n';
  await Deno.writeTextFile(home.settings, broken);
  await assert.rejects(applySettingsEdit(options(home.dir, home.settings)), (e: unknown) => {
    assert.ok(e instanceof CommandError);
    assert.equal(e.exitCode, 1);
    assert.equal(
      e.message,
      `Invalid settings file ${home.settings}:3:3: invalid JSON: comma expected; nothing was written`,
    );
    return true;
  });
  assert.equal(await Deno.readTextFile(home.settings), broken);
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger", "backups")), []);
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"]);
  assert.deepEqual(await listDir(join(home.dir, ".cliffhanger", "locks")), [], "lock released");
});

Deno.test("applySettingsEdit() reports unreadable targets as CommandError", async () => {
  await using home = await tempHome();
  await Deno.mkdir(home.settings, { recursive: true });
  await assert.rejects(applySettingsEdit(options(home.dir, home.settings)), (e: unknown) => {
    assert.ok(e instanceof CommandError);
    assert.match(e.message, /^Cannot read ".*settings\.json": /);
    return true;
  });
  const binary = join(home.dir, "binary.json");
  await Deno.writeFile(binary, new Uint8Array([0x7b, 0xff, 0x7d]));
  await assert.rejects(applySettingsEdit(options(home.dir, binary)), /not UTF-8 text; nothing was written/);
});

Deno.test("applySettingsEdit() keeps a byte order mark", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "bom.json");
  await Deno.writeTextFile(path, '\uFEFF{"a": 1}');
  await applySettingsEdit(options(home.dir, path));
  const bytes = await Deno.readFile(path);
  assert.deepEqual([...bytes.slice(0, 4)], [0xef, 0xbb, 0xbf, 0x7b]);
});

Deno.test("applySettingsEdit() run twice at once leaves exactly one set of handlers", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN);
  const other: HookCommand = { command: "/other/cliffhanger-bin", prefixArgs: [] };
  const runs = [BINARY, other, BINARY, other].map((command) =>
    applySettingsEdit(options(home.dir, home.settings, {
      edit: (text) => installHooks(text, { command, registrations: selectRegistrations() }),
    }))
  );
  await Promise.all(runs);
  await assertOneSet(home.settings);
  assert.equal(await exists(settingsTempPath(home.settings)), false);
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("applySettingsEdit(): a link planted at the fixed temp name is removed, never written through", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN);
  const victim = join(home.dir, "bashrc");
  await Deno.writeTextFile(victim, "# my shell\n");
  await Deno.symlink(victim, settingsTempPath(home.settings));
  const result = await applySettingsEdit(options(home.dir, home.settings));
  assert.equal(result.changed, true);
  assert.equal(await Deno.readTextFile(victim), "# my shell\n", "the link's target is untouched");
  assert.ok((await Deno.lstat(home.settings)).isFile, "settings.json is a file, not the planted link");
  await assertOneSet(home.settings, '"command": "say hi"');
  assert.deepEqual(await listDir(dirname(home.settings)), ["settings.json"]);
});

Deno.test("applySettingsEdit(): a read-only settings file is refused, unchanged", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN, { mode: 0o444 });
  await Deno.chmod(home.settings, 0o444);
  await assert.rejects(applySettingsEdit(options(home.dir, home.settings)), isError(CommandError, /is read-only/));
  assert.equal(await Deno.readTextFile(home.settings), FOREIGN);
  assert.equal((await Deno.stat(home.settings)).mode! & 0o777, 0o444);
});

Deno.test("applySettingsEdit(): a FIFO, a folder or /dev/zero as the settings file is refused at once", async () => {
  for (const kind of ["fifo", "folder", "dev-zero"] as const) {
    await using home = await tempHome();
    await Deno.mkdir(dirname(home.settings), { recursive: true });
    if (kind === "fifo") {
      assert.ok((await new Deno.Command("mkfifo", { args: [home.settings] }).output()).success);
    } else if (kind === "folder") await Deno.mkdir(home.settings);
    else await Deno.symlink("/dev/zero", home.settings);
    await assert.rejects(
      applySettingsEdit(options(home.dir, home.settings)),
      isError(CommandError, /not a regular file/),
    );
  }
});

function isError(type: new (...args: never[]) => Error, message: RegExp): (e: unknown) => boolean {
  return (e) => e instanceof type && message.test(e.message);
}

Deno.test("applySettingsEdit(): a backups folder planted as a link is refused, nothing copied where it points", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN);
  const elsewhere = join(home.dir, "elsewhere");
  await Deno.mkdir(elsewhere);
  await Deno.mkdir(join(home.dir, ".cliffhanger"), { recursive: true });
  await Deno.symlink(elsewhere, join(home.dir, ".cliffhanger", "backups"));
  await assert.rejects(
    applySettingsEdit(options(home.dir, home.settings)),
    isError(CommandError, /backups folder .* is a link/),
  );
  assert.deepEqual(await listDir(elsewhere), []);
  assert.equal(await Deno.readTextFile(home.settings), FOREIGN, "unchanged");
});

Deno.test("applySettingsEdit() keeps a group-writable file's mode under a umask that would take it away", async () => {
  await using home = await tempHome();
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.writeTextFile(home.settings, FOREIGN);
  await Deno.chmod(home.settings, 0o664);
  const before = Deno.umask(0o077);
  try {
    await applySettingsEdit(options(home.dir, home.settings));
  } finally {
    Deno.umask(before);
  }
  assert.equal((await Deno.stat(home.settings)).mode! & 0o777, 0o664);
  assert.ok((await Deno.readTextFile(home.settings)).includes("hook"));
});

Deno.test("applySettingsEdit(): a file install created that the edit leaves {} is removed, after its backup", async () => {
  await using home = await tempHome();
  await applySettingsEdit(options(home.dir, home.settings));
  const installed = await Deno.readTextFile(home.settings);
  const uninstall = { edit: (text: string) => uninstallHooks(text) };
  const created = (target: string) => target === home.settings;

  const dry = await applySettingsEdit(
    options(home.dir, home.settings, { ...uninstall, installCreated: created, dryRun: true }),
  );
  assert.equal(dry.deleted, true);
  assert.ok(dry.diff?.startsWith(`--- ${home.settings}\n+++ /dev/null\n`));
  assert.equal(await Deno.readTextFile(home.settings), installed, "a dry run removes nothing");

  // not recorded as created: left as {}
  const kept = await applySettingsEdit(options(home.dir, home.settings, { ...uninstall, installCreated: () => false }));
  assert.equal(kept.deleted, false);
  assert.equal(await Deno.readTextFile(home.settings), "{}\n");
  await Deno.writeTextFile(home.settings, installed);

  const result = await applySettingsEdit(options(home.dir, home.settings, { ...uninstall, installCreated: created }));
  assert.deepEqual([result.changed, result.deleted], [true, true]);
  assert.equal(await Deno.readTextFile(result.backup!), installed);
  assert.deepEqual(await listDir(dirname(home.settings)), [], "no file, no temp file, no lock");
});

Deno.test("applySettingsEdit(): through a link, the created target is removed and the link left", async () => {
  await using home = await tempHome();
  const real = join(home.dir, "dotfiles", "claude-settings.json");
  await Deno.mkdir(dirname(real), { recursive: true });
  await Deno.mkdir(dirname(home.settings), { recursive: true });
  await Deno.symlink(real, home.settings);
  assert.equal((await applySettingsEdit(options(home.dir, home.settings))).target, real);
  const result = await applySettingsEdit(
    options(home.dir, home.settings, { edit: (text) => uninstallHooks(text), installCreated: (t) => t === real }),
  );
  assert.deepEqual([result.target, result.deleted], [real, true]);
  assert.deepEqual(await listDir(dirname(real)), []);
  assert.equal(await Deno.readLink(home.settings), real, "the link is as it was before install");
});

Deno.test("removeIfWritten(): only a regular file holding the text just written is removed", async () => {
  await using home = await tempHome();
  const path = join(home.dir, "s.json");
  await Deno.writeTextFile(path, '{"model": "opus"}\n');
  assert.equal(await removeIfWritten(path, "{}\n"), false, "changed since the write");
  assert.equal(await Deno.readTextFile(path), '{"model": "opus"}\n');
  const other = join(home.dir, "other.json");
  await Deno.writeTextFile(other, "{}\n");
  await Deno.remove(path);
  await Deno.symlink(other, path);
  assert.equal(await removeIfWritten(path, "{}\n"), false, "swapped for a link");
  assert.deepEqual(await listDir(home.dir), ["other.json", "s.json"]);
  assert.equal(await removeIfWritten(join(home.dir, "gone.json"), "{}\n"), false);
  assert.equal(await removeIfWritten(other, "{}\n"), true);
  assert.deepEqual(await listDir(home.dir), ["s.json"]);
});
