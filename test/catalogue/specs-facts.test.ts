/**
 * Facts under upstream `specs` sub-objects (bus, interface(s), protocol, rated torque, voltage) are
 * read the same way as top-level fields, and each filled field names its upstream path in
 * `provenance`. Expected values are read from the snapshot file itself, not from the importer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readComm } from '../../src/ingest/catalogue/comm.js';
import { extractDeclared } from '../../src/ingest/catalogue/declared.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SNAPSHOT = path.resolve(ROOT, '../shared/reference/roboparts/api/entities.json');
const present = fs.existsSync(SNAPSHOT);

type Rec = Record<string, unknown> & { id: string; specs?: Record<string, unknown> };

describe('readComm (pure)', () => {
  it('reads specs.bus, specs.interfaces and specs.protocol when the top level is silent, with paths', () => {
    const r = readComm({ specs: { bus: 'EtherCAT', interfaces: ['CAN', 'USB'], protocol: 'DroneCAN' } });
    expect(r.interfaces).toEqual(['CAN', 'USB', 'EtherCAT']);
    expect(r.interface).toBe('CAN/USB/EtherCAT');
    expect(r.protocol).toBe('DroneCAN');
    expect(r.provenance).toEqual({ interfaces: ['specs.interfaces', 'specs.bus'], interface: ['specs.interfaces', 'specs.bus'], protocol: ['specs.protocol'] });
  });
  it('top-level fields stay first; specs entries are appended, duplicates dropped', () => {
    const r = readComm({ protocol: 'CANopen', interfaces: ['CAN'], specs: { bus: 'CAN', interface: 'RS485' } });
    expect(r.interfaces).toEqual(['CAN', 'RS485']);
    expect(r.protocol).toBe('CANopen');
    expect(r.provenance.interfaces).toEqual(['interfaces', 'specs.interface', 'specs.bus']);
  });
  it('a remark (CJK text) under an interface key is left out and reported, not carried', () => {
    const r = readComm({ specs: { 总线: 'CAN-FD（5Mbps 级），支持多关节级联' } });
    expect(r.interfaces).toEqual([]);
    expect(r.interface).toBe('N/A');
    expect(r.rejected).toEqual([{ path: 'specs.总线', value: 'CAN-FD（5Mbps 级），支持多关节级联' }]);
  });
  it('no communication fact at all stays N/A with no provenance', () => {
    expect(readComm({ specs: { weight: '1 kg' } })).toEqual({ protocol: 'N/A', interface: 'N/A', interfaces: [], provenance: {}, rejected: [] });
  });
  it('specs.rated_torque is the declared torque, with its path', () => {
    const d = extractDeclared({ specs: { rated_torque: '48 Nm', peak_torque: '120 Nm' } });
    expect(d.declared.torque).toBe('48 Nm');
    expect(d.paths.torque).toBe('specs.rated_torque');
    expect(d.paths.peak_torque).toBe('specs.peak_torque');
  });
});

describe.skipIf(!present)('shipped catalogue: specs facts carried', () => {
  const snap = present ? (JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')).entities as Rec[]) : [];
  const data = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/catalogue/entities.json'), 'utf8')).entities as Record<string, any>[];
  const byId = new Map(data.map((e) => [e.id, e]));
  const raw = (id: string) => snap.find((r) => r.id === id)!;

  it('CTRL-001 carries its CAN interfaces, ACT-3277 its EtherCAT bus, CTRL-002 its rated torque', () => {
    const c1 = byId.get('CTRL-001')!;
    for (const x of raw('CTRL-001').specs!.interfaces as string[]) expect(c1.interfaces).toContain(x);
    expect(c1.provenance.interfaces).toEqual(['specs.interfaces']);
    const a = byId.get('ACT-3277')!;
    expect(a.interfaces).toContain(raw('ACT-3277').specs!.bus);
    expect(a.provenance.interfaces).toEqual(['specs.bus']);
    const c2 = byId.get('CTRL-002')!;
    expect(c2.declared.torque).toBe(raw('CTRL-002').specs!.rated_torque);
    expect(c2.provenance['declared.torque']).toEqual(['specs.rated_torque']);
  });

  it('every specs bus/interface/protocol/voltage/rated_torque value without CJK text reaches the record, and provenance names it', () => {
    const keys = ['interfaces', 'interface', 'bus', '接口', '控制接口', '总线'];
    let checked = 0;
    for (const r of snap) {
      const s = r.specs;
      if (!s || typeof s !== 'object') continue;
      const e = byId.get(r.id);
      if (!e) continue; // renamed by the id-collision rule
      for (const k of keys) {
        const vals = typeof s[k] === 'string' ? [s[k] as string] : Array.isArray(s[k]) ? (s[k] as string[]) : [];
        for (const v of vals.map((x) => x.trim())) {
          if (/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/.test(v)) {
            expect(e.interfaces).not.toContain(v);
            continue;
          }
          expect(e.interfaces).toContain(v);
          expect(e.provenance.interfaces).toContain(`specs.${k}`);
          checked++;
        }
      }
      if (typeof s.protocol === 'string' && typeof r.protocol !== 'string') {
        expect(e.protocol).toBe(s.protocol);
        expect(e.provenance.protocol).toEqual(['specs.protocol']);
        checked++;
      }
      if (typeof s.voltage === 'string' && r.voltage === undefined) {
        expect(e.declared.voltage).toBe(s.voltage);
        expect(e.provenance['declared.voltage']).toEqual(['specs.voltage']);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('every catalogue record has provenance for each filled communication and declared field', () => {
    for (const e of data) {
      expect(e.provenance, e.id).toBeDefined();
      if (e.interfaces.length > 0) expect(e.provenance.interfaces, e.id).toBeDefined();
      if (e.protocol !== 'N/A') expect(e.provenance.protocol, e.id).toBeDefined();
      for (const k of Object.keys(e.declared)) expect(e.provenance[`declared.${k}`], `${e.id} ${k}`).toHaveLength(1);
    }
  });
});
