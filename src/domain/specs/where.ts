/**
 * `where` filters and `sort` on the spec layer: validation (bad field / op / unit / value ->
 * invalid_input naming it and listing the valid ones) and compilation into predicates that answer
 * true, false or unknown per entity. Unknown (the field is not declared, or only as a bound such
 * as "up to 100 V") never matches.
 *
 * Semantics, per field kind:
 * - number: = != < <= > >= compare the SI values exactly (decimal arithmetic where the values
 *   terminate); `in` takes a list of values (any equal); `covers X` holds when a declared range
 *   contains X (a single value covers only itself). A declared range (e.g. "10-20 Nm") satisfies
 *   < <= > >= only when the whole range does.
 * - range (voltage): the same rules; "voltage covers 48 V" asks whether 48 V is inside the
 *   declared supply range (a single declared voltage is a nominal point: it covers only itself).
 *   A range value ("24-48 V") with covers asks for the whole range.
 * - set (bus, protocol, ros): `in [a, b]` any of them; `=` / `covers` contains (all of) the
 *   value(s); `!=` contains none of them.
 * - code (ip_rating): = != in, compared as codes.
 */
import { foldForm, type BusTable } from '../compatibility/buses.js';
import { DomainError } from '../shared/errors.js';
import { cmp, ratFromDecimal, type Rat } from '../parameters/exact.js';
import { parseParameter } from '../parameters/parse.js';
import { lookupTargetUnit, unitSymbols, type Dimension } from '../parameters/units.js';
import { busLabel, ROS_VALUES, type SpecFieldDef } from './fields.js';
import type { Spec } from './types.js';
import { levenshtein } from '../shared/distance.js';

export const WHERE_OPS = ['=', '!=', '<', '<=', '>', '>=', 'in', 'covers'] as const;
export type WhereOp = (typeof WHERE_OPS)[number];

export const OPS_BY_KIND: Record<SpecFieldDef['kind'], readonly WhereOp[]> = {
  number: WHERE_OPS,
  range: WHERE_OPS,
  set: ['=', '!=', 'in', 'covers'],
  code: ['=', '!=', 'in'],
};

export interface WhereClause {
  field: string;
  op: string;
  value: unknown;
}

export type Truth = true | false | 'unknown';

/** A filter value read into the field's unit. */
export interface FilterValue {
  /** As given. */
  written: string;
  /** SI value (or range ends), or the normalised set member / code. */
  si: number | null;
  exact: Rat | null;
  min: { n: number; exact: Rat | null } | null;
  max: { n: number; exact: Rat | null } | null;
  member: string | null;
}

export interface CompiledClause {
  field: string;
  op: WhereOp;
  /** The value as given. */
  value: unknown;
  /** The value(s) in the field's SI unit (or normalised names), as applied. */
  applied: string[];
  test(specs: readonly Spec[]): Truth;
}

const QUANTITY_DIMS: Record<string, Dimension[]> = {
  torque: ['torque'],
  angular_speed: ['angular_speed'],
  voltage: ['voltage'],
  mass: ['mass'],
  position_resolution: ['encoder_bits', 'encoder_counts', 'angle'],
  backlash: ['angle'],
  force: ['force'],
  data_rate: ['data_rate'],
};

export function unitsFor(quantity: string): string[] {
  const dims = QUANTITY_DIMS[quantity] ?? [];
  return unitSymbols().filter((s) => {
    const u = lookupTargetUnit(s);
    return u !== null && dims.includes(u.dimension);
  });
}


export function nearest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const l = c.toLowerCase();
    // A misspelt first word ("torqe" -> torque_rated) counts as close as the whole name.
    const d = Math.min(levenshtein(w, l), levenshtein(w, l.split('_')[0]) + 0.5);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

function bad(path: string, message: string, details: Record<string, unknown>): DomainError {
  return new DomainError('invalid_input', `${path}: ${message}`, { field: path, ...details });
}

const num = (n: number, exact: string | null): { n: number; exact: Rat | null } => ({ n, exact: exact !== null ? ratFromDecimal(exact) : null });

/** Exact comparison where both sides have exact decimals, else by value (relative 1e-12). */
function cmpN(a: { n: number; exact: Rat | null }, b: { n: number; exact: Rat | null }): number {
  if (a.exact && b.exact) return cmp(a.exact, b.exact);
  const tol = 1e-12 * Math.max(Math.abs(a.n), Math.abs(b.n), 1e-300);
  return Math.abs(a.n - b.n) <= tol ? 0 : a.n < b.n ? -1 : 1;
}

