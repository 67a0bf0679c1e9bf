/**
 * The one place search meets the spec layer: compile `where` + `sort` once per request, then
 * narrow and order a candidate list (any objects with an id). Undeclared never matches; the meta
 * says per filter how many candidates were left out as unknown.
 */
import { DomainError } from '../shared/errors.js';
import type { SpecIndex } from './index.js';
import type { Spec } from './types.js';
import { compileClause, compileSort, parseWhereText, type CompiledClause, type CompiledSort, type Truth, type WhereClause } from './where.js';

export interface SpecQueryInput {
  where?: readonly WhereClause[] | string;
  sort?: string;
}

export interface CompiledSpecQuery {
  clauses: CompiledClause[];
  sort: CompiledSort | null;
}

export const WHERE_MAX = 20;

export function compileSpecQuery(index: SpecIndex, q: SpecQueryInput): CompiledSpecQuery | null {
  const raw = typeof q.where === 'string' ? parseWhereText(q.where) : (q.where ?? []);
  if (raw.length > WHERE_MAX) throw new DomainError('invalid_input', `where: at most ${WHERE_MAX} filters`, { field: 'where' });
  const clauses = raw.map((c, i) => {
    if (typeof c !== 'object' || c === null || Array.isArray(c)) throw new DomainError('invalid_input', `where.${i}: must be {field, op, value}`, { field: `where.${i}` });
    return compileClause(index, c, `where.${i}`);
  });
  const sort = q.sort !== undefined && q.sort.trim() !== '' ? compileSort(index, q.sort) : null;
  return clauses.length === 0 && sort === null ? null : { clauses, sort };
}

export interface FilterMeta {
  field: string;
  op: string;
  value: unknown;
  /** The value(s) as applied, in the field's SI unit (or normalised names). */
  applied: string[];
  /** Candidates for which this filter holds. */
  matched: number;
  /** Candidates in the categories the field applies to that do not declare it, or declare it unread or only as a bound: left out as unknown. */
  unknown_excluded: number;
  /** Candidates that declare it, read, and fail it. */
  failed: number;
  /** Candidates of categories where no record declares the field (left out; not counted as unknown). */
  not_applicable: number;
  /** The categories the field applies to (where some record declares it). */
  applies_to: string[];
  /** Unknowns that declare a value this layer did not read or that is only a bound: id, the value as written, why (the first NEAR_MISS_MAX). */
  near_misses: NearMiss[];
}

export interface NearMiss {
  id: string;
  declared: string;
  reason: string;
}

/** Near misses listed per filter (the count of unknowns is exact; the list is capped). */
export const NEAR_MISS_MAX = 5;

function filterMeta(index: SpecIndex, c: CompiledClause): FilterMeta {
  return { field: c.field, op: c.op, value: c.value, applied: c.applied, matched: 0, unknown_excluded: 0, failed: 0, not_applicable: 0, applies_to: [...index.appliesTo(c.field)], near_misses: [] };
}

/** A candidate as the filters see it: the record's id as held, category and quarantine flag. */
type Candidate = { id: string; category: string; quarantine: boolean } | null;

/** Counts one candidate's outcome for one filter. */
function tally(index: SpecIndex, m: FilterMeta, t: Truth, row: Candidate, fieldSpecs: readonly Spec[]): void {
  if (t === true) m.matched++;
  else if (t === false) m.failed++;
  else if (row === null || !m.applies_to.includes(row.category)) m.not_applicable++;
  else {
    m.unknown_excluded++;
    const bound = fieldSpecs.find((s) => s.qualifier !== null);
    const u = bound ? null : index.fieldUnread(row.id, m.field)[0];
    if (bound) addNearMiss(m.near_misses, { id: row.id, declared: bound.notation, reason: `declared as a bound (${bound.qualifier}): it cannot settle the filter` });
    else if (u) addNearMiss(m.near_misses, { id: row.id, declared: u.notation, reason: u.reason });
  }
}

/** Keeps the first NEAR_MISS_MAX near misses, those whose text holds a number ("varies (up to 50 Nm)") before those without ("depends on motor"). */
function addNearMiss(list: NearMiss[], n: NearMiss): void {
  const numeric = (x: NearMiss) => /\d/.test(x.declared);
  if (list.length < NEAR_MISS_MAX) {
    list.push(n);
  } else {
    if (!numeric(n)) return;
    let at = list.length - 1;
    while (at >= 0 && numeric(list[at]!)) at--;
    if (at < 0) return;
    list.splice(at, 1);
    list.push(n);
  }
  list.sort((a, b) => Number(numeric(b)) - Number(numeric(a)));
}

export interface SortMeta {
  field: string;
  order: 'asc' | 'desc';
  /** Results without a declared value for the field (listed after those with one). */
  undeclared_last: number;
}

