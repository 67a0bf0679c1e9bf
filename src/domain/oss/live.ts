/**
 * The live open-source layer's bookkeeping (issue 45), pure: how one source's records move
 * between refreshes. A record's identity is its id (source, file and the joint name or BOM row
 * identity: ossLiveId), so a refresh that produces it again keeps `first_seen` and moves
 * `last_seen`; a record no longer produced stays, marked gone since this refresh (its last_seen
 * is the last refresh that produced it); a gone record produced again comes back.
 */

/** A record as the store keeps it: the record's own fields, plus when it was seen. */
export interface LiveRow<R> {
  id: string;
  /** Position of the record in its source's output (file order), for a stable document order. */
  position: number;
  record: R;
  first_seen: string;
  last_seen: string;
  gone: boolean;
  gone_since: string | null;
}

export interface SourceMerge<R> {
  rows: LiveRow<R>[];
  added: number;
  kept: number;
  changed: number;
  gone: number;
  back: number;
}

/**
 * The rows of one source after a successful refresh at `now`: `produced` in output order (ids
 * unique), `previous` the source's rows before. `same(a, b)` tells whether a record's content is
 * unchanged (for the counts only: a changed record keeps its identity and first_seen).
 */
export function mergeSourceRecords<R>(
  previous: readonly LiveRow<R>[],
  produced: readonly { id: string; record: R }[],
  now: string,
  same: (a: R, b: R) => boolean,
): SourceMerge<R> {
  const before = new Map(previous.map((r) => [r.id, r]));
  const out: SourceMerge<R> = { rows: [], added: 0, kept: 0, changed: 0, gone: 0, back: 0 };
  const seen = new Set<string>();
  produced.forEach((p, position) => {
    if (seen.has(p.id)) throw new Error(`record id ${p.id} produced twice by one source`);
    seen.add(p.id);
    const prev = before.get(p.id);
    if (!prev) out.added++;
    else if (prev.gone) out.back++;
    else if (same(prev.record, p.record)) out.kept++;
    else out.changed++;
    out.rows.push({ id: p.id, position, record: p.record, first_seen: prev?.first_seen ?? now, last_seen: now, gone: false, gone_since: null });
  });
  let tail = produced.length;
  for (const prev of previous) {
    if (seen.has(prev.id)) continue;
    if (!prev.gone) out.gone++;
    out.rows.push({ ...prev, position: tail++, gone: true, gone_since: prev.gone ? prev.gone_since : now });
  }
  return out;
}
