/**
 * Vendor-declared parameter strings, verbatim. Nothing here parses or normalises a value: a
 * string is copied as written, a number becomes its decimal text ("0.5", "100").
 *
 * Where a value comes from, in order of precedence (the first present wins; a differing value
 * further down is counted as a conflict in the report, never merged):
 *   1. top-level fields of the record (TOP_LEVEL_KEYS),
 *   2. the record's `specs` map, for keys that name one parameter unambiguously (SPEC_KEYS),
 *   3. the record's `key_specs` map, same keys.
 * Values from (2) and (3) are kept only when they read as a declared value: they contain a digit
 * and do not open with a CJK character. This keeps vendor notation ("≤1 弧分", "0.3 kg",
 * "IP60（可选 IP68 / 10m 水深）") and leaves out remarks such as "自适应" (adaptive) or
 * "较同类产品减少约 15%" (about 15% lighter than comparable products), which are not values.
 *
 * Records that are not parts (entity_kind market_intelligence or organization) carry no declared
 * values: upstream reused parameter fields on them for headline tags.
 */
import type { DeclaredKey, DeclaredParams } from '../../domain/catalogue/entity.js';
import { DECLARED_KEYS } from '../../domain/catalogue/entity.js';

/** Top-level upstream field -> declared key. Several fields may feed one key; listed order wins. */
export const TOP_LEVEL_KEYS: readonly (readonly [string, DeclaredKey])[] = [
  ['torque', 'torque'],
  ['output_torque', 'torque'],
  ['peak_torque', 'peak_torque'],
  ['speed', 'speed'],
  ['weight', 'weight'],
  ['voltage', 'voltage'],
  ['position_resolution', 'position_resolution'],
  ['backlash', 'backlash'],
  ['accuracy', 'accuracy'],
  ['precision', 'accuracy'],
  ['reduction_ratio', 'reduction_ratio'],
  ['power', 'power'],
  ['current', 'current'],
  ['load_capacity', 'load_capacity'],
  ['max_load', 'load_capacity'],
  ['grip_force', 'grip_force'],
  ['ip_rating', 'ip_rating'],
  ['dof', 'dof'],
  ['range', 'range'],
  ['latency', 'latency'],
  ['tdp', 'tdp'],
  ['ai_perf', 'ai_perf'],
  ['memory', 'memory'],
  ['parameters', 'parameters'],
];

/**
 * `specs` / `key_specs` keys (Chinese and English) that name exactly one declared parameter.
 * Deliberately absent because the meaning is not one parameter: 分辨率 (force or position
 * resolution?), 力量程 / 力矩量程 (two ranges for one `range`), 扭矩范围 (series span, rated or
 * peak?), 指尖力 (fingertip force is not grip force), 响应时间 (response time is not latency),
 * 功耗 / 算力 (only qualitative remarks in this snapshot), force, rated_force.
 */
export const SPEC_KEYS: Readonly<Record<string, DeclaredKey>> = {
  额定扭矩: 'torque',
  峰值扭矩: 'peak_torque',
  重量: 'weight',
  总重量: 'weight',
  电压: 'voltage',
  驱动电压: 'voltage',
  背隙: 'backlash',
  精度: 'accuracy',
  定位精度: 'accuracy',
  防护等级: 'ip_rating',
  自由度: 'dof',
  抓取力: 'grip_force',
  torque: 'torque',
  rated_torque: 'torque',
  peak_torque: 'peak_torque',
  weight: 'weight',
  voltage: 'voltage',
  backlash: 'backlash',
  ip_rating: 'ip_rating',
  dof: 'dof',
  grip_force: 'grip_force',
  load_capacity: 'load_capacity',
  payload: 'load_capacity',
  power: 'power',
};

export type DeclaredOrigin = 'top_level' | 'specs' | 'key_specs';

export interface DeclaredResult {
  declared: DeclaredParams;
  origin: Partial<Record<DeclaredKey, DeclaredOrigin>>;
  /** The upstream path each carried value was read from ("voltage", "specs.rated_torque", "key_specs.重量"). */
  paths: Partial<Record<DeclaredKey, string>>;
  /** Keys where a lower-precedence place held a different value (not carried). */
  conflicts: DeclaredKey[];
  /** specs/key_specs values left out because they do not read as a declared value. */
  rejected: { key: DeclaredKey; origin: DeclaredOrigin }[];
}

/** A string verbatim, a finite number as its decimal text; anything else is not a value. */
export function valueText(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

const CJK_START = /^[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

function readsAsValue(text: string): boolean {
  return /\d/.test(text) && !CJK_START.test(text.trim());
}

function asMap(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function extractDeclared(raw: Record<string, unknown>): DeclaredResult {
  const found: Partial<Record<DeclaredKey, string>> = {};
  const origin: Partial<Record<DeclaredKey, DeclaredOrigin>> = {};
  const paths: Partial<Record<DeclaredKey, string>> = {};
  const conflicts = new Set<DeclaredKey>();
  const rejected: { key: DeclaredKey; origin: DeclaredOrigin }[] = [];

  const offer = (key: DeclaredKey, text: string, from: DeclaredOrigin, at: string): void => {
    const have = found[key];
    if (have === undefined) {
      found[key] = text;
      origin[key] = from;
      paths[key] = at;
    } else if (have !== text) {
      conflicts.add(key);
    }
  };

  for (const [field, key] of TOP_LEVEL_KEYS) {
    const text = valueText(raw[field]);
    if (text !== null) offer(key, text, 'top_level', field);
  }
  for (const from of ['specs', 'key_specs'] as const) {
    const map = asMap(raw[from]);
    if (!map) continue;
    for (const specKey of Object.keys(map)) {
      const key = SPEC_KEYS[specKey];
      if (key === undefined) continue;
      const text = valueText(map[specKey]);
      if (text === null) continue;
      if (!readsAsValue(text)) {
        rejected.push({ key, origin: from });
        continue;
      }
      offer(key, text, from, `${from}.${specKey}`);
    }
  }

  // Emit in DECLARED_KEYS order so the output is stable whatever the upstream key order.
  const declared: DeclaredParams = {};
  for (const k of DECLARED_KEYS) {
    const v = found[k];
    if (v !== undefined) declared[k] = v;
  }
  return { declared, origin, paths, conflicts: [...conflicts].sort(), rejected };
}
