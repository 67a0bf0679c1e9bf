/**
 * Adapter plates over MCP (in-memory client, real MCP SDK): resource links readable with
 * resources/read, pointers from rule_flange, check_compatibility and check_bom, parts as input,
 * bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { testDeps } from '../support/deps.js';
import { makeEntity, sampleEntities } from '../support/factory.js';
import { call, errorBody, memoryClient } from '../support/mcp.js';
import { manifoldReport, parseStl } from './mesh-support.js';

const A50 = 'ISO9409-1-A50-4-M6';
const A63 = 'ISO9409-1-A63-6-M6';
const entities = [
  ...sampleEntities(),
  makeEntity({ id: 'ARM-050', category: 'actuators', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: A50 } }),
  makeEntity({ id: 'GRIP-063', category: 'grippers', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: 'ISO 9409-1-63-6-M6' } }),
  makeEntity({ id: 'GRIP-050', category: 'grippers', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: A50 } }),
  makeEntity({ id: 'GRIP-NONE', category: 'grippers' }),
];

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, close } = await memoryClient(testDeps(entities)));
});
afterAll(async () => {
  await close?.();
});

type Link = { type: 'resource_link'; uri: string; name: string; mimeType: string; size: number };

/**
 * A file read whole: every page (next_uri in _meta["robotparts/page"]) joined, each read at most
 * 80,000 characters of base64; the page count is the size over 60,000 bytes, rounded up.
 */
async function readFileBytes(uri: string): Promise<{ bytes: Buffer; reads: number }> {
  const parts: Buffer[] = [];
  let next: string | null = uri;
  let reads = 0;
  while (next) {
    const r = await client.readResource({ uri: next });
    const c = r.contents[0] as { blob: string; _meta?: Record<string, { next_uri: string | null; page: number; pages: number; size: number }> };
    expect(c.blob.length).toBeLessThanOrEqual(80_000);
    parts.push(Buffer.from(c.blob, 'base64'));
    reads += 1;
    const meta = c._meta?.['robotparts/page'];
    if (meta) expect(meta.page).toBe(reads);
    next = meta?.next_uri ?? null;
  }
  return { bytes: Buffer.concat(parts), reads };
}
const links = (r: Awaited<ReturnType<typeof call>>) => r.content.filter((c) => c.type === 'resource_link') as unknown as Link[];

