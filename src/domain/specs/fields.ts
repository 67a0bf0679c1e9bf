/**
 * The table of filterable spec fields. Each field is a row: its kind, quantity, SI unit, the
 * record fields it reads and how. Adding a field (e.g. analytics' trl / momentum) is adding a row:
 * `buildSpecLayer` and the `where` compiler take the table as an argument.
 *
 * Reading rules (the same honesty rules as the parser):
 * - A declared string becomes a spec only when `parseParameter` reads it exactly AND it reads as
 *   the field's quantity; anything else is listed under `unread` with the reason.
 * - torque_rated holds torque values NOT marked peak / max / stall, of parts that are not sensors:
 *   a sensor's declared torque or force is what it measures (torque_range, force_range). Where the vendor does not say
 *   "rated", `conditions.rating` is null and the comparability level says the condition is missing.
 *   torque_peak holds `peak_torque` and torque values marked peak / max / stall.
 * - speed holds angular speeds only; a data rate written in the same upstream field (KD-01) goes
 *   to data_rate.
 * - A bare number ("25") is read only where the quantity has no unit (gear ratio, degrees of
 *   freedom); elsewhere it stays unread: the records state no unit for it.
 * - bus / protocol come from protocol, interface and interfaces read with the bus table
 *   (data/buses.json); a bus implied by a single-carrier protocol (CANopen -> CAN) counts, with
 *   its source saying so. ros from ros_support and ROS mentions ("ROS 2", "ROS").
 */
import type { StoredEntity } from '../catalogue/entity.js';
import type { BusTable } from '../compatibility/buses.js';
import { readComm } from '../compatibility/buses.js';
import { rosMention } from '../compatibility/software-tokens.js';
import { splitPieces } from '../compatibility/buses.js';
import { parseParameter } from '../parameters/parse.js';
import type { ParameterHint, ParsedParameter, Quantity } from '../parameters/types.js';
import type { Spec, SpecConditions, SpecKind, UnreadValue } from './types.js';

/**
 * The members of a record the spec fields read, with the two the layer's columns keep of each
 * record (id, category): all a field's column is built from. A large catalogue's prepared start
 * keeps these of every record (src/store/catalogue-prepared.ts), so that the first spec filter
 * reads them instead of parsing every whole record; `read` takes only them (the compiler holds a
 * field to them: one reading another member fails to build until it is listed here).
 */
export const SPEC_SOURCE_KEYS = ['id', 'category', 'type', 'declared', 'entity_kind', 'interface', 'interfaces', 'protocol', 'ros_support', 'source_tier', 'source_urls', 'status', 'year'] as const;
export type SpecSource = Pick<StoredEntity, (typeof SPEC_SOURCE_KEYS)[number]>;
/** Members of SpecSource a record may lack: none (a prepared start keeps their values by position, in SPEC_SOURCE_KEYS order). */
type OptionalSpecSourceKeys = { [K in keyof SpecSource]-?: undefined extends SpecSource[K] ? K : never }[keyof SpecSource];
/** Fails to build when a member of SPEC_SOURCE_KEYS becomes optional. */
export const SPEC_SOURCE_ALL_REQUIRED: [OptionalSpecSourceKeys] extends [never] ? true : never = true;

export interface ReadEnv {
  buses: BusTable;
}

export interface FieldReading {
  specs: Spec[];
  unread: UnreadValue[];
}

export interface SpecFieldDef {
  name: string;
  kind: SpecKind;
  /** Quantity of its values (a parser quantity, or set / ratio / count / ip_code). */
  quantity: string;
  /** SI unit of its values, null when unitless. */
  unit: string | null;
  /** Parser quantity of a `where` value for this field (number and range fields). */
  parse_quantity?: Quantity;
  /** Parser hint for `where` values. */
  hint?: ParameterHint;
  /** Example `where` value. */
  example: string;
  description: string;
  read(e: SpecSource, env: ReadEnv): FieldReading;
  /**
   * False when `read` never gives a spec or an unread value with this source (so the field cannot
   * settle whether another field's unread value of the source is listed). Absent: it may read any.
   */
  reads?(source: string): boolean;
}

/** The conditions of a reading that declares none: one shared frozen object. */
export const NO_CONDITIONS: SpecConditions = Object.freeze({ rating: null, voltage_v: null, measuring_end: null, load: null });

