/**
 * find_alternatives: parts of the same function (same category; the same declared type ranks
 * first) from other products, ranked by how close their declared specs are to the part's.
 * Records linked as same_as (one product) are never offered; they are shown apart with the
 * evidence of the link; other versions of the part are offered like any product and, listed in
 * `keep`, always shown (they take the last places within the limit). `must` holds hard constraints in the where form (undeclared never passes).
 *
 * Closeness: over the numeric fields the part declares (read, not bounds), each candidate value
 * scores 1 - |a - b| / max(|a|, |b|) (a range by its midpoint); set fields score by overlap
 * (shared / union). A field the candidate does not declare scores 0 and is listed under
 * not_compared. The score is the mean over the part's fields, plus 0.1 for the same type.
 */
import type { SpecIndex, SpecRow } from './index.js';
import { applySpecQuery, type CompiledSpecQuery, type FilterMeta } from './query.js';
import type { Spec } from './types.js';
import { specBounds } from './where.js';

export interface Alternative {
  id: string;
  score: number;
  same_type: boolean;
  same_manufacturer: boolean;
  reasons: string[];
  not_compared: string[];
}

const mid = (s: Spec): number | null => {
  if (s.qualifier !== null) return null;
  const b = specBounds(s);
  return b ? (b.lo.n + b.hi.n) / 2 : null;
};

const fmt = (n: number) => Number(n.toPrecision(6)).toString();

export function findAlternatives(
  index: SpecIndex,
  target: SpecRow,
  meta: { type: (id: string) => string | null },
  opts: { limit: number; must: CompiledSpecQuery | null; keep?: ReadonlySet<string> },
): { alternatives: Alternative[]; considered: number; must: FilterMeta[]; compared_fields: string[] } {
  const sameAs = new Set(index.sameAsOf(target.id).map((l) => l.id));
  const targetType = meta.type(target.id);
  let candidates = index.rows.filter((r) => r.id !== target.id && !r.quarantine && r.category === target.category && !sameAs.has(r.id));
  let mustMeta: FilterMeta[] = [];
  if (opts.must) {
    const r = applySpecQuery(index, { clauses: opts.must.clauses, sort: null }, candidates);
    candidates = r.matches;
    mustMeta = r.filters;
  }
  const tSpecs = target.specs.specs.filter((s) => s.qualifier === null);
  const fields = [...new Set(tSpecs.map((s) => s.field))];
  const out: Alternative[] = candidates.map((c) => {
    const reasons: string[] = [];
    const notCompared: string[] = [];
    let sum = 0;
    for (const f of fields) {
      const a = tSpecs.find((s) => s.field === f)!;
      const b = c.specs.specs.find((s) => s.field === f && s.qualifier === null);
      if (!b) {
        notCompared.push(f);
        continue;
      }
      if (a.values !== null && b.values !== null) {
        const union = new Set([...a.values, ...b.values]);
        const shared = a.values.filter((v) => b.values!.includes(v));
        const sim = union.size === 0 ? 1 : shared.length / union.size;
        sum += sim;
        reasons.push(`${f}: ${shared.length ? `shares ${shared.join(', ')}` : 'no shared value'} (${b.values.join(', ') || 'none'})`);
        continue;
      }
      const va = mid(a);
      const vb = mid(b);
      if (va === null || vb === null) {
        notCompared.push(f);
        continue;
      }
      const m = Math.max(Math.abs(va), Math.abs(vb));
      const sim = m === 0 ? 1 : 1 - Math.abs(va - vb) / m;
      sum += sim;
      const pct = va === 0 ? '' : ` (${vb >= va ? '+' : ''}${fmt(((vb - va) / Math.abs(va)) * 100)}%)`;
      const rating = (a.conditions.rating ?? 'unstated') !== (b.conditions.rating ?? 'unstated') ? `; ratings differ (${a.conditions.rating ?? 'not stated'} vs ${b.conditions.rating ?? 'not stated'})` : '';
      reasons.push(`${f}: ${b.notation} vs ${a.notation}${pct}, level ${b.level}${rating}`);
    }
    const sameType = targetType !== null && meta.type(c.id) === targetType;
    const score = (fields.length ? sum / fields.length : 0) + (sameType ? 0.1 : 0);
    const sameMfr = target.manufacturer !== null && c.manufacturer !== null && target.manufacturer.canonical === c.manufacturer.canonical;
    return { id: c.id, score: Number(score.toFixed(4)), same_type: sameType, same_manufacturer: sameMfr, reasons, not_compared: notCompared };
  });
  out.sort((a, b) => b.score - a.score || (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1));
  // Records in keep (the part's other versions) are never cut off: they take the last places of the limit.
  const kept = opts.keep ? out.filter((a) => opts.keep!.has(a.id)).slice(0, opts.limit) : [];
  const rest = out.filter((a) => !kept.includes(a)).slice(0, opts.limit - kept.length);
  const shown = [...rest, ...kept].sort((a, b) => b.score - a.score || (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1));
  return { alternatives: shown, considered: candidates.length, must: mustMeta, compared_fields: fields };
}
