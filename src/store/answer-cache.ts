/**
 * Finished answers of the tools that declare `cacheable` (src/tools/define.ts): tools whose
 * answer is a function of their validated arguments, the surface (which decides detail URLs) and
 * the catalogue snapshot, which never changes while the process runs. The same arguments again
 * get the same answer object, not a new one: the search, the hit objects, the result and its
 * serialised forms (the MCP text block, the REST bytes) are made once per distinct call.
 *
 * Bounded: at most `maxEntries` answers (0 turns the cache off), evicted by the CLOCK
 * (second-chance) rule: an answer used since the hand last passed it stays for another round.
 * A hit only sets a flag and counts the request: the cache allocates nothing to serve it. Keys
 * longer than ANSWER_KEY_MAX_CHARS are not cached (a long `where` list is computed every time).
 *
 * Admission (`wants`): while there is room every answer is kept. When full, a new answer replaces
 * the one the hand would evict only if its arguments were asked more often than that one's,
 * not counting the call that missed. How often is estimated by a small count-min sketch of
 * recent requests: 4 rows of 4-bit counters, 8 x maxEntries and at least 256 wide, halved every
 * 10 x maxEntries requests (at least 160), so it follows a change of what is asked. Without
 * this rule, calls that cycle through more distinct arguments than the cache holds (an agent's
 * broad first searches) missed every time and still paid for freezing, keeping and evicting each
 * answer; now the answers already kept stay and keep hitting, and an answer the cache does not
 * want is not frozen (the caller asks first).
 *
 * What a cached answer does not skip is run by the caller on every call (src/tools/run.ts):
 * argument validation, the rate limit, and the store's health probe.
 */
import { randomInt } from 'node:crypto';
import { fnv1a, FNV_BASIS } from '../domain/shared/fnv.js';

export const ANSWER_KEY_MAX_CHARS = 2048;

/** An answer (deep-frozen: every caller shares it) and whether it was used since the hand last passed. */
interface Slot {
  readonly output: Record<string, unknown>;
  used: boolean;
}

const ROWS = 4;
const COUNTER_MAX = 15;

/**
 * Request counts by key, estimated: ROWS rows of small counters, a key counting in one counter
 * per row (chosen by a hash of its characters); its estimate is the least of them, never below
 * its true count since the last halving (other keys can only add to a counter). Fixed size.
 */
class FrequencySketch {
  private readonly counters: Uint8Array;
  private added = 0;
  /** Mixed into every hash, chosen per process: which keys share counters cannot be planned from outside. */
  private readonly basis = FNV_BASIS ^ randomInt(2 ** 32 - 1);
  /** The last key's counter in each row (locate). */
  private readonly cells = new Int32Array(ROWS);

  constructor(
    private readonly width: number,
    private readonly sampleSize: number,
  ) {
    this.counters = new Uint8Array(width * ROWS);
  }

  /**
   * Finds the key's counter in each row (into `cells`) and returns the least of their values. Each
   * row mixes the key's FNV-1a hash anew (murmur3's finaliser), so rows are independent.
   */
  private locate(key: string): number {
    const h = fnv1a(key, 0, key.length, this.basis);
    let min = COUNTER_MAX;
    for (let r = 0; r < ROWS; r++) {
      let x = (h + Math.imul(r + 1, 0x9e3779b9)) | 0;
      x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
      x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
      x ^= x >>> 16;
      const i = r * this.width + (x & (this.width - 1));
      this.cells[r] = i;
      min = Math.min(min, this.counters[i]!);
    }
    return min;
  }

  estimate(key: string): number {
    return this.locate(key);
  }

  /** Counts one request of `key` (only the counters at its least value grow: fewer overestimates). */
  add(key: string): void {
    const min = this.locate(key);
    if (min < COUNTER_MAX) {
      for (let r = 0; r < ROWS; r++) {
        const i = this.cells[r]!;
        if (this.counters[i] === min) this.counters[i] = min + 1;
      }
    }
    if (++this.added >= this.sampleSize) {
      this.added = 0;
      for (let i = 0; i < this.counters.length; i++) this.counters[i]! >>= 1;
    }
  }
}

export class AnswerCache {
  private readonly slots = new Map<string, Slot>();
  private readonly sketch: FrequencySketch | null;

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0) throw new RangeError(`AnswerCache: maxEntries must be a non-negative integer, got ${maxEntries}`);
    let width = 256;
    while (width < 8 * maxEntries) width *= 2;
    this.sketch = maxEntries > 0 ? new FrequencySketch(width, 10 * Math.max(maxEntries, 16)) : null;
  }

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Forgets every kept answer (the data they were computed from changed: a live layer reloaded). */
  clear(): void {
    this.slots.clear();
  }

  /** The answer kept for `key`, if any; either way the request is counted (admission, `wants`). */
  get(key: string): Record<string, unknown> | undefined {
    if (this.sketch === null || key.length > ANSWER_KEY_MAX_CHARS) return undefined;
    this.sketch.add(key);
    const s = this.slots.get(key);
    if (s === undefined) return undefined;
    s.used = true;
    return s.output;
  }

  /**
   * Whether an answer for `key`, asked with `get` and missed, is to be kept: yes while there is
   * room (or the key is kept already); when full, only if the key was asked more often than the
   * key of the answer the hand would evict, the call that missed not counted. Moves the hand to
   * that answer (second chances given on the way, as an eviction would).
   */
  wants(key: string): boolean {
    if (this.sketch === null || key.length > ANSWER_KEY_MAX_CHARS) return false;
    if (this.slots.size < this.maxEntries || this.slots.has(key)) return true;
    const victim = this.hand();
    return victim === null || this.sketch.estimate(key) - 1 > this.sketch.estimate(victim);
  }

  /** Keeps the answer (evicting one when full); a key over ANSWER_KEY_MAX_CHARS or a disabled cache keeps nothing. */
  set(key: string, output: Record<string, unknown>): void {
    if (!this.enabled || key.length > ANSWER_KEY_MAX_CHARS) return;
    if (this.slots.has(key)) {
      this.slots.delete(key);
    } else if (this.slots.size >= this.maxEntries) {
      const victim = this.hand();
      if (victim !== null) this.slots.delete(victim);
    }
    this.slots.set(key, { output, used: false });
  }

  /** CLOCK: the key of the oldest slot not used since it was last passed; a used one moves to the back, unmarked. */
  private hand(): string | null {
    for (;;) {
      const first = this.slots.entries().next();
      if (first.done) return null;
      const [key, slot] = first.value;
      if (!slot.used) return key;
      this.slots.delete(key);
      slot.used = false;
      this.slots.set(key, slot);
    }
  }
}
