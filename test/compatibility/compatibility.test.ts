import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { readBusTable, readFlangeRegistry } from '../../src/store/datasets.js';
import {
  CompatibilityResult,
  checkCompatibility,
  overallVerdict,
  type Verdict,
} from '../../src/domain/compatibility/index.js';
import { electricalDimension } from '../../src/domain/compatibility/electrical.js';
import { makeEntity } from './factory.js';
import * as F from './fixtures.js';

const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');
const deps = { flanges: readFlangeRegistry(DATA_DIR), buses: readBusTable(DATA_DIR) };
const check = (a: StoredEntity, b: StoredEntity) => {
  const r = checkCompatibility(a, b, deps);
  CompatibilityResult.parse(r);
  return r;
};
const dims = (a: StoredEntity, b: StoredEntity) => {
  const r = check(a, b);
  if (!r.dimensions) throw new Error('not applicable');
  return r.dimensions;
};

describe('fixtures', () => {
  it('pass StoredEntity.parse', () => {
    for (const e of Object.values(F)) expect(StoredEntity.parse(e)).toEqual(e);
  });
});

describe('applicability', () => {
  it('a protocol entity is not applicable, with the reason', () => {
    const r = check(F.dxlA, F.canopenSpec);
    expect(r.applicable).toBe(false);
    expect(r.verdict).toBeNull();
    expect(r.dimensions).toBeNull();
    expect(r.summary).toBeNull();
    expect(r.b.applicable).toBe(false);
    expect(r.b.not_applicable_reason).toBe('PROTO-canopen-like is in category "protocols", which holds protocol specifications, not physical parts.');
    expect(r.a.applicable).toBe(true);
    expect(r.reason).toBe(
      'Compatibility applies to physical components only. PROTO-canopen-like is in category "protocols", which holds protocol specifications, not physical parts.',
    );
  });

  it('models and non-component kinds are not applicable', () => {
    expect(check(F.vlaModel, F.llm).applicable).toBe(false);
    expect(check(F.vlaModel, F.dxlA).a.not_applicable_reason).toBe('RAM-vla-like is in category "robot_ai_models", which holds models, not physical parts.');
    const intel = makeEntity({ id: 'ACT-intel', category: 'actuators', entity_kind: 'market_intelligence' });
    expect(check(F.dxlA, intel).b.not_applicable_reason).toBe('ACT-intel is a market_intelligence record (entity_kind "market_intelligence"), not a physical component.');
  });

  it('a protocols record is not applicable even when its entity_kind says component', () => {
    const odd = makeEntity({ id: 'PROTO-odd', category: 'protocols', entity_kind: 'component' });
    expect(check(odd, F.dxlA).applicable).toBe(false);
  });
});

describe('same vendor, same protocol, overlapping voltage (ROBOTIS servos)', () => {
  const d = dims(F.dxlA, F.dxlB);
  it('electrical is compatible (equal ranges)', () => {
    expect(d.electrical.verdict).toBe('compatible');
    expect(d.electrical.detail).toEqual({ range_a: { min: 10, max: 14.8 }, range_b: { min: 10, max: 14.8 }, relation: 'equal', common_range: { min: 10, max: 14.8 } });
    expect(d.electrical.evidence).toEqual([
      { side: 'a', field: 'voltage', value: '10.0~14.8V' },
      { side: 'a', field: 'declared.voltage', value: '10.0~14.8V' },
      { side: 'b', field: 'voltage', value: '10.0~14.8V' },
      { side: 'b', field: 'declared.voltage', value: '10.0~14.8V' },
    ]);
  });
  it('communication is compatible on the shared buses, without conditions', () => {
    expect(d.communication.verdict).toBe('compatible');
    expect(d.communication.detail.shared_buses).toEqual(['ttl_serial', 'rs485']);
    expect(d.communication.detail.protocols_a).toEqual(['DYNAMIXEL Protocol 2.0']);
    expect(d.communication.conditions).toEqual([]);
    expect(d.communication.reason).toBe('Both declare TTL-level serial, RS-485.');
    expect(d.communication.evidence).toContainEqual({ side: 'a', field: 'protocol', value: 'DYNAMIXEL Protocol 2.0' });
    expect(d.communication.evidence).toContainEqual({ side: 'b', field: 'interface', value: 'TTL/RS485' });
  });
  it('software is compatible (both ros_support true), generation noted as a condition', () => {
    expect(d.software.verdict).toBe('compatible');
    expect(d.software.conditions).toEqual([
      'a does not say which ROS generation (ROS 1 or ROS 2) it supports.',
      'b does not say which ROS generation (ROS 1 or ROS 2) it supports.',
    ]);
  });
  it('mechanical is unknown (no flange declared), so the overall verdict is unknown, not compatible', () => {
    expect(d.mechanical.verdict).toBe('unknown');
    const r = check(F.dxlA, F.dxlB);
    expect(r.verdict).toBe('unknown');
    expect(r.summary).toEqual({ compatible: ['electrical', 'communication', 'software'], adapter_required: [], incompatible: [], unknown: ['mechanical'] });
    expect(r.reason).toBe('Not determinable: mechanical is unknown from the declared data.');
  });
});

