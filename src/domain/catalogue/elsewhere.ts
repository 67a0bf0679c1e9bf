/**
 * Where else a name occurs when a search or a where-used query finds nothing: quarantined
 * records, the company's other names and product families (src/domain/catalogue/names.ts), the
 * open-source layer, the catalogue, close spellings. Each entry names the call that shows it.
 */
import type { PartsContext } from './context.js';
import { closeSpellings, formNote, nameMatcher, readName, type Elsewhere } from './names.js';
import { tokenize } from './search.js';
import { tokensOf, whereUsed } from '../oss/where-used.js';

/** Entries at most (other names and close spellings are the ones that can be many). */
const ELSEWHERE_MAX = 8;

function catalogueCount(ctx: PartsContext, q: string, includeQuarantine: boolean): number {
  const terms = [...new Set(tokenize(q))];
  return terms.length === 0 ? 0 : ctx.index.query(terms, { includeQuarantine, limit: 0 }).total;
}

/** Lines and URDF parts of the open-source layer whose text names q, and the robots they belong to. */
export function layerCount(ctx: PartsContext, q: string): { lines: number; robots: number } {
  const layer = ctx.layer;
  if (!layer || tokensOf(q).length === 0) return { lines: 0, robots: 0 };
  const r = whereUsed(layer, nameMatcher(ctx.specs.manufacturers, q).matcher, { q });
  return { lines: r.counts.bom_lines + r.counts.urdf_mentions, robots: r.counts.robots };
}

/** The company's other names that do find catalogue records (search_parts) or layer lines (find_where_used). */
function otherNames(ctx: PartsContext, q: string, tool: 'search_parts' | 'find_where_used'): Elsewhere[] {
  const r = readName(ctx.specs.manufacturers, q);
  if (!r) return [];
  const out: Elsewhere[] = [];
  for (const f of r.forms) {
    if (f === r.via) continue;
    const count = tool === 'search_parts' ? catalogueCount(ctx, f.name, false) : layerCount(ctx, f.name).lines;
    const via = r.via.evidence ? `; "${q}" is ${formNote(r, r.via).replace(/^"[^"]*" is /, '')}` : '';
    if (count > 0) out.push({ where: 'other_name', count, call: { tool, arguments: { q: f.name } }, note: formNote(r, f) + via });
  }
  return out;
}

/** search_parts found nothing for q (outside quarantine, filters and category aside). */
export function searchElsewhere(ctx: PartsContext, q: string, terms: readonly string[], quarantinedExcluded: number): Elsewhere[] {
  const out: Elsewhere[] = [];
  if (quarantinedExcluded > 0) {
    out.push({ where: 'quarantined', count: quarantinedExcluded, call: { tool: 'search_parts', arguments: { q, include_quarantine: true } }, note: 'records flagged as suspicious match; check their quarantine_hint before relying on them' });
  }
  out.push(...otherNames(ctx, q, 'search_parts'));
  const layer = layerCount(ctx, q);
  if (layer.lines > 0) {
    out.push({ where: 'open_source_layer', count: layer.lines, call: { tool: 'find_where_used', arguments: { q } }, note: `BOM lines and URDF parts of ${layer.robots} open-source robot(s) name it (quantities and stated prices there)` });
  }
  out.push(...spellings(ctx, terms));
  return out.slice(0, ELSEWHERE_MAX);
}

/** find_where_used found nothing for q. */
export function whereUsedElsewhere(ctx: PartsContext, q: string): Elsewhere[] {
  const out: Elsewhere[] = [];
  const live = catalogueCount(ctx, q, false);
  const all = catalogueCount(ctx, q, true);
  if (live > 0) out.push({ where: 'catalogue', count: live, call: { tool: 'search_parts', arguments: { q } }, note: 'catalogue records match the name (no open-source robot lists them)' });
  if (all > live) out.push({ where: 'quarantined', count: all - live, call: { tool: 'search_parts', arguments: { q, include_quarantine: true } }, note: 'quarantined catalogue records match the name' });
  out.push(...otherNames(ctx, q, 'find_where_used'));
  out.push(...spellings(ctx, [...new Set(tokenize(q))]));
  return out.slice(0, ELSEWHERE_MAX);
}

/** A word on more than one record in this many is a generic word (actuator, motor), never offered for a name. */
const GENERIC_SHARE = 20;

/**
 * Close spellings of the terms no catalogue word starts with, each as a whole query with the term
 * replaced. A name is offered names: a word inside the term or holding it ("actuator" for
 * "myactuator") is another word, not a misspelling, and a word on many records is generic.
 */
function spellings(ctx: PartsContext, terms: readonly string[]): Elsewhere[] {
  const out: Elsewhere[] = [];
  let records: number | null = null;
  for (const t of terms) {
    if (catalogueCount(ctx, t, true) > 0) continue;
    for (const w of closeSpellings(t, ctx.index.words)) {
      if (t.includes(w) || w.includes(t)) continue;
      records ??= ctx.index.query([], { allWhenNoTerms: true, limit: 0 }).total;
      if (catalogueCount(ctx, w, false) * GENERIC_SHARE > records) continue;
      const alt = terms.map((x) => (x === t ? w : x)).join(' ');
      const count = catalogueCount(ctx, alt, false);
      if (count > 0) out.push({ where: 'close_spelling', count, call: { tool: 'search_parts', arguments: { q: alt } }, note: `"${w}" is a catalogue word one or two letters from "${t}"` });
    }
  }
  return out;
}
