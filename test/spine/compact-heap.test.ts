/** compactHeap(): a full collection, reached without --expose-gc and without a global `gc`. */
import { describe, expect, it } from 'vitest';
import { compactHeap } from '../../src/compact-heap.js';

describe('compactHeap', () => {
  it('collects garbage left in the old generation, and leaves no global gc behind', () => {
    const hadGc = 'gc' in globalThis;
    let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `record ${i}` }));
    expect(compactHeap()).toBe(true); // promotes junk to the old generation
    const withJunk = process.memoryUsage().heapUsed;
    expect((junk as unknown[]).length).toBe(300_000);
    junk = null;
    expect(compactHeap()).toBe(true);
    const after = process.memoryUsage().heapUsed;
    expect(withJunk - after).toBeGreaterThan(10_000_000); // ~300k small objects and strings
    expect('gc' in globalThis).toBe(hadGc);
  });
});
