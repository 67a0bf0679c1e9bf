/**
 * POST /api/bom/export over a real HTTP server with the shipped catalogue: the 50-line round trip
 * (CSV and JSON parsed back, exact totals, 2 credits), the headers, and Idempotency-Key.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryClient } from '../support/mcp.js';
import { bearer, cents, newKey, parseCsv, post, restBalance, startRealServer, textCents, UTF8_BOM, type Server } from './helpers.js';

/** Real catalogue ids (data/catalogue/entities.json) mixed with the caller's own ids. */
const REAL_IDS = [
  'ACT-001',
  'ACT-006',
  'CHIP-qualcomm-iq10-advantech',
  'SENS-35',
  'SENS-cam-orbbec-gemini335',
  'act-001', // catalogue ids match case-insensitively
  'ACT-118',
  'ACT-hd-leaderdrive-lcs',
  'DATA-001',
  'BIONIC-HAND-005',
];
const PRICES = [0.1, 0.2, 19.99, 0.07, 1234.5, 3.3, 0.01, 99.99, 12, 7.45, 0.3, 2.05];

interface Item {
  id: string;
  name?: string;
  price: number;
  quantity: number;
}

/** 50 items: every fifth a catalogue id, the rest the caller's own parts. */
function fiftyItems(): Item[] {
  return Array.from({ length: 50 }, (_, i) => {
    const real = i % 5 === 0;
    return {
      id: real ? REAL_IDS[i / 5] : `OWN-${String(i + 1).padStart(3, '0')}`,
      ...(real ? {} : { name: `Own part ${i + 1}` }),
      price: PRICES[i % PRICES.length],
      quantity: (i % 7) + 1,
    };
  });
}

const CATALOGUE_IDS = new Map([
  ['act-001', 'ACT-001'],
]);

type Line = {
  line: number;
  id: string;
  price: number | null;
  quantity: number;
  unit_price_text: string | null;
  line_total: number | null;
  line_total_text: string | null;
  price_source: string;
  catalogue: { found: boolean; id: string | null };
};
type Doc = { metadata: Record<string, unknown>; items: Line[]; print_suggestions: unknown[] };

