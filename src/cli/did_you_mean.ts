/**
 * "Did you mean" for unknown commands, events and flags. A plain Levenshtein distance: this module is on every
 * hook's start-up path (main.ts parses `hook <event>` with it), and loading fastest-levenshtein, a CommonJS
 * package, cost more start-up time than all the suggestions it ever computes (README, Performance).
 * did_you_mean_test.ts checks it against fastest-levenshtein.
 */

/** Edit distance (insertions, deletions, substitutions of UTF-16 code units). */
export function distance(a: string, b: string): number {
  if (a.length < b.length) [a, b] = [b, a];
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The first candidate at the smallest distance (fastest-levenshtein's `closest`). */
export function closest(input: string, candidates: readonly string[]): string {
  let best = 0;
  let bestDistance = Infinity;
  for (let i = 0; i < candidates.length; i++) {
    const d = distance(input, candidates[i]!);
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  }
  return candidates[best]!;
}

/** The closest candidate to `input`, if it is near enough to be a likely typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  const best = closest(input, candidates);
  const limit = Math.max(2, Math.floor(best.length / 3));
  return distance(input, best) <= limit ? best : null;
}

/** " (did you mean "x"?)" or "". */
export function suggestion(input: string, candidates: readonly string[]): string {
  const best = didYouMean(input, candidates);
  return best === null ? "" : ` (did you mean "${best}"?)`;
}
