/** Where an edit of a settings file really lands: its symlink target, its lock file and its backup name. */
import { tempPathFor } from "../store/atomic.ts";
import { refuseLinkedFolder } from "../store/safe_file.ts";
import { textHash64 } from "../store/text_hash.ts";
import { writeAll } from "../store/write_all.ts";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

const MAX_LINKS = 40;

/**
 * The file behind `path` after following symlinks to the final one (which may not exist yet). The link itself
 * is left in place, so editing the target keeps the link a link.
 */
export async function resolveSymlinks(path: string): Promise<string> {
  // an existing file: the kernel follows the whole chain at once, so the links between (a linked dotfiles folder, a
  // link to a link) need no scope of their own; the scope holds the link and the file it leads to
  try {
    const real = await Deno.realPath(path);
    if ((await Deno.lstat(real)).isFile) return real;
  } catch {
    // a dangling link (its file not made yet), a folder or no scope for the end: followed a link at a time below
  }
  let current = resolve(path);
  for (let i = 0; i < MAX_LINKS; i++) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(current);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return current;
      throw e;
    }
    if (!info.isSymlink) return current;
    const link = await Deno.readLink(current);
    current = isAbsolute(link) ? link : resolve(dirname(current), link);
  }
  throw new Error(`Cannot resolve "${path}": more than ${MAX_LINKS} symlinks`);
}

/**
 * `<backups>/<basename>.<tag>.<timestamp>.bak`, with `-2`, `-3`… appended when taken (see writeBackup). The tag, 8
 * hex digits of the file's absolute path, tells apart two files of one name (the user's settings.json and a
 * project's), whose backups are kept and pruned each on their own (backup_prune.ts).
 */
export function backupPath(backupsDir: string, target: string, now: Date, attempt = 1): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(".", "");
  return join(backupsDir, `${backupPrefix(target)}.${stamp}${attempt > 1 ? `-${attempt}` : ""}.bak`);
}

/** The part of a backup's name before its timestamp: the file's name and its path's tag. */
export function backupPrefix(target: string): string {
  return `${basename(target)}.${textHash64(resolve(target)).slice(0, 8)}`;
}

/** The file calls writeBackup makes, injected by tests (a write that fails part way, a file system without links). */
export interface BackupIo {
  write(file: Deno.FsFile, bytes: Uint8Array): Promise<void>;
  link(from: string, to: string): Promise<void>;
}

const BACKUP_IO: BackupIo = { write: writeAll, link: Deno.link };

/**
 * Copy the bytes of a settings file into the backups folder without overwriting an older backup. The copy is written
 * whole to a temp file first (created exclusively, flushed), then given its backup name: a full disk or a killed
 * process never leaves a truncated file under a backup's name, and the temp file is removed on any failure.
 */
export async function writeBackup(
  backupsDir: string,
  target: string,
  bytes: Uint8Array,
  now: Date,
  io: BackupIo = BACKUP_IO,
): Promise<string> {
  await Deno.mkdir(backupsDir, { recursive: true, mode: 0o700 });
  // a backups folder planted as a link would put a copy of the settings where it points
  await refuseLinkedFolder(backupsDir, `the backups folder "${backupsDir}"`, "nothing was written");
  const temp = tempPathFor(join(backupsDir, basename(target)));
  try {
    // createNew (O_EXCL) never follows a link at the temp name, nor reuses a file someone else made
    const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
    try {
      await io.write(file, bytes);
      await file.syncData();
    } finally {
      file.close();
    }
    for (let attempt = 1;; attempt++) {
      const path = backupPath(backupsDir, target, now, attempt);
      if (await claimName(temp, path, io)) return path;
      if (attempt >= 100) {
        throw new Deno.errors.AlreadyExists(`"${path}" and 99 backups before it of this instant exist`);
      }
    }
  } finally {
    // after a link the backup has its own name; after a rename the temp name is gone already
    await Deno.remove(temp).catch(() => {});
  }
}

/**
 * Gives the written temp file the name `path` unless something is there already (false). A hard link takes a name
 * only when it is free, in one call; a file system without hard links gets a look that the name is free, then a
 * rename.
 */
async function claimName(temp: string, path: string, io: BackupIo): Promise<boolean> {
  try {
    await io.link(temp, path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    if (e instanceof Deno.errors.NotCapable) throw e;
  }
  try {
    await Deno.lstat(path);
    return false;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  await Deno.rename(temp, path);
  return true;
}
