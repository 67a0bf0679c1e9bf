import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { renderBomCsv, bomCsvColumns } from '../../src/domain/bom/csv.js';
import { BomDocument, BOM_MAX_ITEMS, parseBomExportRequest } from '../../src/domain/bom/schema.js';
import { PRICE_BASIS, type CataloguePricer } from '../../src/domain/bom/pricing.js';
import { parseAmount } from '../../src/domain/bom/money.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { makeEntity } from '../support/factory.js';
import { exportBom, NOW } from './helpers.js';

/** Integer hundredths of a decimal text with at most 2 fraction digits ("12.3" -> 1230). */
const cents = (text: string): number => {
  const a = parseAmount(text)!;
  expect(a.scale).toBeLessThanOrEqual(2);
  return Number(a.units) * 10 ** (2 - a.scale);
};

const csvRows = (csv: string) => parse(csv, { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];

describe('BOM export: totals', () => {
  it('0.1 + 0.2 totals exactly 0.3', () => {
    const doc = exportBom({ items: [{ id: 'X-1', price: 0.1, quantity: 1 }, { id: 'X-2', price: 0.2, quantity: 1 }], format: 'json' });
    expect(doc.metadata.total_cost).toBe(0.3);
    expect(doc.metadata.total_cost_text).toBe('0.3');
    const total = csvRows(renderBomCsv(doc, true)).find((r) => r.row_type === 'total')!;
    expect(total.line_total).toBe('0.3');
  });

  it('50-item round trip: CSV and JSON parse back, total equals the sum of lines', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({
      id: `CUSTOM-${i + 1}`,
      name: `Part ${i + 1}`,
      category: i % 2 ? 'sensors' : 'actuators',
      manufacturer: i % 5 === 0 ? 'ROBOTIS' : 'Nobody Inc',
      specs: `spec ${i}`,
      supplier: 'own',
      price: (i * 137 + 1) / 100, // 0.01, 1.38, 2.75, ...
      quantity: (i % 7) + 1,
    }));
    const expectedCents = items.reduce((acc, it, i) => acc + (i * 137 + 1) * it.quantity, 0);

    const doc = exportBom({ items, project_name: 'Biped v2', format: 'json', currency: 'CNY' });
    const json = BomDocument.parse(JSON.parse(JSON.stringify(doc)));
    expect(json.items).toHaveLength(50);
    expect(json.metadata.total_items).toBe(50);
    expect(json.metadata.total_quantity).toBe(items.reduce((a, it) => a + it.quantity, 0));
    expect(json.metadata.project_name).toBe('Biped v2');
    expect(json.metadata.currency).toBe('CNY');
    expect(json.metadata.created_at).toBe(NOW.toISOString());
    expect(json.metadata.total_is_partial).toBe(false);
    expect(cents(json.metadata.total_cost_text!)).toBe(expectedCents);
    expect(json.metadata.total_cost).toBe(expectedCents / 100);
    expect(json.items.reduce((acc, l) => acc + cents(l.line_total_text!), 0)).toBe(expectedCents);
    for (const l of json.items) {
      expect(l.price_source).toBe('item');
      expect(cents(l.line_total_text!)).toBe(cents(l.unit_price_text!) * l.quantity);
    }

    const rows = csvRows(renderBomCsv(doc, true));
    expect(Object.keys(rows[0])).toEqual(bomCsvColumns(true));
    const itemRows = rows.filter((r) => r.row_type === 'item');
    const totalRows = rows.filter((r) => r.row_type === 'total');
    expect(itemRows).toHaveLength(50);
    expect(totalRows).toHaveLength(1);
    expect(itemRows.reduce((acc, r) => acc + cents(r.line_total), 0)).toBe(expectedCents);
    expect(cents(totalRows[0].line_total)).toBe(expectedCents);
    expect(Number(totalRows[0].quantity)).toBe(json.metadata.total_quantity);
    itemRows.forEach((r, i) => {
      expect(r.id).toBe(items[i].id);
      expect(r.name).toBe(items[i].name);
      expect(Number(r.quantity)).toBe(items[i].quantity);
      expect(r.currency).toBe('CNY');
    });
  });

  it('lines without a price are excluded from the total and flagged', () => {
    const doc = exportBom({ items: [{ id: 'A', price: 2.5, quantity: 2 }, { id: 'B', quantity: 3 }, { id: 'C', price: null, quantity: 1 }], format: 'json' });
    expect(doc.metadata.total_cost_text).toBe('5');
    expect(doc.metadata.unpriced_lines).toEqual([2, 3]);
    expect(doc.metadata.priced_lines).toBe(1);
    expect(doc.metadata.total_is_partial).toBe(true);
    expect(doc.items[1]).toMatchObject({ price_source: 'none', unit_price: null, line_total: null, line_total_text: null });
    expect(doc.items[1].price_note).toContain('excluded from the total');
    const total = csvRows(renderBomCsv(doc, false)).find((r) => r.row_type === 'total')!;
    // No request currency: the one total says its currency is not stated (issue 42).
    expect(total.price_note).toBe('partial: line(s) 2, 3 have no price and are excluded; currency not stated');
  });

  it('a catalogue id uses the item price and carries price_range verbatim, never as a price', () => {
    const rec = makeEntity({ id: 'ACT-001', price_range: '200-500', manufacturer: 'ROBOTIS' });
    const doc = exportBom({ items: [{ id: 'act-001', price: 300, quantity: 2 }, { id: 'ACT-001', quantity: 1 }], format: 'json' }, [rec]);
    expect(doc.items[0]).toMatchObject({
      price_source: 'item',
      line_total_text: '600',
      catalogue: { found: true, id: 'ACT-001', quarantine: false, price_range: '200-500' },
    });
    expect(doc.items[1]).toMatchObject({ price_source: 'none', line_total: null });
    expect(doc.metadata.total_cost_text).toBe('600');
    expect(doc.metadata.price_basis).toBe(PRICE_BASIS);
  });

  it('a catalogue unit price is used only in the BOM currency and says its field', () => {
    const pricer: CataloguePricer = (r) => (r.id === 'ACT-001' ? { field: 'deep.unit_price', amount: parseAmount('99.9')!, currency: 'USD' } : null);
    const rec = makeEntity({ id: 'ACT-001' });
    const usd = exportBom({ items: [{ id: 'ACT-001', price: 1, quantity: 3 }], format: 'json', currency: 'USD' }, [rec], { pricer });
    expect(usd.items[0]).toMatchObject({ price_source: 'catalogue:deep.unit_price', unit_price_text: '99.9', line_total_text: '299.7' });
    const cny = exportBom({ items: [{ id: 'ACT-001', price: 1, quantity: 3 }], format: 'json', currency: 'CNY' }, [rec], { pricer });
    expect(cny.items[0]).toMatchObject({ price_source: 'item', line_total_text: '3' });
    expect(cny.items[0].price_note).toBe('catalogue unit price (deep.unit_price, USD) not used: BOM currency is CNY');
  });

  it('reports progress every 50 lines and at the end', () => {
    const calls: [number, number][] = [];
    exportBom({ items: Array.from({ length: 120 }, (_, i) => ({ id: `X${i}`, price: 1, quantity: 1 })) }, [], { onProgress: (d, t) => calls.push([d, t]) });
    expect(calls).toEqual([[50, 120], [100, 120], [120, 120]]);
  });
});

