/**
 * check_bom on a realistic set from the shipped catalogue, over REST and MCP: a controller, six
 * joint motors of two vendors, an IMU and a camera. The findings are the real conflicts of the
 * catalogue data (checked here against the records themselves), none invented; free.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, BomCheckResult } from '../../src/domain/bom/check.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { memoryClient } from '../support/mcp.js';
import { bearer, newKey, post, restBalance, startRealServer, type Server } from './helpers.js';

const CONTROLLER = 'CHIP-qualcomm-iq10-advantech'; // Advantech MIC-710AI: CAN, EtherCAT, USB3, GbE
const TMOTOR = 'ACT-006'; // T-Motor AK80-64: CAN, 24 V
const ROBOTIS = 'ACT-001'; // ROBOTIS DYNAMIXEL XM540: TTL/RS485, 10.0-14.8 V
const IMU = 'SENS-35'; // Bosch BNO055: no interface declared
const CAMERA = 'SENS-cam-orbbec-gemini335'; // Orbbec Gemini 335: USB 3.0
const SET = [CONTROLLER, TMOTOR, TMOTOR, TMOTOR, ROBOTIS, ROBOTIS, ROBOTIS, IMU, CAMERA];

/** A record's field by the dotted path a finding's evidence names; an absent declared value is null. */
function readField(r: StoredEntity, path: string): unknown {
  let v: unknown = r;
  for (const k of path.split('.')) v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k];
  return v === undefined ? null : v;
}

/** "10.0~14.8V" -> [10, 14.8]; null for "N/A". */
const volts = (s: string): [number, number] | null => {
  const m = /^(\d+(?:\.\d+)?)~(\d+(?:\.\d+)?)V$/.exec(s);
  return m ? [Number(m[1]), Number(m[2])] : null;
};

let srv: Server;
let records: Map<string, StoredEntity>;
beforeAll(async () => {
  srv = await startRealServer();
  const all = await srv.deps.catalogue.getMany([...SET, 'ACT-118', 'ACT-hd-leaderdrive-lcs']);
  records = new Map(all.map((r) => [r.id, r]));
});
afterAll(async () => {
  await srv.stop();
});

const check = (ids: string[], headers: Record<string, string> = {}) => post(`${srv.url}/api/bom/check`, { items: ids.map((id) => ({ id, quantity: 2 })) }, headers);

/** Every finding names parts, a dimension, a severity and evidence; the evidence is what the records say. */
function expectGrounded(res: BomCheckResult, ids: string[]): void {
  for (const f of res.findings) {
    const where = `${f.kind}/${f.dimension}`;
    expect(f.parts.length, where).toBeGreaterThan(0);
    expect(['error', 'warning', 'info'], where).toContain(f.severity);
    expect(['electrical', 'communication', 'mechanical', 'data_quality', 'red_lines', 'catalogue'], where).toContain(f.dimension);
    expect(f.evidence.length, where).toBeGreaterThan(0);
    for (const p of f.parts) {
      expect(ids, where).toContain(p.id);
      expect(f.message, where).toContain(p.id);
      expect(res.parts[p.line - 1].id.toLowerCase(), where).toBe(p.id.toLowerCase());
    }
    for (const e of f.evidence) {
      const r = records.get(e.id);
      if (!r) {
        expect(f.kind, where).toBe('not_in_catalogue');
        expect(e, where).toEqual({ id: f.parts[0].id, field: 'id', value: f.parts[0].id });
        continue;
      }
      expect(e.value, `${where} ${e.id}.${e.field}`).toEqual(readField(r, e.field));
    }
  }
}

const only = (res: BomCheckResult, kind: Finding['kind'], dimension?: Finding['dimension']) => {
  const fs = res.findings.filter((f) => f.kind === kind && (dimension === undefined || f.dimension === dimension));
  expect(fs, `${kind} ${dimension ?? ''}`).toHaveLength(1);
  return fs[0];
};
const ids = (f: Finding) => f.parts.map((p) => p.id);

