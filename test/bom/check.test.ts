import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCompatibility } from '../../src/domain/compatibility/index.js';
import { readBusTable } from '../../src/store/datasets.js';
import { BomCheckResult, bomCheckEngines, checkBom, parseBomCheckRequest, toCheckParts, type Finding } from '../../src/domain/bom/check.js';
import { recordLookup } from '../../src/domain/bom/export.js';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { makeEntity } from '../support/factory.js';
import { DATA_DIR, flanges } from './helpers.js';

const buses = readBusTable(DATA_DIR);
const engines = bomCheckEngines({ flanges, buses });
const compat = (a: StoredEntity, b: StoredEntity) => checkCompatibility(a, b, { flanges, buses });

/** A synthetic part as the importer would store it: spec-shaped voltage plus the declared string. */
const part = (id: string, { volts, declared, ...rest }: Partial<StoredEntity> & { volts?: [string, string] } = {}) =>
  makeEntity({
    id,
    ...rest,
    ...(volts ? { voltage: `${volts[0]}~${volts[1]}V` } : {}),
    declared: { ...(volts ? { voltage: `${volts[0]}~${volts[1]}V` } : {}), ...(declared ?? {}) },
  });

const ctrl = part('CTRL-1', { category: 'chips', type: 'SBC', volts: ['12', '24'], interface: 'USB3/GbE/CAN', interfaces: ['USB3', 'GbE', 'CAN'] });
const canMotor = part('MOT-A', { manufacturer: 'Vendor A', type: 'joint_motor', volts: ['18', '30'], protocol: 'CAN bus', interface: 'CAN', interfaces: ['CAN'] });
const serialMotor = part('MOT-B', { manufacturer: 'Vendor B', type: 'smart_servo', volts: ['10.0', '14.8'], protocol: 'N/A', interface: 'TTL/RS485', interfaces: ['TTL', 'RS485'] });
const highMotor = part('MOT-C', { manufacturer: 'Vendor C', type: 'joint_motor', volts: ['48', '60'], protocol: 'CAN bus', interface: 'CAN', interfaces: ['CAN'] });
const i2cImu = part('IMU-1', { category: 'sensors', type: 'imu', volts: ['3.0', '5.5'], interface: 'I2C', interfaces: ['I2C'] });
const silentCam = part('CAM-1', { category: 'sensors', type: 'depth_camera' });

const run = (records: (StoredEntity | null)[], ids?: string[]) =>
  checkBom(
    records.map((r, i) => ({ line: i + 1, id: ids?.[i] ?? r!.id, quantity: 1, record: r })),
    engines,
  );
const only = (res: BomCheckResult, kind: Finding['kind'], dimension?: Finding['dimension']) => {
  const fs = res.findings.filter((f) => f.kind === kind && (dimension === undefined || f.dimension === dimension));
  expect(fs).toHaveLength(1);
  return fs[0];
};
const ids = (f: Finding) => f.parts.map((p) => p.id);

