/**
 * TRL and momentum as rows of the spec layer's field table, so `where` filters, sorting and
 * list_spec_fields take them like any other field. A record whose TRL or momentum is unknown has
 * no spec for the field: it never matches a filter on it (and is counted as not declared).
 *
 * The fields read a record's TRL and momentum straight from the method tables (trlLevel,
 * momentumFor with the record's adoption), the same functions the intelligence document uses for
 * its per-record values: a `trl` filter never needs the whole document built.
 */
import { NO_CONDITIONS, type FieldReading, type SpecFieldDef, type SpecSource } from '../specs/fields.js';
import type { Spec } from '../specs/types.js';
import type { Adoption } from './adoption.js';
import { momentumFor, type Colour } from './momentum.js';
import type { MomentumMethod, TrlTable } from './tables.js';
import { trlLevel } from './trl.js';

/** What the two fields read per record (the document's headline values, computed alone). */
export interface RecordScores {
  trl(e: SpecSource): number | null;
  momentum(e: SpecSource): { momentum: number | null; colour: Colour | null };
}

/** A record's TRL and momentum by the tables; `adoption` is asked for (once built, shared) on the first momentum read. */
export function recordScores(tables: { trl: TrlTable; momentum: MomentumMethod }, referenceYear: number | null, adoption: () => ReadonlyMap<string, Adoption>): RecordScores {
  return {
    trl: (e) => trlLevel(e, tables.trl, referenceYear),
    momentum(e) {
      const m = momentumFor(e, adoption().get(e.id) ?? null, tables.momentum, referenceYear);
      return { momentum: m.momentum, colour: m.colour };
    },
  };
}

/** `reader` ("analytics.trl", ...) is both the spec's source and its dialect: one string per field, not one per record. */
function spec(field: string, quantity: string, value: number, notation: string, reader: string): Spec {
  return { field, quantity, unit: null, value, min: null, max: null, exact: String(value), values: null, notation, source: reader, conditions: NO_CONDITIONS, qualifier: null, dialect: reader, level: 'B' };
}

const NOTHING: FieldReading = Object.freeze({ specs: Object.freeze([]) as unknown as Spec[], unread: Object.freeze([]) as unknown as [] });

/**
 * One frozen reading per distinct (value, notation): a TRL is one of nine levels with one of the
 * table's statuses, a momentum one of 1,001 tenths with one of three colours, so records share them.
 */
function sharedReadings(make: (value: number, notation: string) => Spec): (value: number, notation: string) => FieldReading {
  const seen = new Map<string, FieldReading>();
  return (value, notation) => {
    const key = `${value}\u0000${notation}`;
    let r = seen.get(key);
    if (!r) seen.set(key, (r = Object.freeze({ specs: Object.freeze([Object.freeze(make(value, notation))]) as unknown as Spec[], unread: NOTHING.unread })));
    return r;
  };
}

export function analyticsSpecFields(scores: RecordScores): SpecFieldDef[] {
  const trlReading = sharedReadings((v, n) => spec('trl', 'trl', v, n, 'analytics.trl'));
  const momentumReading = sharedReadings((v, n) => spec('momentum', 'momentum', v, n, 'analytics.momentum'));
  return [
    {
      name: 'trl',
      kind: 'number',
      quantity: 'trl',
      unit: null,
      example: '7',
      description: 'Technology Readiness Level 1-9 from the declared lifecycle status (get_analytics meta.method.trl); unknown TRL never matches',
      reads: (source) => source === 'analytics.trl',
      read(e) {
        const trl = scores.trl(e);
        return trl === null ? NOTHING : trlReading(trl, `status ${e.status}`);
      },
    },
    {
      name: 'momentum',
      kind: 'number',
      quantity: 'momentum',
      unit: null,
      example: '60',
      description: 'Momentum 0-100 by the stated formula (get_analytics meta.method.momentum); a record with too few signals never matches',
      reads: (source) => source === 'analytics.momentum',
      read(e) {
        const m = scores.momentum(e);
        return m.momentum === null ? NOTHING : momentumReading(m.momentum, `momentum ${m.momentum} (${m.colour})`);
      },
    },
  ];
}