/** A reading's conditions; the one shared object when it declares none (most readings). */
function conditionsOf(c: ParsedParameter['condition']): SpecConditions {
  return c.rating === null && c.voltage_v === null && c.measuring_end === null && c.load === null
    ? NO_CONDITIONS
    : { rating: c.rating, voltage_v: c.voltage_v, measuring_end: c.measuring_end, load: c.load };
}

/** A spec from a parser reading. */
export function specFromParsed(field: string, source: string, p: ParsedParameter): Spec {
  const si = p.si!;
  return {
    field,
    quantity: p.quantity!,
    unit: si.unit,
    value: si.value,
    min: si.range ? si.range.min : null,
    max: si.range ? si.range.max : null,
    exact: si.range ? (si.range.exact_min !== null && si.range.exact_max !== null ? `${si.range.exact_min}~${si.range.exact_max}` : null) : si.exact,
    values: null,
    notation: p.input,
    source,
    conditions: conditionsOf(p.condition),
    qualifier: p.qualifier,
    dialect: p.dialect,
    level: p.comparability.level,
  };
}

const BARE_NUMBER = /^\s*\d+(?:\.\d+)?\s*$/;

function unreadReason(p: ParsedParameter, want: string): string {
  if (BARE_NUMBER.test(p.input)) return 'bare number without a unit; the record states no unit for it';
  if (!p.recognized) return p.notes[0] ? `not read exactly: ${p.notes[0]}` : 'not read exactly';
  if (p.si === null) return `reads as ${p.quantity ?? 'a qualitative value'} without a number`;
  return `reads as ${p.quantity}, not ${want}`;
}

interface DeclaredSource {
  key: keyof StoredEntity['declared'];
  hint?: ParameterHint;
  /** Takes the reading for this field; false leaves it to another field (no unread entry). */
  take?: (p: ParsedParameter) => boolean;
  /** Reads the source only for these records (a value means something else on the others: no unread entry). */
  only?: (e: SpecSource) => boolean;
  /** Reads the source as a list: each piece separated by "," or ";" that reads as the field's quantity is a value; other pieces are left (no unread entry). */
  pieces?: boolean;
}

/**
 * A measuring instrument: a torque or force it declares is the range it measures, never one it
 * delivers (the Robotiq FT 300-S's "30 N·m" is not a joint's rated torque).
 */
export const isSensor = (e: SpecSource): boolean => e.category === 'sensors' || /sensor|传感器/i.test(e.type ?? '');
const notSensor = (e: SpecSource) => !isSensor(e);

/** A field read from declared strings through the exact parser. */
function declaredField(
  def: Omit<SpecFieldDef, 'read' | 'parse_quantity'> & { parse_quantity: Quantity },
  sources: DeclaredSource[],
): SpecFieldDef {
  // Each source's name made once, shared by every spec read from it (not a new string per record).
  const names = new Map(sources.map((s) => [s, `declared.${s.key}`]));
  const read = new Set(names.values());
  return {
    ...def,
    reads: (source) => read.has(source),
    read(e) {
      const out: FieldReading = { specs: [], unread: [] };
      for (const s of sources) {
        const raw = e.declared[s.key];
        if (raw === undefined || (s.only && !s.only(e))) continue;
        const source = names.get(s)!;
        if (s.pieces) {
          for (const piece of raw.split(/\s*[,;，；]\s*/u)) {
            const p = parseParameter(piece, s.hint);
            if (p.recognized && p.quantity === def.parse_quantity && p.si !== null) out.specs.push(specFromParsed(def.name, source, p));
          }
          continue;
        }
        const p = parseParameter(raw, s.hint);
        if (p.recognized && p.quantity === def.parse_quantity && p.si !== null && (!s.take || s.take(p))) out.specs.push(specFromParsed(def.name, source, p));
        // Not taken here: listed as unread unless another field reads the same source (the layer settles that).
        else out.unread.push({ field: def.name, source, notation: raw, reason: unreadReason(p, def.parse_quantity) });
      }
      return out;
    },
  };
}

const isPeak = (p: ParsedParameter) => p.condition.rating === 'peak' || p.condition.rating === 'stall';

