/**
 * export_bom fills catalogue lines from the catalogue and can list what check_bom says the set
 * still needs (issue 26, item 5). Real data behind a real server on loopback; expected values
 * read from the catalogue records and the check_bom answer of the same set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BomCheckResult } from '../../src/domain/bom/check.js';
import type { BomDocument } from '../../src/domain/bom/schema.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { bearer, newKey, parseCsv, post, startRealServer, type Server } from './helpers.js';

const CONTROLLER = 'CHIP-qualcomm-iq10-advantech'; // CAN, EtherCAT, USB3, GbE
const ROBOTIS = 'ACT-001'; // DYNAMIXEL: TTL/RS-485 (reaches the controller through a bridge)
const TMOTOR = 'ACT-006';
const SET = [CONTROLLER, ROBOTIS, TMOTOR];

let srv: Server;
let key: string;
const records = new Map<string, StoredEntity>();
beforeAll(async () => {
  srv = await startRealServer();
  key = await newKey(srv.deps, 'export-names');
  for (const r of await srv.deps.catalogue.getMany(SET)) records.set(r.id, r);
});
afterAll(async () => srv?.stop());

const exportBom = (body: Record<string, unknown>) => post(`${srv.url}/api/bom/export`, body, bearer(key));

describe('export_bom: catalogue lines carry the catalogue facts', () => {
  it('a catalogue-only export carries names, categories and manufacturers (JSON and CSV)', async () => {
    const items = SET.map((id) => ({ id, quantity: 2 }));
    const json = await exportBom({ items, format: 'json' });
    expect(json.status).toBe(200);
    const doc = json.json as unknown as BomDocument;
    for (const [i, id] of SET.entries()) {
      const r = records.get(id)!;
      expect(r.name).not.toBe('');
      expect(doc.items[i]).toMatchObject({ id, name: r.name, category: r.category, manufacturer: r.manufacturer, catalogue: { found: true, price_range: r.price_range } });
      expect(doc.items[i]!.filled_from_catalogue).toEqual(['name', 'category', ...(r.manufacturer ? ['manufacturer'] : [])]);
    }
    const csv = parseCsv((await exportBom({ items })).bytes);
    expect(csv.filter((row) => row.row_type === 'item').map((row) => row.name)).toEqual(SET.map((id) => records.get(id)!.name));
  });

  it('what the caller sends wins over the catalogue', async () => {
    const res = await exportBom({ items: [{ id: ROBOTIS, quantity: 1, name: 'my servo' }], format: 'json' });
    const line = (res.json as unknown as BomDocument).items[0]!;
    expect(line.name).toBe('my servo');
    expect(line.filled_from_catalogue).not.toContain('name');
    expect(line.category).toBe(records.get(ROBOTIS)!.category);
  });

  it('add_required lists the bridge check_bom requires as an unpriced suggested line, outside the total', async () => {
    const items = SET.map((id) => ({ id, quantity: 1, price: 10 }));
    const check = (await post(`${srv.url}/api/bom/check`, { items })).json as unknown as BomCheckResult;
    const bridges = check.findings.filter((f) => f.kind === 'bridge_required');
    expect(bridges.length).toBeGreaterThan(0);
    const res = await exportBom({ items, format: 'json', add_required: true, currency: 'USD' });
    const doc = res.json as unknown as BomDocument;
    expect(doc.suggested_lines.filter((s) => s.kind === 'bridge').map((s) => s.name)).toEqual(bridges.map((f) => (f.detail.adapters as string[])[0]));
    for (const s of doc.suggested_lines) expect(s.price).toBeNull();
    expect(doc.metadata.total_cost).toBe(30); // 3 x 10: the suggestions are not in it
    expect(doc.metadata.total_items).toBe(3);
    const csv = parseCsv((await exportBom({ items, add_required: true })).bytes);
    const suggested = csv.filter((row) => row.row_type === 'suggested');
    expect(suggested.map((row) => row.name)).toEqual(doc.suggested_lines.map((s) => s.name));
    for (const row of suggested) {
      expect(row.unit_price).toBe('');
      expect(row.line_total).toBe('');
      expect(row.price_note).toMatch(/^suggested by check_bom \(bridge_required\).*not priced, not in the total/);
    }
    // Without the option: none.
    expect(((await exportBom({ items, format: 'json' })).json as unknown as BomDocument).suggested_lines).toEqual([]);
  });

  it('a 150-line export (run in the worker pool) fills the same names', async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ id: SET[i % SET.length]!, quantity: 1 }));
    const res = await exportBom({ items, format: 'json', add_required: true });
    expect(res.status).toBe(200);
    const doc = res.json as unknown as BomDocument;
    expect(doc.items.map((l) => l.name)).toEqual(items.map((it) => records.get(it.id)!.name));
    expect(doc.suggested_lines.some((s) => s.kind === 'bridge')).toBe(true);
    expect(srv.deps.jobs.stats().completed).toBeGreaterThan(0);
  });
});