describe('BOM export round trip (shipped catalogue, REST)', () => {
  let srv: Server;
  let key: string;
  const items = fiftyItems();
  const expectedCents = items.reduce((acc, it) => acc + cents(it.price) * it.quantity, 0);
  const expectedQuantity = items.reduce((acc, it) => acc + it.quantity, 0);
  const body = { items, project_name: 'Biped v2', currency: 'EUR' };
  let csv: Awaited<ReturnType<typeof post>>;
  let json: Awaited<ReturnType<typeof post>>;

  beforeAll(async () => {
    srv = await startRealServer();
    key = await newKey(srv.deps, 'roundtrip');
    expect(await restBalance(srv.url, key)).toBe(100);
    csv = await post(`${srv.url}/api/bom/export`, body, bearer(key)); // format defaults to csv
    json = await post(`${srv.url}/api/bom/export`, { ...body, format: 'json' }, bearer(key));
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('the test data is what it says: 10 catalogue lines, 40 own lines, prices with cents', () => {
    expect(items).toHaveLength(50);
    expect(items.filter((i) => i.id.startsWith('OWN-'))).toHaveLength(40);
    expect(new Set(items.map((i) => i.price))).toEqual(new Set(PRICES));
    expect(expectedCents).toBe(2051140); // worked out in integer cents, independently of the service
  });

  it('JSON: {metadata, items}; every line total is price x quantity and the total is their exact sum', () => {
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = json.json as unknown as Doc;
    expect(doc.metadata).toMatchObject({
      project_name: 'Biped v2',
      total_items: 50,
      total_quantity: expectedQuantity,
      currency: 'EUR',
      priced_lines: 50,
      unpriced_lines: [],
      total_is_partial: false,
    });
    expect(textCents(doc.metadata.total_cost_text as string)).toBe(expectedCents);
    expect(doc.metadata.total_cost).toBe(expectedCents / 100);
    expect(Number.isNaN(Date.parse(doc.metadata.created_at as string))).toBe(false);
    expect(doc.items).toHaveLength(50);
    let sum = 0;
    doc.items.forEach((l, i) => {
      const it = items[i];
      expect(l).toMatchObject({ line: i + 1, id: it.id, price: it.price, quantity: it.quantity, price_source: 'item' });
      expect(textCents(l.unit_price_text!)).toBe(cents(it.price));
      expect(textCents(l.line_total_text!)).toBe(cents(it.price) * it.quantity);
      expect(l.line_total).toBe((cents(it.price) * it.quantity) / 100);
      sum += textCents(l.line_total_text!);
    });
    expect(sum).toBe(expectedCents);
  });

  it('JSON: catalogue ids are found (canonical id), the caller\'s own ids are not', () => {
    const doc = json.json as unknown as Doc;
    doc.items.forEach((l, i) => {
      const it = items[i];
      if (it.id.startsWith('OWN-')) expect(l.catalogue).toMatchObject({ found: false, id: null });
      else expect(l.catalogue).toMatchObject({ found: true, id: CATALOGUE_IDS.get(it.id) ?? it.id });
    });
  });

  it('CSV: UTF-8 BOM, one row per line plus a final total row equal to the exact sum', () => {
    expect(csv.status).toBe(200);
    expect(csv.bytes.subarray(0, 3).equals(UTF8_BOM)).toBe(true);
    const rows = parseCsv(csv.bytes);
    expect(rows).toHaveLength(51);
    const lines = rows.slice(0, 50);
    const total = rows[50];
    expect(lines.every((r) => r.row_type === 'item')).toBe(true);
    expect(total.row_type).toBe('total');
    let sum = 0;
    lines.forEach((r, i) => {
      const it = items[i];
      expect(r.line).toBe(String(i + 1));
      expect(r.id).toBe(it.id);
      expect(r.quantity).toBe(String(it.quantity));
      expect(r.currency).toBe('EUR');
      expect(r.price_source).toBe('item');
      expect(textCents(r.unit_price)).toBe(cents(it.price));
      expect(textCents(r.line_total)).toBe(cents(it.price) * it.quantity);
      sum += textCents(r.line_total);
    });
    expect(sum).toBe(expectedCents);
    expect(textCents(total.line_total)).toBe(expectedCents);
    expect(total.quantity).toBe(String(expectedQuantity));
    expect(total.currency).toBe('EUR');
    expect(total.price_note).toBe('all 50 line(s) priced');
  });

  it('CSV and JSON agree line by line', () => {
    const doc = json.json as unknown as Doc;
    const rows = parseCsv(csv.bytes);
    doc.items.forEach((l, i) => {
      expect(rows[i].line_total).toBe(l.line_total_text);
      expect(rows[i].catalogue_id).toBe(l.catalogue.id ?? '');
    });
    expect(rows[50].line_total).toBe(doc.metadata.total_cost_text);
  });

  it('the balance dropped by exactly 2 across the two exports; headers carry it', async () => {
    expect(await restBalance(srv.url, key)).toBe(98);
    expect(csv.headers.get('x-credits-remaining')).toBe('99');
    expect(json.headers.get('x-credits-remaining')).toBe('98');
  });

  it('headers: X-API-Tier credits; CSV served as text/csv with an attachment Content-Disposition', () => {
    for (const r of [csv, json]) expect(r.headers.get('x-api-tier')).toBe('credits');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv(;|$)/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.csv"$/);
    expect(json.headers.get('content-disposition')).toBeNull();
    expect(csv.headers.get('idempotent-replayed')).toBeNull();
  });

  it('0.1 + 0.2 is 0.3, not 0.30000000000000004', async () => {
    const k = await newKey(srv.deps, 'drift');
    const r = await post(
      `${srv.url}/api/bom/export`,
      { format: 'json', items: [{ id: 'OWN-A', price: 0.1, quantity: 1 }, { id: 'OWN-B', price: 0.2, quantity: 1 }] },
      bearer(k),
    );
    expect((r.json as unknown as Doc).metadata).toMatchObject({ total_cost: 0.3, total_cost_text: '0.3' });
  });
});

describe('Idempotency-Key on POST /api/bom/export', () => {
  let srv: Server;
  beforeAll(async () => {
    srv = await startRealServer();
  });
  afterAll(async () => {
    await srv.stop();
  });

  const bom = (n: number) => ({ items: [{ id: 'ACT-001', price: 19.99, quantity: n }, { id: 'OWN-1', price: 0.1, quantity: 3 }] });

  for (const format of ['csv', 'json'] as const) {
    it(`${format}: the same key twice -> one charge, byte-identical body`, async () => {
      const key = await newKey(srv.deps, `idem-${format}`);
      const headers = { ...bearer(key), 'idempotency-key': `bom-${format}-0001` };
      const first = await post(`${srv.url}/api/bom/export`, { ...bom(2), format }, headers);
      const second = await post(`${srv.url}/api/bom/export`, { ...bom(2), format }, headers);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.bytes.equals(first.bytes)).toBe(true);
      expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('x-credits-remaining')).toBe('99');
      expect(second.headers.get('x-credits-remaining')).toBe('99');
      expect(await restBalance(srv.url, key)).toBe(99);
    });
  }

  it('the same key with a different BOM -> 409 conflict, nothing charged', async () => {
    const key = await newKey(srv.deps, 'idem-conflict');
    const headers = { ...bearer(key), 'idempotency-key': 'bom-conflict-0001' };
    expect((await post(`${srv.url}/api/bom/export`, bom(2), headers)).status).toBe(200);
    const reused = await post(`${srv.url}/api/bom/export`, bom(5), headers);
    expect(reused.status).toBe(409);
    expect(reused.json).toMatchObject({ code: 'conflict', error: expect.any(String) });
    // the same BOM in another format is another request too
    expect((await post(`${srv.url}/api/bom/export`, { ...bom(2), format: 'json' }, headers)).status).toBe(409);
    expect(await restBalance(srv.url, key)).toBe(99);
  });

  it('over MCP (_meta.idempotencyKey): one charge, identical result including billing', async () => {
    const { client, close } = await memoryClient(srv.deps);
    try {
      const key = await newKey(srv.deps, 'idem-mcp');
      const once = async () =>
        (await client.callTool({ name: 'export_bom', arguments: { ...bom(4), format: 'json', api_key: key }, _meta: { idempotencyKey: 'bom-mcp-0001' } })) as CallToolResult;
      const first = await once();
      const second = await once();
      expect(first.isError).toBeFalsy();
      expect(second.structuredContent).toEqual(first.structuredContent);
      expect(second.content).toEqual(first.content);
      expect((first.structuredContent as { billing: unknown }).billing).toEqual({ credits_charged: 1, credits_remaining: 99 });
      expect(await restBalance(srv.url, key)).toBe(99);
    } finally {
      await close();
    }
  });
});

