/**
 * Flange designations on catalogue records. A record's `mechanical_interface.flange` is set only
 * when upstream names one of the nine ISO 9409-1 designations registered in the specification,
 * completely (pitch-circle diameter, bolt count and thread). Partial labels such as
 * "ISO 9409-1 A50 compatible" or "ISO 9409-1" + "50mm" are never completed by guessing.
 *
 * Matching is lexical, the same rule as the flange ruling dataset (src/domain/flange.ts): case,
 * whitespace and Unicode dash variants are ignored, nothing else. The form without the "A"
 * ("ISO 9409-1-50-4-M6", used on two records of this snapshot) is therefore not read as a
 * registered designation; such labels are counted in the import report.
 */

/** The nine registered designations of the specification (flange ruling dataset). */
export const REGISTERED_FLANGES = [
  'ISO9409-1-A20-4-M3',
  'ISO9409-1-A31.5-4-M5',
  'ISO9409-1-A40-4-M6',
  'ISO9409-1-A50-4-M6',
  'ISO9409-1-A63-6-M6',
  'ISO9409-1-A80-6-M8',
  'ISO9409-1-A100-4-M8',
  'ISO9409-1-A160-4-M12',
  'ISO9409-1-A250-4-M16',
] as const;

function lexical(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-')
    .replace(/\s+/g, '')
    .toUpperCase();
}

/** The registered designation a label names exactly (lexically), or null. */
export function registeredFlange(label: string): string | null {
  const key = lexical(label);
  return REGISTERED_FLANGES.find((d) => lexical(d) === key) ?? null;
}

/** Splits what upstream wrote (string, list, or absent) into labels. */
export function flangeLabels(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  return [];
}
