/** The analytics as the tools see them: the whole intelligence document or one category's, and one record's TRL and momentum. */
import { resolveCategory } from '../catalogue/categories.js';
import type { StoredEntity } from '../catalogue/entity.js';
import { DomainError } from '../shared/errors.js';
import { analyseEntity, type EntityAnalytics, type Intelligence } from './document.js';

export { buildIntelligence, type Intelligence, type EntityAnalytics } from './document.js';

/** The document, whole or for one category (slug, display name or spec name). Unknown category -> unknown_category. */
export function getAnalytics(intel: Intelligence, category?: string): Record<string, unknown> {
  if (category === undefined) return intel.document;
  const slug = resolveCategory(category, intel.categories);
  const doc = intel.byCategory.get(slug);
  if (!doc) throw new DomainError('internal', `No analytics document for category ${slug}.`);
  return doc;
}

/** TRL and momentum of one record: the values computed at start for a catalogue record, else (open-source layer) computed by the same method. */
export function entityAnalytics(
  intel: Intelligence,
  e: Pick<StoredEntity, 'id' | 'status' | 'entity_kind' | 'year' | 'ros_support' | 'source_tier' | 'source_urls'>,
): EntityAnalytics {
  return intel.entities.get(e.id) ?? { id: e.id, ...analyseEntity(e, intel.adoption.get(e.id) ?? null, intel.tables.trl, intel.tables.momentum, intel.referenceYear) };
}
