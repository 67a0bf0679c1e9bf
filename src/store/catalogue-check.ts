/**
 * A catalogue record validated as the catalogue keeps it: the check the main thread makes of each
 * record it reads (catalogue-data.ts) and the index worker of the records it reads itself
 * (search-index-worker.ts, a large catalogue's last records), so that both take and refuse alike.
 */
import { StoredEntity } from '../domain/catalogue/entity.js';
import { compileAcceptor } from './zod-acceptor.js';

const acceptRecord = compileAcceptor(StoredEntity);

/**
 * The record at index `i` of data/catalogue/entities.json validated (not yet shared or frozen);
 * throws naming the record (its id, else its index) and each issue.
 */
export function checkRecord(raw: unknown, i: number): StoredEntity {
  // A record the fast acceptor takes is exactly what zod would give back (src/store/zod-acceptor.ts).
  if (acceptRecord?.(raw)) return raw as StoredEntity;
  const r = StoredEntity.safeParse(raw);
  if (!r.success) {
    const id = (raw as { id?: string })?.id ?? `#${i}`;
    throw new Error(`data/catalogue/entities.json: record ${id} is invalid: ${r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
  }
  return r.data;
}
