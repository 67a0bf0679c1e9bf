/**
 * Edit distance (insertions, deletions, substitutions) between two strings; used for did-you-mean
 * suggestions. The banded table below with a band as wide as the longer string: the whole table.
 */
export function levenshtein(a: string, b: string): number {
  return levenshteinWithin(a, b, Math.max(a.length, b.length));
}

/** Two rows of the banded table, reused (the distance is computed synchronously, one at a time). */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * levenshtein(a, b) when it is at most `max`, else max + 1, computed only within `max` of the
 * diagonal and stopped as soon as a whole row is over `max`: a close-spelling search compares one
 * term with every indexed word, and nearly all of them are far off after a few letters.
 */
export function levenshteinWithin(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  const over = max + 1;
  if (Math.abs(n - m) > max) return over;
  if (rowA.length <= m) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let rowMin = cur[lo - 1]!;
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      let v = prev[j - 1]! + (ai === b.charCodeAt(j - 1) ? 0 : 1);
      if (j <= i - 1 + max) {
        const up = prev[j]! + 1;
        if (up < v) v = up;
      }
      const left = cur[j - 1]! + 1;
      if (left < v) v = left;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = over;
    if (rowMin > max) return over;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[m]!, over);
}
