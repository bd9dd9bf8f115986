/**
 * The temp files of atomic writes (atomic.ts) whose writer was killed between its write and its rename: removed from
 * a folder when it is next written, once they are old enough that no live writer can still rename them.
 */
import { join } from "../path.ts";
import { isTempName } from "./atomic.ts";
import { TEMP_LEFTOVER_MS } from "./prune_plan.ts";

/**
 * Removes our temp files older than `minAgeMs` (default TEMP_LEFTOVER_MS, the age at which pruning removes `state/`'s,
 * prune_plan.ts; on the clock file times come from) directly in `dir`, and returns their names. Only regular files
 * whose names match our temp pattern go, looked at with lstat: a link (even one with a temp name) is never followed or
 * removed, other files are never touched, and a `dir` that is a link is not listed. Throws when `dir` cannot be
 * listed; a file that vanishes meanwhile is skipped.
 */
export async function removeLeftoverTemps(
  dir: string,
  options: { now?: number; minAgeMs?: number } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const minAgeMs = options.minAgeMs ?? TEMP_LEFTOVER_MS;
  const removed: string[] = [];
  if (!(await Deno.lstat(dir)).isDirectory) return removed;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !isTempName(entry.name)) continue;
    const path = join(dir, entry.name);
    try {
      const info = await Deno.lstat(path);
      if (!info.isFile || info.mtime === null || now - info.mtime.getTime() <= minAgeMs) continue;
      await Deno.remove(path);
      removed.push(entry.name);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  return removed;
}
