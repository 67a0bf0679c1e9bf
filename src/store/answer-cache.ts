/**
 * Finished answers of the tools that declare `cacheable` (src/tools/define.ts): tools whose
 * answer is a function of their validated arguments, the surface (which decides detail URLs) and
 * the catalogue snapshot, which never changes while the process runs. The same arguments again
 * get the same answer object, not a new one: the search, the hit objects, the result and its
 * serialised forms (the MCP text block, the REST bytes) are made once per distinct call.
 *
 * Bounded: at most `maxEntries` answers (0 turns the cache off), evicted by the CLOCK
 * (second-chance) rule: an answer used since the hand last passed it stays for another round.
 * A hit only sets a flag: the cache allocates nothing to serve it. Keys longer than
 * ANSWER_KEY_MAX_CHARS are not cached (a long `where` list is computed every time).
 *
 * What a cached answer does not skip is run by the caller on every call (src/tools/run.ts):
 * argument validation, the rate limit, and the store's health probe.
 */
export const ANSWER_KEY_MAX_CHARS = 2048;

/** An answer (deep-frozen: every caller shares it) and whether it was used since the hand last passed. */
interface Slot {
  readonly output: Record<string, unknown>;
  used: boolean;
}

export class AnswerCache {
  private readonly slots = new Map<string, Slot>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0) throw new RangeError(`AnswerCache: maxEntries must be a non-negative integer, got ${maxEntries}`);
  }

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  get size(): number {
    return this.slots.size;
  }

  get(key: string): Record<string, unknown> | undefined {
    const s = this.slots.get(key);
    if (s === undefined) return undefined;
    s.used = true;
    return s.output;
  }

  /** Keeps the answer (evicting one when full); a key over ANSWER_KEY_MAX_CHARS or a disabled cache keeps nothing. */
  set(key: string, output: Record<string, unknown>): void {
    if (!this.enabled || key.length > ANSWER_KEY_MAX_CHARS) return;
    if (this.slots.has(key)) {
      this.slots.delete(key);
    } else if (this.slots.size >= this.maxEntries) {
      this.evictOne();
    }
    this.slots.set(key, { output, used: false });
  }

  /** CLOCK: the oldest slot goes unless used since it was last passed; a used one moves to the back, unmarked. */
  private evictOne(): void {
    for (;;) {
      const first = this.slots.entries().next();
      if (first.done) return;
      const [key, slot] = first.value;
      this.slots.delete(key);
      if (!slot.used) return;
      slot.used = false;
      this.slots.set(key, slot);
    }
  }
}
