/** The RoboParts catalogue importer (used by scripts/import-catalogue.ts and the tests). */
export { importCatalogue, writeCatalogue, diffCatalogue, compareIds, toJson, CATALOGUE_FILES, LICENSE, ATTRIBUTION, SOURCE } from './import.js';
export type { ImportResult, ImportMeta, ImportCounts, CatalogueFileName } from './import.js';
export { buildCategories, CATEGORY_DEFS, SPEC_SUMMARY_CATEGORIES } from './categories.js';
export type { CategoryDef } from './categories.js';
export { normaliseRecord, REASON_CODES, UPSTREAM_REASONS } from './normalise.js';
export type { ReasonCode } from './normalise.js';
export { extractDeclared, SPEC_KEYS, TOP_LEVEL_KEYS } from './declared.js';
export { registeredFlange } from './flange.js';
export { classifyUrl, urlsInText } from './urls.js';
export { readSnapshot, SnapshotError, SNAPSHOT_FILE } from './snapshot.js';
