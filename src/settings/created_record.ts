/**
 * The settings files `install` created (there was none before it), kept in `<home>/created-settings.json` as a JSON
 * list of paths (links followed), so that `uninstall` can remove such a file again once nothing but `{}` is left in it.
 *
 * The record is a help, never in the way: one that is missing, too big, a link, not a regular file or not a list of
 * absolute paths reads as empty (with a warning for all but a missing one), and a write that fails is a warning too.
 * Updates take a lock beside the file, are written to an exclusive temp file and renamed (atomic.ts), and keep the
 * record bounded: at most MAX_CREATED paths, the newest kept.
 */
import * as z from "../zod.ts";
import { firstLine } from "../errors.ts";
import { isAbsolute } from "../path.ts";
import { writeJsonAtomic } from "../store/atomic.ts";
import { withLock } from "../store/lock.ts";
import type { HomePaths } from "../store/paths.ts";
import { lstatOrNull, readLookedAtText, specialKind } from "../store/safe_file.ts";

/** Most paths kept (the newest): one user settings file and a few projects' are the usual count. */
export const MAX_CREATED = 64;

/** Longest path kept, in UTF-16 units (Linux's PATH_MAX is 4096 bytes); a longer one is not recorded. */
export const MAX_CREATED_PATH = 4096;

/** Largest record read: MAX_CREATED paths of the usual length, with room to spare. */
export const MAX_RECORD_BYTES = 64 * 1024;

/** How long an update waits for another install or uninstall updating the record. */
export const RECORD_LOCK_WAIT_MS = 10_000;

const RecordSchema = z.array(
  z.string().check(z.minLength(1), z.maxLength(MAX_CREATED_PATH), z.refine(isAbsolute, "not an absolute path")),
).check(z.maxLength(MAX_CREATED));

/** What a read found: the paths, and why the file was read as empty when it was there but could not be used. */
export interface CreatedRecord {
  paths: string[];
  warning: string | null;
}

/** True when `text` is an empty JSON object and nothing else: `{}` with JSON whitespace only, no key, no comment. */
export function isEmptyObjectText(text: string): boolean {
  return /^[ \t\r\n]*\{[ \t\r\n]*\}[ \t\r\n]*$/.test(text);
}

/** Pure: the record's text as paths, or why it is not a record (it then reads as empty). */
export function parseCreatedRecord(text: string): { paths: string[]; problem: string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { paths: [], problem: "is not JSON" };
  }
  const parsed = RecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : ` at [${issue.path.join("][")}]`;
    return { paths: [], problem: `is not a list of at most ${MAX_CREATED} absolute paths (${issue?.message}${where})` };
  }
  return { paths: parsed.data, problem: null };
}

/** Pure: the record with `path` added last (once), the oldest dropped past MAX_CREATED; a path too long is not added. */
export function withPath(paths: readonly string[], path: string): string[] {
  const rest = paths.filter((p) => p !== path);
  if (path.length > MAX_CREATED_PATH || !isAbsolute(path)) return rest;
  return [...rest, path].slice(-MAX_CREATED);
}

/** Pure: the record without `path`. */
export function withoutPath(paths: readonly string[], path: string): string[] {
  return paths.filter((p) => p !== path);
}

/** The record at `file`; never throws (see the module comment). A link is not followed: it reads as empty. */
export async function readCreatedRecord(file: string): Promise<CreatedRecord> {
  const empty = (why: string): CreatedRecord => ({
    paths: [],
    warning: `the record of settings files install created, ${file}, ${why}; read as empty`,
  });
  try {
    const info = await lstatOrNull(file);
    if (info === null) return { paths: [], warning: null };
    if (!info.isFile) return empty(`is ${info.isDirectory ? "a folder" : specialKind(info)}`);
    if (info.size > MAX_RECORD_BYTES) return empty(`is ${info.size} bytes, over the ${MAX_RECORD_BYTES}-byte limit`);
    const text = await readLookedAtText(file, info, { maxBytes: MAX_RECORD_BYTES, label: "record" });
    if (text === null) return { paths: [], warning: null };
    const { paths, problem } = parseCreatedRecord(text);
    return problem === null ? { paths, warning: null } : empty(problem);
  } catch (e) {
    return empty(`cannot be read: ${firstLine(e)}`);
  }
}

/**
 * Change the record under its lock: read it (as readCreatedRecord), apply `change`, write the result if it differs
 * (an empty list removes the file: a home with nothing recorded has no record). Returns a warning, or null; never
 * throws.
 */
export async function updateCreatedRecord(
  paths: Pick<HomePaths, "createdSettings">,
  change: (paths: string[]) => string[],
  options: { waitMs?: number } = {},
): Promise<string | null> {
  const file = paths.createdSettings;
  const warnings: string[] = [];
  try {
    await withLock(`${file}.lock`, async () => {
      const before = await readCreatedRecord(file);
      if (before.warning !== null) warnings.push(before.warning);
      const after = change(before.paths);
      const same = after.length === before.paths.length && after.every((p, i) => p === before.paths[i]);
      if (same) return;
      if (after.length === 0) {
        // only a regular file of ours is removed; a link, a FIFO or a folder is left for the user to see
        if ((await lstatOrNull(file))?.isFile) await Deno.remove(file);
        return;
      }
      // the home may be a link the user made; the record itself may not be one (the write refuses it)
      await writeJsonAtomic(file, after, { mode: 0o600, label: "record", folderMayBeLink: true });
    }, { waitMs: options.waitMs ?? RECORD_LOCK_WAIT_MS, folderMayBeLink: true, folderMode: 0o700 });
  } catch (e) {
    warnings.push(`cannot update the record of settings files install created, ${file}: ${firstLine(e)}`);
  }
  return warnings.length === 0 ? null : warnings.join("; also, ");
}
