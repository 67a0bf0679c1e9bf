/**
 * Search, lookup and listing over the catalogue: the domain behind search_parts, get_part,
 * list_parts and their REST routes. No MCP or HTTP types here.
 */
import { resolveCategory } from './categories.js';
import { PAID_FIELDS, idPrefix, toFree, type FreeEntity, type StoredEntity, type SummaryEntity } from './entity.js';
import { DomainError, invalidInput } from '../shared/errors.js';
import type { SearchField, SearchIndex } from './search.js';
import { tokenize } from './search.js';
import { levenshtein } from '../shared/distance.js';
import { preparedLinks, preparedSummary, searchHit, type HitExtras } from './views.js';
import type { Catalogue } from './store.js';
import type { SpecIndex } from '../specs/index.js';
import { compactFieldSpecs, compactSpec, compileSpecQuery, specHook, type CompactSpec, type FilterMeta, type SortMeta } from '../specs/query.js';
import type { UnreadValue } from '../specs/types.js';
import type { WhereClause } from '../specs/where.js';
import { productLinks, type ProductLinks } from '../specs/product.js';
import { searchElsewhere } from './elsewhere.js';
import { partPageMember, partPageUrl, withRobotPages } from '../shared/page-urls.js';
import type { PartsContext } from './context.js';
import { readName, type Elsewhere } from './names.js';
import { robotsUsingEntity, type UsedInSummary, type WhereUsedLayer } from '../oss/where-used.js';

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;

export type { PartsContext };

export interface SearchParams {
  q?: string;
  /** Spec filters (AND), as {field, op, value} items or the compact text form. */
  where?: readonly WhereClause[] | string;
  /** A numeric spec field to sort by ("-field" descending). */
  sort?: string;
  category?: string;
  limit?: number;
  include_quarantine?: boolean;
  offset?: number;
}

export type SearchHit = SummaryEntity & { relevance_score: number; matched_fields: SearchField[]; detail_url?: string; page_url?: string; specs?: Record<string, CompactSpec> };

export interface SearchResult {
  data: SearchHit[];
  total: number;
  next_offset: number | null;
  meta: {
    q: string | null;
    terms: string[];
    filters: FilterMeta[];
    sort: SortMeta | null;
    category: string | null;
    limit: number;
    limit_clamped: boolean;
    quarantined_excluded: number;
    include_quarantine: boolean;
    /** When q finds nothing: where else the name occurs, with the call that shows it. */
    elsewhere?: Elsewhere[];
  };
}

/** The start of every detail_url under baseUrl: the record's encoded id follows. */
function detailUrlPrefix(baseUrl: string): string {
  return `${baseUrl.replace(/\/$/, '')}/api/entity/`;
}

let lastPrefixes: { baseUrl: string | null; detail: string | null; page: string | null } = { baseUrl: null, detail: null, page: null };

/**
 * The detail and page URL prefixes under baseUrl (null without one), made once per base URL in a
 * row (a server has one): the same strings each call, so each hit's kept links are matched by
 * reference, not compared character by character.
 */
function linkPrefixes(baseUrl: string | null): { detail: string | null; page: string | null } {
  if (baseUrl !== lastPrefixes.baseUrl) lastPrefixes = baseUrl === null ? { baseUrl, detail: null, page: null } : { baseUrl, detail: detailUrlPrefix(baseUrl), page: partPageUrl(baseUrl, '') };
  return lastPrefixes;
}

export function checkLimit(limit: number | undefined, def: number, max: number): { limit: number; clamped: boolean } {
  if (limit === undefined) return { limit: def, clamped: false };
  if (!Number.isInteger(limit) || limit < 1) throw invalidInput('limit', `must be an integer from 1 to ${max}`);
  return limit > max ? { limit: max, clamped: true } : { limit, clamped: false };
}

/** Longest query text and most distinct terms one search takes (each term scans the index). */
export const SEARCH_Q_MAX_CHARS = 500;
export const SEARCH_MAX_TERMS = 16;