export interface SpecQueryResult<T> {
  matches: T[];
  filters: FilterMeta[];
  sort: SortMeta | null;
}

/** One field's specs of a candidate (none for an id the layer does not hold). */
const ownSpecs = (index: SpecIndex, row: Candidate, field: string): readonly Spec[] => (row === null ? [] : index.fieldSpecs(row.id, field));

/** The fields a query reads (its clauses' and its sort's), their columns built in one pass. */
function prepareQuery(index: SpecIndex, q: CompiledSpecQuery): void {
  index.prepare([...q.clauses.map((c) => c.field), ...(q.sort ? [q.sort.field] : [])]);
}

export function applySpecQuery<T extends { id: string }>(index: SpecIndex, q: CompiledSpecQuery, candidates: readonly T[]): SpecQueryResult<T> {
  prepareQuery(index, q);
  const filters: FilterMeta[] = q.clauses.map((c) => filterMeta(index, c));
  const out: T[] = [];
  for (const cand of candidates) {
    const row = index.recordOf(cand.id);
    let ok = true;
    q.clauses.forEach((c, i) => {
      const own = ownSpecs(index, row, c.field);
      const t = c.test(own);
      if (t !== true) ok = false;
      tally(index, filters[i]!, t, row, own);
    });
    if (ok) out.push(cand);
  }
  let sort: SortMeta | null = null;
  if (q.sort) {
    const s = q.sort;
    const keyed = out.map((m, i) => ({ m, i, k: s.key(ownSpecs(index, index.recordOf(m.id), s.field)) }));
    keyed.sort((a, b) => {
      if (a.k === null || b.k === null) return a.k === null && b.k === null ? a.i - b.i : a.k === null ? 1 : -1;
      return (s.descending ? b.k - a.k : a.k - b.k) || a.i - b.i;
    });
    out.splice(0, out.length, ...keyed.map((x) => x.m));
    sort = { field: s.field, order: s.descending ? 'desc' : 'asc', undeclared_last: keyed.filter((x) => x.k === null).length };
  }
  return { matches: out, filters, sort };
}

/**
 * The search index's extension points for a compiled query: `filter` (all clauses true) and
 * `orderBy`. The meta counts are filled while the index runs the query: per filter over the
 * candidates search would show (quarantined ones only when included); `undeclared_last` over
 * the results.
 */
export function specHook(
  index: SpecIndex,
  q: CompiledSpecQuery,
  includeQuarantine: boolean,
): { filter: (id: string) => boolean; orderBy?: { key: (id: string) => number | undefined; dir: 'asc' | 'desc' }; filters: FilterMeta[]; sort: SortMeta | null } {
  prepareQuery(index, q);
  const filters: FilterMeta[] = q.clauses.map((c) => filterMeta(index, c));
  const sort: SortMeta | null = q.sort ? { field: q.sort.field, order: q.sort.descending ? 'desc' : 'asc', undeclared_last: 0 } : null;
  const filter = (id: string): boolean => {
    const row = index.recordOf(id);
    const counted = includeQuarantine || !(row?.quarantine ?? false);
    let ok = true;
    q.clauses.forEach((c, i) => {
      const own = ownSpecs(index, row, c.field);
      const t = c.test(own);
      if (t !== true) ok = false;
      if (counted) tally(index, filters[i]!, t, row, own);
    });
    return ok;
  };
  const s = q.sort;
  const orderBy = s
    ? {
        dir: (s.descending ? 'desc' : 'asc') as 'asc' | 'desc',
        key: (id: string) => {
          const k = s.key(ownSpecs(index, index.recordOf(id), s.field));
          if (k === null) sort!.undeclared_last++;
          return k ?? undefined;
        },
      }
    : undefined;
  return { filter, orderBy, filters, sort };
}

/** Compact view of a record's specs for the given fields (hits), read field by field (no whole row built). */
export function compactFieldSpecs(index: SpecIndex, id: string, fields: readonly string[]): Record<string, CompactSpec> {
  index.prepare(fields);
  const out: Record<string, CompactSpec> = {};
  for (const f of fields) {
    const s = index.fieldSpecs(id, f)[0];
    if (s) out[f] = compactSpec(s);
  }
  return out;
}

export interface CompactSpec {
  value?: number;
  min?: number;
  max?: number;
  values?: string[];
  unit: string | null;
  notation: string;
  rating?: string;
  qualifier?: string;
  level: string;
}

export function compactSpec(s: Spec): CompactSpec {
  const c: CompactSpec = { unit: s.unit, notation: s.notation, level: s.level };
  if (s.value !== null) c.value = s.value;
  if (s.min !== null) c.min = s.min;
  if (s.max !== null) c.max = s.max;
  if (s.values !== null) c.values = s.values;
  if (s.conditions.rating) c.rating = s.conditions.rating;
  if (s.qualifier) c.qualifier = s.qualifier;
  return c;
}