describe('export_bom over MCP: a large CSV goes out as a resource_link', () => {
  it('beyond the inline limit: csv null, document_uri set, a resource_link block, and the resource reads back the same CSV', async () => {
    const { realDeps } = await import('../support/deps.js');
    const { memoryClient } = await import('../support/mcp.js');
    const { newKey } = await import('./helpers.js');
    const deps = realDeps();
    const small = await memoryClient(deps);
    const tiny = await memoryClient(deps, { server: { inlineMaxBytes: 200 } });
    try {
      const key = await newKey(deps, 'link');
      const args = { items: [{ id: 'ACT-001', quantity: 2, price: 10 }, { id: 'OWN-1', quantity: 1, price: 3.5 }], format: 'csv', api_key: key };
      const inline = (await small.client.callTool({ name: 'export_bom', arguments: args })) as CallToolResult;
      const csv = (inline.structuredContent as { csv: string }).csv;
      expect(Buffer.byteLength(csv)).toBeGreaterThan(200);
      expect((inline.structuredContent as { document_uri: unknown }).document_uri).toBeNull();
      expect(inline.content.some((c) => c.type === 'resource_link')).toBe(false);

      const linked = (await tiny.client.callTool({ name: 'export_bom', arguments: args })) as CallToolResult;
      const sc = linked.structuredContent as { csv: unknown; document_uri: string; metadata: { total_items: number } };
      expect(sc.csv).toBeNull();
      expect(sc.document_uri).toMatch(/^robotparts:\/\/exports\/[0-9a-f-]{36}$/);
      expect(sc.metadata.total_items).toBe(2);
      const link = linked.content.find((c) => c.type === 'resource_link') as { uri: string; mimeType: string; size: number };
      expect(link.uri).toBe(sc.document_uri);
      expect(link.mimeType).toBe('text/csv');
      const read = await tiny.client.readResource({ uri: link.uri });
      const text = (read.contents[0] as { text: string }).text;
      expect(link.size).toBe(Buffer.byteLength(text));
      // Same document as the inline export, apart from the export timestamp line(s).
      const strip = (s: string) => s.split('\n').filter((l) => !/\d{4}-\d{2}-\d{2}T/.test(l)).join('\n');
      expect(strip(text)).toBe(strip(csv));
    } finally {
      await small.close();
      await tiny.close();
      deps.close();
    }
  });
});