describe('electrical', () => {
  it('disjoint ranges on parts that may sit on separate rails: adapter_required, separate rail or converter with both ranges', () => {
    const r = check(F.dxlA, F.dxlPro);
    const e = r.dimensions!.electrical;
    expect(e.verdict).toBe('adapter_required');
    expect(e.detail.relation).toBe('disjoint');
    expect(e.adapters).toEqual(['separate supply rail or converter: a 10–14.8 V, b 24–48 V']);
    expect(e.reason).toContain('a 10–14.8 V, b 24–48 V');
    expect(r.dimensions!.communication.verdict).toBe('compatible');
    expect(r.verdict).not.toBe('incompatible');
  });

  it('disjoint ranges on parts that must share one rail: incompatible', () => {
    const e = electricalDimension(F.dxlA, F.dxlPro, { shared_rail: true });
    expect(e.verdict).toBe('incompatible');
    expect(e.reason).toBe('The parts must share one supply rail, and their declared voltages do not meet: a 10–14.8 V, b 24–48 V; no voltage of one rail suits both.');
    expect(e.adapters).toEqual([]);
    // Overlapping ranges stay compatible on a shared rail.
    expect(electricalDimension(F.odrive, F.simplefoc, { shared_rail: true }).verdict).toBe('compatible');
  });

  it('containment says which contains which', () => {
    const ab = dims(F.dxlPro, F.robotiq).electrical;
    expect(ab.detail.relation).toBe('a_contains_b');
    expect(ab.reason).toBe("a's range (24–48 V) contains b's (24 V). Both can run from a supply of 24 V. b's 24 V is a nominal value compared as declared (tolerance not declared).");
    expect(ab.conditions).toEqual(["b's voltage is a single nominal value (24 V); its tolerance band is not declared."]);
    const ba = dims(F.robotiq, F.dxlPro).electrical;
    expect(ba.detail.relation).toBe('b_contains_a');
  });

  it('partial overlap gives the common range', () => {
    const e = dims(F.odrive, F.simplefoc).electrical;
    expect(e.verdict).toBe('compatible');
    expect(e.detail.relation).toBe('overlap');
    expect(e.detail.common_range).toEqual({ min: 12, max: 30 });
  });

  it('nominal points that differ: compared as nominal values, the answer says the tolerance is not declared', () => {
    const e = dims(F.unitree, F.unitree2).electrical;
    expect(e.verdict).toBe('adapter_required');
    expect(e.reason).toMatch(/nominal value compared as declared \(tolerance not declared\)/);
    expect(e.conditions.filter((c) => /tolerance band is not declared/.test(c))).toHaveLength(2);
  });

  it('falls back to the verbatim declared voltage when the spec-shaped field is N/A', () => {
    const shapedMissing = StoredEntity.parse({ ...F.tmotor, id: 'X-fallback', voltage: 'N/A' });
    const e = dims(shapedMissing, F.robotiq).electrical;
    expect(e.verdict).toBe('compatible');
    expect(e.evidence[0]).toEqual({ side: 'a', field: 'voltage', value: 'N/A' });
    expect(e.evidence[1]).toEqual({ side: 'a', field: 'declared.voltage', value: '24V' });
  });

  it('an unreadable or absent voltage is unknown', () => {
    const e = dims(F.tesla, F.dxlA).electrical;
    expect(e.verdict).toBe('unknown');
    expect(e.reason).toBe('a\'s voltage "classified" is not exactly readable.');
    const none = makeEntity({ id: 'X-none', protocol: 'CAN bus' });
    expect(dims(F.dxlA, none).electrical.reason).toBe('b declares no voltage.');
  });
});