function codeSpec(field: string, quantity: string, source: string, notation: string, value: number | null, values: string[] | null, dialect: string, level: Spec['level']): Spec {
  return { field, quantity, unit: null, value, min: null, max: null, exact: value === null ? null : String(value), values, notation, source, conditions: NO_CONDITIONS, qualifier: null, dialect, level };
}

/** Gear ratio: "100", "100:1", "1:100" (reduction 100:1); the value is N of N:1. */
function readRatio(raw: string): number | null {
  const s = raw.normalize('NFKC').trim();
  let m = /^(\d+(?:\.\d+)?)(?:\s*:\s*1)?$/.exec(s);
  if (m) return Number(m[1]);
  m = /^1\s*:\s*(\d+(?:\.\d+)?)$/.exec(s);
  return m ? Number(m[1]) : null;
}

/** IP code: "IP67", "IP 65", "IP69K". */
function readIp(raw: string): string | null {
  const m = /^IP\s?([0-6X])([0-9X])(K?)$/i.exec(raw.normalize('NFKC').trim());
  return m ? `IP${m[1].toUpperCase()}${m[2].toUpperCase()}${m[3].toUpperCase()}` : null;
}

/** Degrees of freedom: "24", "20 DOF", "7 DoF". */
function readCount(raw: string): number | null {
  const m = /^(\d+)(?:\s*(?:DOF|DoF|dof|自由度))?$/.exec(raw.normalize('NFKC').trim());
  return m ? Number(m[1]) : null;
}

function simpleField(def: Omit<SpecFieldDef, 'read'>, key: keyof StoredEntity['declared'], reader: (raw: string) => { value: number | null; values: string[] | null } | null, dialect: string, what: string): SpecFieldDef {
  const source = `declared.${key}`;
  const reason = `not read exactly as ${what}`;
  return {
    ...def,
    reads: (s) => s === source,
    read(e) {
      const raw = e.declared[key];
      if (raw === undefined) return { specs: [], unread: [] };
      const r = reader(raw);
      if (!r) return { specs: [], unread: [{ field: def.name, source, notation: raw, reason }] };
      return { specs: [codeSpec(def.name, def.quantity, source, raw, r.value, r.values, dialect, 'B')], unread: [] };
    },
  };
}

/** Display names of the bus set (the table's first written form otherwise). */
const BUS_LABELS: Record<string, string> = {
  can: 'CAN',
  can_fd: 'CAN FD',
  ethercat: 'EtherCAT',
  rs485: 'RS-485',
  rs232: 'RS-232',
  ttl_serial: 'TTL',
  uart: 'UART',
  usb: 'USB',
  ethernet: 'Ethernet',
};

export function busLabel(table: BusTable, id: string): string {
  return BUS_LABELS[id] ?? table.bus(id).aliases[0];
}

const commValues = (e: SpecSource) => [e.protocol, e.interface, ...e.interfaces].filter((v) => v.trim() !== '' && !/^n\/?a$/i.test(v.trim()));

/** The sources of the communication fields: the three fields, or ros_support (with interface mentions). */
const COMM_SOURCE = /^(?:protocol\/interface\/interfaces|ros_support|interfaces|ros_support \+ interfaces)\b/;
const readsComm = (source: string) => COMM_SOURCE.test(source);

const busField: SpecFieldDef = {
  name: 'bus',
  reads: readsComm,
  kind: 'set',
  quantity: 'set',
  unit: null,
  example: '["EtherCAT", "CAN"]',
  description: 'Communication buses declared in protocol / interface / interfaces (CAN, CAN FD, EtherCAT, RS-485, TTL, UART, USB, Ethernet, ...); CAN FD is its own value',
  read(e, env) {
    const values = commValues(e);
    if (values.length === 0) return { specs: [], unread: [] };
    const r = readComm(env.buses, e);
    const ids = [...r.buses, ...r.implied.filter((b) => !r.buses.includes(b))];
    if (ids.length === 0) {
      return r.unrecognized.length > 0 ? { specs: [], unread: [{ field: 'bus', source: 'protocol/interface/interfaces', notation: values.join('; '), reason: `no bus recognised (${r.unrecognized.join(', ')})` }] } : { specs: [], unread: [] };
    }
    const source = r.implied.length > 0 && r.buses.length === 0 ? `protocol/interface/interfaces (implied by ${r.protocols.map((p) => env.buses.protocol(p).name).join(', ')})` : 'protocol/interface/interfaces';
    return { specs: [codeSpec('bus', 'set', source, values.join('; '), null, ids.map((id) => busLabel(env.buses, id)), 'bus_table', 'A')], unread: [] };
  },
};

