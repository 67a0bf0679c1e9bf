/**
 * Store outages in the log: one line when a store stops answering, one when it answers again
 * (with how many calls were refused meanwhile and for how long), never one line per refused call
 * (issue 23, N10: three short PostgreSQL outages wrote 1,038 lines).
 *
 * Stores are named as the store_unavailable error names them (`postgres`, `sqlite`; the entity
 * store has no name and is `entities`). What marks a store down: a call refused with
 * store_unavailable (counted), a failed /healthz probe, a pooled connection lost. What marks it
 * up: an operation on it that succeeded (a PostgreSQL query, a healthy /healthz probe).
 */
import type { Logger } from '../log.js';

interface Outage {
  since: number;
  refused: number;
}

export class StoreOutages {
  private readonly down = new Map<string, Outage>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The store failed: logs once when it goes down; a refused call is counted. */
  unavailable(store: string, fields: Record<string, unknown> = {}, refusedCall = false): void {
    let o = this.down.get(store);
    if (!o) {
      o = { since: this.now(), refused: 0 };
      this.down.set(store, o);
      this.log.error('store unavailable; calls that need it answer 503 store_unavailable until it is back', { store, ...fields });
    }
    if (refusedCall) o.refused++;
  }

  /** A call was refused with store_unavailable. */
  refused(store: string, fields: Record<string, unknown> = {}): void {
    this.unavailable(store, fields, true);
  }

  /** The store answered: logs once when it comes back, with the calls refused while it was down. */
  available(store: string): void {
    if (this.down.size === 0) return; // the common case: nothing was down
    const o = this.down.get(store);
    if (!o) return;
    this.down.delete(store);
    this.log.warn('store available again', { store, refused_calls: o.refused, down_ms: Math.max(0, this.now() - o.since) });
  }

  isDown(store: string): boolean {
    return this.down.has(store);
  }
}

/** The store a store_unavailable error's details name. */
export function storeOf(details: Record<string, unknown>): string {
  return typeof details.store === 'string' ? details.store : 'entities';
}
