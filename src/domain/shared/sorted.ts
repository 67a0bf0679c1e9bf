/** Binary search over strings sorted by code unit (`<`): the catalogue's lower-cased ids in id order. */

/** The first position of `sorted` whose value is not below `k` (sorted.length when every value is). */
export function lowerBound(sorted: readonly string[], k: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position of `sorted` holding `k`, or -1. */
export function sortedIndexOf(sorted: readonly string[], k: string): number {
  const at = lowerBound(sorted, k);
  return at < sorted.length && sorted[at] === k ? at : -1;
}