describe('communication', () => {
  it('EtherCAT vs CAN: no gateway is listed in the bridges table, so the missing link is named and the verdict is unknown (never an assumed gateway)', () => {
    const c = dims(F.anydrive, F.tmotor).communication;
    expect(c.verdict).toBe('unknown');
    expect(c.adapters).toEqual([]);
    expect(c.detail.links).toEqual([]);
    expect(c.detail.missing).toEqual(['a bridge for EtherCAT–CAN (classic)']);
    expect(c.reason).toMatch(/no bridge between them in the bridges table .*the missing link is a bridge for EtherCAT–CAN \(classic\)\. An unlisted bridge may exist; none is assumed\.$/);
    expect(dims(F.tmotor, F.anydrive).communication.verdict).toBe('unknown');
  });

  it('CAN FD vs classic CAN: compatible in classic CAN mode, the condition names the CAN FD side', () => {
    const ab = dims(F.fdChip, F.tmotor).communication;
    expect(ab.verdict).toBe('compatible');
    expect(ab.detail.shared_buses).toEqual([]);
    expect(ab.conditions).toHaveLength(1);
    expect(ab.conditions[0]).toMatch(/^a is CAN FD, b classic CAN\. Classic CAN frames only: /);
    expect(ab.conditions[0]).toContain('a classic-only CAN node cannot receive CAN FD frames');
    expect(ab.conditions[0]).toMatch(/Whether a can be run with classic CAN frames is not declared\.$/);
    const ba = dims(F.tmotor, F.fdChip).communication;
    expect(ba.verdict).toBe('compatible');
    expect(ba.conditions[0]).toMatch(/^b is CAN FD, a classic CAN\./);
  });

  it('a side that declares both CAN FD and CAN shares classic CAN unconditionally', () => {
    const c = dims(F.fdAndClassic, F.tmotor).communication;
    expect(c.verdict).toBe('compatible');
    expect(c.detail.shared_buses).toEqual(['can']);
    expect(c.conditions).toEqual([]);
  });

  it('"CAN FD" and "CAN-FD" are the same bus', () => {
    const spaced = makeEntity({ id: 'X-canfd', interfaces: ['CAN FD', 'RS485'] });
    const c = dims(spaced, F.fdChip).communication;
    expect(c.verdict).toBe('compatible');
    expect(c.detail.shared_buses).toEqual(['can_fd']);
  });

  it('a vendor-specific CAN framing against a side that names no protocol is unknown, not compatible', () => {
    const c = dims(F.unitree, F.tmotor).communication;
    expect(c.verdict).toBe('unknown');
    expect(c.detail.links).toEqual([]);
    expect(c.detail.missing).toEqual(['a uses custom CAN (vendor-specific) over CAN (classic); b names no protocol on it, so whether it speaks that framing is not declared.']);
    // A standard protocol named by one side only stays a condition of a compatible link.
    const canopen = makeEntity({ id: 'X-canopen', protocol: 'CANopen', interface: 'CAN' });
    const d = dims(canopen, F.tmotor).communication;
    expect(d.verdict).toBe('compatible');
    expect(d.conditions).toEqual(['a uses CANopen over CAN (classic); whether b speaks it is not declared.']);
  });

  it('the same vendor-specific framing from the same manufacturer is no conflict', () => {
    const c = dims(F.unitree, F.unitree2).communication;
    expect(c.verdict).toBe('compatible');
    expect(c.conditions).toEqual([]);
  });

  it('different application protocols on the only shared bus need translation', () => {
    const c = dims(F.moog, F.unitree).communication;
    expect(c.verdict).toBe('adapter_required');
    expect(c.adapters).toEqual(['protocol translation between CANopen and custom CAN (vendor-specific) over CAN (classic) (a host or gateway that speaks both)']);
    expect(c.reason).toBe(
      'Both declare CAN (classic), but name different application protocols on it; they need protocol translation between CANopen and custom CAN (vendor-specific) over CAN (classic) (a host or gateway that speaks both).',
    );
  });

  it('different buses with no listed bridge get no generic gateway: unknown, the missing link named', () => {
    const rs485only = makeEntity({ id: 'X-485', interface: 'RS485' });
    const c = dims(rs485only, F.tmotor).communication;
    expect(c.verdict).toBe('unknown');
    expect(c.adapters).toEqual([]);
    expect(c.detail.missing).toEqual(['a bridge for RS-485–CAN (classic)']);
  });

  it('a listed bridge that needs a USB host: offered when the USB side is a host, not when it is a device, unknown when its role is not known', () => {
    const servo = makeEntity({ id: 'X-dxl', manufacturer: 'ROBOTIS', protocol: 'N/A', interface: 'TTL/RS485' });
    const sbc = makeEntity({ id: 'X-sbc', category: 'chips', type: 'SBC', interfaces: ['USB3', 'GbE'] });
    const camera = makeEntity({ id: 'X-cam', category: 'sensors', type: 'Depth Camera', interfaces: ['USB 3.0'] });
    const odd = makeEntity({ id: 'X-odd', category: 'platforms', interfaces: ['USB'] });
    const host = dims(sbc, servo).communication;
    expect(host.verdict).toBe('adapter_required');
    expect(host.adapters).toEqual(['ROBOTIS U2D2 (USB to TTL / RS-485 interface for DYNAMIXEL)']);
    expect(host.detail.links[0]).toMatchObject({ bus_a: 'usb', verdict: 'adapter_required', bridge: { id: 'robotis_u2d2', kind: 'product', evidence: 'api/entities.json: entities[id=ACT-001].compatibility' } });
    expect(host.detail.roles.a).toEqual({ role: 'host', source: 'inferred', basis: 'category chips' });
    const device = dims(camera, servo).communication;
    expect(device.verdict).toBe('unknown');
    expect(device.adapters).toEqual([]);
    const unknownRole = dims(odd, servo).communication;
    expect(unknownRole.verdict).toBe('unknown');
    expect(unknownRole.detail.missing[0]).toMatch(/^ROBOTIS U2D2 .* only when a is the host on its USB port; its role is not known\.$/);
    // Declared roles win over the category: the camera declared a host gets the bridge.
    expect(checkCompatibility(camera, servo, deps, { a: 'host' }).dimensions!.communication.verdict).toBe('adapter_required');
  });

  it('EtherCAT devices and an Ethernet port: compatible (master stack) when the Ethernet side is a host; never an EtherCAT master on an actuator', () => {
    const sbc = makeEntity({ id: 'X-sbc', category: 'chips', type: 'SoC', interfaces: ['USB3', 'Gigabit Ethernet'] });
    const ethActuator = makeEntity({ id: 'X-eth-act', category: 'actuators', protocol: 'UDP/TCP', interface: 'Ethernet' });
    const onHost = dims(F.anydrive, sbc).communication;
    expect(onHost.verdict).toBe('compatible');
    expect(onHost.conditions[0]).toMatch(/^b is read as host\. The Ethernet side is the host: EtherCAT devices attach to a standard IEEE 802\.3 Ethernet port/);
    const onActuator = dims(F.anydrive, ethActuator).communication;
    expect(onActuator.verdict).toBe('unknown');
    expect(JSON.stringify(onActuator)).not.toMatch(/master/i);
    expect(onActuator.detail.missing).toEqual(['a bridge for EtherCAT–Ethernet (BASE-T)']);
  });

  it('no shared bus and no bridge: incompatible; unknown when unrecognised forms might name one', () => {
    const i2cOnly = makeEntity({ id: 'X-i2c', interfaces: ['I2C'] });
    const c = dims(i2cOnly, F.anydrive).communication;
    expect(c.verdict).toBe('incompatible');
    expect(c.reason).toBe('No bus in common (a: I2C; b: EtherCAT), and a declares on-board links only (I2C), which have no off-the-shelf bridge to another bus.');
    const withUnknown = makeEntity({ id: 'X-i2c-hssl', interfaces: ['I2C', 'HSSL'] });
    const u = dims(withUnknown, F.anydrive).communication;
    expect(u.verdict).toBe('unknown');
    expect(u.detail.unrecognized_a).toEqual(['HSSL']);
  });

  it('proprietary-only or unrecognised-only sides are unknown', () => {
    const c = dims(F.tesla, F.tmotor).communication;
    expect(c.verdict).toBe('unknown');
    expect(c.reason).toBe('a declares no recognised bus ("Tesla proprietary", "proprietary bus").');
    const m = dims(F.maxon, F.tmotor).communication;
    expect(m.verdict).toBe('unknown');
    expect(m.reason).toBe('a declares no recognised bus ("ESCON controller", "analog", "digital").');
    const none = makeEntity({ id: 'X-nothing' });
    expect(dims(none, F.tmotor).communication.reason).toBe('a declares no protocol or interface.');
  });

  it('a protocol implies its single carrier only when no bus is declared', () => {
    const mbTcp = makeEntity({ id: 'X-mbtcp', protocol: 'Modbus TCP' });
    const eth = makeEntity({ id: 'X-eth', interfaces: ['GbE'] });
    const c = dims(mbTcp, eth).communication;
    expect(c.verdict).toBe('compatible');
    expect(c.detail.buses_a).toEqual(['ethernet']);
    expect(c.conditions).toEqual([
      'a declares no bus; Ethernet (BASE-T) is implied by its protocol.',
      'a uses Modbus TCP over Ethernet (BASE-T); whether b speaks it is not declared.',
    ]);
    const modbus = makeEntity({ id: 'X-modbus', protocol: 'Modbus' });
    expect(dims(modbus, modbus).communication.verdict).toBe('unknown');
  });
});