/** The [lo, hi] of a numeric spec (a single value: lo = hi). */
export function specBounds(s: Spec): { lo: { n: number; exact: Rat | null }; hi: { n: number; exact: Rat | null } } | null {
  if (s.value !== null) {
    const v = num(s.value, s.exact);
    return { lo: v, hi: v };
  }
  if (s.min !== null && s.max !== null) {
    const [emin, emax] = s.exact ? s.exact.split('~') : [null, null];
    return { lo: num(s.min, emin ?? null), hi: num(s.max, emax ?? null) };
  }
  return null;
}

function readNumeric(f: SpecFieldDef, path: string, raw: unknown): FilterValue {
  const written = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : null;
  if (written === null) throw bad(path, `must be a value with a unit for ${f.name} (e.g. "${f.example}")`, { example: f.example });
  if (f.unit === null || !f.parse_quantity) {
    // Unitless fields (gear ratio, dof): a plain number.
    const t = written.trim();
    const r = ratFromDecimal(t);
    if (!r) throw bad(path, `"${written}" is not a number; ${f.name} is unitless (e.g. "${f.example}")`, { example: f.example });
    return { written, si: Number(t), exact: r, min: null, max: null, member: null };
  }
  const units = unitsFor(f.parse_quantity);
  if (typeof raw === 'number' || /^\s*\d+(?:\.\d+)?\s*$/.test(written)) {
    throw bad(path, `"${written}" has no unit; ${f.name} needs one of: ${units.join(', ')} (e.g. "${f.example}")`, { valid_units: units, example: f.example });
  }
  const p = parseParameter(written, f.hint);
  if (!p.recognized || p.si === null) {
    const unit = written.replace(/^[\s~≈≤≥<>±]*\d+(?:\.\d+)?\s*/, '').trim();
    throw bad(path, `unit "${unit || written}" is not read for ${f.name}; valid units: ${units.join(', ')}`, { unit: unit || written, valid_units: units, example: f.example });
  }
  if (p.quantity !== f.parse_quantity) {
    throw bad(path, `"${written}" reads as ${p.quantity} (${p.si.unit}), not ${f.parse_quantity}; valid units for ${f.name}: ${units.join(', ')}`, { unit: p.declared?.unit ?? null, valid_units: units, example: f.example });
  }
  if (p.qualifier !== null) throw bad(path, `"${written}" is a bound (${p.qualifier}); give a plain value and use the op for the bound`, { example: f.example });
  const si = p.si;
  if (si.range) {
    return { written, si: null, exact: null, min: num(si.range.min, si.range.exact_min), max: num(si.range.max, si.range.exact_max), member: null };
  }
  return { written, si: si.value, exact: si.exact !== null ? ratFromDecimal(si.exact) : null, min: null, max: null, member: null };
}

export interface SetVocabulary {
  /** Valid written values for the field (shown in errors). */
  values: string[];
  /** A written value -> normalised member, or null. */
  read(v: string): string | null;
}

export function setVocabulary(f: SpecFieldDef, buses: BusTable): SetVocabulary {
  if (f.name === 'bus') {
    return {
      values: buses.file.buses.map((b) => busLabel(buses, b.id)),
      read: (v) => {
        const hit = buses.forms.get(foldForm(v));
        if (hit?.type === 'bus') return busLabel(buses, hit.def.id);
        const byLabel = buses.file.buses.find((b) => foldForm(busLabel(buses, b.id)) === foldForm(v));
        return byLabel ? busLabel(buses, byLabel.id) : null;
      },
    };
  }
  if (f.name === 'protocol') {
    return {
      values: buses.file.protocols.map((p) => p.name),
      read: (v) => {
        const hit = buses.forms.get(foldForm(v));
        if (hit?.type === 'protocol') return hit.def.name;
        return buses.file.protocols.find((p) => foldForm(p.name) === foldForm(v))?.name ?? null;
      },
    };
  }
  if (f.name === 'ros') {
    return {
      values: [...ROS_VALUES],
      read: (v) => {
        const k = foldForm(v);
        if (k === 'ros1') return 'ROS 1';
        if (k === 'ros2') return 'ROS 2';
        if (k === 'ros' || k === foldForm('ROS (generation not stated)')) return 'ROS (generation not stated)';
        return null;
      },
    };
  }
  if (f.name === 'ip_rating') {
    return {
      values: ['IP54', 'IP65', 'IP67', 'IP68', '...'],
      read: (v) => {
        const m = /^IP\s?([0-6X])([0-9X])(K?)$/i.exec(v.normalize('NFKC').trim());
        return m ? `IP${m[1].toUpperCase()}${m[2].toUpperCase()}${m[3].toUpperCase()}` : null;
      },
    };
  }
  return { values: [], read: (v) => v };
}

