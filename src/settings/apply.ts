/**
 * The file layer around the pure edit: follow symlinks, lock, read, edit, back up, write atomically beside
 * the target. A file that does not parse is reported and left untouched; a dry run writes nothing at all.
 */
import { lstatOrNull, readLookedAtText, readRegularBytes } from "../store/safe_file.ts";
import { dirname } from "node:path";
import { CommandError, firstLine, type ScopeRoots, scopeText } from "../errors.ts";
import { settingsLockFile, settingsTempPath } from "../permissions.ts";
import { writeFileAtomic } from "../store/atomic.ts";
import { LockTimeoutError, withLock } from "../store/lock.ts";
import type { HomePaths } from "../store/paths.ts";
import { unifiedDiff } from "./diff.ts";
import type { DroppedKey, EditResult, HandlerUpdate, TimeoutChange } from "./edit.ts";
import { SettingsParseError } from "./settings_doc.ts";
import { resolveSymlinks, writeBackup } from "./target.ts";
import { pruneBackups } from "./backup_prune.ts";
import { isEmptyObjectText } from "./created_record.ts";

export interface ApplyOptions {
  /** The settings file as named by the user (absolute). */
  settingsPath: string;
  paths: Pick<HomePaths, "backups" | "locks">;
  /** Claude Code's folder: a refusal of the user's settings file there names `--claude-dir` (errors.ts). */
  claudeDir?: string;
  /** The pure edit: current text (empty for a missing file) to new text. */
  edit(text: string): EditResult;
  /** Compute the diff, write nothing. */
  dryRun?: boolean;
  /** Names the backup (default: now). */
  now?: Date;
  /** Longest wait for another install editing the same file (default 10 s). */
  lockWaitMs?: number;
  /**
   * Uninstall: whether install created the file `target` (links followed). Such a file that the edit leaves an empty
   * object (`{}`, nothing else) is removed once its backup is written; a dry run says it would be.
   */
  installCreated?: (target: string) => boolean;
}

export interface ApplyResult {
  /** The path as given. */
  settings: string;
  /** The file edited: `settings` after following symlinks. */
  target: string;
  existed: boolean;
  changed: boolean;
  /** The copy of the previous file, when one was written. */
  backup: string | null;
  /** Uninstall: `target` was removed (a dry run: would be), since install created it and only `{}` was left. */
  deleted: boolean;
  events: string[];
  /** Install: the events whose handler of ours it removed (SubagentStop under `--no-subagent`). */
  removed: string[];
  /** Install: our handlers' longer timeouts it kept (edit.ts). */
  keptTimeouts: { event: string; seconds: number }[];
  /** Install --replace-python: the Python cliffhanger's events it removed and plugins it disabled, or null. */
  replacedPython: { events: string[]; plugins: string[] } | null;
  /** Install: what it did to our handlers (edit.ts): events added, handlers updated, timeouts set, copies removed. */
  added: string[];
  updated: HandlerUpdate[];
  timeouts: TimeoutChange[];
  deduplicated: string[];
  /** Install: keys it removed from our handlers and their groups (edit.ts). */
  dropped: DroppedKey[];
  /** The unified diff, on a dry run only ("" for no change). */
  diff: string | null;
}

const BOM = "\uFEFF";

export async function applySettingsEdit(options: ApplyOptions): Promise<ApplyResult> {
  const target = await io(
    `Cannot resolve "${options.settingsPath}"`,
    () => resolveSymlinks(options.settingsPath),
    { settingsFiles: [options.settingsPath], ...claudeDirOf(options) },
  );
  if (options.dryRun) {
    const result = await editOnce(options, target, "diff");
    // a dry run says what the real one would do: a missing folder it may not create stops it the same way
    if (result.changed && !result.existed) await refuseUncreatableFolder(target);
    return result;
  }
  // A file that needs no change is left alone without taking the lock (nothing is written anywhere).
  const unlocked = await editOnce(options, target, "check");
  if (!unlocked.changed) return unlocked;
  const lockPath = settingsLockFile(target);
  const locked = () =>
    withLock(lockPath, () => editOnce(options, target, "write"), { waitMs: options.lockWaitMs ?? 10_000 });
  try {
    try {
      return await locked();
    } catch (e) {
      // the lock sits beside the file: a missing folder is created where the scope allows, else said how
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      await createFolder(target);
      return await locked();
    }
  } catch (e) {
    if (e instanceof LockTimeoutError) {
      throw new CommandError(`Cannot edit "${target}": another install holds ${lockPath}`);
    }
    if (e instanceof CommandError) throw e;
    throw new CommandError(`Cannot lock "${target}": ${firstLine(e)}`);
  }
}