describe('mechanical', () => {
  const withFlange = (id: string, flange: string | null) => makeEntity({ id, category: 'grippers', flange });
  it('same registered flange: compatible (identity)', () => {
    const m = dims(withFlange('G1', 'ISO9409-1-A50-4-M6'), withFlange('G2', 'ISO 9409-1-A50-4-M6')).mechanical;
    expect(m.verdict).toBe('compatible');
    expect(m.detail.ruling?.verdict).toBe('identity');
    expect(m.detail.adapter_plate).toBeNull();
    expect(m.evidence).toContainEqual({ side: 'b', field: 'mechanical_interface.flanges', value: ['ISO 9409-1-A50-4-M6'] });
  });
  it('different registered flanges: adapter_required with the plate', () => {
    const m = dims(withFlange('G1', 'ISO9409-1-A50-4-M6'), withFlange('G2', 'ISO9409-1-A63-6-M6')).mechanical;
    expect(m.verdict).toBe('adapter_required');
    expect(m.adapters).toEqual([
      "Flange adapter plate: Adapter plate drilled to each side's own pattern: side a 4×M6 on PCD 50 mm, side b 6×M6 on PCD 63 mm. Drawn by design_adapter_plate (robotparts://plates/ISO9409-1-A50-4-M6/ISO9409-1-A63-6-M6/tapped.json).",
    ]);
    expect(m.detail.adapter_plate).toEqual({
      tool: 'design_adapter_plate',
      arguments: { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-6-M6' },
      uri: 'robotparts://plates/ISO9409-1-A50-4-M6/ISO9409-1-A63-6-M6/tapped.json',
      url: null,
    });
  });
  it('an unregistered designation is unknown, even when it looks parseable', () => {
    const m = dims(withFlange('G1', 'ISO9409-1-A50-4-M8'), withFlange('G2', 'ISO9409-1-A50-4-M6')).mechanical;
    expect(m.verdict).toBe('unknown');
    expect(m.detail.ruling?.verdict).toBe('unknown');
  });
  it('a side without a flange is unknown', () => {
    const m = dims(withFlange('G1', null), withFlange('G2', 'ISO9409-1-A50-4-M6')).mechanical;
    expect(m.verdict).toBe('unknown');
    expect(m.reason).toBe('a declares no registered flange designation (mechanical_interface.status: not_declared): there is nothing to rule on.');
  });
});

describe('software', () => {
  const sw = (id: string, ros: boolean | null, interfaces: string[] = [], manufacturer: string | null = null) =>
    makeEntity({ id, ros_support: ros, interfaces, manufacturer });
  it('ROS 1 only vs ROS 2 only needs a bridge', () => {
    const s = dims(sw('S1', true, ['ROS1']), sw('S2', true, ['ROS2'])).software;
    expect(s.verdict).toBe('adapter_required');
    expect(s.adapters).toEqual(['ros1_bridge between ROS 1 and ROS 2']);
  });
  it('"ROS/ROS2" lists both generations', () => {
    const s = dims(sw('S1', null, ['Linux SDK', 'ROS/ROS2']), sw('S2', null, ['ROS2'])).software;
    expect(s.verdict).toBe('compatible');
    expect(s.detail.ros_a).toEqual({ supported: true, generations: ['ros2'] });
    expect(s.conditions).toEqual([]);
  });
  it('ROS on one side, explicitly none on the other: a driver is needed', () => {
    const s = dims(F.odrive, F.simplefoc).software;
    expect(s.verdict).toBe('adapter_required');
    expect(s.adapters).toEqual(['ROS driver for b (not declared to exist)']);
  });
  it('nothing declared is unknown, never compatible', () => {
    const s = dims(sw('S1', null), sw('S2', null)).software;
    expect(s.verdict).toBe('unknown');
    expect(s.reason).toBe('a does not declare ROS support; b does not declare ROS support; no SDK in common is mentioned.');
  });
  it('a named SDK on both sides is compatible', () => {
    const s = dims(sw('S1', false, ['Dynamixel SDK']), sw('S2', null, ['Dynamixel SDK', 'Python API'])).software;
    expect(s.verdict).toBe('compatible');
    expect(s.detail.shared_sdks).toEqual(['Dynamixel SDK']);
  });
  it('a generic "Python SDK" matches only for the same manufacturer', () => {
    expect(dims(sw('S1', null, ['Python SDK'], 'A'), sw('S2', null, ['Python SDK'], 'B')).software.verdict).toBe('unknown');
    expect(dims(sw('S1', null, ['Python SDK'], 'Acme'), sw('S2', null, ['Python SDK'], 'acme')).software.verdict).toBe('compatible');
  });
});

describe('overall verdict', () => {
  it.each<[Verdict[], Verdict]>([
    [['compatible', 'compatible', 'compatible', 'compatible'], 'compatible'],
    [['compatible', 'adapter_required', 'compatible', 'compatible'], 'adapter_required'],
    [['compatible', 'adapter_required', 'unknown', 'compatible'], 'unknown'],
    [['compatible', 'compatible', 'unknown', 'compatible'], 'unknown'],
    [['unknown', 'incompatible', 'adapter_required', 'compatible'], 'incompatible'],
  ])('%j -> %s', (vs, expected) => {
    expect(overallVerdict(vs)).toBe(expected);
  });

  it('all four known and compatible -> compatible', () => {
    const part = (id: string) =>
      makeEntity({ id, category: 'grippers', flange: 'ISO9409-1-A50-4-M6', declaredVoltage: '24V', protocol: 'EtherCAT', ros_support: true, interfaces: ['ROS2'] });
    const r = check(part('G1'), part('G2'));
    expect(r.verdict).toBe('compatible');
    expect(r.reason).toBe('Compatible on all four dimensions as declared.');
  });

  it('adapters on known dimensions -> adapter_required', () => {
    const a = makeEntity({ id: 'G1', category: 'grippers', flange: 'ISO9409-1-A50-4-M6', declaredVoltage: '24V', protocol: 'CANopen', interface: 'CAN', ros_support: true });
    const b = makeEntity({ id: 'G2', category: 'grippers', manufacturer: 'Unitree', flange: 'ISO9409-1-A40-4-M6', declaredVoltage: '12-24V', protocol: 'custom CAN', interface: 'CAN', ros_support: true });
    const r = check(a, b);
    expect(r.summary).toEqual({ compatible: ['electrical', 'software'], adapter_required: ['mechanical', 'communication'], incompatible: [], unknown: [] });
    expect(r.verdict).toBe('adapter_required');
    expect(r.reason).toBe('Compatible with adapters on mechanical, communication.');
  });

  it('an unknown dimension is never counted as compatible', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<Verdict>('compatible', 'adapter_required', 'incompatible', 'unknown'), { minLength: 1, maxLength: 4 }), (vs) => {
        const o = overallVerdict(vs);
        if (vs.includes('unknown')) return o === 'unknown' || o === 'incompatible';
        return true;
      }),
    );
  });
});

