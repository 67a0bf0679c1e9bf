/**
 * The one loader for the small shipped datasets under data/ (flange registry, bus table, bridges,
 * suppliers, 3D-print rules, payment plans). It reads and parses each file once at start-up
 * (deps.ts) and hands the domain parsed values; the domain never touches the file system.
 * A missing or invalid file fails start-up with the file name and the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parsePrintRules, type PrintRules } from '../domain/bom/print.js';
import { parseSupplierRegistry, supplierIndex, type SupplierIndex, type SupplierRegistry } from '../domain/bom/suppliers.js';
import { parseBusTable, type BusTable } from '../domain/compatibility/buses.js';
import { parseFlangeRegistry, type FlangeRegistry } from '../domain/knowledge/flange.js';
import { parsePlans, type PlanCatalog } from '../domain/payments/plans.js';
import { parseFastenerTable, type FastenerTable } from '../domain/plates/fasteners.js';

/** Dataset files, relative to the data directory. */
export const DATASET_FILES = {
  flanges: 'flange/designations.json',
  buses: 'buses.json',
  suppliers: 'suppliers.json',
  printRules: 'print.json',
  plans: 'plans.json',
  fasteners: 'plate/fasteners.json',
} as const;

/** Reads `<dataDir>/<rel>` as JSON and parses it; errors name the file. */
export function readDataset<T>(dataDir: string, rel: string, parse: (json: unknown) => T): T {
  const file = path.join(dataDir, rel);
  try {
    return parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

export const readFlangeRegistry = (dataDir: string): FlangeRegistry => readDataset(dataDir, DATASET_FILES.flanges, parseFlangeRegistry);
export const readBusTable = (dataDir: string): BusTable => readDataset(dataDir, DATASET_FILES.buses, parseBusTable);
export const loadSupplierRegistry = (dataDir: string): SupplierRegistry => readDataset(dataDir, DATASET_FILES.suppliers, parseSupplierRegistry);
export const loadPrintRules = (dataDir: string): PrintRules => readDataset(dataDir, DATASET_FILES.printRules, parsePrintRules);
export const loadPlans = (dataDir: string): PlanCatalog => readDataset(dataDir, DATASET_FILES.plans, parsePlans);
export const loadFasteners = (dataDir: string): FastenerTable => readDataset(dataDir, DATASET_FILES.fasteners, parseFastenerTable);

export interface Datasets {
  flanges: FlangeRegistry;
  buses: BusTable;
  suppliers: SupplierRegistry;
  printRules: PrintRules;
  plans: PlanCatalog;
  fasteners: FastenerTable;
}

/** Every dataset, read and validated (called once at start-up). */
export function loadDatasets(dataDir: string): Datasets {
  return {
    flanges: readFlangeRegistry(dataDir),
    buses: readBusTable(dataDir),
    suppliers: loadSupplierRegistry(dataDir),
    printRules: loadPrintRules(dataDir),
    plans: loadPlans(dataDir),
    fasteners: loadFasteners(dataDir),
  };
}

/** The registries the compatibility, BOM check and BOM export engines read (deps.knowledge). */
export interface Knowledge {
  flanges: FlangeRegistry;
  buses: BusTable;
  suppliers: SupplierIndex;
  printRules: PrintRules;
  fasteners: FastenerTable;
}

/** The engines' registries from the datasets: the same in the main thread and in a pool worker. */
export function knowledgeOf(d: Datasets): Knowledge {
  return { flanges: d.flanges, buses: d.buses, suppliers: supplierIndex(d.suppliers), printRules: d.printRules, fasteners: d.fasteners };
}
