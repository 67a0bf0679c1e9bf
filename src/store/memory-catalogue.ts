/**
 * The catalogue served from memory: an immutable snapshot of the shipped dataset, built once at
 * start. The catalogue never changes while the process runs, so reading it back from SQLite
 * and JSON.parse-ing every hit on every request (what the former SQLite catalogue did) was pure overhead.
 *
 * Records are deep-frozen: every caller shares them, and a tool that tried to modify one would
 * throw instead of corrupting later answers. The catalogue works from the records' columns in id
 * order (SortedRecords: ids, categories, quarantine flags) and asks for a record itself only when
 * a caller does: a large catalogue's records are read on first use (catalogue-records.ts).
 * Listings are prepared once per (category, quarantine) view, lazily, as positions; a page reads
 * only its own records.
 *
 * Health: every method first runs `health()`, a cheap probe of the backing store (for SQLite:
 * the handle is still open). A store that can no longer be read answers store_unavailable,
 * never an empty or stale result, like the SQLite reader did.
 */
import type { StoredEntity } from '../domain/catalogue/entity.js';
import { DomainError } from '../domain/shared/errors.js';
import { deepFreeze } from '../domain/shared/freeze.js';
import { sortedIndexOf } from '../domain/shared/sorted.js';
import { idOrder } from '../domain/catalogue/search.js';
import type { SortedRecords } from './catalogue-records.js';
import type { Catalogue, CatalogueMeta, CategoryInfo, ListQuery } from './catalogue.js';

export { deepFreeze };

/** Pages kept per view (a client paging with odd offsets must not grow memory without bound). */
const MAX_PAGES_PER_VIEW = 64;

export interface SnapshotData {
  meta: CatalogueMeta;
  categories: { slug: string; name: string; spec_name: string | null }[];
  entities: readonly StoredEntity[];
}


/** Two lists of ids in id order (with the same lower-cased) merged into one: the ids, and the same lower-cased. */
function mergeById(a: readonly string[], aLower: readonly string[], b: readonly string[], bLower: readonly string[]): [string[], string[]] {
  const ids: string[] = [];
  const lower: string[] = [];
  let i = 0;
  let j = 0;
  const takeA = () => i < a.length && (j >= b.length || aLower[i]! < bLower[j]! || (aLower[i] === bLower[j] && a[i]! <= b[j]!));
  while (i < a.length || j < b.length) {
    if (takeA()) {
      ids.push(a[i]!);
      lower.push(aLower[i++]!);
    } else {
      ids.push(b[j]!);
      lower.push(bLower[j++]!);
    }
  }
  return [ids, lower];
}

function storeUnavailable(cause: unknown): DomainError {
  return new DomainError('store_unavailable', 'The entity store is unavailable; try again shortly.', {
    cause_kind: cause instanceof Error ? cause.name : 'unknown',
  });
}

export class MemoryCatalogue implements Catalogue {
  /** Open-source-layer records by lower-cased id and by id as written (never part of the catalogue's own records). */
  private ossById = new Map<string, StoredEntity>();
  private ossByExactId = new Map<string, StoredEntity>();
  /** Catalogue records in id order (read on first use when the catalogue is read lazily). */
  private readonly records: SortedRecords;
  /**
   * The open-source layer's ids in id order (and lower-cased), and merged with the catalogue's
   * (for idsWithPrefix): merged on the first call that needs them, not at start (at 100,000
   * records the merge is two arrays of 100,000 ids).
   */
  private layerIds: { ids: readonly string[]; lower: readonly string[]; all: [string[], string[]] | null } = { ids: [], lower: [], all: null };
  /** Each listing's records' positions (id order), by (category, quarantine). */
  private readonly views = new Map<string, Int32Array>();
  private readonly pages = new Map<Int32Array, Map<string, readonly StoredEntity[]>>();
  private readonly categoryInfo: readonly CategoryInfo[];
  private readonly metaData: CatalogueMeta;