export async function searchParts(ctx: PartsContext, p: SearchParams): Promise<SearchResult> {
  const q = p.q ?? '';
  if (q.length > SEARCH_Q_MAX_CHARS) throw invalidInput('q', `is ${q.length} characters long; at most ${SEARCH_Q_MAX_CHARS}`);
  const terms = [...new Set(tokenize(q))];
  if (terms.length > SEARCH_MAX_TERMS) throw invalidInput('q', `has ${terms.length} distinct terms; at most ${SEARCH_MAX_TERMS} (all must match, so fewer, more specific terms find the same)`);
  // Compiled first: a bad field, op or unit is invalid_input before anything is read.
  const specQuery = compileSpecQuery(ctx.specs, { where: p.where, sort: p.sort });
  if (terms.length === 0 && (specQuery === null || specQuery.clauses.length === 0)) {
    throw invalidInput('q', 'is required unless where is given: one or more space-separated terms');
  }
  const { limit, clamped } = checkLimit(p.limit, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX);
  const category = p.category !== undefined ? resolveCategory(p.category, await ctx.catalogue.categories()) : null;
  const includeQ = p.include_quarantine ?? false;

  // The spec layer hook: where -> a candidate predicate, sort -> the index's orderBy (undeclared never matches, sorts last).
  const spec = specQuery ? specHook(ctx.specs, specQuery, includeQ) : null;
  const specFields = specQuery ? [...new Set([...specQuery.clauses.map((c) => c.field), ...(specQuery.sort ? [specQuery.sort.field] : [])])] : [];

  const offset = p.offset ?? 0;
  // A maker's name written in several words ("T-Motor", "Harmonic Drive") is one name, not its words
  // ("t" and "motor" each match other makers' records): its company's records only (aliases and brands included).
  const company = terms.length > 1 ? wholeCompanyName(ctx, q) : null;
  const ofCompany = company === null ? null : (id: string) => ctx.specs.companyOf(id) === company;
  const filter = spec && ofCompany ? (id: string) => ofCompany(id) && spec.filter(id) : (ofCompany ?? spec?.filter);
  // Category, quarantine and paging are applied inside the index, before its top-k selection.
  const { page, total, quarantinedExcluded: excluded } = ctx.index.query(
    terms,
    spec
      ? { category, includeQuarantine: includeQ, offset, limit, filter, orderBy: spec.orderBy, allWhenNoTerms: true }
      : { category, includeQuarantine: includeQ, offset, limit, ...(filter ? { filter } : {}) },
  );
  // Records come from the store, so an unreadable store is a 503, never an empty result.
  const records = await ctx.catalogue.getMany(
    page.map((m) => m.id),
    page.map((m) => m.position),
  );
  const data: SearchHit[] = [];
  const { detail: urlPrefix, page: pagePrefix } = linkPrefixes(ctx.baseUrl);
  for (let i = 0; i < page.length; i++) {
    const m = page[i]!;
    // getMany answers in the order asked, leaving out ids it does not know.
    const r = records[i];
    if (r?.id !== m.id) throw new DomainError('store_unavailable', 'The entity store and the search index disagree; try again shortly.');
    const summary = preparedSummary(r);
    const links = urlPrefix !== null || pagePrefix !== null ? preparedLinks(summary, urlPrefix, pagePrefix) : null;
    // One literal with every member (searchHit leaves out those undefined), not one grown member by member.
    const extras: HitExtras = {
      relevance_score: m.relevance_score,
      matched_fields: m.matched_fields,
      detail_url: links?.detail,
      page_url: links?.page,
      specs: specFields.length > 0 ? compactFieldSpecs(ctx.specs, r.id, specFields) : undefined,
    };
    data.push(searchHit(summary, extras as HitExtras & Omit<SearchHit, keyof SummaryEntity>));
  }
  const meta: SearchResult['meta'] = {
    q: p.q ?? null,
    // A maker's name read whole is one term.
    terms: company === null ? terms : [q.trim().toLowerCase()],
    filters: spec?.filters ?? [],
    sort: spec?.sort ?? null,
    category,
    limit,
    limit_clamped: clamped,
    quarantined_excluded: excluded,
    include_quarantine: includeQ,
  };
  // Nothing for the words themselves (filters and category aside): say where else the name occurs.
  if (total === 0 && terms.length > 0 && spec === null && category === null) meta.elsewhere = searchElsewhere(ctx, q, terms, excluded);
  return { data, total, next_offset: offset + limit < total ? offset + limit : null, meta };
}