describe('check_bom findings (synthetic parts, real engines)', () => {
  it('voltage_rails: the fewest rails and which parts sit on each', () => {
    const res = run([ctrl, canMotor, serialMotor, highMotor]);
    const f = only(res, 'voltage_rails');
    expect(f.severity).toBe('warning');
    expect(f.dimension).toBe('electrical');
    // sweep by upper bound: 14.8 V takes CTRL-1 (12-24 V) along, MOT-A (18-30 V) and MOT-C need their own
    expect(f.detail.rails).toEqual([
      { min_v: 12, max_v: 14.8, parts: ['CTRL-1', 'MOT-B'] },
      { min_v: 18, max_v: 30, parts: ['MOT-A'] },
      { min_v: 48, max_v: 60, parts: ['MOT-C'] },
    ]);
    expect(f.message).toBe('No single supply voltage covers every part: at least 3 rails are needed (12–14.8 V: CTRL-1, MOT-B; 18–30 V: MOT-A; 48–60 V: MOT-C).');
    expect(f.evidence).toContainEqual({ id: 'MOT-C', field: 'voltage', value: '48~60V' });
  });

  it('no voltage_rails when one supply voltage suits every part', () => {
    expect(run([ctrl, canMotor]).findings.filter((f) => f.kind === 'voltage_rails')).toEqual([]);
  });

  it('bridge_required: a part reachable only through a converter, the bridge named by the engine', () => {
    const res = run([ctrl, canMotor, serialMotor]);
    const f = only(res, 'bridge_required');
    expect(f.severity).toBe('warning');
    expect(f.dimension).toBe('communication');
    expect(ids(f)).toEqual(['MOT-B', 'CTRL-1']);
    const via = compat(ctrl, serialMotor).dimensions!.communication.adapters[0];
    expect(via).toBeTruthy();
    expect(via).toBe('ROBOTIS U2D2 (USB to TTL / RS-485 interface for DYNAMIXEL)'); // a row of the bridges table, not a made-up gateway
    expect(f.message).toBe(`MOT-B shares no bus with the host CTRL-1; it reaches it through ${via}.`);
    expect(f.detail.roles).toEqual({ 'MOT-B': { role: 'actuator', source: 'inferred' }, 'CTRL-1': { role: 'host', source: 'inferred' } });
    expect(f.evidence).toContainEqual({ id: 'MOT-B', field: 'interfaces', value: ['TTL', 'RS485'] });
    expect(res.findings.filter((x) => x.kind === 'no_common_bus')).toEqual([]);
  });

  it('a set with no problem says so positively: how each device reaches its host and the one rail', () => {
    const res = run([ctrl, canMotor]);
    expect(res.summary.errors + res.summary.warnings).toBe(0);
    const shared = compat(canMotor, ctrl).dimensions!.communication.detail.shared_buses;
    expect(shared.length).toBeGreaterThan(0);
    expect(res.connections.hosts).toEqual([{ host: 'CTRL-1', devices: [{ id: 'MOT-A', buses: shared, via: null }] }]);
    // 12-24 V and 18-30 V overlap on 18-24 V
    expect(res.connections.rails).toEqual([{ min_v: 18, max_v: 24, parts: ['CTRL-1', 'MOT-A'] }]);
    expect(res.connections.statement).toMatch(/^No problem found/);
    expect(res.connections.statement).toContain(`Host CTRL-1 reaches MOT-A over ${shared.join(' or ')}.`);
    expect(res.connections.statement).toContain('One 18–24 V supply rail covers CTRL-1, MOT-A.');
  });

  it('connections: a bridged device is listed with its bridge; the statement counts the problems instead of saying none', () => {
    const res = run([ctrl, canMotor, serialMotor]);
    const via = compat(ctrl, serialMotor).dimensions!.communication.adapters[0];
    expect(res.connections.hosts[0].devices).toContainEqual({ id: 'MOT-B', buses: [], via });
    expect(res.connections.statement).not.toMatch(/No problem found/);
    expect(res.connections.statement).toMatch(/^0 errors and \d+ warnings? in findings\./);
    expect(res.connections.statement).toContain(`MOT-B through ${via}`);
  });

  it('connections without a host: the parts that share a bus, and no host entry', () => {
    const other = part('MOT-D', { manufacturer: 'Vendor D', type: 'joint_motor', volts: ['24', '48'], protocol: 'CAN bus', interface: 'CAN', interfaces: ['CAN'] });
    const res = run([canMotor, other]);
    const shared = compat(canMotor, other).dimensions!.communication.detail.shared_buses;
    expect(res.connections.hosts).toEqual([]);
    expect(res.connections.groups).toEqual([{ parts: ['MOT-A', 'MOT-D'], buses: shared }]);
    expect(res.connections.rails).toEqual([{ min_v: 24, max_v: 30, parts: ['MOT-A', 'MOT-D'] }]);
  });

  it('no_common_bus: a board-level bus with no off-the-shelf bridge to the set', () => {
    const res = run([ctrl, canMotor, i2cImu]);
    expect(compat(ctrl, i2cImu).dimensions!.communication.verdict).toBe('incompatible');
    const f = only(res, 'no_common_bus');
    expect(f.severity).toBe('error');
    expect(ids(f)).toEqual(['IMU-1', 'CTRL-1']); // devices are checked against the host, not each other
    expect(f.message).toBe('IMU-1 shares no bus with the host CTRL-1, and on-board links have no off-the-shelf bridge.');
    expect(f.detail.devices).toEqual(['IMU-1']);
    expect(res.findings[0]).toBe(f); // errors first
  });

  it('without a host in the set, every part must reach the rest (islands); a link no bridge row covers is unknown, never a made-up gateway', () => {
    const res = run([canMotor, serialMotor, i2cImu]);
    expect(compat(canMotor, serialMotor).dimensions!.communication.verdict).toBe('unknown');
    expect(res.findings.filter((f) => f.kind === 'bridge_required')).toEqual([]);
    const f = only(res, 'unknown_dimension', 'communication');
    expect(ids(f)).toEqual(['MOT-B']);
    expect(ids(only(res, 'no_common_bus'))).toEqual(['IMU-1', 'MOT-A']);
  });

  it('declared roles override the inferred ones: a power part and a passive part get no bus finding; an undeclared role of a bus part is inferred', () => {
    const psu = part('PSU-1', { category: 'power', type: 'power_supply', volts: ['24', '24'] });
    const bracket = part('BRK-1', { category: 'structural', type: 'bracket' });
    const res = checkBom(
      [
        { line: 1, id: 'CTRL-1', quantity: 1, record: ctrl },
        { line: 2, id: 'MOT-A', quantity: 1, record: canMotor },
        { line: 3, id: 'PSU-1', quantity: 1, record: psu },
        { line: 4, id: 'BRK-1', quantity: 1, record: bracket },
        { line: 5, id: 'CAM-1', quantity: 1, record: silentCam, role: 'passive' },
      ],
      engines,
    );
    const mentioned = (id: string, dim: string) => res.findings.some((f) => f.dimension === dim && f.parts.some((p) => p.id === id));
    for (const id of ['PSU-1', 'BRK-1', 'CAM-1']) expect(mentioned(id, 'communication'), id).toBe(false);
    expect(mentioned('BRK-1', 'electrical')).toBe(false); // passive: no supply
    expect(mentioned('PSU-1', 'mechanical')).toBe(false); // power: no flange to bolt
    expect(res.parts.map((p) => [p.id, p.role?.role, p.role?.source])).toEqual([
      ['CTRL-1', 'host', 'inferred'],
      ['MOT-A', 'actuator', 'inferred'],
      ['PSU-1', 'power', 'inferred'],
      ['BRK-1', 'passive', 'inferred'],
      ['CAM-1', 'passive', 'declared'],
    ]);
  });

  it('a part that needs no bus to every other part is not a conflict (camera vs motor)', () => {
    const usbCam = part('CAM-2', { category: 'sensors', type: 'depth_camera', interface: 'USB3', interfaces: ['USB3'] });
    expect(compat(canMotor, usbCam).dimensions!.communication.verdict).not.toBe('compatible');
    const res = run([ctrl, canMotor, usbCam]);
    expect(res.findings.filter((f) => f.dimension === 'communication')).toEqual([]);
  });

  it('flange_adapter: parts whose registered flanges differ, with the ruling as evidence', () => {
    const fa = part('ARM-1', { type: 'arm_module', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: 'ISO9409-1-A50-4-M6' } });
    const fb = part('JNT-1', { type: 'harmonic_joint', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: 'ISO9409-1-A63-6-M6' } });
    const fc = part('JNT-2', { type: 'harmonic_joint', mechanical_interface: { status: 'declared', mount_type: 'flange', flange: 'ISO9409-1-A63-6-M6' } });
    const res = run([fa, fb, fc]);
    const f = only(res, 'flange_adapter');
    expect(f.severity).toBe('warning');
    expect(f.dimension).toBe('mechanical');
    expect(ids(f)).toEqual(['ARM-1', 'JNT-1', 'JNT-2']);
    expect(f.detail.pair).toEqual(['ISO9409-1-A50-4-M6', 'ISO9409-1-A63-6-M6']);
    expect(f.detail.ruling).toMatchObject({ verdict: 'adapter_required', blocking_dims: ['pcd_mm', 'bolt_count'] });
    expect(f.evidence).toEqual([
      { id: 'ARM-1', field: 'mechanical_interface.flange', value: 'ISO9409-1-A50-4-M6' },
      { id: 'JNT-1', field: 'mechanical_interface.flange', value: 'ISO9409-1-A63-6-M6' },
      { id: 'JNT-2', field: 'mechanical_interface.flange', value: 'ISO9409-1-A63-6-M6' },
    ]);
    // same designation: nothing to report, and all three have a registered flange
    expect(res.findings.filter((x) => x.kind === 'unknown_dimension' && x.dimension === 'mechanical')).toEqual([]);
  });

  it('quarantined: the upstream reason and the canonical record', () => {
    const q = part('ACT-Q', { quarantine: true, quarantine_reason: 'duplicate', duplicate_of: 'ACT-001' });
    const f = only(run([q]), 'quarantined');
    expect(f).toMatchObject({ severity: 'warning', dimension: 'data_quality', remedy: 'Use the canonical record ACT-001.' });
    expect(f.message).toBe('ACT-Q is quarantined upstream (duplicate): its declared values are suspect.');
    expect(f.evidence).toContainEqual({ id: 'ACT-Q', field: 'quarantine_reason', value: 'duplicate' });
  });

  it('red_line: marks from the screen with the declared values behind them', () => {
    const dense = part('ACT-D', { type: 'joint_motor', declared: { torque: '150 Nm', weight: '1 kg' } });
    const f = only(run([dense]), 'red_line');
    expect(f).toMatchObject({ severity: 'warning', dimension: 'red_lines' });
    expect((f.detail.marks as { id: string; severity: string }[]).map((m) => [m.id, m.severity])).toEqual([['RL-01', 'review']]);
    expect(f.evidence).toEqual([
      { id: 'ACT-D', field: 'declared.torque', value: '150 Nm' },
      { id: 'ACT-D', field: 'declared.weight', value: '1 kg' },
    ]);
    expect(run([part('ACT-OK', { declared: { torque: '10 Nm', weight: '1 kg' } })]).findings.filter((x) => x.kind === 'red_line')).toEqual([]);
  });

  it('not_in_catalogue and not_applicable', () => {
    const proto = part('PROT-1', { category: 'protocols', entity_kind: 'protocol', type: 'bus' });
    const res = run([ctrl, null, proto], ['CTRL-1', 'NOPE-1', 'PROT-1']);
    expect(only(res, 'not_in_catalogue')).toMatchObject({ severity: 'warning', parts: [{ line: 2, id: 'NOPE-1', name: null }] });
    const na = only(res, 'not_applicable');
    expect(na).toMatchObject({ severity: 'info', parts: [{ line: 3, id: 'PROT-1' }] });
  });

  it('unknown dimensions are listed as unknown, never as conflicts', () => {
    const res = run([ctrl, canMotor, silentCam]);
    const el = only(res, 'unknown_dimension', 'electrical');
    expect(ids(el)).toEqual(['CAM-1']);
    expect(el.evidence).toEqual([
      { id: 'CAM-1', field: 'voltage', value: 'N/A' },
      { id: 'CAM-1', field: 'declared.voltage', value: null },
    ]);
    const co = only(res, 'unknown_dimension', 'communication');
    expect(ids(co)).toEqual(['CAM-1']);
    expect(co.severity).toBe('info');
    const me = only(res, 'unknown_dimension', 'mechanical');
    expect(ids(me)).toEqual(['CTRL-1', 'MOT-A', 'CAM-1']);
    expect(res.summary).toMatchObject({ errors: 0, warnings: 0, infos: 3 });
  });

  it('each distinct part is checked once whatever its quantity or repetition', () => {
    const res = run([ctrl, serialMotor, serialMotor, serialMotor, canMotor, canMotor, canMotor]);
    expect(ids(only(res, 'bridge_required'))).toEqual(['MOT-B', 'CTRL-1']);
    expect(res.parts).toHaveLength(7);
  });
});

