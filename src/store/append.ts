/**
 * Appending to a file in one O_APPEND write (a regular file takes the whole buffer at once, so lines from
 * processes appending at the same time never interleave). Deno.open and write rather than Deno.writeFile, which
 * loads Deno's web streams on first use: several milliseconds of start-up in every hook process
 * (docs/performance.md).
 */
import { checkWritable, UnsafeFileError } from "./safe_file.ts";
import { tempPathFor } from "./atomic.ts";
import { writeAll } from "./write_all.ts";
import { readAt } from "./read_at.ts";

const encoder = new TextEncoder();

/** How many times an open that found another file at the path (a rotation renamed it meanwhile) starts again. */
const MAX_TRIES = 5;

export interface AppendHooks {
  /** Called after the check, before each open (tests: a link swapped in between the two). */
  beforeOpen?: () => Promise<void>;
  /** Copies a file for the detach (default Deno.copyFile; tests: a copy that fails part way, as on a full disk). */
  copyFile?: (from: string, to: string) => Promise<void>;
  /** Writes the bytes to the opened file (default writeAll; tests: a write cut short by a full disk). */
  write?: (file: Deno.FsFile, bytes: Uint8Array) => Promise<void>;
}

export interface AppendOptions extends AppendHooks {
  /**
   * The data is whole lines: a file that does not end in a line break (a line a full disk cut short, whose process
   * could write no more) gets one before them, so the torn line does not swallow the first of ours. Costs one fstat
   * and a one-byte read. A writer tearing its line in the instant between our look and our write can still glue ours
   * to it: the look and the write are two calls, and undoing a short write is no safer, since another process may
   * have appended after it.
   */
  lines?: boolean;
}

export async function appendToFile(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
  options: AppendOptions = {},
): Promise<void> {
  const hooks = options;
  let bytes = typeof data === "string" ? encoder.encode(data) : data;
  if (bytes.length === 0) return;
  for (let tries = 1;; tries++) {
    // an append opens with O_APPEND, which follows a link and blocks on a FIFO: only a regular file, or nothing yet
    const info = await checkWritable(path, { folderMayBeLink: true, refused: "nothing appended" });
    // and it writes into the file itself: one that shares its data with another name (a hard link, planted or made by
    // a `cp -al` snapshot) is first detached, so that the line lands in our file alone
    if (info !== null && (info.nlink ?? 1) > 1) await detach(path, hooks.copyFile ?? Deno.copyFile);
    await hooks.beforeOpen?.();
    // the path may have been swapped for a link since the check: a missing file is created with O_EXCL (which never
    // follows a link, even a dangling one), an existing one is opened without create, and what was opened must still
    // be the regular file at the path before anything is written
    const file = await openForAppend(path, info === null, mode, options.lines === true);
    // null: created or removed by someone else since the check; "other": a rotation renamed it, and the new file at
    // the path takes the line. Either way, look again (a few times: a path that keeps changing is refused)
    const same = file === null ? "other" : await sameFileAtPath(path, file).catch((e) => {
      file.close();
      throw e;
    });
    if (same !== "same") file?.close();
    if (same === "link" || (same === "other" && tries >= MAX_TRIES)) {
      const what = same === "link" ? "became a link or special file" : "kept changing";
      throw new UnsafeFileError(`"${path}" ${what} while being opened; nothing appended`);
    }
    if (same === "other") continue;
    using opened = file!;
    if (options.lines && info !== null && !(await endsALine(opened))) bytes = withLineBreakFirst(bytes);
    await (hooks.write ?? writeAll)(opened, bytes);
    return;
  }
}

/** Whether the file is empty or ends in a line break. */
async function endsALine(file: Deno.FsFile): Promise<boolean> {
  const size = (await file.stat()).size;
  if (size === 0) return true;
  const last = await readAt(file, size - 1, 1);
  return last.length === 0 || last[0] === 0x0a;
}

function withLineBreakFirst(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out[0] = 0x0a;
  out.set(bytes, 1);
  return out;
}

/**
 * `path` opened for appending (and reading, for `endsALine`, when `read`), created exclusively when `missing`; null
 * when that guess was wrong (start again).
 */
async function openForAppend(path: string, missing: boolean, mode: number, read: boolean): Promise<Deno.FsFile | null> {
  try {
    return missing
      ? await Deno.open(path, { append: true, createNew: true, mode })
      : await Deno.open(path, { append: true, read });
  } catch (e) {
    if (missing && e instanceof Deno.errors.AlreadyExists) return null;
    if (!missing && e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * Whether `file` (just opened through `path`) is still the regular file at `path`: "same"; "link" when the path is a
 * link or not a regular file now (the open may have followed it out of our folder); "other" when another file or
 * nothing is there (a rotation renamed ours). Two calls: the open file's stat and the path's lstat.
 */
export async function sameFileAtPath(path: string, file: Deno.FsFile): Promise<"same" | "link" | "other"> {
  const [own, there] = await Promise.all([
    file.stat(),
    Deno.lstat(path).catch((e) => {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }),
  ]);
  if (there === null) return "other";
  if (!there.isFile) return "link";
  return own.dev === there.dev && own.ino === there.ino && own.isFile ? "same" : "other";
}

/**
 * Gives `path` a data copy of its own: copied to a fresh name beside it, then renamed over it. The other names keep
 * the old data, unchanged from here on. On any failure the copy is removed: a partial one left by a full disk would
 * hold the space every later write needs.
 */
async function detach(path: string, copyFile: (from: string, to: string) => Promise<void>): Promise<void> {
  const copy = tempPathFor(path);
  try {
    await copyFile(path, copy);
    await Deno.rename(copy, path);
  } catch (e) {
    await Deno.remove(copy).catch(() => {});
    throw e;
  }
}
