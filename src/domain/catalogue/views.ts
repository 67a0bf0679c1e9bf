/**
 * Views of catalogue records prepared once. The catalogue snapshot (src/store/memory-catalogue.ts)
 * is deep-frozen and never changes while the process runs, so the deep view of a record, its
 * summary, its detail URL and a page's list of views are computed the first time they are asked
 * for and kept (WeakMaps keyed by the frozen record: memoisation, not state; a record that is not
 * frozen is converted afresh every time, since it could change).
 *
 * Plain data only: their serialised JSON and bytes are prepared by the wire code
 * (src/wire/prepared.ts), which recognises a search hit by `hitSummary`.
 */
import { toDeep, toSummary, type DeepEntity, type StoredEntity, type SummaryEntity } from './entity.js';

const deepOf = new WeakMap<StoredEntity, DeepEntity>();
const summaryOf = new WeakMap<StoredEntity, SummaryEntity>();

/** toDeep(e), once per frozen record (the result is frozen too). */
export function preparedDeep(e: StoredEntity): DeepEntity {
  // Only frozen records are ever cached, so a hit needs no Object.isFrozen (a runtime call).
  let d = deepOf.get(e);
  if (!d) {
    if (!Object.isFrozen(e)) return toDeep(e);
    d = Object.freeze(toDeep(e)); // its nested values are the record's own, already frozen
    deepOf.set(e, d);
  }
  return d;
}

/** toSummary(e), once per frozen record (the result is frozen too). */
export function preparedSummary(e: StoredEntity): SummaryEntity {
  let s = summaryOf.get(e);
  if (!s) {
    if (!Object.isFrozen(e)) return toSummary(e);
    s = Object.freeze(toSummary(e));
    summaryOf.set(e, s);
  }
  return s;
}

/** A record's detail and page URLs under their prefixes (the last prefixes asked for, per record). */
const linksOf = new WeakMap<object, RecordLinks>();

export interface RecordLinks {
  readonly detailPrefix: string | null;
  readonly pagePrefix: string | null;
  /** detailPrefix + encodeURIComponent(id), when a detail prefix is given. */
  readonly detail: string | undefined;
  /** pagePrefix + encodeURIComponent(id), when a page prefix is given. */
  readonly page: string | undefined;
}

/**
 * A record's detail URL and page URL (prefix + encodeURIComponent(id) each, undefined without a
 * prefix), kept per frozen record for the prefixes last asked for (a server has one of each): a
 * page of hits then neither builds nor escapes its URLs, and reads one kept entry per hit.
 */
export function preparedLinks(e: { id: string }, detailPrefix: string | null, pagePrefix: string | null): RecordLinks {
  let l = linksOf.get(e);
  if (l === undefined || l.detailPrefix !== detailPrefix || l.pagePrefix !== pagePrefix) {
    const id = detailPrefix === null && pagePrefix === null ? '' : encodeURIComponent(e.id);
    l = { detailPrefix, pagePrefix, detail: detailPrefix === null ? undefined : detailPrefix + id, page: pagePrefix === null ? undefined : pagePrefix + id };
    if (Object.isFrozen(e)) linksOf.set(e, l);
  }
  return l;
}

const deepListOf = new WeakMap<readonly StoredEntity[], readonly DeepEntity[]>();
const summaryListOf = new WeakMap<readonly StoredEntity[], readonly SummaryEntity[]>();

/** items.map(preparedDeep), once per frozen list (the store hands out the same frozen page each time). */
export function preparedDeepList(items: readonly StoredEntity[]): DeepEntity[] {
  if (!Object.isFrozen(items)) return items.map(preparedDeep);
  let l = deepListOf.get(items);
  if (!l) {
    l = Object.freeze(items.map(preparedDeep));
    deepListOf.set(items, l);
  }
  return l as DeepEntity[];
}

