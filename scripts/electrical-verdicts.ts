/**
 * npx tsx scripts/electrical-verdicts.ts [entities.json]
 *   Counts the electrical-dimension verdicts of check_compatibility over every unordered pair of
 *   applicable catalogue parts (physical components, as check_compatibility decides) whose voltages
 *   are both exactly readable, and over all applicable pairs (electricalDimension, no shared rail). Prints JSON. Default file: data/catalogue/entities.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoredEntity } from '../src/domain/catalogue/entity.js';
import { notApplicableReason } from '../src/domain/compatibility/index.js';
import { electricalDimension } from '../src/domain/compatibility/electrical.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function countElectrical(entities: readonly StoredEntity[]) {
  const parts = entities.filter((e) => notApplicableReason(e) === null);
  const readable: Record<string, number> = {};
  const all: Record<string, number> = {};
  let pairs = 0;
  let readablePairs = 0;
  const nominalPairs: Record<string, number> = {};
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      const e = electricalDimension(parts[i]!, parts[j]!);
      pairs++;
      all[e.verdict] = (all[e.verdict] ?? 0) + 1;
      if (e.detail.range_a && e.detail.range_b) {
        readablePairs++;
        readable[e.verdict] = (readable[e.verdict] ?? 0) + 1;
        const nominal = e.detail.range_a.min === e.detail.range_a.max || e.detail.range_b.min === e.detail.range_b.max;
        if (nominal) nominalPairs[e.verdict] = (nominalPairs[e.verdict] ?? 0) + 1;
      }
    }
  }
  return { applicable_pairs: pairs, readable_pairs: readablePairs, readable_verdicts: readable, readable_with_a_nominal_side: nominalPairs, all_verdicts: all };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const file = path.resolve(process.argv[2] ?? path.join(ROOT, 'data/catalogue/entities.json'));
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { entities: unknown[] };
  const entities = doc.entities.map((e) => StoredEntity.parse(e));
  process.stdout.write(`${JSON.stringify({ file: path.relative(ROOT, file), ...countElectrical(entities) }, null, 2)}\n`);
}