const protocolField: SpecFieldDef = {
  name: 'protocol',
  reads: readsComm,
  kind: 'set',
  quantity: 'set',
  unit: null,
  example: '["CANopen"]',
  description: 'Application / transport protocols recognised in protocol / interface / interfaces (CANopen, DYNAMIXEL Protocol 2.0, Modbus RTU, ...)',
  read(e, env) {
    const values = commValues(e);
    if (values.length === 0) return { specs: [], unread: [] };
    const r = readComm(env.buses, e);
    if (r.protocols.length === 0) return { specs: [], unread: [] };
    return { specs: [codeSpec('protocol', 'set', 'protocol/interface/interfaces', values.join('; '), null, r.protocols.map((p) => env.buses.protocol(p).name), 'bus_table', 'A')], unread: [] };
  },
};

export const ROS_VALUES = ['ROS 1', 'ROS 2', 'ROS (generation not stated)'] as const;

const rosField: SpecFieldDef = {
  name: 'ros',
  reads: readsComm,
  kind: 'set',
  quantity: 'set',
  unit: null,
  example: '["ROS 2"]',
  description: 'ROS support as declared: "ROS 1", "ROS 2", or "ROS (generation not stated)"; an empty set when ros_support is false',
  read(e, env) {
    const mentions: string[] = [];
    const gens = new Set<string>();
    for (const v of commValues(e)) {
      for (const piece of splitPieces(env.buses, v)) {
        const m = rosMention(piece);
        if (!m) continue;
        mentions.push(piece);
        if (m.generation) gens.add(m.generation === 'ros1' ? 'ROS 1' : 'ROS 2');
      }
    }
    if (e.ros_support === null && mentions.length === 0) return { specs: [], unread: [] };
    if (e.ros_support === false && mentions.length === 0) return { specs: [codeSpec('ros', 'set', 'ros_support', 'false', null, [], 'ros', 'A')], unread: [] };
    const values = gens.size > 0 ? ROS_VALUES.filter((g) => gens.has(g)) : ['ROS (generation not stated)'];
    const notation = [e.ros_support === true ? 'ros_support: true' : null, ...mentions].filter((x): x is string => x !== null).join('; ');
    const source = mentions.length > 0 ? (e.ros_support === true ? 'ros_support + interfaces' : 'interfaces') : 'ros_support';
    return { specs: [codeSpec('ros', 'set', source, notation, null, values, 'ros', 'A')], unread: [] };
  },
};

