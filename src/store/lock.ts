/**
 * Cross-process locks: a lock file held with the kernel's lock (flock, `Deno.FsFile.tryLock`). The kernel lets go
 * of a lock when the file that holds it is closed, so the lock of a process killed while it held one is free at once:
 * a lock file left behind is no more than a name, and no age, clock or token says whether it is held.
 *
 * The protocol keeps removal safe (a holder removes the file when it lets go, so no lock file outlives its use):
 * - take: open the file at the name (made exclusively when nothing is there), lock it, then check that the name still
 *   leads to that very file (inode and device). A holder removes the file as it lets go, so a waiter that locked the
 *   removed file, or one that a new file replaced, closes it and starts again with what is there now;
 * - release: while still holding the lock, remove the name if it still leads to our file, then close (which unlocks).
 *
 * Only the holder of the file at the name ever removes it, and only what can be no lock file of ours (a link, a FIFO,
 * an empty folder) is removed by a taker. Waiting is bounded: past `waitMs` the caller gets an error and fails open.
 */
import { lstatOrNull, refuseLinkedFolder, specialKind, UnsafeFileError } from "./safe_file.ts";
import { dirname, join, resolve } from "../path.ts";
import { sleep } from "../sleep.ts";
import { CommandError } from "../errors.ts";

export interface LockOptions {
  /** Longest wait for the lock (default 3000 ms), on the monotonic clock. */
  waitMs?: number;
  /** Poll interval while waiting (default 15 ms). */
  pollMs?: number;
  /**
   * A folder above the lock's folder (the home): no folder between it and the lock, the lock's folder included, may
   * be a link, and that is checked before any of them is created. Absent: only the lock's own folder is checked.
   */
  under?: string;
  /** The lock's folder may be a link (the home, which the user may point anywhere: a log's rotation lock). */
  folderMayBeLink?: boolean;
  /**
   * The mode of folders made for the lock: 0o700 for the home's `locks/`; absent, the umask's (a lock beside a
   * settings file or in a relay folder, which are the user's or the project's folders, not ours).
   */
  folderMode?: number;
}

/** A lock this process holds: its file (open and locked) and which file that is. */
interface Held {
  path: string;
  file: Deno.FsFile;
  dev: number;
  ino: number;
  /** Released (its file closed), by its own release or by releaseHeldLocks. */
  done: boolean;
  /** Its release is removing the file: the file stays open (locked) until that removal has ended. */
  removing: boolean;
}

/** Locks this process holds, so a hook that gives up on its budget can release them before it exits. */
const HELD = new Set<Held>();

/**
 * How many times releaseHeldLocks has run. An acquisition that was under way when it ran (not yet in HELD) gives the
 * lock up as soon as it has it: its process is giving up, and the body it was taken for must not start.
 */
let releases = 0;

/** A lock taken while releaseHeldLocks ran: given up at once, since its process is giving up too. */
export class LockReleasedError extends Error {
  override name = "LockReleasedError";
}

/**
 * Releases every lock this process still holds (the file is removed only if its name still leads to it), and makes
 * an acquisition under way give its lock up. Called when a hook gives up on its time budget while its body may still
 * hold a lock, and before the process exits. Synchronous: the exit path cannot wait on promises.
 */
export function releaseHeldLocks(): void {
  releases++;
  for (const held of HELD) {
    // a release already removing its file closes it when the removal ends (or the process exits): closing it now
    // would let another process make a new lock at the name before that removal, which would then remove it
    if (held.removing) continue;
    held.done = true;
    HELD.delete(held);
    try {
      if (sameFile(Deno.lstatSync(held.path), held)) Deno.removeSync(held.path);
    } catch {
      // gone already
    }
    closeQuietly(held.file);
  }
}

export class LockTimeoutError extends Error {
  override name = "LockTimeoutError";
}

/**
 * Something at a lock's name that is not a lock file of ours and is not ours to remove (a folder with files in it, a
 * file longer than any lock file, or anything whose removal failed): left as it is, and the command fails naming it
 * (a hook fails open).
 */
export class LockBlockedError extends CommandError {
  override name = "LockBlockedError";
}

export async function withLock<T>(lockPath: string, body: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquireLock(lockPath, options);
  try {
    return await body();
  } finally {
    await release();
  }
}

