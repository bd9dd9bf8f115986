/**
 * Files we read and write, handled so that a planted link or a special file cannot redirect, hang or flood us:
 *
 * - a read looks before it opens: only a regular file (after following links) within a size cap is read, and the
 *   read itself stops at the cap, so a FIFO, a device such as /dev/zero or a folder is refused instead of hanging
 *   or growing memory;
 * - `within`: a file of ours (in the cliffhanger home) must not be a link that leads out of that folder;
 * - a write never goes through a link: `checkWritable` refuses a target that is a link, a FIFO or a folder, or whose
 *   folder is a link, and the temp file of an atomic write is created exclusively (atomic.ts).
 */
import { dirname } from "../path.ts";

/** A file we refuse to read or write, with why. The message names the path, never the contents. */
export class UnsafeFileError extends Error {
  override name = "UnsafeFileError";
}

/** What a path that is not a regular file is, for messages: `a link`, `a FIFO`, `a socket`, `a device`, `a special file`. */
export function specialKind(info: Deno.FileInfo): string {
  if (info.isSymlink) return "a link";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "a special file";
}

/** A file over the read's size cap: `size` is its size at the look, or null when it grew past the cap while read. */
export class TooLargeError extends UnsafeFileError {
  override name = "TooLargeError";
  constructor(message: string, readonly size: number | null) {
    super(message);
  }
}

export interface SafeReadOptions {
  /** Largest file read, in bytes. */
  maxBytes: number;
  /** A folder the file must stay in after following links (our home); absent: links are followed anywhere. */
  within?: string;
  /** What the file is, for messages: "config file". */
  label: string;
}

/** The text of a regular file, or null when nothing is there. Throws UnsafeFileError for anything else. */
export async function readRegularText(path: string, options: SafeReadOptions): Promise<string | null> {
  const bytes = await readRegularBytes(path, options);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/**
 * The look before a read: the file's info when it is a regular file (after following links, which must stay
 * `within` when that is given), null when nothing is there. Throws UnsafeFileError for a FIFO, a device, a folder or
 * a link out. Nothing is opened.
 */
export async function lookRegular(
  path: string,
  options: Pick<SafeReadOptions, "within" | "label">,
): Promise<Deno.FileInfo | null> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  if (info.isSymlink) {
    if (options.within !== undefined) await assertInside(path, options.within, options.label);
    try {
      info = await Deno.stat(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null; // a dangling link: nothing there
      throw e;
    }
  }
  if (!info.isFile) throw new UnsafeFileError(`${options.label} "${path}" is not a regular file; not read`);
  return info;
}

export async function readRegularBytes(path: string, options: SafeReadOptions): Promise<Uint8Array | null> {
  const info = await lookRegular(path, options);
  return info === null ? null : await readLookedAt(path, info, options);
}

/**
 * The text of a file the caller has just looked at itself (its lstat says a regular file): readRegularText without a
 * second look. The size cap still holds, and the read stops one chunk past it if the file grew or was swapped.
 */
export async function readLookedAtText(
  path: string,
  info: Deno.FileInfo,
  options: Pick<SafeReadOptions, "maxBytes" | "label">,
): Promise<string | null> {
  if (!info.isFile) throw new UnsafeFileError(`${options.label} "${path}" is not a regular file; not read`);
  const bytes = await readLookedAt(path, info, options);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

async function readLookedAt(
  path: string,
  info: Deno.FileInfo,
  options: Pick<SafeReadOptions, "maxBytes" | "label">,
): Promise<Uint8Array | null> {
  if (info.size > options.maxBytes) {
    throw new TooLargeError(
      `${options.label} "${path}" is ${info.size} bytes, over the ${options.maxBytes}-byte limit; not read`,
      info.size,
    );
  }
  const opened = await openIfPresent(path);
  if (opened === null) return null; // removed since the look
  using file = opened;
  // the file may have grown or been swapped since the look: the read stops one chunk past the cap
  const chunk = new Uint8Array(Math.min(Math.max(info.size + 1, 4096), 1 << 20));
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const n = await file.read(chunk);
    if (n === null) break;
    total += n;
    if (total > options.maxBytes) {
      throw new TooLargeError(
        `${options.label} "${path}" grew over the ${options.maxBytes}-byte limit; not read`,
        null,
      );
    }
    parts.push(chunk.slice(0, n));
  }
  return concatParts(parts, total);
}

/** `parts` as one array of `total` bytes (the parts themselves when there is one). */
export function concatParts(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const all = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** Throws unless `path`, links followed, is inside `root` (links followed too). */
export async function assertInside(path: string, root: string, label: string): Promise<void> {
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([Deno.realPath(path), Deno.realPath(root)]);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return; // nothing there yet, or a dangling link: nothing to follow
    throw e;
  }
  if (real !== realRoot && !real.startsWith(realRoot.endsWith("/") ? realRoot : `${realRoot}/`)) {
    throw new UnsafeFileError(`${label} "${path}" leads out of "${root}"; refused`);
  }
}

export interface WritableOptions {
  /** What the file is, for messages: "state file". Absent: the path alone. */
  label?: string;
  /** The folder may be a link (the home itself, which the user may point anywhere); default: refused. */
  folderMayBeLink?: boolean;
  /** How the message ends (default "not written"). */
  refused?: string;
}

/**
 * Before writing or appending to `path`: it must be missing or a regular file (not a link, a FIFO or a folder), and
 * its folder must not be a link (a planted `state/` pointing elsewhere), unless the caller says it may be. Returns
 * what is there (null: nothing yet).
 */
export async function checkWritable(path: string, options: WritableOptions = {}): Promise<Deno.FileInfo | null> {
  const refused = options.refused ?? "not written";
  const named = `${options.label ? `${options.label} ` : ""}"${path}"`;
  const info = await lstatOrNull(path);
  if (info !== null && !info.isFile) {
    const what = info.isSymlink ? "a link" : info.isDirectory ? "a folder" : "not a regular file";
    throw new UnsafeFileError(`${named} is ${what}; ${refused}`);
  }
  if (!options.folderMayBeLink) await refuseLinkedFolder(dirname(path), `the folder of ${named}`, refused);
  return info;
}

/**
 * Throws when `dir` is a link (a planted folder would put our files where it points). A folder that is not there
 * yet, or that a scope granting only the files in it cannot look at, passes: there the scope itself keeps the write
 * to its paths.
 */
export async function refuseLinkedFolder(dir: string, named: string, refused: string): Promise<void> {
  let info: Deno.FileInfo | null;
  try {
    info = await lstatOrNull(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) return;
    throw e;
  }
  if (info?.isSymlink) throw new UnsafeFileError(`${named} is a link; ${refused}`);
}

/** The entry at `path` itself (a link is not followed), or null when nothing is there. */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * Opens a regular file for reading (a transcript: large, read in parts), or returns null when nothing is there. A
 * FIFO, a device or a folder is refused before the open, which would block on a FIFO.
 */
export async function openRegular(path: string, label: string): Promise<Deno.FsFile | null> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  if (!info.isFile) throw new UnsafeFileError(`${label} "${path}" is not a regular file; not read`);
  return await openIfPresent(path);
}

/** `path` opened for reading, or null when it is gone (removed after the caller looked at it). */
export async function openIfPresent(path: string): Promise<Deno.FsFile | null> {
  try {
    return await Deno.open(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}
