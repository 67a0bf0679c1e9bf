/** compactHeap(): a full collection, reached without --expose-gc and without a global `gc`. */
import { describe, expect, it } from 'vitest';
import { compactHeap, compactHeapSoon } from '../../src/compact-heap.js';

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

describe('compactHeapSoon', () => {
  it('runs two collections once the caller yields, folding the calls made before', async () => {
    let n = 0;
    const collect = () => n++;
    compactHeapSoon(collect);
    compactHeapSoon(collect);
    compactHeapSoon(collect);
    expect(n).toBe(0); // never on the caller's stack
    await Promise.resolve();
    expect(n).toBe(2);
    compactHeapSoon(collect); // a later build gets its own pair
    await Promise.resolve();
    expect(n).toBe(4);
  });

  it('collects garbage left behind, with the real collector', async () => {
    let junk: unknown[] | null = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `row ${i}` }));
    compactHeap(); // promotes junk to the old generation
    const withJunk = process.memoryUsage().heapUsed;
    expect((junk as unknown[]).length).toBe(300_000);
    junk = null;
    compactHeapSoon();
    await Promise.resolve();
    expect(withJunk - process.memoryUsage().heapUsed).toBeGreaterThan(10_000_000);
  });
});
