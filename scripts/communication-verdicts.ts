/**
 * npx tsx scripts/communication-verdicts.ts [dataDir]
 *   Counts the communication-dimension verdicts of check_compatibility over every unordered pair
 *   of applicable catalogue parts (roles inferred from the records), and the adapters named.
 *   Prints JSON. Default: data/.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { communicationDimension } from '../src/domain/compatibility/communication.js';
import { notApplicableReason } from '../src/domain/compatibility/index.js';
import { readCatalogueData } from '../src/store/catalogue-data.js';
import { readBusTable } from '../src/store/datasets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.argv[2] ?? path.join(ROOT, 'data');
const table = readBusTable(dataDir);
const parts = readCatalogueData(dataDir).entities.filter((e) => notApplicableReason(e) === null);
const verdicts: Record<string, number> = {};
const adapters: Record<string, number> = {};
let pairs = 0;
for (let i = 0; i < parts.length; i++) {
  for (let j = i + 1; j < parts.length; j++) {
    const c = communicationDimension(parts[i]!, parts[j]!, table);
    pairs++;
    verdicts[c.verdict] = (verdicts[c.verdict] ?? 0) + 1;
    for (const a of c.adapters) adapters[a] = (adapters[a] ?? 0) + 1;
  }
}
process.stdout.write(`${JSON.stringify({ applicable_pairs: pairs, verdicts, adapters: Object.fromEntries(Object.entries(adapters).sort((x, y) => y[1] - x[1])) }, null, 2)}\n`);
