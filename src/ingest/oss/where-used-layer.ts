/** The open-source layer document as the plain data where-used reads (src/domain/oss/where-used.ts). */
import { deepFreeze } from '../../domain/shared/freeze.js';
import type { StoredEntity } from '../../domain/catalogue/entity.js';
import type { ManufacturerTable } from '../../domain/specs/manufacturers.js';
import { manufacturerForms, tokensOf, type KnownManufacturer, type LayerBomLine, type LayerUrdfSource, type PriceLike, type WhereUsedLayer } from '../../domain/oss/where-used.js';
import type { OssDocument } from './layer.js';
import type { Price } from './types.js';

/** Written forms that name no manufacturer (catalogue placeholders). */
const PLACEHOLDERS = new Set(['多家', 'various', 'community', 'academic', '学术', '开源社区 / 学术团队', 'multiple']);

/** Known manufacturer names: the catalogue's manufacturer strings (and their first segment), longest first. */
export function knownManufacturers(entities: readonly Pick<StoredEntity, 'id' | 'manufacturer'>[], table?: ManufacturerTable): KnownManufacturer[] {
  const first = new Map<string, string>();
  // A written name is judged once: a later record with the same name is kept or skipped alike.
  const judged = new Set<string>();
  for (const e of entities) {
    if (typeof e.manufacturer !== 'string' || judged.has(e.manufacturer)) continue;
    judged.add(e.manufacturer);
    const m = e.manufacturer.trim();
    if (!m || PLACEHOLDERS.has(m.toLowerCase()) || table?.isPlaceholder(m) || first.has(m)) continue;
    first.set(m, e.id);
  }
  const out: KnownManufacturer[] = [];
  const seen = new Set<string>();
  // data/manufacturers.json first: aliases and brands resolve to the company's canonical name, with their evidence.
  for (const c of table?.file.companies ?? []) {
    const forms: [string, string][] = [
      [c.canonical, 'canonical name in data/manufacturers.json'],
      ...c.aliases.map((a): [string, string] => [a.name, `alias of ${c.canonical} in data/manufacturers.json: ${a.evidence.note}`]),
      ...c.brands.map((b): [string, string] => [b.name, `brand of ${c.canonical} in data/manufacturers.json: ${b.evidence.note}`]),
    ];
    for (const [name, source] of forms) {
      if (seen.has(name) || tokensOf(name).join('').length < 3) continue;
      seen.add(name);
      out.push({ name, canonical: c.canonical, source });
    }
  }
  for (const [m, id] of first) {
    for (const form of manufacturerForms(m)) {
      if (seen.has(form)) continue;
      seen.add(form);
      const canonical = table?.read(form)?.canonical ?? form;
      out.push({ name: form, canonical, source: `catalogue manufacturer of ${id}${form !== m ? ` ("${m}")` : ''}` });
    }
  }
  return out.sort((a, b) => b.name.length - a.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const price = (p: Price): PriceLike => ({
  column: p.column,
  as_written: p.as_written,
  currency: p.currency,
  amount: p.amount,
  symbol: p.symbol,
  product_of: p.product_of,
  basis_evidence: p.basis_evidence,
});

export function whereUsedLayer(doc: OssDocument | null, catalogue: readonly Pick<StoredEntity, 'id' | 'manufacturer'>[], table?: ManufacturerTable): WhereUsedLayer {
  const manufacturers = deepFreeze(knownManufacturers(catalogue, table));
  if (!doc) return { bom: [], urdf: [], manufacturers };
  const sources = new Map(doc.meta.sources.map((s) => [s.id, s]));
  const bom: LayerBomLine[] = [];
  for (const r of doc.data) {
    const x = r.extracted;
    if (x.record_type !== 'bom_item') continue;
    const s = sources.get(r.source_id)!;
    bom.push({
      record_id: r.id,
      source_id: r.source_id,
      robot: s.robot,
      source_url: s.url,
      license: s.license,
      line: x.line,
      section: x.section,
      item: x.item,
      item_as_written: x.item_as_written,
      part_number: x.part_number,
      manufacturer: x.manufacturer,
      manufacturer_part: x.manufacturer_part,
      supplier_part: x.supplier_part,
      quantity: x.quantity,
      quantity_as_written: x.quantity_as_written,
      quantity_source: x.quantity_source,
      unit_prices: x.unit_prices.map(price),
      line_totals: x.line_totals.map(price),
      links: x.links.map((l) => ({ label: l.label, url: l.url })),
    });
  }
  const urdf: LayerUrdfSource[] = doc.meta.sources
    .filter((s) => s.mentions !== null)
    .map((s) => ({ source_id: s.id, robot: s.robot, source_url: s.url, license: s.license, mentions: s.mentions! }));
  // Frozen: the layer never changes while the process runs, so whereUsed may prepare each line's
  // haystack once (src/domain/oss/where-used.ts).
  return { bom: deepFreeze(bom), urdf: deepFreeze(urdf), manufacturers };
}
