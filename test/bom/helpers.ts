import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { supplierIndex } from '../../src/domain/bom/suppliers.js';
import { loadPrintRules, loadSupplierRegistry, readFlangeRegistry } from '../../src/store/datasets.js';
import { buildBomExport, recordLookup, type BomExportDeps } from '../../src/domain/bom/export.js';
import { BomExportRequest, type BomExportRequestInput } from '../../src/domain/bom/schema.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';

export const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');
export const NOW = new Date('2026-01-02T03:04:05.000Z');

export const suppliers = supplierIndex(loadSupplierRegistry(DATA_DIR));
export const printRules = loadPrintRules(DATA_DIR);
export const flanges = readFlangeRegistry(DATA_DIR);

export function deps(records: StoredEntity[] = [], extra: Partial<BomExportDeps> = {}): BomExportDeps {
  return { lookup: recordLookup(records), suppliers, printRules, flanges, now: NOW, ...extra };
}

export function exportBom(input: BomExportRequestInput, records: StoredEntity[] = [], extra: Partial<BomExportDeps> = {}) {
  return buildBomExport(BomExportRequest.parse(input), deps(records, extra));
}