/** "diff": compute the diff; "check": only report; "write": back up and write a change. */
type Mode = "diff" | "check" | "write";

async function editOnce(options: ApplyOptions, target: string, mode: Mode): Promise<ApplyResult> {
  const current = await readSettings(target);
  const hasBom = current?.text.startsWith(BOM) ?? false;
  const before = current === null ? "" : current.text.slice(hasBom ? 1 : 0);
  let result: EditResult;
  try {
    result = options.edit(before);
  } catch (e) {
    if (e instanceof SettingsParseError) {
      throw new CommandError(`Invalid settings file ${target}:${e.line}:${e.column}: ${e.detail}; nothing was written`);
    }
    throw e;
  }
  const base = {
    settings: options.settingsPath,
    target,
    existed: current !== null,
    events: result.events,
    removed: result.removed ?? [],
    keptTimeouts: result.keptTimeouts ?? [],
    replacedPython: result.replacedPython ?? null,
    added: result.added ?? [],
    updated: result.updated ?? [],
    timeouts: result.timeouts ?? [],
    deduplicated: result.deduplicated ?? [],
    dropped: result.dropped ?? [],
  };
  // a file install created, which the edit leaves holding nothing: removed rather than left as `{}`
  const deletes = result.changed && current !== null && isEmptyObjectText(result.newText) &&
    (options.installCreated?.(target) ?? false);
  if (mode === "diff") {
    const diff = result.changed
      ? unifiedDiff(target, current === null ? null : before, deletes ? null : result.newText)
      : "";
    return { ...base, changed: result.changed, backup: null, deleted: deletes, diff };
  }
  if (mode === "check" || !result.changed) {
    return { ...base, changed: result.changed, backup: null, deleted: false, diff: null };
  }

  const now = options.now ?? new Date();
  const written = (hasBom ? BOM : "") + result.newText;
  const backup = current === null ? null : await io(
    "Cannot write a backup",
    () => writeBackup(options.paths.backups, target, current.bytes, now),
    { cliffhangerHome: dirname(options.paths.backups) },
  );
  try {
    await io(
      `Cannot write "${target}"`,
      () => writeSettings(target, written, current?.mode),
      { settingsFiles: [target], ...claudeDirOf(options) },
    );
  } catch (e) {
    // The file is unchanged, so its backup is only clutter.
    if (backup) await Deno.remove(backup).catch(() => {});
    throw e;
  }
  // only with the previous file safe in its backup; a file changed or swapped since the write stays
  const deleted = deletes && backup !== null && await isRegularFile(backup) && await removeIfWritten(target, written);
  // the file's older backups past the newest 20 (none less than a day old) go
  if (backup) await pruneBackups(options.paths.backups, target, now);
  return { ...base, changed: true, backup, deleted, diff: null };
}

/**
 * Remove `target` if it is still a regular file (not a link, not swapped for another kind of file) holding exactly
 * `text`, the content just written; true when it was removed. Any doubt or failure keeps the file (false).
 */
export async function removeIfWritten(target: string, text: string): Promise<boolean> {
  try {
    const info = await lstatOrNull(target);
    if (info === null || !info.isFile) return false;
    const now = await readLookedAtText(target, info, { maxBytes: MAX_SETTINGS_BYTES, label: "settings file" });
    // the reader drops a leading BOM
    if (now !== (text.startsWith(BOM) ? text.slice(BOM.length) : text)) return false;
    await Deno.remove(target);
    return true;
  } catch {
    return false;
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await lstatOrNull(path).catch(() => null))?.isFile ?? false;
}

