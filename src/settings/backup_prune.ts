/**
 * Backups of a settings file do not pile up: after `install` or `uninstall` writes one, the backups of that file
 * past the newest KEEP_BACKUPS are removed, but never one less than a day old (a run of edits in one afternoon keeps
 * all of its backups). Only names of the backup form (target.ts backupPath) with that file's prefix are looked at,
 * and only regular files are removed: a link, a folder or another name in the folder is never touched. Backups named
 * before the path tag (`<basename>.<timestamp>.bak`) are one group per file name, pruned the same way.
 */
import { basename, join } from "node:path";
import { backupPrefix } from "./target.ts";

export const KEEP_BACKUPS = 20;
/** A backup younger than this is kept whatever the count. */
export const MIN_BACKUP_AGE_MS = 24 * 60 * 60 * 1000;

/** `<prefix>.<YYYYMMDDTHHMMSSmmmZ>[-N].bak`. */
const BACKUP_NAME = /^(.+)\.(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z(?:-(\d+))?\.bak$/;

export interface BackupName {
  prefix: string;
  /** When it was written (ms since the epoch), from its name. */
  at: number;
  /** 1, or the N of a `-N` name (a second backup in the same millisecond). */
  attempt: number;
}

export function parseBackupName(name: string): BackupName | null {
  const m = BACKUP_NAME.exec(name);
  if (m === null) return null;
  const [y, mo, d, h, mi, s, ms] = m.slice(2, 9).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  return Number.isNaN(at) ? null : { prefix: m[1]!, at, attempt: m[9] === undefined ? 1 : Number(m[9]) };
}

/** Pure: the names in `names` to remove for the backups named with `prefix`, at `now` (ms since the epoch). */
export function planBackupPrune(names: readonly string[], prefix: string, now: number, keep = KEEP_BACKUPS): string[] {
  const group = names.flatMap((name) => {
    const parsed = parseBackupName(name);
    return parsed !== null && parsed.prefix === prefix ? [{ name, ...parsed }] : [];
  });
  group.sort((a, b) => b.at - a.at || b.attempt - a.attempt || (a.name < b.name ? 1 : -1));
  return group.slice(keep).filter((b) => now - b.at >= MIN_BACKUP_AGE_MS).map((b) => b.name);
}

/**
 * Removes the backups of `target` past the newest KEEP_BACKUPS (none less than a day old) from `backupsDir`; returns
 * the names removed. Never throws: a backup that cannot be listed or removed is kept.
 */
export async function pruneBackups(backupsDir: string, target: string, now: Date): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(backupsDir)) if (entry.isFile) names.push(entry.name);
  } catch {
    return [];
  }
  const remove = [
    ...planBackupPrune(names, backupPrefix(target), now.getTime()),
    ...planBackupPrune(names, basename(target), now.getTime()),
  ];
  const removed: string[] = [];
  for (const name of remove) {
    const path = join(backupsDir, name);
    try {
      // looked at again just before: only a regular file goes, never a link put there since the listing
      if (!(await Deno.lstat(path)).isFile) continue;
      await Deno.remove(path);
      removed.push(name);
    } catch {
      // kept
    }
  }
  return removed;
}
