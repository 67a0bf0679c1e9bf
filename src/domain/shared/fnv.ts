/**
 * FNV-1a (32 bits) over UTF-16 code units: the search index's word hashes (src/domain/catalogue/search.ts)
 * and the answer cache's request counts (src/store/answer-cache.ts, from a basis of its own).
 */
// The loop reads these, not the exported names: an exported binding read per character (a module
// cell, not a constant) made hashing ~25% slower (measured).
const BASIS = 0x811c9dc5;
const PRIME = 0x01000193;
export const FNV_BASIS = BASIS;
export const FNV_PRIME = PRIME;

/** FNV-1a of s[start, end) from `basis`, as a signed 32-bit integer (callers mask or shift it). */
export function fnv1a(s: string, start: number, end: number, basis = BASIS): number {
  let h = basis;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
}
