/**
 * The normalised spec layer: typed, unit-aware facts read from each catalogue record's declared
 * values. JSON-serialisable (it is written to data/catalogue/specs.json at import).
 */
import type { Level } from '../parameters/types.js';

/** number: one value (or a declared range) in an SI unit; range: an operating range (voltage); set: a set of names (buses, ROS). */
export type SpecKind = 'number' | 'range' | 'set' | 'code';

export interface SpecConditions {
  /** rated / continuous / nominal / peak / stall as declared; null when the vendor does not say. */
  rating: string | null;
  /** Supply voltage the value was declared at ("@ 48V"). */
  voltage_v: number | null;
  /** Output end or motor end, when declared. */
  measuring_end: 'output' | 'motor' | null;
  /** Load condition, verbatim, when declared. */
  load: string | null;
}

export interface Spec {
  field: string;
  /** Physical quantity (torque, voltage, mass, ...), or "set" / "ratio" / "count" / "ip_code". */
  quantity: string;
  /** SI unit of value/min/max (deg for angles), null for sets, ratios, counts and codes. */
  unit: string | null;
  /** Single value in `unit`; null for a range or a set. */
  value: number | null;
  /** Lower and upper end of a declared range, in `unit`; both null for a single value. */
  min: number | null;
  max: number | null;
  /** Exact decimal text of value (or "min~max") when it terminates; null otherwise. */
  exact: string | null;
  /** Members of a set field (normalised names), or the code of a code field ("IP67"). */
  values: string[] | null;
  /** The value as written upstream, verbatim. */
  notation: string;
  /** The record field it was read from ("declared.torque", "protocol", "interfaces", ...). */
  source: string;
  conditions: SpecConditions;
  /** up_to, at_most, approximately, ... as declared; a qualified value never settles a filter. */
  qualifier: string | null;
  /** The parser's dialect name (torque.kgf_cm, voltage.range, ...) or this layer's reader name. */
  dialect: string;
  /** Comparability level A-D (src/domain/parameters): A/B compare across vendors, C within one vendor, D not at all. */
  level: Level;
}

export interface UnreadValue {
  field: string;
  source: string;
  /** The value as written, verbatim. */
  notation: string;
  reason: string;
}

export interface EntitySpecs {
  id: string;
  category: string;
  specs: Spec[];
  unread: UnreadValue[];
}
