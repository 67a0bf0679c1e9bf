/** The spec-layer calls behind list_spec_fields, compare_parts and find_alternatives (one call per tool). */
import { resolveCategory } from '../catalogue/categories.js';
import { invalidInput } from '../shared/errors.js';
import { findPart, quarantineHint, type PartsContext } from '../catalogue/parts.js';
import { findAlternatives, type Alternative } from './alternatives.js';
import { compareParts, type CompareRow } from './compare.js';
import { buildEntitySpecs } from './build.js';
import type { SpecRow } from './index.js';
import { customEntity, customId, validateCustomItems, type CustomPart, type CustomRegistries } from '../bom/custom.js';
import { listSpecFields, type SpecFieldFacet } from './facets.js';
import type { SameAsLink, VersionLink } from './same-as.js';
import { productLinks, type SpecConflict } from './product.js';
import { compileSpecQuery, type FilterMeta } from './query.js';
import type { WhereClause } from './where.js';
import { partPageMember } from '../shared/page-urls.js';

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
    ...partPageMember(ctx.baseUrl, e.id),
    ...productLinks(ctx.specs, e.id),
  };
}

/** One compared part: a catalogue id, or a user-declared part (issue 42, the same declaration as a BOM's custom item). */
export type CompareItem = string | { custom: CustomPart };

/** A compared part: a catalogue part, or one the user declared (source "user", id "user:<name>"). */
export type ComparedPart = PartRef & { source: 'catalogue' | 'user' };

/**
 * The spec row of a user-declared part: its declaration as a record (src/domain/bom/custom.ts, the
 * record check_bom reads) read by the same spec fields as a catalogue record, so it is compared on
 * the same rules. What it does not declare is not declared (never a matching value).
 */
function customRow(ctx: PartsContext, c: CustomPart): SpecRow {
  const e = customEntity(c);
  return { id: e.id, category: e.category, quarantine: false, specs: buildEntitySpecs(e, ctx.specs.fields, { buses: ctx.specs.buses }), manufacturer: null };
}

export async function comparePartsById(
  ctx: PartsContext,
  items: readonly CompareItem[],
  reg?: CustomRegistries,
): Promise<{ parts: ComparedPart[]; rows: CompareRow[]; same_product: string[][] }> {
  if (items.length < COMPARE_MIN || items.length > COMPARE_MAX) throw invalidInput('ids', `give ${COMPARE_MIN} to ${COMPARE_MAX} ids (got ${items.length})`);
  const customs = items.map((it) => (typeof it === 'string' ? {} : it));
  if (customs.some((c) => 'custom' in c)) {
    if (!reg) throw invalidInput('ids', 'user-declared parts need the bus table and flange registry');
    // The same validation as check_bom's custom items (buses data/buses.json recognises, registered flanges, one declaration per name).
    validateCustomItems(customs, reg, 'ids');
  }
  const parts: ComparedPart[] = [];
  const extra = new Map<string, SpecRow>();
  for (const [i, it] of items.entries()) {
    if (typeof it !== 'string') {
      const row = customRow(ctx, it.custom);
      extra.set(row.id, row);
      parts.push({ id: customId(it.custom), name: it.custom.name, category: row.category, manufacturer: null, manufacturer_canonical: null, quarantine_hint: null, same_as: [], versions: [], conflicts: [], source: 'user' });
      continue;
    }
    try {
      parts.push({ ...(await partRef(ctx, it)), source: 'catalogue' });
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
  return { parts, rows: compareParts(ctx.specs, resolved, extra), same_product: same };
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
    alternatives: r.alternatives.map((a) => ({ ...a, name: info.get(a.id)?.name ?? a.id, manufacturer: info.get(a.id)?.manufacturer ?? null, ...partPageMember(ctx.baseUrl, a.id) })),
    considered: r.considered,
    must: r.must,
    compared_fields: r.compared_fields,
    limit,
  };
}
