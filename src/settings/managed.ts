/**
 * Claude Code's managed settings, an administrator's: `managed-settings.json` in the system's managed folder, then each
 * `managed-settings.d/*.json` in name order (a later one wins), as Claude Code 2.1.328 reads them. They win over every
 * other settings file, so `disableAllHooks` there turns every hook off and `allowManagedHooksOnly` every hook but
 * theirs. Server-managed and MDM settings are not files and cannot be seen from here.
 */
import { join } from "node:path";
import { firstLine } from "../errors.ts";
import { inspectSettings, type SettingsFileReport } from "./inspect.ts";

export interface ManagedSettings {
  /** The files that are there (or could not be read), in the order Claude Code merges them. */
  files: SettingsFileReport[];
  /** Why the drop-in folder could not be listed (outside the read scope, not a folder we may read), or null. */
  problem: string | null;
}

/** The managed settings files in `dir` that are there, each inspected as Claude Code reads it (strict JSON). */
export async function readManagedSettings(dir: string): Promise<ManagedSettings> {
  const dropIns = join(dir, "managed-settings.d");
  const names: string[] = [];
  let problem: string | null = null;
  try {
    for await (const entry of Deno.readDir(dropIns)) {
      // as Claude Code lists them: regular files and links, named *.json, not hidden
      if ((entry.isFile || entry.isSymlink) && entry.name.endsWith(".json") && !entry.name.startsWith(".")) {
        names.push(entry.name);
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound) && !(e instanceof Deno.errors.NotADirectory)) {
      problem = `cannot list ${dropIns}: ${firstLine(e)}`;
    }
  }
  const paths = [join(dir, "managed-settings.json"), ...names.sort().map((n) => join(dropIns, n))];
  const reports = await inspectSettings(paths, { source: "managed" });
  // outside the read scope even whether a file is there is unknown: said once, not listed as a settings file
  const unknown = reports.filter((f) => f.exists === null).map((f) => f.path);
  if (unknown.length > 0) {
    problem ??= `cannot check ${unknown.join(", ")}: ${reports.find((f) => f.exists === null)!.error}`;
  }
  return { files: reports.filter((f) => f.exists === true), problem };
}