export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const waitMs = options.waitMs ?? 3000;
  const pollMs = options.pollMs ?? 15;
  // the monotonic clock: a step of the wall clock neither ends a wait early nor stretches it
  const deadline = performance.now() + waitMs;
  const startedAt = releases;
  // a lock folder, or a folder above it, planted as a link would put our lock files (and the folders made for them)
  // where it points
  if (options.under !== undefined) await refuseLinksBetween(options.under, dirname(lockPath));
  await prepareFolder(dirname(lockPath), options);
  // the file at the name, open: kept while waiting, so each poll is one try of its lock
  let file: Deno.FsFile | null = null;
  // tries started again at once, with no wait (the name was emptied or its file replaced)
  let again = 0;
  try {
    for (;;) {
      if (releases !== startedAt) {
        throw new LockReleasedError(`Not taking lock "${lockPath}": the process is giving up`);
      }
      // nothing usable at the name (gone meanwhile, or something that is no lock file was removed): try again at once
      file ??= await openLockFile(lockPath);
      if (file === null) {
        // a name re-planted again and again (a link, a FIFO) must not spin past the wait (one retry always: what was
        // there was just removed)
        if (++again > 1 && performance.now() >= deadline) {
          throw new LockTimeoutError(`Cannot take lock "${lockPath}": its name keeps changing`);
        }
        continue;
      }
      if (await file.tryLock(true)) {
        // the handle's own stat, sync: it looks up no path, and an async op here cost a sixth more instructions per
        // take and release (docs/performance.md, "File work per call")
        const mine = file.statSync();
        const there = await lstatOrNull(lockPath);
        if (mine.ino !== null && there !== null && sameFile(there, { dev: mine.dev, ino: mine.ino })) {
          const held: Held = { path: lockPath, file, dev: mine.dev, ino: mine.ino, done: false, removing: false };
          file = null;
          if (releases !== startedAt) {
            await releaseHeld(held);
            throw new LockReleasedError(`Gave up lock "${lockPath}": the process is giving up`);
          }
          HELD.add(held);
          return () => releaseHeld(held);
        }
        // the file we locked was removed by the holder before us, or replaced: start again with the one there now
        closeQuietly(file);
        file = null;
        if (++again > 1 && performance.now() >= deadline) {
          throw new LockTimeoutError(`Cannot take lock "${lockPath}": its file keeps being replaced`);
        }
        continue;
      }
      if (performance.now() >= deadline) {
        throw new LockTimeoutError(`Cannot take lock "${lockPath}": held by another process`);
      }
      await sleep(pollMs);
    }
  } finally {
    if (file !== null) closeQuietly(file);
  }
}

/**
 * While the lock is still held, removes the name if it still leads to our file (only its holder removes a lock
 * file, so nothing can put another there in between), then closes the file, which lets the lock go. Never throws.
 */
async function releaseHeld(held: Held): Promise<void> {
  if (held.done) return;
  try {
    const there = await lstatOrNull(held.path);
    // released meanwhile by releaseHeldLocks (the process gives up), which removed the file itself
    if (held.done) return;
    if (there !== null && sameFile(there, held)) {
      held.removing = true;
      await Deno.remove(held.path);
    }
  } catch {
    // gone already, or not ours to remove: the lock still goes with the close
  } finally {
    if (!held.done) {
      held.done = true;
      HELD.delete(held);
      closeQuietly(held.file);
    }
  }
}

/**
 * The lock file at `lockPath`, open (not yet locked): made exclusively when nothing is at the name; else looked at
 * first (lstat) and opened only when it can be a lock file of ours, a regular file, which the open handle's own
 * stat confirms. A link, a FIFO, a socket, a device node or an empty folder at the name is removed (removing them
 * loses nothing) and null returned, as when the file vanished between the looks: the caller tries again at once.
 * Anything else that can be no lock file of ours (a folder with files in it, a file longer than any lock file) is
 * never opened or removed: LockBlockedError names it.
 */
