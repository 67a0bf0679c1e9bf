/**
 * FNV-1a (32 bits) over UTF-16 code units: the search index's word hashes (src/domain/catalogue/search.ts)
 * and the answer cache's request counts (src/store/answer-cache.ts, from a basis of its own).
 */
export const FNV_BASIS = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** FNV-1a of s[start, end) from `basis`, as a signed 32-bit integer (callers mask or shift it). */
export function fnv1a(s: string, start: number, end: number, basis = FNV_BASIS): number {
  let h = basis;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}
