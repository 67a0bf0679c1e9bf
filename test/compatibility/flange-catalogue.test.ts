/**
 * Flanges on the shipped catalogue: the records the source's designations_in_use lists resolve to
 * registered rows through the join rule; a pair sharing a flange is mechanically compatible; a pair
 * that differs gets an adapter plate (export_bom) with both bolt patterns; rule_flange accepts both
 * written forms (through MCP). Expected ids and tokens are read from the snapshot file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { checkCompatibility } from '../../src/domain/compatibility/index.js';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { normalizeDesignation } from '../../src/domain/knowledge/flange.js';
import { readBusTable, readFlangeRegistry } from '../../src/store/datasets.js';
import { exportBom } from '../bom/helpers.js';
import { realDeps } from '../support/deps.js';
import { call, openSurfaces } from '../support/mcp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MECH = path.resolve(ROOT, '../shared/reference/roboparts/api/mechanical_interfaces.json');
const present = fs.existsSync(MECH);
const DATA = path.join(ROOT, 'data');
const flanges = readFlangeRegistry(DATA);
const buses = readBusTable(DATA);
const entities = (JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')).entities as unknown[]).map((e) => StoredEntity.parse(e));
const byId = new Map(entities.map((e) => [e.id, e]));

describe.skipIf(!present)('catalogue records declaring a flange', () => {
  const inUse = present
    ? (JSON.parse(fs.readFileSync(MECH, 'utf8')).designations_in_use.entries as { token_as_written: string; registry_row: string | null; used_by_entity_ids: string[] }[])
    : [];
  // Independent reading of the source: a token names geometry "<d1>-<n>-M<t>"; the registry row is the one with that geometry.
  const geometryOf = (token: string) => /^ISO\s*9409-1-A?(\d+(?:\.\d+)?)-(\d+)-(M\d+)$/.exec(token.trim());

  it('every record listed with a full designation resolves to the registered row of that geometry; the bare "ISO 9409-1" does not', () => {
    const touched = new Set(inUse.flatMap((e) => e.used_by_entity_ids));
    expect(touched.size).toBe(16);
    let resolved = 0;
    for (const id of touched) {
      const e = byId.get(id)!;
      const tokens = inUse.filter((x) => x.used_by_entity_ids.includes(id));
      const expected = tokens
        .map((t) => geometryOf(t.token_as_written))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => flanges.designations.find((d) => d.pcd_mm === Number(m[1]) && d.bolt_count === Number(m[2]) && d.thread === m[3])!.designation);
      if (expected.length === 0) {
        expect(e.mechanical_interface.flanges, id).toBeUndefined();
        expect(e.mechanical_interface.flange, id).toBeNull();
        continue;
      }
      resolved++;
      expect([...(e.mechanical_interface.flanges ?? [])].sort(), id).toEqual([...new Set(expected)].sort());
      expect(e.provenance?.['mechanical_interface.flanges']?.length, id).toBeGreaterThan(0);
    }
    expect(resolved).toBe(15);
  });

  it('a pair sharing a flange is mechanically compatible, naming the shared designation', () => {
    const a = byId.get('GRIP-001')!;
    const b = byId.get('SENS-047')!;
    const m = checkCompatibility(a, b, { flanges, buses }).dimensions!.mechanical;
    expect(m.verdict).toBe('compatible');
    expect(m.reason).toContain('ISO9409-1-A50-4-M6');
    expect(m.evidence.find((x) => x.side === 'a' && x.field === 'mechanical_interface.flanges')?.source?.[0]).toContain('designations_in_use');
  });

  it('records listing alternative couplings are compatible with a single-flange part on the option they share', () => {
    const m = checkCompatibility(byId.get('ACT-028')!, byId.get('GRIP-001')!, { flanges, buses }).dimensions!.mechanical;
    expect(m.verdict).toBe('compatible');
    expect(m.detail.ruling?.verdict).toBe('identity');
  });

  it('a pair that differs gets the adapter plate with both bolt patterns (check_compatibility and export_bom)', () => {
    const grip = byId.get('GRIP-001')!;
    // A part written with the form without "A" for a different registered pattern.
    const other = StoredEntity.parse({ ...byId.get('SENS-047')!, id: 'TEST-63', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: 'ISO 9409-1-63-6-M6' } });
    const m = checkCompatibility(grip, other, { flanges, buses }).dimensions!.mechanical;
    expect(m.verdict).toBe('adapter_required');
    const row50 = flanges.designations.find((d) => normalizeDesignation(d.designation) === 'ISO9409-1-A50-4-M6')!;
    const row63 = flanges.designations.find((d) => normalizeDesignation(d.designation) === 'ISO9409-1-A63-6-M6')!;
    expect(m.adapters[0]).toContain(`${row50.bolt_count}×${row50.thread} on PCD ${row50.pcd_mm} mm`);
    expect(m.adapters[0]).toContain(`${row63.bolt_count}×${row63.thread} on PCD ${row63.pcd_mm} mm`);
    const doc = exportBom({ items: [{ id: 'GRIP-001', quantity: 1 }, { id: 'TEST-63', quantity: 1 }] }, [grip, other]);
    const plates = doc.print_suggestions.filter((p) => p.kind === 'adapter_plate');
    expect(plates).toHaveLength(1);
    const p = plates[0] as Extract<(typeof plates)[number], { kind: 'adapter_plate' }>;
    expect(JSON.stringify(p)).toContain(String(row50.pcd_mm));
    expect(JSON.stringify(p)).toContain(String(row63.pcd_mm));
  });
});

describe('rule_flange through MCP on both written forms', () => {
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, close } = await openSurfaces(realDeps()));
  });
  afterAll(async () => {
    await close();
  });
  it('"ISO 9409-1-50-4-M6" and "ISO9409-1-A50-4-M6" are the same registered flange', async () => {
    const r = (await call(client, 'rule_flange', { a: 'ISO 9409-1-50-4-M6', b: 'ISO9409-1-A50-4-M6' })).structuredContent as { ruling: { verdict: string; pair: string[] } };
    expect(r.ruling.verdict).toBe('identity');
    expect(r.ruling.pair).toEqual(['ISO9409-1-A50-4-M6', 'ISO9409-1-A50-4-M6']);
    const d = (await call(client, 'rule_flange', { a: 'ISO 9409-1-50-4-M6', b: 'ISO 9409-1-63-6-M6' })).structuredContent as { ruling: { verdict: string; blocking_dims: string[] } };
    expect(d.ruling.verdict).toBe('adapter_required');
    expect(d.ruling.blocking_dims).toEqual(['pcd_mm', 'bolt_count']);
  });
});