describe('POST /api/bom/check: controller, 3x T-Motor, 3x ROBOTIS, IMU, camera', () => {
  let res: BomCheckResult;
  beforeAll(async () => {
    const r = await check(SET);
    expect(r.status).toBe(200);
    res = r.json as unknown as BomCheckResult;
  });

  it('the records are what the set claims', () => {
    expect(records.get(CONTROLLER)).toMatchObject({ category: 'chips', type: 'SBC' });
    expect(records.get(CONTROLLER)!.interfaces).toEqual(expect.arrayContaining(['CAN', 'USB3', 'EtherCAT']));
    expect(records.get(TMOTOR)).toMatchObject({ category: 'actuators', manufacturer: 'T-Motor' });
    expect(records.get(ROBOTIS)).toMatchObject({ category: 'actuators', manufacturer: 'ROBOTIS' });
    expect(records.get(IMU)).toMatchObject({ category: 'sensors', type: 'IMU' });
    expect(records.get(CAMERA)).toMatchObject({ category: 'sensors', type: 'Depth Camera' });
  });

  it('reports the two real conflicts and the unknowns, nothing else', () => {
    expect(res.findings.map((f) => [f.kind, f.severity, f.dimension])).toEqual([
      ['voltage_rails', 'warning', 'electrical'],
      ['bridge_required', 'warning', 'communication'],
      ['unknown_dimension', 'info', 'electrical'],
      ['unknown_dimension', 'info', 'communication'],
      ['unknown_dimension', 'info', 'mechanical'],
    ]);
    expect(res.summary).toMatchObject({ errors: 0, warnings: 2, infos: 3 });
    expect(res.parts.map((p) => [p.id, p.quantity, p.found])).toEqual(SET.map((id) => [id, 2, true]));
  });

  it('every finding names its parts, dimension, severity and evidence, and the evidence is the catalogue data', () => {
    expectGrounded(res, SET);
  });

  it('voltage_rails: the 10.0-14.8 V ROBOTIS servos and the 24 V T-Motors cannot share a rail (as the records say)', () => {
    const f = only(res, 'voltage_rails');
    const r = volts(records.get(ROBOTIS)!.voltage)!;
    const t = volts(records.get(TMOTOR)!.voltage)!;
    expect(r[1] < t[0] || t[1] < r[0]).toBe(true); // disjoint in the data itself
    expect(ids(f).sort()).toEqual([ROBOTIS, TMOTOR].sort());
    expect(f.detail.rails).toEqual([
      { min_v: r[0], max_v: r[1], parts: [ROBOTIS] },
      { min_v: t[0], max_v: t[1], parts: [TMOTOR] },
    ]);
    expect(f.evidence).toEqual(
      expect.arrayContaining([
        { id: ROBOTIS, field: 'voltage', value: '10.0~14.8V' },
        { id: TMOTOR, field: 'voltage', value: '24~24V' },
      ]),
    );
  });

  it('bridge_required: the TTL/RS-485 servos share no bus with the controller; a converter is named', () => {
    const f = only(res, 'bridge_required');
    expect(ids(f)).toEqual([ROBOTIS, CONTROLLER]);
    const a = records.get(ROBOTIS)!.interfaces;
    const c = records.get(CONTROLLER)!.interfaces;
    expect(a.filter((x) => c.includes(x))).toEqual([]); // no interface in common in the data
    expect(f.detail.island).toEqual([ROBOTIS]);
    // The bridge is a row of the bridges table (its evidence is traced by test/spine/data-evidence.test.ts).
    expect(f.detail.adapters).toEqual(['ROBOTIS U2D2 (USB to TTL / RS-485 interface for DYNAMIXEL)']);
    expect(f.remedy).toBe('Add ROBOTIS U2D2 (USB to TTL / RS-485 interface for DYNAMIXEL) to the BOM.');
  });

  it('no invented conflicts: the CAN motors, the USB camera, the unknown IMU bus and the undeclared flanges are not errors', () => {
    expect(records.get(TMOTOR)!.interfaces.filter((x) => records.get(CONTROLLER)!.interfaces.includes(x))).toEqual(['CAN']);
    const conflicts = res.findings.filter((f) => f.kind !== 'unknown_dimension');
    for (const f of conflicts) expect(ids(f)).not.toContain(CAMERA);
    expect(conflicts.filter((f) => f.dimension === 'communication').flatMap(ids)).not.toContain(TMOTOR);
    for (const kind of ['no_common_bus', 'flange_adapter', 'quarantined', 'red_line', 'not_in_catalogue', 'not_applicable'] as const) {
      expect(res.findings.filter((f) => f.kind === kind), kind).toEqual([]);
    }
    for (const id of new Set(SET)) {
      expect(records.get(id)!.quarantine).toBe(false);
      expect(records.get(id)!.mechanical_interface.flange).toBeNull();
    }
  });

  it('unknowns are listed as unknown: voltage of controller, IMU, camera; the IMU bus; every flange', () => {
    expect(ids(only(res, 'unknown_dimension', 'electrical'))).toEqual([CONTROLLER, IMU, CAMERA]);
    for (const id of [CONTROLLER, IMU, CAMERA]) expect(records.get(id)!.voltage).toBe('N/A');
    expect(ids(only(res, 'unknown_dimension', 'communication'))).toEqual([IMU]);
    expect(records.get(IMU)!.interfaces).toEqual([]);
    expect(ids(only(res, 'unknown_dimension', 'mechanical'))).toEqual([CONTROLLER, TMOTOR, ROBOTIS, IMU, CAMERA]);
  });

  it('free: no key needed; with a key the balance is unchanged and no credit headers are sent', async () => {
    const key = await newKey(srv.deps, 'check-free');
    const keyed = await check(SET, bearer(key));
    expect(keyed.status).toBe(200);
    expect(keyed.json).toEqual(res);
    expect(keyed.headers.get('x-credits-remaining')).toBeNull();
    expect(await restBalance(srv.url, key)).toBe(100);
    expect((await srv.deps.accounts.balance(key)).api_calls).toBe(0);
  });

  it('the same answer over MCP (in-memory client, no key)', async () => {
    const { client, close } = await memoryClient(srv.deps);
    try {
      const r = (await client.callTool({ name: 'check_bom', arguments: { items: SET.map((id) => ({ id, quantity: 2 })) } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual(res);
    } finally {
      await close();
    }
  });
});

describe('POST /api/bom/check: data-quality findings from the shipped catalogue', () => {
  const QUARANTINED = 'ACT-118'; // quarantined upstream: unverifiable_vendor
  const MARKED = 'ACT-hd-leaderdrive-lcs'; // red-line mark RL-03
  const set = [...SET, QUARANTINED, MARKED, 'NOPE-404'];
  let res: BomCheckResult;
  beforeAll(async () => {
    const r = await check(set);
    expect(r.status).toBe(200);
    res = r.json as unknown as BomCheckResult;
  });

  it('every finding is grounded in the records', () => {
    expectGrounded(res, set);
  });

  it('quarantined: the upstream mark and reason', () => {
    const r = records.get(QUARANTINED)!;
    expect(r).toMatchObject({ quarantine: true, quarantine_reason: 'unverifiable_vendor' });
    const f = only(res, 'quarantined');
    expect(f).toMatchObject({ severity: 'warning', dimension: 'data_quality', parts: [{ line: 10, id: QUARANTINED }] });
    expect(f.evidence).toContainEqual({ id: QUARANTINED, field: 'quarantine_reason', value: 'unverifiable_vendor' });
  });

  it('red_line: the screen\'s mark on the part, with the declared values behind it', () => {
    const f = only(res, 'red_line');
    expect(f).toMatchObject({ severity: 'warning', dimension: 'red_lines', parts: [{ line: 11, id: MARKED }] });
    expect((f.detail.marks as { id: string }[]).map((m) => m.id)).toEqual(['RL-03']);
    expect(f.evidence.every((e) => e.id === MARKED && e.field.startsWith('declared.'))).toBe(true);
  });

  it('not_in_catalogue: the unknown id, nothing checked about it', () => {
    const f = only(res, 'not_in_catalogue');
    expect(f).toMatchObject({ severity: 'warning', dimension: 'catalogue', parts: [{ line: 12, id: 'NOPE-404', name: null }] });
    expect(res.parts[11]).toMatchObject({ id: 'NOPE-404', found: false, catalogue_id: null });
  });

  it('the two real conflicts of the base set are still there', () => {
    expect(res.findings.filter((f) => f.kind === 'bridge_required').flatMap(ids)).toContain(ROBOTIS);
    expect(res.findings.filter((f) => f.kind === 'voltage_rails')).toHaveLength(1);
  });
});

describe('check_bom limits', () => {
  it('500 items are accepted (one distinct part checked once)', async () => {
    const r = await check(Array(500).fill(ROBOTIS));
    expect(r.status).toBe(200);
    const res = r.json as unknown as BomCheckResult;
    expect(res.parts).toHaveLength(500);
    // No computer in the set: the one problem is the no-host finding (issue 42), naming the part once.
    expect(res.findings.filter((f) => f.severity !== 'info').map((f) => [f.kind, f.parts.map((p) => p.id)])).toEqual([['no_host', [ROBOTIS]]]);
  });
});
