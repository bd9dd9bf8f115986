/** The user's quirk files, `$CLIFFHANGER_HOME/quirks.json` then `quirks.jsonc`: the only disk access for quirks. */
import { readRegularText } from "../../store/safe_file.ts";
import { join } from "../../path.ts";
import type { UserQuirkSource } from "./quirks.ts";

export const USER_QUIRK_FILES = ["quirks.json", "quirks.jsonc"] as const;

/** User quirk files larger than this are refused unread. */
export const MAX_QUIRK_FILE_BYTES = 256 * 1024;

export interface ReadQuirkFiles {
  sources: UserQuirkSource[];
  /** Files that exist but could not be read; each is ignored. */
  problems: string[];
}

export async function readUserQuirkFiles(root: string): Promise<ReadQuirkFiles> {
  const sources: UserQuirkSource[] = [];
  const problems: string[] = [];
  for (const name of USER_QUIRK_FILES) {
    const path = join(root, name);
    try {
      const text = await readRegularText(path, { maxBytes: MAX_QUIRK_FILE_BYTES, within: root, label: "quirk file" });
      if (text !== null) sources.push({ origin: path, text });
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue;
      problems.push(`${path}: cannot read: ${e instanceof Error ? e.message : e}; file ignored`);
    }
  }
  return { sources, problems };
}

/** What `status` and `doctor` show of the quirk files: the ones in use, and every read or parse problem. */
export interface QuirkFilesReport {
  used: string[];
  problems: string[];
}

export async function quirkFilesReport(root: string): Promise<QuirkFilesReport> {
  const files = await readUserQuirkFiles(root);
  const { buildQuirkSet } = await import("./quirks_user.ts");
  const problems = [...files.problems, ...buildQuirkSet(files.sources).problems];
  // a file with a problem is left out by the hook
  const used = files.sources.map((q) => q.origin).filter((o) => !problems.some((p) => p.includes(o)));
  return { used, problems };
}
