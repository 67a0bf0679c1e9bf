/**
 * BOM export: request -> priced lines, exact totals, supplier and 3D-print suggestions.
 * Pure: the caller looks the ids up in the catalogue (`recordLookup(await catalogue.getMany(ids))`)
 * and passes the registries and the time; charging, auth and idempotency belong to the adapter.
 */
import type { StoredEntity } from '../entity.js';
import { lookupFlange, ruleFlange, type FlangeRegistry, type FlangeRulingRecord } from '../flange.js';
import { declaredFlanges } from '../compatibility/mechanical.js';
import { amountToNumber, formatAmount, mulAmount, sumAmounts, type Amount } from './money.js';
import { noCatalogueUnitPrice, PRICE_BASIS, priceLine, type CataloguePricer } from './pricing.js';
import { adapterPlate, partTorque, structuralVerdict, type PrintRules } from './print.js';
import type { BomDocument, BomExportRequest, BomLine, PrintSuggestion } from './schema.js';
import { printServices, suggestSuppliers, type SupplierIndex } from './suppliers.js';

export type RecordLookup = (id: string) => StoredEntity | null | undefined;

/** Case-insensitive lookup over records fetched by the caller. */
export function recordLookup(records: Iterable<StoredEntity>): RecordLookup {
  const map = new Map<string, StoredEntity>();
  for (const r of records) if (!map.has(r.id.toLowerCase())) map.set(r.id.toLowerCase(), r);
  return (id) => map.get(id.trim().toLowerCase()) ?? null;
}

export interface BomExportDeps {
  lookup: RecordLookup;
  suppliers: SupplierIndex;
  printRules: PrintRules;
  flanges: FlangeRegistry;
  now: Date;
  pricer?: CataloguePricer;
  /** Called every 50 lines and at the end (for MCP progress notifications). */
  onProgress?: (done: number, total: number) => void;
}

const orNull = (s: string | undefined) => (s === undefined ? null : s);

interface FlangedLine {
  line: number;
  id: string;
  /** Registered designations the part declares (several when the vendor lists alternative couplings). */
  designations: string[];
  record: StoredEntity;
}

/**
 * Adapter plate suggestions for every pair of BOM parts whose declared flanges cannot bolt together
 * in any combination (no shared or direct-fitting pattern): the plate for the first combination of
 * registered designations, both bolt patterns named. Pairs needing the same plate are grouped.
 */
function adapterSuggestions(flanged: FlangedLine[], deps: BomExportDeps): ReturnType<typeof adapterPlate>[] {
  const groups = new Map<string, { ruling: FlangeRulingRecord; a: FlangedLine[]; b: FlangedLine[] }>();
  for (let i = 0; i < flanged.length; i++) {
    for (let j = i + 1; j < flanged.length; j++) {
      const x = flanged[i]!;
      const y = flanged[j]!;
      if (x.record.id === y.record.id) continue;
      const rulings = x.designations.flatMap((p) => y.designations.map((q) => ruleFlange(deps.flanges, p, q)));
      if (rulings.length === 0 || rulings.some((r) => r.verdict !== 'adapter_required')) continue;
      // One orientation per designation pair, so every part lands on its own pattern's side.
      const p = x.designations[0]!;
      const q = y.designations[0]!;
      const swap = p > q;
      const ruling = ruleFlange(deps.flanges, swap ? q : p, swap ? p : q);
      if (ruling.verdict !== 'adapter_required') continue;
      const [sa, sb] = swap ? [y, x] : [x, y];
      const key = `${ruling.pair[0]}|${ruling.pair[1]}`;
      const g = groups.get(key) ?? { ruling, a: [], b: [] };
      if (!g.a.includes(sa)) g.a.push(sa);
      if (!g.b.includes(sb)) g.b.push(sb);
      groups.set(key, g);
    }
  }
  return [...groups.values()].map((g) =>
    adapterPlate(deps.printRules, {
      ruling: g.ruling,
      parts_a: g.a.map((f) => ({ line: f.line, id: f.id })),
      parts_b: g.b.map((f) => ({ line: f.line, id: f.id })),
      torques: [...g.a, ...g.b].map((f) => partTorque(f.line, f.record.id, f.record)),
    }),
  );
}

