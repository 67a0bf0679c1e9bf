/**
 * npm run data:electrical -- [entities.json]
 *   Counts the electrical-dimension verdicts of check_compatibility over every unordered pair of
 *   applicable catalogue parts (physical components) whose voltages are both exactly readable,
 *   and over all applicable pairs. Prints JSON. Default file: data/catalogue/entities.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoredEntity } from '../src/domain/entity.js';
import { checkCompatibility } from '../src/domain/compatibility/index.js';
import { loadDatasets } from '../src/store/datasets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function countElectrical(entities: readonly StoredEntity[], dataDir: string) {
  const { flanges, buses } = loadDatasets(dataDir);
  const readable: Record<string, number> = {};
  const all: Record<string, number> = {};
  let pairs = 0;
  let readablePairs = 0;
  for (let i = 0; i < entities.length; i++) {
    for (let j = i + 1; j < entities.length; j++) {
      const r = checkCompatibility(entities[i]!, entities[j]!, { flanges, buses });
      if (!r.applicable || !r.dimensions) continue;
      const e = r.dimensions.electrical;
      pairs++;
      all[e.verdict] = (all[e.verdict] ?? 0) + 1;
      if (e.detail.range_a && e.detail.range_b) {
        readablePairs++;
        readable[e.verdict] = (readable[e.verdict] ?? 0) + 1;
      }
    }
  }
  return { applicable_pairs: pairs, readable_pairs: readablePairs, readable_verdicts: readable, all_verdicts: all };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const file = path.resolve(process.argv[2] ?? path.join(ROOT, 'data/catalogue/entities.json'));
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { entities: unknown[] };
  const entities = doc.entities.map((e) => StoredEntity.parse(e));
  process.stdout.write(`${JSON.stringify({ file: path.relative(ROOT, file), ...countElectrical(entities, path.join(ROOT, 'data')) }, null, 2)}\n`);
}
