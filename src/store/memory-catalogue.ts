/**
 * The catalogue served from memory: an immutable snapshot of the shipped dataset, built once at
 * start. The catalogue never changes while the process runs, so reading it back from SQLite
 * and JSON.parse-ing every hit on every request (what the former SQLite catalogue did) was pure overhead.
 *
 * Records are deep-frozen: every caller shares them, and a tool that tried to modify one would
 * throw instead of corrupting later answers. Listings are prepared once per (category,
 * quarantine) view, lazily.
 *
 * Health: every method first runs `health()`, a cheap probe of the backing store (for SQLite:
 * the handle is still open). A store that can no longer be read answers store_unavailable,
 * never an empty or stale result, like the SQLite reader did.
 */
import type { StoredEntity } from '../domain/catalogue/entity.js';
import { DomainError } from '../domain/shared/errors.js';
import { deepFreeze } from '../domain/shared/freeze.js';
import { cmpId, sortedById } from '../domain/catalogue/search.js';
import type { Catalogue, CatalogueMeta, CategoryInfo, ListQuery } from './catalogue.js';

export { deepFreeze };

/** Pages kept per view (a client paging with odd offsets must not grow memory without bound). */
const MAX_PAGES_PER_VIEW = 64;

export interface SnapshotData {
  meta: CatalogueMeta;
  categories: { slug: string; name: string; spec_name: string | null }[];
  entities: readonly StoredEntity[];
}


/** Two lists in id order merged into one (the catalogue's records and the few open-source-layer ones). */
function mergeById<T extends { id: string }>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(cmpId(a[i]!.id, b[j]!.id) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

function storeUnavailable(cause: unknown): DomainError {
  return new DomainError('store_unavailable', 'The entity store is unavailable; try again shortly.', {
    cause_kind: cause instanceof Error ? cause.name : 'unknown',
  });
}

export class MemoryCatalogue implements Catalogue {
  private readonly byId = new Map<string, StoredEntity>();
  /** The same records by their ids as written: what the search index hands back, looked up without lower-casing. */
  private readonly byExactId = new Map<string, StoredEntity>();
  /** Catalogue records in id order. */
  private readonly sorted: readonly StoredEntity[];
  /** Catalogue and open-source-layer ids, lower-cased, in id order (for idsWithPrefix). */
  private readonly allIds: { lower: string; id: string }[];
  private readonly views = new Map<string, readonly StoredEntity[]>();
  private readonly pages = new Map<readonly StoredEntity[], Map<string, readonly StoredEntity[]>>();
  private readonly categoryInfo: readonly CategoryInfo[];
  private readonly metaData: CatalogueMeta;

  /**
   * @param data the catalogue (frozen in place)
   * @param oss open-source-layer records: resolvable by id only, never listed or counted
   * @param health throws when the backing store can no longer be read
   */
  constructor(
    data: SnapshotData,
    oss: readonly StoredEntity[],
    private readonly health: () => void,
  ) {
    this.sorted = deepFreeze(sortedById(data.entities));
    const lowerOf = new Map<StoredEntity, string>();
    const add = (e: StoredEntity) => {
      const k = e.id.toLowerCase();
      if (this.byId.has(k)) return;
      this.byId.set(k, e);
      this.byExactId.set(e.id, e);
      lowerOf.set(e, k);
    };
    for (const e of this.sorted) add(e);
    for (const e of oss) add(deepFreeze(e));
    // The lower-cased ids made above are shared with allIds (not made a second time).
    this.allIds = mergeById(this.sorted, sortedById(oss)).map((e) => ({ lower: lowerOf.get(e) ?? e.id.toLowerCase(), id: e.id }));
    const counts = new Map<string, number>();
    for (const e of this.sorted) counts.set(e.category, (counts.get(e.category) ?? 0) + 1);
    const known = new Set(data.categories.map((c) => c.slug));
    const extra = [...counts.keys()].filter((s) => !known.has(s)).sort();
    this.categoryInfo = deepFreeze([
      ...data.categories.map((c) => ({ slug: c.slug, name: c.name, spec_name: c.spec_name, count: counts.get(c.slug) ?? 0 })),
      // A category used by records but missing from categories.json still gets listed.
      ...extra.map((slug) => ({ slug, name: slug, spec_name: null, count: counts.get(slug) ?? 0 })),
    ]);
    this.metaData = deepFreeze({ ...data.meta });
  }

  private read<T>(fn: () => T): Promise<T> {
    try {
      this.health();
    } catch (err) {
      return Promise.reject(err instanceof DomainError ? err : storeUnavailable(err));
    }
    return Promise.resolve(fn());
  }

  private view(category: string | undefined, includeQuarantine: boolean): readonly StoredEntity[] {
    const key = `${includeQuarantine ? 'q' : '-'}:${category ?? ''}`;
    let v = this.views.get(key);
    if (!v) {
      v = Object.freeze(this.sorted.filter((e) => (category === undefined || e.category === category) && (includeQuarantine || !e.quarantine)));
      this.views.set(key, v);
    }
    return v;
  }

  /** The catalogue's records in id order (the frozen snapshot itself; for building indexes at start). */
  get sortedRecords(): readonly StoredEntity[] {
    return this.sorted;
  }

  /** Case-insensitive: the id as written first, then lower-cased. */
  private lookup(id: string): StoredEntity | undefined {
    return this.byExactId.get(id) ?? this.byId.get(id.toLowerCase());
  }

  get(id: string) {
    return this.read(() => this.lookup(id) ?? null);
  }

  probe() {
    return this.read(() => undefined);
  }

  getMany(ids: readonly string[]) {
    return this.read(() => {
      const out: StoredEntity[] = [];
      for (const i of ids) {
        const e = this.lookup(i);
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
        items = Object.freeze(v.slice(offset, end));
        if (pages.size < MAX_PAGES_PER_VIEW) pages.set(key, items);
      }
      return { total: v.length, items: items as StoredEntity[] };
    });
  }

  all() {
    return this.read(() => [...this.sorted]);
  }

  categories() {
    return this.read(() => this.categoryInfo.map((c) => ({ ...c })));
  }

  idsWithPrefix(prefix: string, limit: number) {
    return this.read(() => {
      const p = prefix.toLowerCase();
      const out: string[] = [];
      for (const x of this.allIds) {
        if (out.length >= limit) break;
        if (x.lower.startsWith(p)) out.push(x.id);
      }
      return out;
    });
  }

  meta() {
    return this.read(() => ({ ...this.metaData }));
  }
}
