/**
 * Cross-process locks as exclusively created files. A lock older than `staleMs` was left by a killed process
 * and is taken over, and so is one whose time is ahead of the clock by more than `staleMs` (the wall clock stepped
 * back after it was made). Waiting is bounded: past `waitMs` the caller gets an error and fails open.
 */
import { lstatOrNull, refuseLinkedFolder, specialKind, UnsafeFileError } from "./safe_file.ts";
import { dirname, join, resolve } from "../path.ts";
import { sleep } from "../sleep.ts";
import { randomToken } from "./random_token.ts";
import { writeAll } from "./write_all.ts";
import { CommandError } from "../errors.ts";

export interface LockOptions {
  /** Longest wait for the lock (default 3000 ms). */
  waitMs?: number;
  /** A lock file older than this is stale and removed (default 10000 ms). */
  staleMs?: number;
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
  /** Writes the token into the lock file just created (tests inject a failure, such as a full disk). */
  writeToken?: (file: Deno.FsFile, bytes: Uint8Array) => Promise<void>;
}

/** A lock file older than this (ms) was left by a killed process; every taker treats it as free. */
export const DEFAULT_STALE_MS = 10000;

/**
 * The least a lock file's mtime must be ahead of the clock (ms) to be stale; the bound used is the larger of this and
 * `staleMs`. One from the future was made before the wall clock stepped back, so its age says nothing, and waiting
 * for the clock to pass it could hold every call of its session off for as long as the step (an hour, after a step
 * back of an hour). The bound is as wide as `staleMs` because a file server (NFS, SMB) stamps the mtime with its own
 * clock, which may run seconds ahead of ours: a lock just made there is not taken over.
 */
export const FUTURE_SLACK_MS = 1000;

/** Locks this process holds, so a hook that gives up on its budget can release them before it exits. */
const HELD = new Map<string, string>();

/**
 * How many times releaseHeldLocks has run. An acquisition that was under way when it ran (its file created, its token
 * not yet written, so not in HELD) gives the lock up as soon as it has it: else the lock would outlive the process
 * and the session's next call would wait for it and fail open.
 */
let releases = 0;

/** A lock taken while releaseHeldLocks ran: given up at once, since its process is giving up too. */
export class LockReleasedError extends Error {
  override name = "LockReleasedError";
}

/**
 * Removes every lock this process still holds (the file is removed only if it still carries our token), and makes an
 * acquisition under way give its lock up. Called when a hook gives up on its time budget while its body may still
 * hold a lock, and before the process exits.
 */
export function releaseHeldLocks(): void {
  releases++;
  for (const [path, token] of HELD) {
    try {
      if (readLockTextSync(path) === token) Deno.removeSync(path);
    } catch {
      // gone already
    }
  }
  HELD.clear();
}

export class LockTimeoutError extends Error {
  override name = "LockTimeoutError";
}

/**
 * Something at a lock's name that is not a lock file of ours and is not ours to remove (a folder with files in it, a
 * file longer than any token, or anything whose removal failed): left as it is, and the command fails naming it (a hook
 * fails open).
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
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const pollMs = options.pollMs ?? 15;
  const token = `${Deno.pid}-${randomToken(16)}`;
  const deadline = Date.now() + waitMs;
  const startedAt = releases;
  // a lock folder, or a folder above it, planted as a link would put our lock files (and the folders made for them)
  // where it points
  if (options.under !== undefined) await refuseLinksBetween(options.under, dirname(lockPath));
  try {
    await Deno.mkdir(dirname(lockPath), {
      recursive: true,
      ...(options.folderMode === undefined ? {} : { mode: options.folderMode }),
    });
  } catch (e) {
    // a scope that grants the lock file but not its folder (the lock beside a settings file): the folder exists
    if (!(e instanceof Deno.errors.NotCapable)) throw e;
  }
  if (!options.folderMayBeLink) {
    await refuseLinkedFolder(dirname(lockPath), `the lock folder "${dirname(lockPath)}"`, "not used");
  }
  for (;;) {
    if (releases !== startedAt) throw new LockReleasedError(`Not taking lock "${lockPath}": the process is giving up`);
    try {
      const file = await Deno.open(lockPath, { write: true, createNew: true, mode: 0o600 });
      try {
        await (options.writeToken ?? writeAll)(file, new TextEncoder().encode(token));
      } catch (e) {
        // made just now, exclusively, so ours: an empty lock left behind (a full disk) would hold every later
        // taker off until it went stale
        file.close();
        await Deno.remove(lockPath).catch(() => {});
        throw e;
      }
      file.close();
      if (releases !== startedAt) {
        await Deno.remove(lockPath).catch(() => {});
        throw new LockReleasedError(`Gave up lock "${lockPath}": the process is giving up`);
      }
      HELD.set(lockPath, token);
      return async () => {
        try {
          if ((await readLockText(lockPath)) === token) await Deno.remove(lockPath);
        } catch {
          // already gone (taken over as stale): nothing to release
        } finally {
          // held until it is gone: a process that exits while this release is under way (a hook whose body ran on
          // after it failed open) still removes the lock on its way out (releaseHeldLocks)
          if (HELD.get(lockPath) === token) HELD.delete(lockPath);
        }
      };
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
    // a stale lock, or an empty folder, is removed: try again at once; anything else that is no lock file of ours
    // is refused (LockBlockedError)
    if (await removeIfStale(lockPath, staleMs)) continue;
    if (Date.now() >= deadline) throw new LockTimeoutError(`Cannot take lock "${lockPath}": held by another process`);
    await sleep(pollMs);
  }
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

/** The most a lock file of ours holds (a pid, a dash and a 16-character token); a longer file is no lock of ours. */
const MAX_LOCK_BYTES = 256;

