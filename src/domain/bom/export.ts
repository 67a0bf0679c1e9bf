/**
 * BOM export: request -> priced lines, exact totals, supplier and 3D-print suggestions.
 * Pure: the caller looks the ids up in the catalogue (`recordLookup(await catalogue.getMany(ids))`)
 * and passes the registries and the time; charging, auth and idempotency belong to the adapter.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { lookupFlange, ruleFlange, type FlangeRegistry, type FlangeRulingRecord } from '../knowledge/flange.js';
import { declaredFlanges } from '../compatibility/mechanical.js';
import { amountFromNumber, amountToNumber, formatAmount, mulAmount, sumAmounts, type Amount } from './money.js';
import { noCatalogueUnitPrice, PRICE_BASIS, priceLine, type CataloguePricer } from './pricing.js';
import { adapterPlate, partTorque, structuralVerdict, type PrintRules } from './print.js';
import type { BomDocument, BomExportRequest, BomLine, PartReferences, PrintSuggestion, ReferencePrice, SuggestedLine } from './schema.js';
import { customEntity, customId } from './custom.js';
import { entityMatcher, modelCodes, whereUsed, type WhereUsedLayer } from '../oss/where-used.js';
import type { BomCheckResult, Finding } from './check.js';
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
  /** check_bom over the request's items (for add_required): checkBom with the shipped engines. */
  check?: (items: BomExportRequest['items'], lookup: RecordLookup) => BomCheckResult;
  /** Open-source BOM prices per catalogue id (lower case), read by the caller (referencePrices). */
  references?: ReadonlyMap<string, { prices: ReferencePrice[]; total: number }>;
}



const orNull = (s: string | undefined) => (s === undefined ? null : s);

interface FlangedLine {
  line: number;
  id: string;
  /** Registered designations the part declares (several when the vendor lists alternative couplings). */
  designations: string[];
  record: StoredEntity;
}

/** Lines whose parts declare the same registered designations (in the same order): they pair alike. */
interface FlangeSignature {
  designations: string[];
  /** The first flanged line with this signature (its index in the flanged list). */
  first: number;
  lines: number[];
}

/** How two signatures pair: null when some combination bolts together (or nothing is registered). */
interface SignaturePairing {
  ruling: FlangeRulingRecord;
  /** The signature on side a of the plate: the one whose first designation sorts first. */
  a: FlangeSignature;
  b: FlangeSignature;
}

function pairSignatures(s: FlangeSignature, t: FlangeSignature, deps: BomExportDeps): SignaturePairing | null {
  const rulings = s.designations.flatMap((p) => t.designations.map((q) => ruleFlange(deps.flanges, p, q)));
  if (rulings.length === 0 || rulings.some((r) => r.verdict !== 'adapter_required')) return null;
  // One orientation per designation pair, so every part lands on its own pattern's side.
  const p = s.designations[0]!;
  const q = t.designations[0]!;
  const swap = p > q;
  const ruling = ruleFlange(deps.flanges, swap ? q : p, swap ? p : q);
  if (ruling.verdict !== 'adapter_required') return null;
  return swap ? { ruling, a: t, b: s } : { ruling, a: s, b: t };
}

/**
 * Adapter plate suggestions for every pair of BOM parts whose declared flanges cannot bolt together
 * in any combination (no shared or direct-fitting pattern): the plate for the first combination of
 * registered designations, both bolt patterns named. Pairs needing the same plate are grouped.
 *
 * Linear in the lines: the ruling depends on the two parts' designation lists alone, so lines are
 * grouped by that list (a signature; at most one per flanged catalogue record) and each pair of
 * signatures is ruled once. Two lines with one signature never need a plate between them (they
 * share a pattern). Order is that of the pairwise scan over lines (first line, then second): a
 * plate comes in the order of its first pair, and a part on each side in the order of the first
 * pair it is in, which is (min(i, m), max(i, m)) for m the first line of the nearest partner
 * signature.
 */