describe('BOM export: request validation', () => {
  const item = { id: 'X', price: 1, quantity: 1 };

  it(`accepts ${BOM_MAX_ITEMS} items and refuses ${BOM_MAX_ITEMS + 1} with payload_too_large naming the limit`, () => {
    expect(parseBomExportRequest({ items: Array(BOM_MAX_ITEMS).fill(item) }).items).toHaveLength(500);
    let err: unknown;
    try {
      parseBomExportRequest({ items: Array(BOM_MAX_ITEMS + 1).fill(item) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('payload_too_large');
    expect((err as DomainError).status).toBe(413);
    expect((err as DomainError).details).toEqual({ field: 'items', limit: 500, received: 501 });
    expect((err as DomainError).message).toContain('500');
  });

  it('applies the spec defaults: csv, include_suppliers true', () => {
    expect(parseBomExportRequest({ items: [item] })).toMatchObject({ format: 'csv', include_suppliers: true });
  });

  it.each([
    [{ items: [] }, 'items'],
    [{ items: [{ id: 'X', quantity: 0 }] }, 'items.0.quantity'],
    [{ items: [{ id: 'X', quantity: 1.5 }] }, 'items.0.quantity'],
    [{ items: [{ id: 'X', quantity: 1, price: -1 }] }, 'items.0.price'],
    [{ items: [{ id: '', quantity: 1 }] }, 'items.0.id'],
    [{ items: [item], format: 'xlsx' }, 'format'],
    [{ items: [item], currency: 'yuan' }, 'currency'],
  ])('rejects %j naming %s', (body, field) => {
    try {
      parseBomExportRequest(body);
      expect.unreachable();
    } catch (e) {
      expect((e as DomainError).code).toBe('invalid_input');
      expect((e as DomainError).details.field).toBe(field);
    }
  });
});