describe('free fields only', () => {
  it('deep fields (paid) never change the result', () => {
    const plain = check(F.dxlA, F.dxlPro);
    const withDeep = check(F.dxlA, makeEntity({
      id: 'ACT-003-like',
      manufacturer: 'ROBOTIS',
      type: 'smart_servo',
      protocol: 'DYNAMIXEL Protocol 2.0',
      interface: 'RS485',
      declaredVoltage: '24.0~48.0V',
      ros_support: true,
      deepCompatibility: ['ACT-001-like'],
    }));
    expect(withDeep).toEqual(plain);
  });

  it('quarantined records add a warning', () => {
    const q = makeEntity({ id: 'Q-1', quarantine: true, protocol: 'CAN bus' });
    expect(check(q, F.tmotor).warnings).toEqual(['Q-1 is quarantined upstream; its declared values are suspect.']);
  });
});

describe('robustness (property)', () => {
  it('never throws on arbitrary free-field strings, and the result validates', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.string(), { maxLength: 4 }), fc.option(fc.string(), { nil: undefined }), fc.option(fc.string(), { nil: null }), (p, i, is, v, fl) => {
        const a = makeEntity({ id: 'A', protocol: p, interface: i, interfaces: is, declaredVoltage: v, flange: fl });
        const r = check(a, F.odrive);
        return r.applicable && r.verdict !== null;
      }),
      { numRuns: 300 },
    );
  });
});