/**
 * Write through the temp file beside the target. The folder is created only when missing, and only where the
 * permissions allow: the compiled binary's scope grants the settings file and its temp file, not the folder
 * that holds them, so there a missing folder stops the write with a `mkdir -p` for the user to run.
 */
async function writeSettings(target: string, text: string, given?: number): Promise<void> {
  const mode = given ?? 0o600;
  const options = {
    tempPath: settingsTempPath(target),
    mode,
    // an existing file keeps its mode (a 0664 shared file stays 0664 under a 077 umask)
    exactMode: given !== undefined,
    mkdirs: false,
    label: "settings file",
    folderMayBeLink: true,
  };
  try {
    await writeFileAtomic(target, text, options);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    await createFolder(target);
    await writeFileAtomic(target, text, options);
  }
}

/** Create the missing folder of `target`; refused by the permission sandbox (NotCapable) or the OS, say how. */
async function createFolder(target: string): Promise<void> {
  const dir = dirname(target);
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch {
    throw missingFolder(target, dir);
  }
}

/**
 * For a dry run: the folder of `target` is missing and this process may not create it, so the real run would stop.
 * Where the scope hides the folder (it grants only the file, its temp file and its lock), the lock file is created and
 * removed at once to see whether the folder is there, as the real run's lock would be.
 */
async function refuseUncreatableFolder(target: string): Promise<void> {
  const dir = dirname(target);
  if ((await Deno.permissions.query({ name: "write", path: dir })).state === "granted") return;
  try {
    await Deno.stat(dir);
    return;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw missingFolder(target, dir);
  }
  const lockPath = settingsLockFile(target);
  try {
    const file = await Deno.open(lockPath, { write: true, createNew: true, mode: 0o600 });
    file.close();
    await Deno.remove(lockPath).catch(() => {});
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw missingFolder(target, dir);
  }
}

function missingFolder(target: string, dir: string): CommandError {
  return new CommandError(
    `Cannot create "${target}": its folder "${dir}" does not exist and this binary may not create it; ` +
      `run: mkdir -p "${dir}"`,
  );
}

/** Largest settings file read (Claude Code's are a few kilobytes). */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

interface CurrentFile {
  bytes: Uint8Array;
  text: string;
  mode: number;
}

/** The file's bytes and text, or null when it does not exist. */
async function readSettings(target: string): Promise<CurrentFile | null> {
  let bytes: Uint8Array;
  try {
    // a FIFO, a device or a folder is refused before it is opened (an open would hang on a FIFO)
    const read = await readRegularBytes(target, { maxBytes: MAX_SETTINGS_BYTES, label: "settings file" });
    if (read === null) return null;
    bytes = read;
  } catch (e) {
    throw new CommandError(`Cannot read "${target}": ${firstLine(e)}`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new CommandError(`Invalid settings file ${target}: not UTF-8 text; nothing was written`);
  }
  const info = await io(`Cannot read "${target}"`, () => Deno.stat(target), { settingsFiles: [target] });
  const mode = (info.mode ?? 0o600) & 0o777;
  // a settings file made read-only on purpose is not replaced behind the user's back
  if ((mode & 0o200) === 0) {
    throw new CommandError(
      `"${target}" is read-only (mode ${mode.toString(8)}); nothing was written. Make it writable first`,
    );
  }
  return { bytes, text, mode };
}

function claudeDirOf(options: ApplyOptions): ScopeRoots {
  return options.claudeDir === undefined ? {} : { claudeDir: options.claudeDir };
}

/**
 * Run a file operation, turning its failure into a one-line CommandError; a path outside the scope is named with the
 * rebuild flag for what the operation touches (`roots`).
 */
async function io<T>(what: string, body: () => Promise<T>, roots: ScopeRoots): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof CommandError) throw e;
    throw new CommandError(`${what}: ${scopeText(firstLine(e), roots)}`);
  }
}