function adapterSuggestions(flanged: FlangedLine[], deps: BomExportDeps): ReturnType<typeof adapterPlate>[] {
  const signatures = new Map<string, FlangeSignature>();
  flanged.forEach((f, i) => {
    const key = f.designations.join('\u0000');
    const s = signatures.get(key);
    if (s) s.lines.push(i);
    else signatures.set(key, { designations: f.designations, first: i, lines: [i] });
  });
  const sigs = [...signatures.values()];
  const n = flanged.length;
  // The scan's position of pair (i, j), i < j: row-major over the flanged lines.
  const at = (i: number, m: number) => Math.min(i, m) * n + Math.max(i, m);
  const groups = new Map<string, { ruling: FlangeRulingRecord; first: number; a: Map<number, number>; b: Map<number, number> }>();
  const place = (side: Map<number, number>, line: number, time: number) => {
    const seen = side.get(line);
    if (seen === undefined || time < seen) side.set(line, time);
  };
  for (let x = 0; x < sigs.length; x++) {
    for (let y = x + 1; y < sigs.length; y++) {
      const pairing = pairSignatures(sigs[x]!, sigs[y]!, deps);
      if (pairing === null) continue;
      const key = `${pairing.ruling.pair[0]}|${pairing.ruling.pair[1]}`;
      const g = groups.get(key) ?? { ruling: pairing.ruling, first: Infinity, a: new Map<number, number>(), b: new Map<number, number>() };
      groups.set(key, g);
      // Each line's first pair with this partner signature is with its first line.
      for (const i of pairing.a.lines) place(g.a, i, at(i, pairing.b.first));
      for (const j of pairing.b.lines) place(g.b, j, at(j, pairing.a.first));
      g.first = Math.min(g.first, at(pairing.a.first, pairing.b.first));
    }
  }
  const inOrder = (side: Map<number, number>) => [...side.entries()].sort((u, v) => u[1] - v[1]).map(([i]) => flanged[i]!);
  return [...groups.values()]
    .sort((u, v) => u.first - v.first)
    .map((g) => {
      const a = inOrder(g.a);
      const b = inOrder(g.b);
      return adapterPlate(deps.printRules, {
        ruling: g.ruling,
        parts_a: a.map((f) => ({ line: f.line, id: f.id })),
        parts_b: b.map((f) => ({ line: f.line, id: f.id })),
        torques: [...a, ...b].map((f) => partTorque(f.line, f.record.id, f.record)),
      });
    });
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
  const supplierMemo = new Map<string, ReturnType<typeof suggestSuppliers>>();

  const byCurrency = new Map<string, { currency: string | null; amounts: Amount[]; lines: number[] }>();
  const refs = new Map<string, PartReferences>();

  req.items.forEach((item, i) => {
    const line = i + 1;
    const custom = item.custom;
    const record = custom ? null : (deps.lookup(item.id ?? '') ?? null);
    const price = custom
      ? custom.price
        ? { unit: amountFromNumber(custom.price.amount), source: 'item' as const, note: null }
        : { unit: null, source: 'none' as const, note: 'no price given: excluded from the total' }
      : priceLine(item, record, currency, pricer);
    const lineCurrency = price.unit === null ? null : custom ? custom.price!.currency : price.source.startsWith('catalogue:') ? (pricer(record!)?.currency ?? currency) : currency;
    const lineTotal = price.unit === null ? null : mulAmount(price.unit, item.quantity);
    if (lineTotal === null) unpriced.push(line);
    else {
      totals.push(lineTotal);
      const key = lineCurrency ?? '';
      const g = byCurrency.get(key) ?? { currency: lineCurrency, amounts: [], lines: [] };
      g.amounts.push(lineTotal);
      g.lines.push(line);
      byCurrency.set(key, g);
    }
    if (record) {
      const r = deps.references?.get(record.id.toLowerCase());
      if (r && r.prices.length > 0) {
        if (!refs.has(record.id.toLowerCase())) refs.set(record.id.toLowerCase(), { id: record.id, prices: r.prices, total: r.total });
      }
    }

    // Fields the caller left out come from the catalogue record (and say so).
    const filled: BomLine['filled_from_catalogue'] = [];
    const fill = (field: 'name' | 'category' | 'manufacturer', sent: string | undefined, known: string | null | undefined): string | null => {
      if (sent !== undefined) return sent;
      if (known === null || known === undefined || known === '') return null;
      filled.push(field);
      return known;
    };
    const l: BomLine = {
      line,
      id: custom ? customId(custom) : (item.id ?? ''),
      source: custom ? 'user' : record ? 'catalogue' : 'not_found',
      currency: lineCurrency,
      name: custom ? custom.name : fill('name', item.name, record?.name),
      category: fill('category', item.category, record?.category),
      manufacturer: fill('manufacturer', item.manufacturer, record?.manufacturer),
      filled_from_catalogue: filled,
      specs: orNull(item.specs),
      supplier: orNull(item.supplier),
      price: custom ? (custom.price?.amount ?? null) : (item.price ?? null),
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
      const query = {
        manufacturers: [item.manufacturer, record?.manufacturer],
        categories: [item.category, record?.category],
        texts: [custom?.name ?? item.name, item.specs, record?.name, record?.name_en, record?.type, record?.protocol, record?.interface, ...(record?.interfaces ?? [])],
      };
      // A part repeated on many lines asks the same question: answered once (copied per line).
      const key = JSON.stringify(query);
      let found = supplierMemo.get(key);
      if (found === undefined) supplierMemo.set(key, (found = suggestSuppliers(deps.suppliers, query)));
      l.suppliers = structuredClone(found);
    }
    lines.push(l);

    const v = structuralVerdict(deps.printRules, { ...item, name: custom?.name ?? item.name }, record);
    if (v.printable) structural.push({ line, id: l.id, reason: v.reason });
    // A custom part's flange counts like a catalogue part's (its declaration as a record).
    const flangeRecord = custom ? customEntity(custom) : record;
    if (flangeRecord) {
      const rows = declaredFlanges(flangeRecord).map((f) => lookupFlange(deps.flanges, f));
      if (rows.length > 0 && rows.every((r) => r !== null)) flanged.push({ line, id: l.id, designations: rows.map((r) => r!.designation), record: flangeRecord });
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

  // Totals per currency, in order of first line; never summed across currencies.
  const groups = [...byCurrency.values()].map((g) => {
    const sum = sumAmounts(g.amounts);
    return { currency: g.currency, total: amountToNumber(sum), total_text: formatAmount(sum), lines: g.lines };
  });
  const single = groups.length === 1 ? groups[0] : null;
  const suggested = req.add_required && deps.check ? requiredLines(deps.check(req.items, deps.lookup).findings, suggestions) : [];
  return {
    metadata: {
      project_name: req.project_name ?? null,
      total_cost: single ? single.total : null,
      total_cost_text: single ? single.total_text : null,
      totals_by_currency: groups,
      total_items: lines.length,
      total_quantity: req.items.reduce((acc, it) => acc + it.quantity, 0),
      currency: single ? single.currency : null,
      created_at: deps.now.toISOString(),
      priced_lines: totals.length,
      unpriced_lines: unpriced,
      total_is_partial: unpriced.length > 0,
      price_basis: PRICE_BASIS,
      attribution: deps.suppliers.registry.meta.attribution,
    },
    items: lines,
    print_suggestions: suggestions,
    reference_prices: [...refs.values()],
    suggested_lines: suggested,
  };
}

/** At most this many reference prices per part are listed (the rest counted in `total`). */
export const REFERENCE_PRICES_MAX = 5;

/**
 * The prices open-source BOM lines state for a part (the where-used hits of its model number),
 * for reference: each with the robot, the file, the line and the currency as the line states it
 * (null when the file names none). Only plain amounts; a line's several currencies are several
 * prices. At most REFERENCE_PRICES_MAX listed.
 */
export function referencePrices(hits: readonly { robot: string; bom_lines: readonly { source_url: string; line: number; item: string; unit_prices: readonly { as_written: string; amount: string | null; currency: string | null }[] }[] }[]): { prices: ReferencePrice[]; total: number } {
  const all: ReferencePrice[] = [];
  for (const r of hits) {
    for (const b of r.bom_lines) {
      for (const p of b.unit_prices) {
        if (p.amount === null) continue;
        all.push({ amount: p.amount, currency: p.currency, robot: r.robot, file: b.source_url, line: b.line });
      }
    }
  }
  return { prices: all.slice(0, REFERENCE_PRICES_MAX), total: all.length };
}

/**
 * What check_bom says the set still needs, as suggested lines: one per bridge_required finding
 * (the bridge it names) and one per flange_adapter finding (the plate, linked to its print
 * suggestion). Never priced: a suggestion names what to buy or print, not what it costs.
 */
export function requiredLines(findings: readonly Finding[], prints: readonly PrintSuggestion[]): SuggestedLine[] {
  const out: SuggestedLine[] = [];
  const lines = (f: Finding) => [...new Set(f.parts.map((p) => p.line))].sort((a, b) => a - b);
  for (const f of findings) {
    if (f.kind === 'bridge_required') {
      const adapters = Array.isArray(f.detail.adapters) ? (f.detail.adapters as string[]) : [];
      out.push({ kind: 'bridge', name: adapters[0] ?? 'a bus bridge (none named)', quantity: 1, for_lines: lines(f), reason: f.message, source: f.kind, print_suggestion: null, price: null });
    } else if (f.kind === 'flange_adapter') {
      const pair = Array.isArray(f.detail.pair) ? (f.detail.pair as string[]) : [];
      const plate = prints.find((p) => p.kind === 'adapter_plate' && p.side_a.designation === pair[0] && p.side_b.designation === pair[1]);
      out.push({ kind: 'adapter_plate', name: `adapter plate ${pair.join(' to ')}`, quantity: 1, for_lines: lines(f), reason: f.message, source: f.kind, print_suggestion: plate?.id ?? null, price: null });
    }
  }
  return out;
}

/** A catalogue part's reference prices from the open-source layer (where-used by its model number, as get_part's used_in). */
export function partReferencePrices(layer: WhereUsedLayer, e: Pick<StoredEntity, 'name' | 'name_en' | 'manufacturer' | 'oss'>): { prices: ReferencePrice[]; total: number } {
  const name = e.name_en && modelCodes(e.name_en).length > 0 ? e.name_en : e.name;
  const matcher = entityMatcher(name);
  if (matcher.model_codes.length === 0) return { prices: [], total: 0 };
  return referencePrices(whereUsed(layer, matcher, { manufacturer: e.oss ? null : e.manufacturer }).robots);
}

/**
 * Whether an export is a costed export (charged BOM_EXPORT_COST): some line has a price, its own
 * (`price`) or its custom part's (`custom.price`). The catalogue holds no unit price (pricing.ts),
 * and reference prices never price a line, so this is known from the request alone, before the
 * charge. An export with no priced line costs 0 credits.
 */
export function isCostedExport(req: Pick<BomExportRequest, 'items'>): boolean {
  return req.items.some((i) => (i.custom ? i.custom.price !== undefined : i.price !== undefined && i.price !== null));
}
