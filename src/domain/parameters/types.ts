/** Public types of the parameter parser (JSON-serialisable: no bigint, no functions). */
import type { Dimension } from './units.js';

export const QUANTITIES = [
  'torque',
  'angular_speed',
  'data_rate',
  'mass',
  'voltage',
  'position_resolution',
  'backlash',
  'accuracy',
  'angle',
  'length',
  'force',
] as const;
export type Quantity = (typeof QUANTITIES)[number];

/** Field or quantity the value was declared under; resolves roles (an angle as backlash) only. */
export const PARAMETER_HINTS = [
  'torque',
  'peak_torque',
  'speed',
  'weight',
  'mass',
  'voltage',
  'position_resolution',
  'backlash',
  'accuracy',
  'repeatability',
] as const;
export type ParameterHint = (typeof PARAMETER_HINTS)[number];

export type Level = 'A' | 'B' | 'C' | 'D';

export type Rating = 'rated' | 'continuous' | 'peak' | 'stall' | 'nominal';
export type Qualifier = 'up_to' | 'at_most' | 'below' | 'at_least' | 'above' | 'approximately' | 'plus_minus';

export interface Condition {
  /** Supply voltage the value was declared at, in volts ("@ 12V"). */
  voltage_v: number | null;
  /** Rated / continuous / peak / stall, as stated in the value or implied by the field (peak_torque). */
  rating: Rating | null;
  /** Where it was measured: output end or motor end. */
  measuring_end: 'output' | 'motor' | null;
  /** Load condition ("no load", or the measurement load of a backlash value, verbatim). */
  load: string | null;
  temperature_c: number | null;
  current: 'DC' | 'AC' | null;
  /** For accuracy: repeatability or absolute accuracy. */
  accuracy_kind: 'repeatability' | 'absolute' | null;
}

export interface AppliedConversion {
  from: string;
  to: string;
  /** The formula, in the spec's words for the spec's five conversions. */
  formula: string;
  /** The formula with the declared number(s) substituted, and its result. */
  computation: string;
  /** True: every conversion used is an exact identity (defined constants, pi). */
  exact: true;
  /** True when the source unit is the inverse of the target (sec/60deg). */
  inverse: boolean;
  /** True for the spec's listed conversions (rpm, sec/60deg, kgf·cm, arcmin, bits). */
  spec_conversion: boolean;
  note: string | null;
}

export interface SiValue {
  /** Canonical unit: the SI unit, or deg for angles (the spec's target unit). */
  unit: string;
  /** Single value in that unit; null for a range. */
  value: number | null;
  /** The exact decimal of value when it terminates (no pi in the conversion), else null. */
  exact: string | null;
  /** Range in that unit; null for a single value. */
  range: { min: number; max: number; exact_min: string | null; exact_max: string | null } | null;
}

export interface ParsedParameter {
  /** The input string, verbatim. */
  input: string;
  recognized: boolean;
  /** Physical quantity; null when absent, qualitative or unrecognized. */
  quantity: Quantity | null;
  /** Physical dimension (accuracy can be a length, an angle or a %FS). */
  dimension: Dimension | null;
  /** The spec's dialect name (torque.nm.bare, speed.servo.sec_deg, ...), or absent / unrecognized / <field>.qualitative. */
  dialect: string;
  /** The value's shape with digits abstracted: "4.1 Nm @ 12V" -> "<n> Nm @ <n>V". */
  notation: string;
  /** The declared number(s) in the vendor's digits and the unit read. */
  declared: { value: string | null; min: string | null; max: string | null; unit: string } | null;
  qualifier: Qualifier | null;
  si: SiValue | null;
  conversion: AppliedConversion | null;
  condition: Condition;
  comparability: { level: Level; reason: string; missing_conditions: string[] };
  notes: string[];
}
