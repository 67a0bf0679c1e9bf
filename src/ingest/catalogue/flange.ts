/**
 * Flange designations on catalogue records. A record gets a registered ISO 9409-1 designation when
 * a label it declares finds a row of the flange registry (data/flange/designations.json) through
 * the registry's join rule (src/domain/knowledge/flange.ts lookupFlange: case, whitespace, dash variants and
 * the "A" before the size segment are ignored; the row lists both written forms as aliases with
 * evidence). Labels are never completed or parsed for geometry: "ISO 9409-1" + "50mm" finds no row.
 *
 * Where labels come from: the record's mechanical_interface.flange / .standard and a top-level
 * `flange`, and the source's designations_in_use (api/mechanical_interfaces.json), which lists for
 * each token in use the record ids using it.
 */
import { lookupFlange, type FlangeRegistry } from '../../domain/knowledge/flange.js';

/** The registered designation a label finds through the join rule, or null. */
export function registeredFlange(registry: FlangeRegistry, label: string): string | null {
  return lookupFlange(registry, label)?.designation ?? null;
}

/** Splits what upstream wrote (string, list, or absent) into labels. */
export function flangeLabels(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  return [];
}