async function openLockFile(lockPath: string): Promise<Deno.FsFile | null> {
  try {
    // O_CREAT|O_EXCL: never follows a link, never reuses a file someone else made
    return await Deno.open(lockPath, { write: true, createNew: true, mode: 0o600 });
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
  const entry = await lstatOrNull(lockPath);
  if (entry === null) return null; // vanished: the next attempt decides
  if (!isLockFile(entry)) {
    // not a lock file at all: no process holds it, and waiting would cost every call the whole wait, forever. It is
    // not ours either, so only what removing loses nothing of is removed: a link (never followed), a FIFO, a socket,
    // a device node, an empty folder (a plain remove, which fails on a folder with files in it)
    if (!entry.isFile) {
      try {
        await Deno.remove(lockPath);
        return null;
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return null;
      }
    }
    throw new LockBlockedError(
      `cannot take the lock "${lockPath}": ${blockerKind(entry)} is at its name, not a lock file; it was left as ` +
        "it is: move it away or remove it",
    );
  }
  let file: Deno.FsFile;
  try {
    // open for writing (never created or truncated here): on NFS, and SMB since Linux 5.5, flock is a byte-range
    // lock, and an exclusive one needs a file open for writing (a read-only one fails with EBADF)
    file = await Deno.open(lockPath, { read: true, write: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null; // removed by its holder between the look and the open
    throw e;
  }
  // something else swapped in between the look and the open (the open followed a link to a device): not locked; the
  // next look sees what is at the name now
  let info: Deno.FileInfo;
  try {
    info = await file.stat();
  } catch (e) {
    closeQuietly(file);
    throw e;
  }
  if (!info.isFile) {
    closeQuietly(file);
    return null;
  }
  return file;
}

/** Whether `entry` (an lstat of the lock's name) is the file `held` (the same inode on the same device). */
function sameFile(entry: Deno.FileInfo, held: { dev: number; ino: number }): boolean {
  return entry.isFile && entry.ino === held.ino && entry.dev === held.dev;
}

function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch {
    // closed already
  }
}

/**
 * Makes the lock's folder when it is missing, and refuses it when it is a link (unless `folderMayBeLink`). One look
 * when the folder is there, as it is on every call but a home's first.
 */
async function prepareFolder(dir: string, options: LockOptions): Promise<void> {
  const named = `the lock folder "${dir}"`;
  let info: Deno.FileInfo | null;
  try {
    info = await lstatOrNull(dir);
  } catch (e) {
    // a scope that grants the lock file but not its folder (the lock beside a settings file): the folder exists, and
    // the scope itself keeps the lock to its path
    if (e instanceof Deno.errors.NotCapable) return;
    throw e;
  }
  if (info === null || !(info.isDirectory || info.isSymlink)) {
    // missing, or something else at its name, which the mkdir reports
    await Deno.mkdir(dir, {
      recursive: true,
      ...(options.folderMode === undefined ? {} : { mode: options.folderMode }),
    });
    if (!options.folderMayBeLink) await refuseLinkedFolder(dir, named, "not used");
    return;
  }
  if (info.isSymlink && !options.folderMayBeLink) throw new UnsafeFileError(`${named} is a link; not used`);
}

/** Throws UnsafeFileError when a folder below `root` on the way to `dir` (`dir` included) is a link. */
async function refuseLinksBetween(root: string, dir: string): Promise<void> {
  const top = resolve(root);
  const below = resolve(dir);
  if (!below.startsWith(top.endsWith("/") ? top : `${top}/`)) return;
  let at = top;
  for (const part of below.slice(top.length).split("/").filter((p) => p !== "")) {
    at = join(at, part);
    const info = await lstatOrNull(at);
    if (info === null) return; // made below, as real folders
    if (info.isSymlink) throw new UnsafeFileError(`the lock folder "${at}" is a link; not used`);
  }
}

/**
 * The most a lock file holds: ours are empty, and an earlier version's held a short token (a pid and 16 characters).
 * A longer file is no lock file, and is never opened.
 */
const MAX_LOCK_BYTES = 256;

/** Whether what a look found at a lock's name can be a lock file: a regular file no longer than MAX_LOCK_BYTES. */
function isLockFile(entry: Deno.FileInfo): boolean {
  return entry.isFile && entry.size <= MAX_LOCK_BYTES;
}

function blockerKind(entry: Deno.FileInfo): string {
  if (entry.isDirectory) return "a folder with files in it";
  if (entry.isFile) return `a file of ${entry.size} bytes`;
  return specialKind(entry);
}
