/**
 * The one place search meets the spec layer: compile `where` + `sort` once per request, then
 * narrow and order a candidate list (any objects with an id). Undeclared never matches; the meta
 * says per filter how many candidates were left out as unknown.
 */
import { DomainError } from '../errors.js';
import type { SpecIndex } from './index.js';
import type { Spec } from './types.js';
import { compileClause, compileSort, parseWhereText, type CompiledClause, type CompiledSort, type WhereClause } from './where.js';

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
  /** Candidates that do not declare the field (or only as a bound): left out as unknown. */
  unknown_excluded: number;
  /** Candidates that declare it and fail it. */
  failed: number;
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

export function applySpecQuery<T extends { id: string }>(index: SpecIndex, q: CompiledSpecQuery, candidates: readonly T[]): SpecQueryResult<T> {
  const specsOf = (id: string): readonly Spec[] => index.specsOf(id);
  const filters: FilterMeta[] = q.clauses.map((c) => ({ field: c.field, op: c.op, value: c.value, applied: c.applied, matched: 0, unknown_excluded: 0, failed: 0 }));
  const out: T[] = [];
  for (const cand of candidates) {
    const specs = specsOf(cand.id);
    let ok = true;
    q.clauses.forEach((c, i) => {
      const t = c.test(specs.filter((s) => s.field === c.field));
      if (t === true) filters[i].matched++;
      else {
        ok = false;
        if (t === 'unknown') filters[i].unknown_excluded++;
        else filters[i].failed++;
      }
    });
    if (ok) out.push(cand);
  }
  let sort: SortMeta | null = null;
  if (q.sort) {
    const s = q.sort;
    const keyed = out.map((m, i) => ({ m, i, k: s.key(specsOf(m.id).filter((x) => x.field === s.field)) }));
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
  const filters: FilterMeta[] = q.clauses.map((c) => ({ field: c.field, op: c.op, value: c.value, applied: c.applied, matched: 0, unknown_excluded: 0, failed: 0 }));
  const sort: SortMeta | null = q.sort ? { field: q.sort.field, order: q.sort.descending ? 'desc' : 'asc', undeclared_last: 0 } : null;
  const filter = (id: string): boolean => {
    const row = index.get(id);
    const specs = row?.specs.specs ?? [];
    const counted = includeQuarantine || !(row?.quarantine ?? false);
    let ok = true;
    q.clauses.forEach((c, i) => {
      const t = c.test(specs.filter((s) => s.field === c.field));
      if (t !== true) ok = false;
      if (!counted) return;
      if (t === true) filters[i].matched++;
      else if (t === 'unknown') filters[i].unknown_excluded++;
      else filters[i].failed++;
    });
    return ok;
  };
  const s = q.sort;
  const orderBy = s
    ? {
        dir: (s.descending ? 'desc' : 'asc') as 'asc' | 'desc',
        key: (id: string) => {
          const k = s.key(index.specsOf(id).filter((x) => x.field === s.field));
          if (k === null) sort!.undeclared_last++;
          return k ?? undefined;
        },
      }
    : undefined;
  return { filter, orderBy, filters, sort };
}

/** Compact view of a record's specs for the given fields (hits and tables). */
export function compactSpecs(specs: readonly Spec[], fields: readonly string[]): Record<string, CompactSpec> {
  const out: Record<string, CompactSpec> = {};
  for (const f of fields) {
    const s = specs.find((x) => x.field === f);
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