/** items.map(preparedSummary), once per frozen list. */
export function preparedSummaryList(items: readonly StoredEntity[]): SummaryEntity[] {
  if (!Object.isFrozen(items)) return items.map(preparedSummary);
  let l = summaryListOf.get(items);
  if (!l) {
    l = Object.freeze(items.map(preparedSummary));
    summaryListOf.set(items, l);
  }
  return l as SummaryEntity[];
}

/** What a search hit adds after the summary fields, in this order (left out when undefined). */
export interface HitExtras {
  relevance_score: number;
  matched_fields: readonly string[];
  detail_url?: string;
  page_url?: string;
  specs?: Record<string, unknown>;
}

/**
 * A search hit: the summary's fields (SUMMARY_FIELDS, in order), then relevance_score,
 * matched_fields, detail_url, page_url and specs; own data properties, frozen, so it is what
 * `{ ...summary, ...extras }` would be for every reader (JSON.stringify, Object.keys, spread).
 * Made by a constructor with fixed assignments (about ten times cheaper than a spread and a
 * freeze of 18 keys), and it remembers its summary: the wire code serialising a page of hits
 * copies each summary's prepared bytes and writes only the extras.
 */
/** A hit's own properties, as its constructor writes them. */
type Fields = Record<string, unknown>;

class PreparedHit {
  readonly #summary: SummaryEntity;
  /** Whether the summary is frozen (a prepared one), so that its prepared bytes can stand for it. */
  readonly #prepared: boolean;

  constructor(s: SummaryEntity, x: HitExtras) {
    // Each assigned as this.<name> (the casts compile away): V8 sizes the object from the assignments
    // to `this` it sees in the constructor; through an alias it saw none and grew a property store
    // several times per hit.
    // SUMMARY_FIELDS in their order (test/spine/prepared.test.ts holds the two together).
    (this as unknown as Fields).id = s.id;
    (this as unknown as Fields).name = s.name;
    (this as unknown as Fields).name_en = s.name_en;
    (this as unknown as Fields).category = s.category;
    (this as unknown as Fields).manufacturer = s.manufacturer;
    (this as unknown as Fields).type = s.type;
    (this as unknown as Fields).protocol = s.protocol;
    (this as unknown as Fields).interface = s.interface;
    (this as unknown as Fields).voltage = s.voltage;
    (this as unknown as Fields).weight = s.weight;
    (this as unknown as Fields).torque = s.torque;
    (this as unknown as Fields).ros_support = s.ros_support;
    (this as unknown as Fields).price_range = s.price_range;
    (this as unknown as Fields).source_tier = s.source_tier;
    (this as unknown as Fields).quarantine = s.quarantine;
    (this as unknown as Fields).relevance_score = x.relevance_score;
    (this as unknown as Fields).matched_fields = x.matched_fields;
    if (x.detail_url !== undefined) (this as unknown as Fields).detail_url = x.detail_url;
    if (x.page_url !== undefined) (this as unknown as Fields).page_url = x.page_url;
    if (x.specs !== undefined) (this as unknown as Fields).specs = x.specs;
    this.#summary = s;
    this.#prepared = Object.isFrozen(s);
    Object.freeze(this);
  }

  /** The summary a hit was made from, when it is frozen (prepared) and so can stand for the hit's first fields. */
  static summaryOf(v: object): SummaryEntity | undefined {
    return #summary in v && (v as PreparedHit).#prepared ? (v as PreparedHit).#summary : undefined;
  }

  static is(v: object): boolean {
    return #summary in v;
  }
}

/** A search hit for `summary` (a prepared summary) with the extras after its fields. */
export function searchHit<S extends SummaryEntity, X extends HitExtras>(summary: S, extras: X): S & X {
  return new PreparedHit(summary, extras) as unknown as S & X;
}

/** Whether v was made by searchHit. */
export const isSearchHit = (v: object): boolean => PreparedHit.is(v);

/** The summary a search hit was made from, when that summary is frozen; undefined for anything else. */
export const hitSummary = (v: object): SummaryEntity | undefined => PreparedHit.summaryOf(v);