describe('symmetry (property)', () => {
  const notations = {
    protocol: ['N/A', 'CAN bus', 'custom CAN', 'EtherCAT', 'DYNAMIXEL Protocol 2.0', 'UART/CAN', 'EtherCAT/CANopen', 'Modbus TCP', 'UDP/TCP', 'Tesla proprietary', 'IO_Link', 'PROFINET/EtherCAT'],
    interface: ['N/A', 'CAN', 'TTL/RS485', 'RS485', 'UART/USB/CAN', 'EtherCAT/EthernetIP', 'Ethernet/WiFi', 'analog/digital', 'proprietary bus', 'IO-Link/EtherNetIP/PROFINET'],
    interfaces: [[], ['CAN-FD', 'EtherCAT', 'Ethernet', 'USB'], ['PCIe', 'USB3', 'GbE', 'MIPI CSI', 'CAN'], ['I2C'], ['ROS', 'Python SDK'], ['USB', 'Linux SDK', 'ROS/ROS2'], ['CAN FD', 'RS485']],
    voltage: [undefined, '24V', '48V', '12-48V', '10.0~14.8V', '24.0~48.0V', 'classified', '5-30V'],
    ros: [null, true, false],
    flange: [null, 'ISO9409-1-A50-4-M6', 'ISO9409-1-A63-6-M6', 'ISO9409-1-A50-4-M8'],
    manufacturer: [null, 'Unitree', 'ROBOTIS'],
  };
  const arbEntity = (id: string) =>
    fc
      .record({
        protocol: fc.constantFrom(...notations.protocol),
        interface: fc.constantFrom(...notations.interface),
        interfaces: fc.constantFrom(...notations.interfaces),
        voltage: fc.constantFrom(...notations.voltage),
        ros: fc.constantFrom(...notations.ros),
        flange: fc.constantFrom(...notations.flange),
        manufacturer: fc.constantFrom(...notations.manufacturer),
      })
      .map((r) =>
        makeEntity({
          id,
          protocol: r.protocol,
          interface: r.interface,
          interfaces: r.interfaces,
          declaredVoltage: r.voltage,
          ros_support: r.ros,
          flange: r.flange,
          manufacturer: r.manufacturer,
        }),
      );

  it('every dimension verdict is the same with a and b swapped, and the result always validates', () => {
    fc.assert(
      fc.property(arbEntity('A'), arbEntity('B'), (a, b) => {
        const ab = check(a, b);
        const ba = check(b, a);
        expect(ab.verdict).toBe(ba.verdict);
        for (const d of ['mechanical', 'electrical', 'communication', 'software'] as const) {
          expect(ab.dimensions![d].verdict).toBe(ba.dimensions![d].verdict);
        }
      }),
      { numRuns: 300 },
    );
  });
});
