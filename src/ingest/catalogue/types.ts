/** What the catalogue import makes (import.ts) and its report reads (report.ts). */
import type { StoredEntity } from '../../domain/catalogue/entity.js';
import type { CategoryDef } from './categories.js';
import type { Normalised } from './normalise.js';
import type { DroppedRecord, DuplicateFound, IdRename } from './quarantine.js';
import type { Snapshot } from './snapshot.js';

/** Files written, relative to the data directory. */
export const CATALOGUE_FILES = ['catalogue/entities.json', 'catalogue/categories.json', 'catalogue/REPORT.md', 'catalogue/specs.json'] as const;
export type CatalogueFileName = (typeof CATALOGUE_FILES)[number];

export interface ImportCounts {
  snapshot_records: number;
  imported: number;
  dropped: number;
  quarantined: number;
  clean: number;
  by_category: Record<string, number>;
  quarantined_by_reason: Record<string, number>;
}

export interface ImportMeta {
  dataset_version: string;
  license: string;
  attribution: string;
  source: string;
  source_url: string;
  snapshot_file: string;
  snapshot_commit: string;
  snapshot_sha256: string;
  imported_at: string;
  counts: ImportCounts;
}

export interface ImportResult {
  meta: ImportMeta;
  categories: CategoryDef[];
  entities: StoredEntity[];
  normalised: Normalised[];
  renames: IdRename[];
  duplicates: DuplicateFound[];
  dropped: DroppedRecord[];
  snapshot: Snapshot;
  report: string;
  files: Record<CatalogueFileName, string>;
}

