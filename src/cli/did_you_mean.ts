import { closest, distance } from "fastest-levenshtein";

/** The closest candidate to `input`, if it is near enough to be a likely typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  const best = closest(input, candidates as string[]);
  const limit = Math.max(2, Math.floor(best.length / 3));
  return distance(input, best) <= limit ? best : null;
}

/** " (did you mean "x"?)" or "". */
export function suggestion(input: string, candidates: readonly string[]): string {
  const best = didYouMean(input, candidates);
  return best === null ? "" : ` (did you mean "${best}"?)`;
}
