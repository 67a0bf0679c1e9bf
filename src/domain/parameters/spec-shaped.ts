/**
 * The entity's spec-shaped summary fields (voltage "<min>~<max>V" | "N/A", weight "<n>g" | "N/A",
 * torque "<n> Nm" | ""), filled from the vendor's declared strings ONLY where the parser reads
 * the value exactly and the conversion is exact. The verbatim declared string stays in `declared`.
 *
 * Decisions (the spec is silent):
 * - A single declared voltage is a nominal point: "24V" / "24 VDC" -> "24~24V" (min = max = the
 *   declared number), so the compatibility engine can still test overlap and containment.
 * - Voltage digits are the vendor's own ("10.0~14.8V" stays "10.0~14.8V"); no rounding.
 * - AC voltages ("220 VAC") are not filled: the spec shape cannot say AC.
 * - Bounds and approximations ("up to 100 V", "~1.0kg", "≤ 50 Nm") and values with text the
 *   parser does not read ("24V (valve)", "varies") are not filled.
 * - Torque: exact values in N·m (any SI prefix), kgf·cm, kgf·m or ozf·in are filled, converted
 *   exactly to N·m ("15 kgf·cm" -> "1.4709975 Nm"); N·m values keep the vendor's digits. A stated
 *   voltage / rated / continuous condition does not block filling ("9.2 Nm @ 12V" -> "9.2 Nm"; the
 *   condition stays in the declared string). A value the vendor marks as peak / max / stall is
 *   NOT put in the torque field: it would be compared with other parts' rated torque. Ranges are
 *   not filled (the shape holds one number).
 * - Weight is converted to grams exactly: "0.5 kg" -> "500g", "82g" -> "82g".
 */
import { parseParameter } from './parse.js';
import { R, div, ratFromDecimal, toDecimalText } from './exact.js';

export interface DeclaredSpecInputs {
  voltage?: string;
  weight?: string;
  torque?: string;
}

export interface SpecShapedFields {
  voltage: string;
  weight: string;
  torque: string;
}

function voltageTexts(declared: string | undefined): { min: string; max: string } | null {
  if (declared === undefined) return null;
  const p = parseParameter(declared, 'voltage');
  if (p.quantity !== 'voltage' || !p.declared || p.qualifier !== null || p.condition.current === 'AC') return null;
  // Only plain volts keep the vendor digits; mV / kV are converted exactly.
  if (p.declared.unit === 'V') {
    return p.declared.value !== null
      ? { min: p.declared.value, max: p.declared.value }
      : { min: p.declared.min!, max: p.declared.max! };
  }
  const lo = p.si?.range ? p.si.range.exact_min : p.si?.exact;
  const hi = p.si?.range ? p.si.range.exact_max : p.si?.exact;
  return lo && hi ? { min: lo, max: hi } : null;
}

/** Volts, from a declared voltage string; null when not exactly readable (or AC, or a bound). */
export function voltageRange(declared: string): { min: number; max: number } | null {
  const t = voltageTexts(declared);
  return t ? { min: Number(t.min), max: Number(t.max) } : null;
}

function shapedWeight(declared: string | undefined): string {
  if (declared === undefined) return 'N/A';
  const p = parseParameter(declared, 'weight');
  if (p.quantity !== 'mass' || p.qualifier !== null || p.si?.exact == null) return 'N/A';
  if (p.declared?.unit === 'g') return `${p.declared.value}g`;
  const kg = ratFromDecimal(p.si.exact);
  const g = kg ? toDecimalText(div(kg, R('0.001'))) : null;
  return g === null ? 'N/A' : `${g}g`;
}

function shapedTorque(declared: string | undefined): string {
  if (declared === undefined) return '';
  const p = parseParameter(declared, 'torque');
  if (p.quantity !== 'torque' || p.qualifier !== null || p.si?.exact == null) return '';
  const r = p.condition.rating;
  if (r === 'peak' || r === 'stall') return '';
  if (p.declared?.unit === 'Nm') return `${p.declared.value} Nm`;
  return `${p.si.exact} Nm`;
}

export function specShapedFields(declared: DeclaredSpecInputs): SpecShapedFields {
  const v = voltageTexts(declared.voltage);
  return {
    voltage: v ? `${v.min}~${v.max}V` : 'N/A',
    weight: shapedWeight(declared.weight),
    torque: shapedTorque(declared.torque),
  };
}
