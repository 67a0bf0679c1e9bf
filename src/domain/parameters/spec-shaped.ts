/**
 * The entity's spec-shaped summary fields (voltage "<min>~<max>V" | "N/A", weight "<n>g" | "N/A",
 * torque "<n> Nm" | ""), filled from the vendor's declared strings ONLY where the reading and the
 * conversion are exact. The verbatim declared string always stays in `declared`.
 *
 * Decisions (the spec is silent):
 * - A single declared voltage is a nominal point: "24V" / "24 VDC" -> "24~24V" (min = max = the
 *   declared number), so the compatibility engine can still test overlap and containment.
 * - Voltage digits are the vendor's own ("10.0~14.8V" stays "10.0~14.8V"); no rounding.
 * - AC voltages ("220 VAC") are not filled: the spec shape cannot say AC.
 * - Approximate or qualified values ("~1.0kg", "24V (valve)", "varies") are not filled.
 * - Torque: exact values in N·m or kgf·cm are filled ("9.2 Nm @ 12V" -> "9.2 Nm"; the condition
 *   stays in the declared string). A value the vendor marks as peak / max is NOT put in the torque
 *   field: it would be compared with other parts' rated torque.
 * - Weight is converted to grams exactly (decimal arithmetic): "0.5 kg" -> "500g".
 */
import { formatDec, mulDec, parseDec, shiftDec, cmpDec } from './decimal.js';

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

const NUM = '(\\d+(?:\\.\\d+)?)';
const norm = (s: string) => s.normalize('NFKC').replace(/[–—−]/g, '-').replace(/\s+/g, ' ').trim();

const V_UNIT = '(?:V|VDC|V DC|Vdc)';
const V_RANGE = new RegExp(`^${NUM} ?(?:${V_UNIT})? ?(?:~|-|to) ?${NUM} ?${V_UNIT}$`);
const V_SINGLE = new RegExp(`^${NUM} ?${V_UNIT}$`);

function voltageTexts(declared: string): { min: string; max: string } | null {
  const s = norm(declared);
  let m = V_RANGE.exec(s);
  if (m) {
    const a = parseDec(m[1])!;
    const b = parseDec(m[2])!;
    return cmpDec(a, b) <= 0 ? { min: m[1], max: m[2] } : null;
  }
  m = V_SINGLE.exec(s);
  return m ? { min: m[1], max: m[1] } : null;
}

/** Volts, from a declared voltage string; null when not exactly readable (or AC). */
export function voltageRange(declared: string): { min: number; max: number } | null {
  const t = voltageTexts(declared);
  return t ? { min: Number(t.min), max: Number(t.max) } : null;
}

const W_RE = new RegExp(`^${NUM} ?(g|kg)$`);
function shapedWeight(declared: string | undefined): string {
  if (declared === undefined) return 'N/A';
  const m = W_RE.exec(norm(declared));
  if (!m) return 'N/A';
  const d = parseDec(m[1])!;
  return `${formatDec(m[2] === 'kg' ? shiftDec(d, 3) : d)}g`;
}

const T_NM = new RegExp(`^(?:rated )?${NUM} ?(?:Nm|N·m|N\\.m|N-m|N m)(?: @ ?${NUM} ?V| continuous| rated)?$`);
const T_KGFCM = new RegExp(`^${NUM} ?(?:kgf·cm|kgf\\.cm|kg·cm|kg\\.cm|kgf-cm|kg-cm|kgfcm|kgcm)(?: @ ?${NUM} ?V)?$`);
function shapedTorque(declared: string | undefined): string {
  if (declared === undefined) return '';
  const s = norm(declared).replace(/⋅|•/g, '·');
  let m = T_NM.exec(s);
  if (m) return `${m[1]} Nm`;
  m = T_KGFCM.exec(s);
  if (m) return `${formatDec(mulDec(parseDec(m[1])!, parseDec('0.0980665')!))} Nm`;
  return '';
}

export function specShapedFields(declared: DeclaredSpecInputs): SpecShapedFields {
  return {
    voltage: (() => {
      const t = declared.voltage === undefined ? null : voltageTexts(declared.voltage);
      return t ? `${t.min}~${t.max}V` : 'N/A';
    })(),
    weight: shapedWeight(declared.weight),
    torque: shapedTorque(declared.torque),
  };
}
