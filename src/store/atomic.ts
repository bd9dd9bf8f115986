/** Whole-file writes that never leave a torn file: write a temp file beside the target, then rename over it. */
import { dirname } from "../path.ts";
import { checkWritable } from "./safe_file.ts";
import { randomToken } from "./random_token.ts";
import { writeAll } from "./write_all.ts";

export interface AtomicWriteOptions {
  /** The temp file to write first (default: `<path>.tmp-<pid>-<random>`). Must be in the same directory. */
  tempPath?: string;
  /** File mode for a new file (default 0o600). */
  mode?: number;
  /** Give the file exactly `mode`, whatever the umask takes away (a settings file keeps the mode it had). */
  exactMode?: boolean;
  /** Create the parent directory if missing (default true). */
  mkdirs?: boolean;
  /** Flush the temp file to disk before the rename, so a crash never leaves an empty file (default true). */
  fsync?: boolean;
  /** For messages: what the file is (default "file"). */
  label?: string;
  /** The target's folder may be a link (a folder the user chose, such as a relay folder); default: refused. */
  folderMayBeLink?: boolean;
}

/** The mode of a folder made for a file of `fileMode`: searchable where the file is readable. */
export function folderMode(fileMode = 0o600): number {
  return (fileMode & 0o666) | ((fileMode & 0o444) >> 2);
}

export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  // a folder made for it is as private as the file: 0o700 for a 0o600 file (the umask may only take more away)
  if (options.mkdirs ?? true) await Deno.mkdir(dirname(path), { recursive: true, mode: folderMode(options.mode) });
  // the target must not be a link (the rename would replace the link, but a reader could follow it first) or a
  // FIFO, and its folder must not be a planted link
  await checkWritable(path, { label: options.label ?? "file", folderMayBeLink: options.folderMayBeLink ?? false });
  const temp = options.tempPath ?? tempPathFor(path);
  if (options.tempPath !== undefined) {
    // a fixed temp name (one the permission scope names) may be left over, or planted as a link: remove the entry
    // itself (a link is removed, never followed); the exclusive create below refuses anything put back in between
    await Deno.remove(temp).catch(() => {});
  }
  try {
    // createNew is O_CREAT|O_EXCL: it never follows a link and never reuses a file someone else made
    const file = await Deno.open(temp, { write: true, createNew: true, mode: options.mode ?? 0o600 });
    // the mode the umask took bits from, set while the new file is surely ours and still empty; a file system that
    // refuses it keeps what the umask gave
    if (options.exactMode) await Deno.chmod(temp, options.mode ?? 0o600).catch(() => {});
    try {
      await writeAll(file, new TextEncoder().encode(text));
      if (options.fsync ?? true) await file.syncData();
    } finally {
      file.close();
    }
    await Deno.rename(temp, path);
  } catch (e) {
    // only our own temp file: an AlreadyExists means someone else's entry is at that name
    if (!(e instanceof Deno.errors.AlreadyExists)) await Deno.remove(temp).catch(() => {});
    throw e;
  }
}

export async function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value) + "\n", options);
}

/**
 * A name tempPathFor makes, `<name>.tmp-<pid>-<hex>`: the one recogniser of our temp files (leftover_temps.ts removes
 * them from a folder it writes, prune_plan.ts from `state/`). atomic_test.ts holds every name tempPathFor makes to it.
 */
const TEMP_NAME = /^[^/]+\.tmp-\d+-[0-9a-f]+$/;

/** Whether `name` (a file name, no folder) is one tempPathFor makes. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** A fresh temp name beside `path` for a file that will be renamed over it (`<path>.tmp-<pid>-<random>`). */
export function tempPathFor(path: string): string {
  return `${path}.tmp-${Deno.pid}-${randomToken(4)}`;
}
