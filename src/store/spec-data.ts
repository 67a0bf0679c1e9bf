/** Reads data/manufacturers.json (manufacturer names, aliases and brands with evidence). */
import fs from 'node:fs';
import path from 'node:path';
import { parseManufacturers, type ManufacturerTable } from '../domain/specs/manufacturers.js';

export function readManufacturers(dataDir: string): ManufacturerTable {
  const file = path.join(dataDir, 'manufacturers.json');
  try {
    return parseManufacturers(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}