/** Whether what a look found at a lock's name can be a lock file of ours: a regular file no longer than a token. */
function isLockFile(entry: Deno.FileInfo): boolean {
  return entry.isFile && entry.size <= MAX_LOCK_BYTES;
}

/**
 * Removes a lock older than `staleMs` (or ahead of the clock by more than that), but only if it still holds the token read before the age check: a waiter
 * that lost the race must not delete the lock another waiter just took over. An empty folder at the lock's name is
 * removed too, and so are a link, a FIFO, a socket and a device node (removing them loses nothing); anything else that cannot be a lock file of
 * ours (a folder with files in it, a file longer than any token) is never removed: LockBlockedError names it.
 */
async function removeIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  let entry: Deno.FileInfo;
  try {
    entry = await Deno.lstat(lockPath);
  } catch {
    return false; // vanished: the next attempt decides
  }
  if (!isLockFile(entry)) {
    // not a lock file at all: no process holds it, and waiting would cost every call the whole wait, forever. It is
    // not ours either, so only what removing loses nothing of is removed: a link (never followed), a FIFO, a socket,
    // a device node, an empty folder (a plain remove, which fails on a folder with files in it)
    if (!entry.isFile) {
      try {
        await Deno.remove(lockPath);
        return true;
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return true;
      }
    }
    throw new LockBlockedError(
      `cannot take the lock "${lockPath}": ${blockerKind(entry)} is at its name, not a lock file; it was left as ` +
        "it is: move it away or remove it",
    );
  }
  try {
    const token = await Deno.readTextFile(lockPath); // looked at just above: a regular file no longer than a token
    const info = await Deno.stat(lockPath);
    const age = Date.now() - (info.mtime?.getTime() ?? Date.now());
    // ahead of the clock by more than the slack: made before the clock stepped back, as stale as an old one
    if (age <= staleMs && age >= -Math.max(FUTURE_SLACK_MS, staleMs)) return false;
    if ((await readLockText(lockPath)) !== token) return false;
    await Deno.remove(lockPath);
    return true;
  } catch {
    // vanished between checks, or unreadable: the next attempt decides
    return false;
  }
}

function blockerKind(entry: Deno.FileInfo): string {
  if (entry.isDirectory) return "a folder with files in it";
  if (entry.isFile) return `a file of ${entry.size} bytes`;
  return specialKind(entry);
}

/**
 * A lock file's text: read only when it is a regular file of at most MAX_LOCK_BYTES (null otherwise, or when it is
 * gone), so that a FIFO or a file of gigabytes swapped in at a lock's name is never opened or read whole. One look,
 * then one read.
 */
async function readLockText(path: string): Promise<string | null> {
  try {
    return isLockFile(await Deno.lstat(path)) ? await Deno.readTextFile(path) : null;
  } catch {
    return null;
  }
}

/** readLockText for the exit path, which cannot wait on promises. */
function readLockTextSync(path: string): string | null {
  try {
    return isLockFile(Deno.lstatSync(path)) ? Deno.readTextFileSync(path) : null;
  } catch {
    return null;
  }
}
