/**
 * The catalogue as the domain and the tools see it: a port declared here, implemented by
 * src/store/ (src/store/catalogue.ts re-exports it). SQLite implements it now; another backend must fit
 * without touching tools. Every method may throw DomainError('store_unavailable').
 */
import type { StoredEntity } from './entity.js';

export interface CategoryInfo {
  slug: string;
  name: string;
  /** Name of the category in the interface specification's summary table, when it has one. */
  spec_name: string | null;
  count: number;
}

export interface CatalogueMeta {
  dataset_version: string;
  license: string;
  attribution: string;
  source: string;
  snapshot_commit: string | null;
  imported_at: string | null;
}

export interface ListQuery {
  category?: string;
  includeQuarantine?: boolean;
  offset?: number;
  limit?: number;
}

/**
 * Lookups by id (`get`, `getMany`, `idsWithPrefix`) resolve catalogue records and the records of
 * the open-source compatibility layer (OSS-LIVE-... ids, data/oss/), so every tool that takes a
 * part id accepts both. Everything else (`list`, `all`, `categories`, `meta`) is the RoboParts
 * catalogue only: the layer is its own dataset and never changes catalogue counts.
 */
export interface Catalogue {
  /** Case-insensitive lookup (catalogue, then open-source layer). */
  get(id: string): Promise<StoredEntity | null>;
  /**
   * Records for ids, in the order given, skipping unknown ones (catalogue and open-source layer).
   * `positions`: where the search index numbers each id (SearchMatch.position: the catalogue
   * record's position in id order), a record taken from there when its id is the one asked.
   */
  getMany(ids: readonly string[], positions?: readonly number[]): Promise<StoredEntity[]>;
  list(q: ListQuery): Promise<{ total: number; items: StoredEntity[] }>;
  /** Every record, quarantined included, in stable id order. */
  all(): Promise<StoredEntity[]>;
  categories(): Promise<CategoryInfo[]>;
  /** Ids starting with the prefix (case-insensitive), catalogue and open-source layer, in id order. */
  idsWithPrefix(prefix: string, limit: number): Promise<string[]>;
  meta(): Promise<CatalogueMeta>;
  /** Settles when the store can be read, rejects with store_unavailable when not (what every read checks first). */
  probe(): Promise<void>;
}