function readMember(f: SpecFieldDef, vocab: SetVocabulary, path: string, raw: unknown): FilterValue {
  if (typeof raw !== 'string' || raw.trim() === '') throw bad(path, `must be a name; valid values for ${f.name}: ${vocab.values.join(', ')}`, { valid_values: vocab.values });
  const m = vocab.read(raw);
  if (m === null) {
    const near = nearest(raw, vocab.values);
    throw bad(path, `"${raw}" is not a ${f.name} value${near ? ` (nearest: ${near})` : ''}; valid values: ${vocab.values.join(', ')}`, { value: raw, nearest: near, valid_values: vocab.values });
  }
  return { written: raw, si: null, exact: null, min: null, max: null, member: m };
}

function testNumeric(op: WhereOp, specs: readonly Spec[], values: FilterValue[]): Truth {
  let unknown = true;
  let any = false;
  for (const s of specs) {
    if (s.qualifier !== null) continue; // a bound never settles a filter
    const b = specBounds(s);
    if (!b) continue;
    unknown = false;
    const t = values.some((v) => numericHolds(op, b, v));
    if (t) any = true;
  }
  if (unknown) return 'unknown';
  return any;
}

function numericHolds(op: WhereOp, b: NonNullable<ReturnType<typeof specBounds>>, v: FilterValue): boolean {
  const point = v.min === null ? { n: v.si!, exact: v.exact } : null;
  const vlo = point ?? v.min!;
  const vhi = point ?? v.max!;
  const eq = cmpN(b.lo, vlo) === 0 && cmpN(b.hi, vhi) === 0;
  switch (op) {
    case '=':
    case 'in':
      return eq;
    case '!=':
      return !eq;
    case '>':
      return cmpN(b.lo, vhi) > 0;
    case '>=':
      return cmpN(b.lo, vhi) >= 0;
    case '<':
      return cmpN(b.hi, vlo) < 0;
    case '<=':
      return cmpN(b.hi, vlo) <= 0;
    case 'covers':
      return cmpN(b.lo, vlo) <= 0 && cmpN(b.hi, vhi) >= 0;
  }
}

function testSet(op: WhereOp, specs: readonly Spec[], members: string[]): Truth {
  const s = specs.find((x) => x.values !== null);
  if (!s) return 'unknown';
  const have = new Set(s.values);
  switch (op) {
    case 'in':
      return members.some((m) => have.has(m));
    case '=':
    case 'covers':
      return members.every((m) => have.has(m));
    case '!=':
      return !members.some((m) => have.has(m));
    default:
      return 'unknown';
  }
}

export interface FieldTable {
  fields: readonly SpecFieldDef[];
  buses: BusTable;
}

export function fieldNames(t: FieldTable): string[] {
  return t.fields.map((f) => f.name);
}

export function lookupField(t: FieldTable, name: unknown, path: string): SpecFieldDef {
  const names = fieldNames(t);
  if (typeof name !== 'string' || name.trim() === '') throw bad(path, `is required; valid fields: ${names.join(', ')}`, { valid_fields: names });
  const f = t.fields.find((x) => x.name === name.trim().toLowerCase());
  if (!f) {
    const near = nearest(name, names);
    throw bad(path, `unknown field "${name}"${near ? ` (nearest: ${near})` : ''}; valid fields: ${names.join(', ')}`, { value: name, nearest: near, valid_fields: names });
  }
  return f;
}