export interface PartLookup {
  entity: FreeEntity;
  /** The part's HTML page, when the base URL is known. */
  page_url?: string;
  locked_fields: string[];
  quarantine_hint: string | null;
  used_in: UsedInSummary | null;
  /** The record's normalised specs, each with the record field it was read from and that field's upstream path. */
  specs: PartSpec[];
  /** Declared values the spec layer could not read, with the reason. */
  unread_specs: UnreadValue[];
  /** Same product, versions and conflicting values (catalogue records; empty lists for a layer record). */
  product: ProductLinks;
}

export type PartSpec = CompactSpec & { field: string; source: string; evidence: string[] | null };

function hasValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** The company a multi-word query names as a whole (canonical, alias or brand; not a model or family), when some record is of it. */
function wholeCompanyName(ctx: PartsContext, q: string): string | null {
  const r = readName(ctx.specs.manufacturers, q);
  if (r === null || r.via.relation === 'model' || r.via.relation === 'family') return null;
  return r.company;
}

/** Paid field names that carry a value for this record (what a key would unlock). */
export function lockedFields(e: StoredEntity): string[] {
  return PAID_FIELDS.filter((f) => hasValue(e.deep[f]));
}

export function quarantineHint(e: StoredEntity): string | null {
  if (!e.quarantine) return null;
  const reason = e.quarantine_reason ?? 'flagged as suspicious';
  const dup = e.duplicate_of ? ` Use the canonical entry ${e.duplicate_of} instead.` : '';
  return `Quarantined (${reason}): excluded from search by default; verify before relying on it.${dup}`;
}


export const DID_YOU_MEAN_MAX = 5;

/** Ids whose name (or English name) holds the query's words as a contiguous run; clean records first, then id order. */
async function nameMatches(ctx: PartsContext, query: string): Promise<string[]> {
  const q = tokenize(query);
  if (q.length === 0 || q.join('').length < 2) return [];
  const holds = (text: string) => {
    const t = tokenize(text);
    for (let i = 0; i + q.length <= t.length; i++) if (q.every((w, j) => t[i + j] === w)) return true;
    return false;
  };
  // A company name as a whole (any of its names, brands or families: src/domain/catalogue/names.ts): its records too.
  const named = readName(ctx.specs.manufacturers, query);
  const ofCompany = (e: StoredEntity) => named !== null && ctx.specs.manufacturers.read(e.manufacturer)?.canonical === named.company;
  const all = await ctx.catalogue.all();
  return all
    .filter((e) => holds(e.name) || holds(e.name_en) || ofCompany(e))
    .sort((a, b) => Number(a.quarantine) - Number(b.quarantine) || (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1))
    .map((e) => e.id);
}

