/**
 * TRL and momentum as rows of the spec layer's field table, so `where` filters, sorting and
 * list_spec_fields take them like any other field. A record whose TRL or momentum is unknown has
 * no spec for the field: it never matches a filter on it (and is counted as not declared).
 */
import { NO_CONDITIONS, type SpecFieldDef } from '../specs/fields.js';
import type { Spec } from '../specs/types.js';
import type { Intelligence } from './document.js';

/** `reader` ("analytics.trl", ...) is both the spec's source and its dialect: one string per field, not one per record. */
function spec(field: string, quantity: string, value: number, notation: string, reader: string): Spec {
  return { field, quantity, unit: null, value, min: null, max: null, exact: String(value), values: null, notation, source: reader, conditions: NO_CONDITIONS, qualifier: null, dialect: reader, level: 'B' };
}

/** intel: the intelligence document, asked for when a field is first read (it may be built lazily). */
export function analyticsSpecFields(intel: () => Intelligence): SpecFieldDef[] {
  return [
    {
      name: 'trl',
      kind: 'number',
      quantity: 'trl',
      unit: null,
      example: '7',
      description: 'Technology Readiness Level 1-9 from the declared lifecycle status (get_analytics meta.method.trl); unknown TRL never matches',
      read(e) {
        const t = intel().entities.headline(e.id);
        if (!t || t.trl === null) return { specs: [], unread: [] };
        return { specs: [spec('trl', 'trl', t.trl, `status ${t.status}`, 'analytics.trl')], unread: [] };
      },
    },
    {
      name: 'momentum',
      kind: 'number',
      quantity: 'momentum',
      unit: null,
      example: '60',
      description: 'Momentum 0-100 by the stated formula (get_analytics meta.method.momentum); a record with too few signals never matches',
      read(e) {
        const m = intel().entities.headline(e.id);
        if (!m || m.momentum === null) return { specs: [], unread: [] };
        return { specs: [spec('momentum', 'momentum', m.momentum, `momentum ${m.momentum} (${m.colour})`, 'analytics.momentum')], unread: [] };
      },
    },
  ];
}