describe('check_bom request', () => {
  it('defaults quantity to 1 and refuses more than 500 items with payload_too_large', () => {
    expect(parseBomCheckRequest({ items: [{ id: 'ACT-001' }] }).items).toEqual([{ id: 'ACT-001', quantity: 1 }]);
    expect(() => parseBomCheckRequest({ items: Array(501).fill({ id: 'X' }) })).toThrow(DomainError);
    try {
      parseBomCheckRequest({ items: Array(501).fill({ id: 'X' }) });
    } catch (e) {
      expect((e as DomainError).status).toBe(413);
      expect((e as DomainError).details).toEqual({ field: 'items', limit: 500, received: 501 });
    }
    expect(() => parseBomCheckRequest({ items: [{ id: 'X', quantity: 0 }] })).toThrow(/items\.0\.quantity/);
    expect(() => parseBomCheckRequest({ items: [{ id: 'X' }, { id: 'Y', role: 'gateway' }] })).toThrow(/items\.1\.role/);
    expect(parseBomCheckRequest({ items: [{ id: 'X', role: 'bus_master' }] }).items[0].role).toBe('bus_master');
  });
});

describe('check_bom on the shipped catalogue: controller, six joint motors of two vendors, IMU, camera', () => {
  const all = (JSON.parse(readFileSync(`${DATA_DIR}/catalogue/entities.json`, 'utf8')).entities as unknown[]).map((e) => StoredEntity.parse(e));
  const lookup = recordLookup(all);
  const set = [
    'CHIP-qualcomm-iq10-advantech', // SBC: CAN, EtherCAT, USB3, GbE
    'ACT-006', 'ACT-006', 'ACT-006', // T-Motor AK80-64: CAN, 24 V
    'ACT-001', 'ACT-001', 'ACT-001', // ROBOTIS XM540: TTL/RS485, 10.0-14.8 V
    'SENS-35', // Bosch BNO055 IMU: no interface declared
    'SENS-cam-orbbec-gemini335', // Orbbec Gemini 335: USB 3.0
  ];
  const res = checkBom(toCheckParts(set.map((id) => ({ id, quantity: 1 })), lookup), engines);

  it('reports the two real conflicts and nothing invented', () => {
    expect(res.findings.map((f) => [f.kind, f.dimension])).toEqual([
      ['voltage_rails', 'electrical'],
      ['bridge_required', 'communication'],
      ['unknown_dimension', 'electrical'],
      ['unknown_dimension', 'communication'],
      ['unknown_dimension', 'mechanical'],
    ]);
    expect(res.summary).toMatchObject({ errors: 0, warnings: 2, infos: 3 });
  });

  it('voltage: the 10.0-14.8 V servos and the 24 V motors need two rails', () => {
    const f = only(res, 'voltage_rails');
    expect(f.detail.rails).toEqual([
      { min_v: 10, max_v: 14.8, parts: ['ACT-001'] },
      { min_v: 24, max_v: 24, parts: ['ACT-006'] },
    ]);
  });

  it('communication: the TTL/RS-485 servos need a converter to reach the controller', () => {
    const f = only(res, 'bridge_required');
    expect(ids(f)).toEqual(['ACT-001', 'CHIP-qualcomm-iq10-advantech']);
    expect(f.detail.island).toEqual(['ACT-001']);
  });

  it('unknowns: voltage of controller, IMU and camera; the IMU bus; every flange', () => {
    expect(ids(only(res, 'unknown_dimension', 'electrical'))).toEqual(['CHIP-qualcomm-iq10-advantech', 'SENS-35', 'SENS-cam-orbbec-gemini335']);
    expect(ids(only(res, 'unknown_dimension', 'communication'))).toEqual(['SENS-35']);
    expect(ids(only(res, 'unknown_dimension', 'mechanical'))).toHaveLength(5);
  });
});

