/** File helpers shared by tests: files of a given age, the names in a folder, and every file under one. */
import { join } from "node:path";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Writes `path` with its mtime `days` ago on the real clock (the one file times and pruning use). */
export async function agedFile(path: string, days: number, text = "{}\n"): Promise<void> {
  await Deno.writeTextFile(path, text);
  const t = new Date(Date.now() - days * DAY_MS);
  await Deno.utime(path, t, t);
}

/** The names directly inside `dir`, sorted. */
export function dirNames(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/** Every file under `dir`, in its subfolders too (paths joined onto `dir`, in the order the folders list them). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}