/** The stored record of an id (case-insensitive); not_found with did_you_mean on a miss. */
export async function findPart(ctx: PartsContext, id: string): Promise<StoredEntity> {
  const trimmed = id.trim();
  if (!trimmed) throw invalidInput('id', 'is required');
  const e = await ctx.catalogue.get(trimmed);
  if (e) return e;
  const prefix = idPrefix(trimmed);
  const near = prefix === trimmed ? [] : await ctx.catalogue.idsWithPrefix(`${prefix}-`, 10_000);
  const q = trimmed.toLowerCase();
  // Nearest first: by numeric distance when both ids end in a number (ACT-011 -> ACT-010), then edit distance.
  // Open-source-layer ids end in a hash (OSS-LIVE-<10 hex>), never a sequence number: edit distance only.
  const num = (s: string) => {
    if (/^oss-live-/i.test(s)) return null;
    const m = /-(\d+)$/.exec(s);
    return m ? Number(m[1]) : null;
  };
  const qn = num(q);
  const did_you_mean = near
    .map((cand) => {
      const cn = num(cand);
      return { cand, n: qn !== null && cn !== null ? Math.abs(qn - cn) : Number.POSITIVE_INFINITY, d: levenshtein(q, cand.toLowerCase()) };
    })
    .sort((x, y) => x.n - y.n || x.d - y.d || (x.cand.toLowerCase() < y.cand.toLowerCase() ? -1 : 1))
    .map((x) => x.cand);
  // Then records whose name or model number contains the query's words in order ("ak80-9" -> the AK80-9 records).
  for (const cand of await nameMatches(ctx, trimmed)) if (!did_you_mean.includes(cand)) did_you_mean.push(cand);
  did_you_mean.splice(DID_YOU_MEAN_MAX);
  throw new DomainError('not_found', `No entity with id "${trimmed}".${did_you_mean.length ? ` Did you mean ${did_you_mean.join(', ')}?` : ''}`, {
    id: trimmed,
    did_you_mean,
  });
}

export async function getPart(ctx: PartsContext, id: string): Promise<PartLookup> {
  const e = await findPart(ctx, id);
  // Catalogue records only: a layer record is itself a line of a robot's BOM or URDF.
  const used = ctx.layer && e.oss !== true ? robotsUsingEntity(ctx.layer, e) : null;
  // Each robot with its page when the base URL is known (as find_where_used's robots).
  const used_in = used && ctx.baseUrl !== null ? { ...used, robots: withRobotPages(ctx.baseUrl, used.robots) } : used;
  const row = ctx.specs.get(e.id);
  const specs = (row?.specs.specs ?? []).map((s) => Object.assign({ field: s.field }, compactSpec(s), { source: s.source, evidence: e.provenance?.[s.source] ?? null }));
  return { entity: toFree(e), ...partPageMember(ctx.baseUrl, e.id), locked_fields: lockedFields(e), quarantine_hint: quarantineHint(e), used_in, specs, unread_specs: [...(row?.specs.unread ?? [])], product: productLinks(ctx.specs, e.id) };
}

export interface ListParams {
  category?: string;
  include_quarantine?: boolean;
  limit?: number;
  offset?: number;
  /** The largest page (default LIST_LIMIT_MAX); larger limits are clamped and say so. */
  maxLimit?: number;
}

export const LIST_LIMIT_DEFAULT = 100;
/** Entities per page at most over REST (/api/entities.json lists "all categories": the spec's route). */
export const LIST_LIMIT_MAX = 1000;
/**
 * Entities per list_parts page at most over MCP: 500 summaries stay within the 200,000-character
 * answer budget (all 798 shipped records in one answer were ~226,000 characters).
 */
export const LIST_LIMIT_MAX_MCP = 500;

export async function listParts(ctx: PartsContext, p: ListParams): Promise<{ total: number; items: StoredEntity[]; next_offset: number | null; category: string | null; limit: number; limit_clamped: boolean; quarantined_excluded: number }> {
  const { limit, clamped } = checkLimit(p.limit, LIST_LIMIT_DEFAULT, p.maxLimit ?? LIST_LIMIT_MAX);
  const category = p.category !== undefined ? resolveCategory(p.category, await ctx.catalogue.categories()) : null;
  const offset = p.offset ?? 0;
  const includeQ = p.include_quarantine ?? false;
  const res = await ctx.catalogue.list({ category: category ?? undefined, includeQuarantine: includeQ, offset, limit });
  const excluded = includeQ ? 0 : (await ctx.catalogue.list({ category: category ?? undefined, includeQuarantine: true, limit: 0 })).total - res.total;
  return {
    total: res.total,
    items: res.items,
    next_offset: offset + limit < res.total ? offset + limit : null,
    category,
    limit,
    limit_clamped: clamped,
    quarantined_excluded: excluded,
  };
}