export function compileClause(t: FieldTable, c: WhereClause, path: string): CompiledClause {
  const f = lookupField(t, c.field, `${path}.field`);
  const ops = OPS_BY_KIND[f.kind];
  const op = typeof c.op === 'string' ? (c.op.trim().toLowerCase() as WhereOp) : null;
  if (op === null || !(WHERE_OPS as readonly string[]).includes(op)) {
    throw bad(`${path}.op`, `unknown op "${String(c.op)}"; valid ops for ${f.name}: ${ops.join(' ')}`, { value: c.op, valid_ops: ops });
  }
  if (!ops.includes(op)) throw bad(`${path}.op`, `op "${op}" does not apply to ${f.name} (a ${f.kind} field); valid ops: ${ops.join(' ')}`, { value: op, valid_ops: ops });
  const listy = op === 'in' || ((op === '=' || op === 'covers' || op === '!=') && (f.kind === 'set' || f.kind === 'code'));
  const raws: unknown[] = Array.isArray(c.value) ? c.value : [c.value];
  if (Array.isArray(c.value) && !listy) throw bad(`${path}.value`, `op "${op}" takes one value, not a list`, {});
  if (raws.length === 0 || (raws.length === 1 && (raws[0] === undefined || raws[0] === null))) throw bad(`${path}.value`, `is required (e.g. "${f.example}")`, { example: f.example });
  if (f.kind === 'set' || f.kind === 'code') {
    const vocab = setVocabulary(f, t.buses);
    const members = raws.map((r, i) => readMember(f, vocab, Array.isArray(c.value) ? `${path}.value.${i}` : `${path}.value`, r).member!);
    return {
      field: f.name,
      op,
      value: c.value,
      applied: members,
      test: (specs) => testSet(op, specs, members),
    };
  }
  const values = raws.map((r, i) => readNumeric(f, Array.isArray(c.value) ? `${path}.value.${i}` : `${path}.value`, r));
  const unit = f.unit ? ` ${f.unit}` : '';
  return {
    field: f.name,
    op,
    value: c.value,
    applied: values.map((v) => (v.min ? `${v.min.n}~${v.max!.n}${unit}` : `${v.si}${unit}`)),
    test: (specs) => testNumeric(op, specs, values),
  };
}

/** The compact text form: "torque_rated>=30 N·m; voltage covers 48 V; bus in EtherCAT|CAN" (or a JSON array). */
export function parseWhereText(text: string): WhereClause[] {
  const t = text.trim();
  if (t === '') return [];
  if (t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw bad('where', 'starts with "[" but is not valid JSON', {});
    }
    if (!Array.isArray(v)) throw bad('where', 'must be a JSON array of {field, op, value}', {});
    return v as WhereClause[];
  }
  return t
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((clause, i) => {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|!=|=|<|>|\s(?:in|covers)\s)\s*(.*)$/i.exec(clause);
      if (!m) {
        throw bad(`where.${i}`, `cannot read "${clause}": write <field> <op> <value>, ops ${WHERE_OPS.join(' ')}, clauses separated by ";" (e.g. "torque_rated>=30 N·m; bus in EtherCAT|CAN")`, { valid_ops: WHERE_OPS });
      }
      const op = m[2].trim().toLowerCase();
      const rawValue = m[3].trim();
      const value = op === 'in' ? rawValue.split(/[|,]/).map((s) => s.trim()).filter((s) => s !== '') : rawValue;
      return { field: m[1], op, value };
    });
}

export const SORT_HELP = 'a numeric field name, ascending; prefix "-" or suffix ":desc" for descending (e.g. "-torque_rated")';

export interface CompiledSort {
  field: string;
  descending: boolean;
  key(specs: readonly Spec[]): number | null;
}

export function compileSort(t: FieldTable, sort: string): CompiledSort {
  let s = sort.trim();
  let descending = false;
  if (s.startsWith('-')) {
    descending = true;
    s = s.slice(1);
  }
  const m = /^(.*?):(asc|desc)$/i.exec(s);
  if (m) {
    s = m[1];
    descending = m[2].toLowerCase() === 'desc';
  }
  const numeric = t.fields.filter((f) => f.kind === 'number' || f.kind === 'range').map((f) => f.name);
  const f = t.fields.find((x) => x.name === s.toLowerCase());
  if (!f || !numeric.includes(f.name)) {
    const near = nearest(s, numeric);
    throw bad('sort', `"${sort}" is not a numeric spec field${near ? ` (nearest: ${near})` : ''}; valid: ${numeric.join(', ')}; ${SORT_HELP}`, { value: sort, nearest: near, valid_fields: numeric });
  }
  return {
    field: f.name,
    descending,
    // Sort key: the declared value (a range sorts by its lower end ascending, upper end descending); bounds and undeclared sort last.
    key: (specs) => {
      for (const sp of specs) {
        if (sp.field !== f.name || sp.qualifier !== null) continue;
        const b = specBounds(sp);
        if (b) return descending ? b.hi.n : b.lo.n;
      }
      return null;
    },
  };
}