describe('check_bom on the shipped catalogue: a humanoid with a host computer (USB + Ethernet), EtherCAT joints and hand, USB depth camera, IMU, battery', () => {
  const all = (JSON.parse(readFileSync(`${DATA_DIR}/catalogue/entities.json`, 'utf8')).entities as unknown[]).map((e) => StoredEntity.parse(e));
  const byId = new Map(all.map((e) => [e.id, e]));
  const HOST = 'CHIP-rockchip-rk3576';
  const JOINT = 'ACT-017';
  const HAND = 'ACT-029';
  const CAMERA = 'SENS-cam-orbbec-gemini335';
  const IMU = 'SENS-14';
  const BATTERY = 'PWR-001';
  const set = [HOST, JOINT, JOINT, JOINT, JOINT, HAND, HAND, CAMERA, IMU, BATTERY];
  const res = checkBom(toCheckParts(set.map((id) => ({ id, quantity: 1 })), recordLookup(all)), engines);
  const mentions = (id: string) => res.findings.filter((f) => f.parts.some((p) => p.id === id));

  it('the records are what the set claims (read from the catalogue file)', () => {
    expect(byId.get(HOST)).toMatchObject({ category: 'chips' });
    expect(byId.get(HOST)!.interfaces).toEqual(expect.arrayContaining(['USB 3.0', 'Gigabit Ethernet']));
    expect(byId.get(HOST)!.interfaces.join(' ')).not.toMatch(/EtherCAT/);
    for (const id of [JOINT, HAND]) expect(byId.get(id)!.interfaces).toEqual(['EtherCAT']);
    expect(byId.get(CAMERA)!.interfaces).toContain('USB 3.0');
    expect(byId.get(IMU)).toMatchObject({ category: 'sensors', type: 'IMU', interfaces: [] });
    expect(byId.get(BATTERY)).toMatchObject({ category: 'power', type: 'smart_lipo_battery' });
  });

  it('no invented gateway: the EtherCAT parts reach the host on its Ethernet port (master stack), the camera on USB', () => {
    expect(res.findings.filter((f) => f.kind === 'bridge_required' || f.kind === 'no_common_bus')).toEqual([]);
    expect(JSON.stringify(res.findings.filter((f) => f.dimension === 'communication'))).not.toMatch(/gateway|converter|bridge/i);
    const joint = compat(byId.get(JOINT)!, byId.get(HOST)!).dimensions!.communication;
    expect(joint.verdict).toBe('compatible');
    expect(joint.conditions.join(' ')).toMatch(/EtherCAT master stack/);
    expect(compat(byId.get(CAMERA)!, byId.get(HOST)!).dimensions!.communication.verdict).toBe('compatible');
  });

  it('the battery (power) gets power-rail findings only; the IMU without a declared bus is the one communication unknown', () => {
    expect(mentions(BATTERY).map((f) => f.dimension)).toEqual(['electrical']);
    expect(ids(only(res, 'unknown_dimension', 'communication'))).toEqual([IMU]);
    expect(res.parts.find((p) => p.id === BATTERY)!.role).toEqual({ role: 'power', source: 'inferred', basis: 'category power' });
  });

  it('the real conflict stays: the 48 V joints and the 24 V hand need two supply rails', () => {
    const f = only(res, 'voltage_rails');
    expect(f.detail.rails).toEqual([
      { min_v: 24, max_v: 24, parts: [HAND] },
      { min_v: 48, max_v: 48, parts: [JOINT] },
    ]);
    expect(res.summary.errors).toBe(0);
  });
});

describe('check_bom: a device that shares the host\'s bus but not its protocol', () => {
  it('is told it needs protocol translation, not that it shares no bus', () => {
    const host = part('CTRL-9', { category: 'chips', type: 'SBC', manufacturer: 'Board Co', protocol: 'CANopen', interface: 'CAN', interfaces: ['CAN'] });
    const motor = part('MOT-9', { manufacturer: 'Motor Co', protocol: 'custom CAN', interface: 'CAN', interfaces: ['CAN'] });
    const res = run([host, motor]);
    const f = only(res, 'bridge_required');
    expect(compat(host, motor).dimensions!.communication.detail.shared_buses).toEqual(['can']);
    const via = compat(host, motor).dimensions!.communication.adapters[0];
    expect(via).toMatch(/^protocol translation between .*CANopen.* over CAN \(classic\)/);
    expect(f.message).toBe(`MOT-9 and the host CTRL-9 share a bus but name different protocols on it; it needs ${via}.`);
  });
});
