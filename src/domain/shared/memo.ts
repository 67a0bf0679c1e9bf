/**
 * Per-object memos for pure readings of a record (its buses, its software mentions, its voltage):
 * a BOM check compares every pair of its lines, so each record would otherwise be read again for
 * every other line (500 lines: 124,750 pairs). A reading is cached against the very objects it was
 * read from (weakly: a record or table no longer held drops its readings) and frozen, so no caller
 * can change what another caller reads.
 */
import { deepFreeze } from './freeze.js';

/** `read(context, record)` computed once per (context, record) pair of objects; the result frozen. */
export function memoReading<C extends object, R extends object, V>(read: (context: C, record: R) => V): (context: C, record: R) => V {
  const byContext = new WeakMap<C, WeakMap<R, V>>();
  return (context, record) => {
    let byRecord = byContext.get(context);
    if (!byRecord) {
      byRecord = new WeakMap();
      byContext.set(context, byRecord);
    }
    if (byRecord.has(record)) return byRecord.get(record)!;
    const v = deepFreeze(read(context, record));
    byRecord.set(record, v);
    return v;
  };
}
