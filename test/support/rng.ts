/** A small deterministic generator in [0, 1) (no dependence on Math.random, for reproducible failures). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