describe('design_adapter_plate over MCP', () => {
  it('answers the design and links the STL, 3MF and OpenSCAD files as resources', async () => {
    const r = await call(client, 'design_adapter_plate', { a: A50, b: A63 });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as any;
    expect(out.plate_needed).toBe(true);
    expect(out.not_load_rated).toMatch(/^Not load-rated/);
    expect(out.material.recommended).toBe('PA-CF (carbon-fibre-filled nylon)');
    expect(links(r).map((l) => [l.uri, l.mimeType])).toEqual([
      [`robotparts://plates/${A50}/${A63}/tapped.stl`, 'model/stl'],
      [`robotparts://plates/${A50}/${A63}/tapped.3mf`, 'model/3mf'],
      [`robotparts://plates/${A50}/${A63}/tapped.scad`, 'application/x-openscad'],
    ]);
    // The text block carries the whole structured answer.
    const text = (r.content[0] as { text: string }).text;
    expect(JSON.parse(text.slice(text.indexOf('\n') + 1))).toEqual(out);

    // Each binary link carries its size; the STL (over one read) is read in pages that join to exactly that many bytes.
    const stl = await readFileBytes(links(r)[0]!.uri);
    expect(stl.bytes.length).toBe(links(r)[0]!.size);
    expect(stl.reads).toBe(Math.ceil(stl.bytes.length / 60_000));
    expect(stl.reads).toBeGreaterThan(1);
    // Binary STL: an 84-byte header and count, then 50 bytes per triangle (the count read from the bytes).
    expect(stl.bytes.length).toBe(84 + 50 * stl.bytes.readUInt32LE(80));
    const mf = await readFileBytes(links(r)[1]!.uri);
    expect(mf.bytes.length).toBe(links(r)[1]!.size);
    expect(mf.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const tris = parseStl(new Uint8Array(stl.bytes));
    expect(manifoldReport(tris).badEdges).toBe(0);
    const scad = await client.readResource({ uri: links(r)[2]!.uri });
    const src = (scad.contents[0] as { text: string }).text;
    expect(Buffer.byteLength(src)).toBe(links(r)[2]!.size);
    expect(src).toContain('difference()');
    // One cut per listed feature.
    expect(src.match(/translate\(/g)!.length).toBe(out.design.features.length);
    const json = await client.readResource({ uri: out.files.find((f: any) => f.format === 'json').uri });
    expect(JSON.parse((json.contents[0] as { text: string }).text).design.features).toEqual(out.design.features);
  });

  it('nut option: hexagonal pockets in face a, clearance holes for side b', async () => {
    const out = (await call(client, 'design_adapter_plate', { a: A50, b: A63, b_holes: 'nut' })).structuredContent as any;
    const pockets = out.design.features.filter((f: any) => f.kind === 'nut_pocket');
    expect(pockets).toHaveLength(6);
    for (const p of pockets) {
      expect(p.shape).toBe('hexagon');
      expect(p.from_face).toBe('a');
      expect(p.z_min_mm).toBe(0);
      // ISO 4032 M6: s = 10 mm, m = 5.2 mm; plus the 0.4 / 0.5 mm allowances of data/plate/fasteners.json.
      expect(p.across_flats_mm).toBe(10.4);
      expect(p.depth_mm).toBeCloseTo(5.7, 9);
    }
    expect(out.files[1].uri).toBe(`robotparts://plates/${A50}/${A63}/nut.stl`);
  });

  it('two catalogue parts whose flanges are known (one written without the A)', async () => {
    const out = (await call(client, 'design_adapter_plate', { part_a: 'ARM-050', part_b: 'GRIP-063' })).structuredContent as any;
    expect(out.plate_needed).toBe(true);
    expect(out.design.side_a).toMatchObject({ designation: A50, from_part: 'ARM-050' });
    expect(out.design.side_b).toMatchObject({ designation: A63, from_part: 'GRIP-063', pcd_mm: 63, bolt_count: 6 });
    const same = (await call(client, 'design_adapter_plate', { part_a: 'ARM-050', part_b: 'GRIP-050' })).structuredContent as any;
    expect(same.plate_needed).toBe(false);
    const none = errorBody(await call(client, 'design_adapter_plate', { part_a: 'ARM-050', part_b: 'GRIP-NONE' }));
    expect(none).toMatchObject({ code: 'not_applicable', field: 'part_b' });
    const missing = errorBody(await call(client, 'design_adapter_plate', { part_a: 'NOPE-1', b: A63 }));
    expect(missing).toMatchObject({ code: 'not_found', field: 'part_a' });
  });

  it('the same flange on both sides answers that no plate is needed', async () => {
    const r = await call(client, 'design_adapter_plate', { a: A50, b: 'ISO 9409-1-50-4-M6' });
    expect(r.structuredContent).toMatchObject({ plate_needed: false, design: null, files: [] });
    expect(links(r)).toEqual([]);
  });

  it('an unregistered or bare designation is refused naming the registered forms', async () => {
    const e = errorBody(await call(client, 'design_adapter_plate', { a: A50, b: 'A63' }));
    expect(e.code).toBe('invalid_input');
    expect(e.field).toBe('b');
    expect(e.error).toContain('ISO9409-1-A20-4-M3');
    expect(e.error).toContain('"ISO 9409-1-250-4-M16"');
  });

  it('a plate URI that names no design is not found', async () => {
    await expect(client.readResource({ uri: `robotparts://plates/${A50}/A63/tapped.stl` })).rejects.toThrow(/not a registered/);
    await expect(client.readResource({ uri: `robotparts://plates/${A50}/${A63}/tapped.obj` })).rejects.toThrow(/Plate URIs are/);
    await expect(client.readResource({ uri: `robotparts://plates/${A50}/${A50}/tapped.stl` })).rejects.toThrow(/No adapter plate is needed/);
  });
});

describe('answers that point to the plate where mechanical is adapter_required', () => {
  it('rule_flange', async () => {
    const r = (await call(client, 'rule_flange', { a: A50, b: A63 })).structuredContent as any;
    expect(r.adapter_plate).toMatchObject({ tool: 'design_adapter_plate', arguments: { a: A50, b: A63 }, uri: `robotparts://plates/${A50}/${A63}/tapped.json` });
    const read = await client.readResource({ uri: r.adapter_plate.uri });
    expect(JSON.parse((read.contents[0] as { text: string }).text).plate_needed).toBe(true);
    expect(((await call(client, 'rule_flange', { a: A50, b: A50 })).structuredContent as any).adapter_plate).toBeNull();
  });

  it('check_compatibility', async () => {
    const r = (await call(client, 'check_compatibility', { a: 'ARM-050', b: 'GRIP-063' })).structuredContent as any;
    expect(r.dimensions.mechanical.verdict).toBe('adapter_required');
    expect(r.dimensions.mechanical.detail.adapter_plate.uri).toBe(`robotparts://plates/${A50}/${A63}/tapped.json`);
  });

  it('check_bom', async () => {
    const r = (await call(client, 'check_bom', { items: [{ id: 'ARM-050', quantity: 1 }, { id: 'GRIP-063', quantity: 1 }] })).structuredContent as any;
    const f = r.findings.find((x: any) => x.kind === 'flange_adapter');
    expect(f.detail.adapter_plate.uri).toBe(`robotparts://plates/${A50}/${A63}/tapped.json`);
  });
});

describe('data/plate/fasteners.json', () => {
  it('its ISO 273 medium clearance holes agree with data/print.json where both list a thread', async () => {
    const fs = await import('node:fs');
    const read = (p: string) => JSON.parse(fs.readFileSync(new URL(`../../data/${p}`, import.meta.url), 'utf8'));
    const fasteners = read('plate/fasteners.json');
    const print = read('print.json');
    const shared = Object.keys(fasteners.threads).filter((t) => t in print.clearance_holes_mm.by_thread);
    expect(shared.length).toBeGreaterThanOrEqual(9);
    for (const t of shared) expect(fasteners.threads[t].clearance_medium_mm, t).toBe(print.clearance_holes_mm.by_thread[t]);
    // Every registered thread has a row (else no plate could be drawn for it).
    const reg = read('flange/designations.json');
    for (const d of reg.designations) expect(fasteners.threads[d.thread], d.thread).toBeDefined();
  });
});
