/** The unified diff `install --dry-run` and `uninstall --dry-run` print. */
import { createTwoFilesPatch } from "diff";

/**
 * A unified diff of one file, "" when nothing changed. `before` null means the file does not exist yet; `after` null
 * means the change removes it (uninstall of a file install created).
 */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return "";
  const patch = createTwoFilesPatch(
    before === null ? "/dev/null" : path,
    after === null ? "/dev/null" : path,
    before ?? "",
    after ?? "",
    "",
    "",
    { context: 3 },
  );
  // Drop the "Index:" and "=====" banner lines (the ---/+++ headers name the file) and the empty header tabs.
  return patch.slice(patch.indexOf("--- ")).replace(/^(---|\+\+\+) (.*?)\t$/gm, "$1 $2");
}