export function buildBomExport(req: BomExportRequest, deps: BomExportDeps): BomDocument {
  const currency = req.currency ?? null;
  const pricer = deps.pricer ?? noCatalogueUnitPrice;
  const total = req.items.length;
  const lines: BomLine[] = [];
  const totals: Amount[] = [];
  const unpriced: number[] = [];
  const flanged: FlangedLine[] = [];
  const structural: { line: number; id: string; reason: string }[] = [];

  req.items.forEach((item, i) => {
    const line = i + 1;
    const record = deps.lookup(item.id) ?? null;
    const price = priceLine(item, record, currency, pricer);
    const lineTotal = price.unit === null ? null : mulAmount(price.unit, item.quantity);
    if (lineTotal === null) unpriced.push(line);
    else totals.push(lineTotal);

    const l: BomLine = {
      line,
      id: item.id,
      name: orNull(item.name),
      category: orNull(item.category),
      manufacturer: orNull(item.manufacturer),
      specs: orNull(item.specs),
      supplier: orNull(item.supplier),
      price: item.price ?? null,
      quantity: item.quantity,
      unit_price: price.unit === null ? null : amountToNumber(price.unit),
      unit_price_text: price.unit === null ? null : formatAmount(price.unit),
      line_total: lineTotal === null ? null : amountToNumber(lineTotal),
      line_total_text: lineTotal === null ? null : formatAmount(lineTotal),
      price_source: price.source,
      price_note: price.note,
      catalogue: {
        found: record !== null,
        id: record?.id ?? null,
        quarantine: record ? record.quarantine : null,
        price_range: record?.price_range ?? null,
      },
      print_suggestions: [],
    };
    if (req.include_suppliers) {
      l.suppliers = suggestSuppliers(deps.suppliers, {
        manufacturers: [item.manufacturer, record?.manufacturer],
        categories: [item.category, record?.category],
        texts: [item.name, item.specs, record?.name, record?.name_en, record?.type, record?.protocol, record?.interface, ...(record?.interfaces ?? [])],
      });
    }
    lines.push(l);

    const v = structuralVerdict(deps.printRules, item, record);
    if (v.printable) structural.push({ line, id: item.id, reason: v.reason });
    if (record) {
      const rows = declaredFlanges(record).map((f) => lookupFlange(deps.flanges, f));
      if (rows.length > 0 && rows.every((r) => r !== null)) flanged.push({ line, id: item.id, designations: rows.map((r) => r!.designation), record });
    }
    if (deps.onProgress && (line % 50 === 0 || line === total)) deps.onProgress(line, total);
  });

  const services = req.include_suppliers ? printServices(deps.suppliers) : undefined;
  const sr = deps.printRules.structural;
  const suggestions: PrintSuggestion[] = [];
  for (const s of structural) {
    suggestions.push({
      id: `P${suggestions.length + 1}`,
      kind: 'structural_part',
      lines: [s.line],
      part_ids: [s.id],
      reason: s.reason,
      material: { ...deps.printRules.material },
      min_wall_mm: sr.min_wall_mm,
      rule_of_thumb: sr.rule,
      ...(services ? { print_services: services } : {}),
    });
  }
  for (const a of adapterSuggestions(flanged, deps)) {
    suggestions.push({ ...a, id: `P${suggestions.length + 1}`, ...(services ? { print_services: services } : {}) });
  }
  for (const p of suggestions) {
    const touched = p.kind === 'structural_part' ? p.lines : [...p.parts_a, ...p.parts_b].map((x) => x.line);
    for (const n of touched) lines[n - 1].print_suggestions.push(p.id);
  }

  const sum = sumAmounts(totals);
  return {
    metadata: {
      project_name: req.project_name ?? null,
      total_cost: amountToNumber(sum),
      total_cost_text: formatAmount(sum),
      total_items: lines.length,
      total_quantity: req.items.reduce((acc, it) => acc + it.quantity, 0),
      currency,
      created_at: deps.now.toISOString(),
      priced_lines: totals.length,
      unpriced_lines: unpriced,
      total_is_partial: unpriced.length > 0,
      price_basis: PRICE_BASIS,
      attribution: deps.suppliers.registry.meta.attribution,
    },
    items: lines,
    print_suggestions: suggestions,
  };
}
