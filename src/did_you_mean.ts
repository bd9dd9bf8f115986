/**
 * "Did you mean" for unknown commands, events and flags, by Levenshtein distance (fastest-levenshtein, loaded as
 * its ES module: the package's CommonJS entry would start Deno's Node compatibility layer on the hook path).
 */
import { closest, distance } from "fastest-levenshtein/esm/mod.js";

/** The closest candidate to `input`, if it is near enough to be a likely typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  const best = closest(input, [...candidates]);
  // a short name (`on`) is one typo away or not near at all: two edits turn "foo" into "on"
  const limit = best.length <= 3 ? 1 : Math.max(2, Math.floor(best.length / 3));
  return distance(input, best) <= limit ? best : null;
}

/** " (did you mean "x"?)" or "". */
export function suggestion(input: string, candidates: readonly string[]): string {
  const best = didYouMean(input, candidates);
  return best === null ? "" : ` (did you mean "${best}"?)`;
}