describe('export_bom over MCP at 500 lines: a bounded answer linking the whole document, read in pages', () => {
  it('CSV and JSON: the answer keeps the first 20 lines within the budget; the pages joined are the document REST returns', async () => {
    const { realDeps } = await import('../support/deps.js');
    const { startHttpServer } = await import('../../src/http/app.js');
    const deps = realDeps();
    const mcp = await memoryClient(deps);
    const http = await startHttpServer(deps);
    try {
      const key = await newKey(deps, 'pages');
      const items = Array.from({ length: 500 }, (_, i) => ({ id: `OWN-${String(i + 1).padStart(4, '0')}`, name: `Own part ${i + 1}`, price: PRICES[i % PRICES.length], quantity: 1 + (i % 9) }));
      const strip = (s: string) => s.split('\n').filter((l) => !/\d{4}-\d{2}-\d{2}T/.test(l)).join('\n');
      for (const format of ['csv', 'json'] as const) {
        const r = (await mcp.client.callTool({ name: 'export_bom', arguments: { items, format, api_key: key } })) as CallToolResult;
        expect(r.isError).toBeFalsy();
        const text = (r.content[0] as { text: string }).text;
        expect(text.length).toBeLessThanOrEqual(200_000);
        expect(text.split('\n')[0]).toMatch(/^BOM : 500 lines, /);
        const sc = r.structuredContent as { csv: unknown; document_uri: string; items: { line: number }[]; metadata: { total_items: number } };
        expect(sc.csv).toBeNull();
        expect(sc.metadata.total_items).toBe(500);
        expect(sc.items.map((l) => l.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        const link = r.content.find((c) => c.type === 'resource_link') as { uri: string; mimeType: string; size: number };
        expect(link.uri).toBe(sc.document_uri);
        expect(link.mimeType).toBe(format === 'csv' ? 'text/csv' : 'application/json');
        // Every page at most 80,000 characters, next_uri to the next; joined: the whole document.
        let doc = '';
        let next: string | null = link.uri;
        let pages = 0;
        while (next) {
          const read = await mcp.client.readResource({ uri: next });
          const c = read.contents[0] as { text: string; _meta?: Record<string, { page: number; pages: number; size: number; next_uri: string | null }> };
          expect(c.text.length).toBeLessThanOrEqual(80_000);
          const meta = c._meta!['robotparts/page']!;
          expect(meta.page).toBe(++pages);
          expect(meta.size).toBe(link.size);
          doc += c.text;
          next = meta.next_uri;
        }
        expect(pages).toBeGreaterThan(1);
        expect(Buffer.byteLength(doc)).toBe(link.size);
        const rest = await post(`${http.url}/api/bom/export`, { items, format }, bearer(key));
        expect(rest.status).toBe(200);
        if (format === 'csv') expect(strip(doc.replace(/^\uFEFF/, ''))).toBe(strip(rest.bytes.toString('utf8').replace(/^\uFEFF/, '')));
        else {
          const a = JSON.parse(doc) as { items: unknown[]; metadata: Record<string, unknown> };
          const b = rest.json as { items: unknown[]; metadata: Record<string, unknown> };
          expect(a.items).toEqual(b.items);
          expect({ ...a.metadata, created_at: null }).toEqual({ ...b.metadata, created_at: null });
        }
        // A page past the last names the first page.
        await expect(mcp.client.readResource({ uri: `${link.uri}/page/99` })).rejects.toThrow(/no page 99/);
      }
    } finally {
      await mcp.close();
      await http.close();
      deps.close();
    }
  }, 300_000);
});
