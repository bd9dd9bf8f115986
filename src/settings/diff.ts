/** The unified diff `install --dry-run` and `uninstall --dry-run` print. */
// Pinned inline until deno.json maps "diff".
// deno-lint-ignore no-import-prefix
import { createTwoFilesPatch } from "npm:diff@8.0.4";

/** A unified diff of one file, "" when nothing changed. `before` null means the file does not exist yet. */
export function unifiedDiff(path: string, before: string | null, after: string): string {
  if (before === after) return "";
  const patch = createTwoFilesPatch(before === null ? "/dev/null" : path, path, before ?? "", after, "", "", {
    context: 3,
  });
  // Drop the "Index:" and "=====" banner lines (the ---/+++ headers name the file) and the empty header tabs.
  return patch.slice(patch.indexOf("--- ")).replace(/^(---|\+\+\+) (.*?)\t$/gm, "$1 $2");
}
