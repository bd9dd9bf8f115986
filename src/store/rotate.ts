/**
 * Append-only files with a size cap (log.jsonl, errors.log). An append that would take the file past `maxBytes`
 * first moves it to `<path>.1` (one old generation is kept, the one before is dropped) and starts a new file.
 *
 * Safe with many hook processes appending at once:
 * - every append is one write with O_APPEND, so lines never interleave or tear;
 * - only the process holding `<path>.rotate.lock` renames, and it checks the size again under the lock, so a file
 *   just rotated by another process is never rotated a second time (which would drop a whole generation);
 * - a writer that opened the file just before the rename writes into `<path>.1`: its line lands in either file,
 *   never nowhere. A writer that cannot take the lock at once skips rotating and appends: the other process is
 *   rotating.
 */
import { dirname } from "../path.ts";
import { acquireLock, LockReleasedError, LockTimeoutError } from "./lock.ts";
import { appendToFile } from "./append.ts";

export interface AppendRotatingOptions {
  /** Rotate when the file would grow past this many bytes; 0 (or less) never rotates. */
  maxBytes: number;
  /** File mode of a new file (default 0o600). */
  mode?: number;
  /** For messages: "log file". */
  label?: string;
  /**
   * Told when a rotation fails (a folder at `<path>.1`, a file we may not rename, something at `<path>.rotate.lock`
   * that is no lock file): the line is still appended, but
   * the file grows past its cap until someone looks. Called when an append takes the file past another whole cap (so
   * once for the first failure, then once per cap of growth, across processes), and at most once per path per process.
   */
  onRotateError?: (error: Error) => Promise<void>;
}

/** The paths whose failed rotation was already told this process (one errors.log line each, not one per append). */
const toldRotateError = new Set<string>();

/** The rotated generation of `path`. */
export function rotatedPath(path: string): string {
  return `${path}.1`;
}

/** Both generations, oldest first: what a reader goes through to see everything kept. */
export function generations(path: string): [string, string] {
  return [rotatedPath(path), path];
}

/** Pure: whether appending `incoming` bytes to a file of `size` bytes must rotate it first. */
export function shouldRotate(size: number, incoming: number, maxBytes: number): boolean {
  return maxBytes > 0 && size > 0 && size + incoming > maxBytes;
}

/** Appends `text` in one O_APPEND write, rotating the file first when the write would pass `maxBytes`. */
export async function appendRotating(path: string, text: string, options: AppendRotatingOptions): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length === 0) return;
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  if (options.maxBytes > 0) {
    // a rotation that fails (a file we may not rename) must not cost the line: append anyway, and say so once
    await rotateIfOver(path, bytes.length, options.maxBytes).catch(async (e) => {
      if (options.onRotateError === undefined || toldRotateError.has(path)) return;
      // every hook is a process of its own: said when this append takes the file past another whole cap (the first
      // failure, then once per cap of growth), not on every call
      const size = await sizeOf(path).catch(() => 0);
      const caps = (n: number) => Math.floor(Math.max(n - 1, 0) / options.maxBytes);
      if (caps(size) === caps(size + bytes.length)) return;
      toldRotateError.add(path);
      const why = e instanceof Error ? e.message : String(e);
      await options.onRotateError(
        new Error(`${path} could not be rotated to ${rotatedPath(path)} (${why}); it grows past its cap`),
      ).catch(() => {});
    });
  }
  // appendToFile never appends through a planted link, into a FIFO or a folder
  // whole lines: a line torn by a full disk before them does not swallow the first
  await appendToFile(path, bytes, options.mode ?? 0o600, { lines: true });
}

/**
 * Moves `path` to `<path>.1` when `incoming` more bytes would take it past `maxBytes`. Returns whether this call
 * rotated. Never waits for another process: if the rotation lock is taken, someone else is rotating. Throws when the
 * rotation fails, its lock included: something at `<path>.rotate.lock` that is no lock file (LockBlockedError).
 */
export async function rotateIfOver(path: string, incoming: number, maxBytes: number): Promise<boolean> {
  if (!shouldRotate(await sizeOf(path), incoming, maxBytes)) return false;
  let release: () => Promise<void>;
  try {
    // beside the file, in the home, which may be a link the user made (the append allows it too)
    release = await acquireLock(`${path}.rotate.lock`, { waitMs: 0, folderMayBeLink: true, folderMode: 0o700 });
  } catch (e) {
    // held: another process is rotating (or this one is giving up). Anything else at the lock's name (a folder with
    // files in it, a file no lock is that long: LockBlockedError) stops every rotation: the caller says so
    if (e instanceof LockTimeoutError || e instanceof LockReleasedError) return false;
    throw e;
  }
  try {
    // again under the lock: another process may have rotated between our look and the lock
    if (!shouldRotate(await sizeOf(path), incoming, maxBytes)) return false;
    await Deno.rename(path, rotatedPath(path));
    return true;
  } finally {
    await release();
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return 0;
    throw e;
  }
}
