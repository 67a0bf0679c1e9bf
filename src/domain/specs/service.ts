/** The spec-layer calls behind list_spec_fields, compare_parts and find_alternatives (one call per tool). */
import { resolveCategory } from '../catalogue/categories.js';
import { invalidInput } from '../shared/errors.js';
import { findPart, quarantineHint, type PartsContext } from '../catalogue/parts.js';
import { findAlternatives, type Alternative } from './alternatives.js';
import { compareParts, type CompareRow } from './compare.js';
import { listSpecFields, type SpecFieldFacet } from './facets.js';
import type { SameAsLink, VersionLink } from './same-as.js';
import { productLinks, type SpecConflict } from './product.js';
import { compileSpecQuery, type FilterMeta } from './query.js';
import type { WhereClause } from './where.js';
import { partPageUrl } from '../shared/page-urls.js';

export async function specFields(ctx: PartsContext, category: string | undefined): Promise<{ category: string | null; records: number; fields: SpecFieldFacet[] }> {
  const cat = category !== undefined ? resolveCategory(category, await ctx.catalogue.categories()) : null;
  return { category: cat, records: ctx.specs.rows.filter((r) => !r.quarantine && (cat === null || r.category === cat)).length, fields: listSpecFields(ctx.specs, cat) };
}

export interface PartRef {
  id: string;
  name: string;
  category: string;
  manufacturer: string | null;
  /** The company's canonical name (aliases and brands read through data/manufacturers.json). */
  manufacturer_canonical: string | null;
  quarantine_hint: string | null;
  /** The part's HTML page, when the base URL is known. */
  page_url?: string;
  same_as: SameAsLink[];
  /** Newer and older versions (newer_version / older_version, named from the listed record's side): other products, never hidden. */
  versions: VersionLink[];
  /** Values that differ between this record and a record linked as the same product. */
  conflicts: SpecConflict[];
}

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 10;

async function partRef(ctx: PartsContext, id: string): Promise<PartRef> {
  const e = await findPart(ctx, id);
  const row = ctx.specs.get(e.id);
  return {
    id: e.id,
    name: e.name,
    category: e.category,
    manufacturer: e.manufacturer,
    manufacturer_canonical: row?.manufacturer?.canonical ?? null,
    quarantine_hint: quarantineHint(e),
    ...(ctx.baseUrl === null ? {} : { page_url: partPageUrl(ctx.baseUrl, e.id) }),
    ...productLinks(ctx.specs, e.id),
  };
}

export async function comparePartsById(ctx: PartsContext, ids: readonly string[]): Promise<{ parts: PartRef[]; rows: CompareRow[]; same_product: string[][] }> {
  if (ids.length < COMPARE_MIN || ids.length > COMPARE_MAX) throw invalidInput('ids', `give ${COMPARE_MIN} to ${COMPARE_MAX} ids (got ${ids.length})`);
  const parts: PartRef[] = [];
  for (const [i, id] of ids.entries()) {
    try {
      parts.push(await partRef(ctx, id));
    } catch (e) {
      if (e instanceof Error && 'details' in e) (e as { details: Record<string, unknown> }).details.field = `ids.${i}`;
      throw e;
    }
  }
  const seen = new Set<string>();
  for (const [i, p] of parts.entries()) {
    if (seen.has(p.id)) throw invalidInput(`ids.${i}`, `"${p.id}" is given twice`);
    seen.add(p.id);
  }
  const resolved = parts.map((p) => p.id);
  // Pairs of the compared parts that are one product (same_as), so the table is read accordingly.
  const same: string[][] = [];
  for (const p of parts) for (const l of p.same_as) if (resolved.includes(l.id) && p.id < l.id) same.push([p.id, l.id]);
  return { parts, rows: compareParts(ctx.specs, resolved), same_product: same };
}

export const ALTERNATIVES_DEFAULT = 10;
export const ALTERNATIVES_MAX = 50;

export async function alternativesOf(
  ctx: PartsContext,
  p: { id: string; limit?: number; must?: readonly WhereClause[] | string },
): Promise<{ part: PartRef; alternatives: (Alternative & { name: string; manufacturer: string | null; page_url?: string })[]; considered: number; must: FilterMeta[]; compared_fields: string[]; limit: number }> {
  const limit = p.limit ?? ALTERNATIVES_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > ALTERNATIVES_MAX) throw invalidInput('limit', `must be an integer from 1 to ${ALTERNATIVES_MAX}`);
  let must;
  try {
    must = compileSpecQuery(ctx.specs, { where: p.must });
  } catch (e) {
    // Same errors as search's where, named after this argument.
    if (e instanceof Error && 'details' in e) {
      const d = (e as { details: Record<string, unknown> }).details;
      if (typeof d.field === 'string') d.field = d.field.replace(/^where/, 'must');
      e.message = e.message.replace(/^where/, 'must');
    }
    throw e;
  }
  const part = await partRef(ctx, p.id);
  const row = ctx.specs.get(part.id);
  // Open-source-layer records (OSS-LIVE-...) resolve as parts but are not catalogue products.
  if (!row) throw invalidInput('id', `"${part.id}" is not a catalogue record (alternatives are found among catalogue products)`);
  const all = await ctx.catalogue.getMany(ctx.specs.rows.filter((r) => r.category === row.category).map((r) => r.id));
  const info = new Map(all.map((e) => [e.id, e]));
  const r = findAlternatives(ctx.specs, row, { type: (id) => info.get(id)?.type ?? null }, { limit, must, keep: new Set(part.versions.map((v) => v.id)) });
  return {
    part,
    alternatives: r.alternatives.map((a) => ({ ...a, name: info.get(a.id)?.name ?? a.id, manufacturer: info.get(a.id)?.manufacturer ?? null, ...(ctx.baseUrl === null ? {} : { page_url: partPageUrl(ctx.baseUrl, a.id) }) })),
    considered: r.considered,
    must: r.must,
    compared_fields: r.compared_fields,
    limit,
  };
}