/** The default field table, in the order list_spec_fields shows it. */
export function defaultSpecFields(): SpecFieldDef[] {
  return [
    declaredField(
      { name: 'torque_rated', kind: 'number', quantity: 'torque', unit: 'Nm', parse_quantity: 'torque', hint: 'torque', example: '30 N·m', description: 'Rated / continuous torque, or torque the vendor does not mark peak, max or stall (conditions.rating null = not stated)' },
      [{ key: 'torque', hint: 'torque', take: (p) => !isPeak(p), only: notSensor }],
    ),
    declaredField(
      { name: 'torque_peak', kind: 'number', quantity: 'torque', unit: 'Nm', parse_quantity: 'torque', hint: 'peak_torque', example: '60 N·m', description: 'Peak / max / stall torque' },
      [{ key: 'peak_torque', hint: 'peak_torque', only: notSensor }, { key: 'torque', hint: 'torque', take: isPeak, only: notSensor }],
    ),
    declaredField(
      { name: 'torque_range', kind: 'number', quantity: 'torque', unit: 'Nm', parse_quantity: 'torque', example: '30 N·m', description: 'Torque a sensor measures (its measuring range), never a torque it delivers' },
      [{ key: 'torque', only: isSensor }, { key: 'range', only: isSensor, pieces: true }],
    ),
    declaredField(
      { name: 'force_range', kind: 'number', quantity: 'force', unit: 'N', parse_quantity: 'force', example: '300 N', description: 'Force a sensor measures (its measuring range)' },
      [{ key: 'range', only: isSensor, pieces: true }],
    ),
    declaredField(
      { name: 'speed', kind: 'number', quantity: 'angular_speed', unit: 'rad/s', parse_quantity: 'angular_speed', hint: 'speed', example: '300 rpm', description: 'Output angular speed (rpm, rad/s, sec/60° converted exactly)' },
      [{ key: 'speed', hint: 'speed', take: (p) => p.quantity !== 'data_rate' }],
    ),
    declaredField(
      { name: 'voltage', kind: 'range', quantity: 'voltage', unit: 'V', parse_quantity: 'voltage', hint: 'voltage', example: '48 V', description: 'Supply voltage: a range, or a single nominal value (min = max); use "covers" to ask whether a voltage is inside it' },
      [{ key: 'voltage', hint: 'voltage' }],
    ),
    declaredField(
      { name: 'mass', kind: 'number', quantity: 'mass', unit: 'kg', parse_quantity: 'mass', hint: 'weight', example: '500 g', description: 'Mass as declared (weight field)' },
      [{ key: 'weight', hint: 'weight' }],
    ),
    declaredField(
      { name: 'encoder_resolution', kind: 'number', quantity: 'position_resolution', unit: 'deg', parse_quantity: 'position_resolution', hint: 'position_resolution', example: '14 bit', description: 'Encoder quantisation step in degrees (14-bit = 360/2^14 deg); smaller is finer' },
      [{ key: 'position_resolution', hint: 'position_resolution' }],
    ),
    declaredField(
      { name: 'backlash', kind: 'number', quantity: 'backlash', unit: 'deg', parse_quantity: 'backlash', hint: 'backlash', example: '3 arcmin', description: 'Backlash in degrees (arcmin / arcsec converted exactly)' },
      [{ key: 'backlash', hint: 'backlash' }],
    ),
    simpleField(
      { name: 'gear_ratio', kind: 'number', quantity: 'ratio', unit: null, example: '100', description: 'Reduction ratio N of N:1 ("100", "100:1", "1:100")' },
      'reduction_ratio',
      (raw) => {
        const v = readRatio(raw);
        return v === null ? null : { value: v, values: null };
      },
      'ratio',
      'a reduction ratio',
    ),
    simpleField(
      { name: 'ip_rating', kind: 'code', quantity: 'ip_code', unit: null, example: 'IP67', description: 'IP code as declared (IEC 60529), e.g. IP65; compared as a code, not ordered' },
      'ip_rating',
      (raw) => {
        const v = readIp(raw);
        return v === null ? null : { value: null, values: [v] };
      },
      'ip_code',
      'an IP code',
    ),
    declaredField(
      { name: 'payload', kind: 'number', quantity: 'mass', unit: 'kg', parse_quantity: 'mass', example: '5 kg', description: 'Payload / load capacity declared as a mass' },
      [{ key: 'load_capacity', take: (p) => p.quantity !== 'force' }],
    ),
    declaredField(
      { name: 'load_force', kind: 'number', quantity: 'force', unit: 'N', parse_quantity: 'force', example: '100 N', description: 'Load capacity declared as a force' },
      [{ key: 'load_capacity', take: (p) => p.quantity === 'force' }],
    ),
    declaredField(
      { name: 'grip_force', kind: 'number', quantity: 'force', unit: 'N', parse_quantity: 'force', example: '100 N', description: 'Gripping force' },
      [{ key: 'grip_force' }],
    ),
    simpleField(
      { name: 'dof', kind: 'number', quantity: 'count', unit: null, example: '6', description: 'Degrees of freedom ("24", "20 DOF")' },
      'dof',
      (raw) => {
        const v = readCount(raw);
        return v === null ? null : { value: v, values: null };
      },
      'count',
      'a count of degrees of freedom',
    ),
    declaredField(
      { name: 'data_rate', kind: 'number', quantity: 'data_rate', unit: 'bit/s', parse_quantity: 'data_rate', example: '1 Mbps', description: 'Communication data rate (written upstream in the speed field, KD-01)' },
      [{ key: 'speed', take: (p) => p.quantity === 'data_rate' }],
    ),
    busField,
    protocolField,
    rosField,
  ];
}