  /**
   * @param data the catalogue's meta and categories
   * @param records the catalogue's records in id order (frozen)
   * @param oss open-source-layer records: resolvable by id only, never listed or counted
   * @param health throws when the backing store can no longer be read
   */
  constructor(
    data: Pick<SnapshotData, 'meta' | 'categories'>,
    records: SortedRecords,
    oss: readonly StoredEntity[],
    private readonly health: () => void,
  ) {
    this.records = records;
    this.replaceOss(oss);
    const counts = new Map<string, number>();
    for (let d = 0; d < records.size; d++) {
      const c = records.category(d);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const known = new Set(data.categories.map((c) => c.slug));
    const extra = [...counts.keys()].filter((s) => !known.has(s)).sort();
    this.categoryInfo = deepFreeze([
      ...data.categories.map((c) => ({ slug: c.slug, name: c.name, spec_name: c.spec_name, count: counts.get(c.slug) ?? 0 })),
      // A category used by records but missing from categories.json still gets listed.
      ...extra.map((slug) => ({ slug, name: slug, spec_name: null, count: counts.get(slug) ?? 0 })),
    ]);
    this.metaData = deepFreeze({ ...data.meta });
  }

  /**
   * The open-source layer's records resolvable by id, replaced as a whole (a live refresh
   * reloaded: issue 45): get, getMany and idsWithPrefix follow at once, without a restart.
   * Catalogue records win over a layer record spelling the same id (as at start).
   */
  replaceOss(oss: readonly StoredEntity[]): void {
    const byId = new Map<string, StoredEntity>();
    const byExact = new Map<string, StoredEntity>();
    const kept: StoredEntity[] = [];
    for (const e of oss) {
      const k = e.id.toLowerCase();
      if (this.lowerPosition(k) !== undefined || byId.has(k)) continue;
      deepFreeze(e);
      byId.set(k, e);
      byExact.set(e.id, e);
      kept.push(e);
    }
    const layer = idOrder(kept);
    // Swapped together: a reader sees the old layer or the new one, never a mix.
    this.ossById = byId;
    this.ossByExactId = byExact;
    this.layerIds = { ids: layer.sorted.map((e) => e.id), lower: layer.lower, all: null };
  }

  /** Catalogue and open-source-layer ids in id order, and the same lower-cased. */
  private allIds(): [string[], string[]] {
    const l = this.layerIds;
    return (l.all ??= mergeById(this.records.ids, this.records.lower, l.ids, l.lower));
  }

  private read<T>(fn: () => T): Promise<T> {
    try {
      this.health();
    } catch (err) {
      return Promise.reject(err instanceof DomainError ? err : storeUnavailable(err));
    }
    return Promise.resolve(fn());
  }

  /** The positions (id order) of the records a listing shows. */
  private view(category: string | undefined, includeQuarantine: boolean): Int32Array {
    const key = `${includeQuarantine ? 'q' : '-'}:${category ?? ''}`;
    let v = this.views.get(key);
    if (!v) {
      const r = this.records;
      const out: number[] = [];
      for (let d = 0; d < r.size; d++) if ((category === undefined || r.category(d) === category) && (includeQuarantine || !r.quarantine(d))) out.push(d);
      v = Int32Array.from(out);
      this.views.set(key, v);
    }
    return v;
  }

  /** The catalogue's records in id order (for the indexes built over the snapshot at start). */
  get sortedRecords(): SortedRecords {
    return this.records;
  }

  /** The first position (id order) whose lower-cased id is `k` (the ids sort by their lower-cased form first). */
  private lowerPosition(k: string): number | undefined {
    const d = sortedIndexOf(this.records.lower, k);
    return d < 0 ? undefined : d;
  }

  /**
   * A catalogue record by id, case-insensitively (read on first use when the records are read
   * lazily): binary search over the lower-cased ids; of ids equal but for case, the first.
   *
   * No table of the ids as written: at 100,000 records filling one took ~45 ms of every start
   * (bench/README.md). A search's hits, the lookups of every request, are taken by their position
   * instead (getMany); a lookup by an id a client wrote costs ~1 µs.
   */
  private catalogueLookup(id: string): StoredEntity | undefined {
    const d = this.lowerPosition(id.toLowerCase());
    return d === undefined ? undefined : this.records.record(d);
  }

  /** Case-insensitive: the id as written first, then lower-cased; catalogue records, then the open-source layer. */
  private lookup(id: string): StoredEntity | undefined {
    return this.catalogueLookup(id) ?? this.ossByExactId.get(id) ?? this.ossById.get(id.toLowerCase());
  }

  /**
   * A catalogue record by id (case-insensitive), synchronously and without the store's probe: for
   * indexes built over the snapshot (the spec layer). Open-source-layer records are not catalogue
   * records: null for their ids.
   */
  catalogueRecord(id: string): StoredEntity | null {
    return this.catalogueLookup(id) ?? null;
  }

  get(id: string) {
    return this.read(() => this.lookup(id) ?? null);
  }

  probe() {
    return this.read(() => undefined);
  }

  getMany(ids: readonly string[], positions?: readonly number[]) {
    return this.read(() => {
      const out: StoredEntity[] = [];
      const held = this.records.ids;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k]!;
        const d = positions?.[k];
        // The record at the index's position when it is the one asked (the same id: a catalogue record, which wins as in lookup).
        const e = d !== undefined && held[d] === id ? this.records.record(d) : this.lookup(id);
        if (e) out.push(e);
      }
      return out;
    });
  }

  list(q: ListQuery) {
    return this.read(() => {
      const v = this.view(q.category, q.includeQuarantine ?? false);
      const offset = q.offset ?? 0;
      const end = q.limit === undefined || q.limit < 0 ? v.length : Math.min(v.length, offset + q.limit);
      // The same page is handed out as the same frozen array, so views prepared from it
      // (deep records, their JSON) are prepared once per page, not once per call.
      const key = `${offset}:${end}`;
      let pages = this.pages.get(v);
      if (!pages) {
        pages = new Map();
        this.pages.set(v, pages);
      }
      let items = pages.get(key);
      if (!items) {
        const page: StoredEntity[] = [];
        for (let i = offset; i < end; i++) page.push(this.records.record(v[i]!));
        items = Object.freeze(page);
        if (pages.size < MAX_PAGES_PER_VIEW) pages.set(key, items);
      }
      return { total: v.length, items: items as StoredEntity[] };
    });
  }

  all() {
    return this.read(() => [...this.records.all()]);
  }

  categories() {
    return this.read(() => this.categoryInfo.map((c) => ({ ...c })));
  }

  idsWithPrefix(prefix: string, limit: number) {
    return this.read(() => {
      const p = prefix.toLowerCase();
      const out: string[] = [];
      const [allIds, allLower] = this.allIds();
      for (let i = 0; i < allLower.length && out.length < limit; i++) if (allLower[i]!.startsWith(p)) out.push(allIds[i]!);
      return out;
    });
  }

  meta() {
    return this.read(() => ({ ...this.metaData }));
  }
}
