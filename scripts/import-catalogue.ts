/**
 * npm run data:import -- [snapshot dir] [--out <data dir>]
 *   Normalises the RoboParts snapshot into <data dir>/catalogue/ and prints the import report.
 * npm run data:check -- [snapshot dir] [--out <data dir>]
 *   Same import in memory; exits 1 with a summary when the committed files differ.
 *
 * The snapshot dir defaults to ../shared/reference/roboparts and the data dir to data/, both
 * resolved against the repository root (not the working directory).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { diffCatalogue, importCatalogue, SnapshotError, writeCatalogue } from '../src/ingest/catalogue/index.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SNAPSHOT = '../shared/reference/roboparts';

function main(argv: string[]): number {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { check: { type: 'boolean', default: false }, out: { type: 'string' }, quiet: { type: 'boolean', default: false } },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nusage: import-catalogue [snapshot dir] [--check] [--out <data dir>] [--quiet]\n`);
    return 2;
  }
  if (args.positionals.length > 1) {
    process.stderr.write('usage: import-catalogue [snapshot dir] [--check] [--out <data dir>] [--quiet]\n');
    return 2;
  }
  const snapshotDir = path.resolve(REPO_ROOT, args.positionals[0] ?? DEFAULT_SNAPSHOT);
  const dataDir = path.resolve(REPO_ROOT, args.values.out ?? 'data');

  let result;
  try {
    result = importCatalogue(snapshotDir);
  } catch (e) {
    if (e instanceof SnapshotError) {
      process.stderr.write(`import-catalogue: ${e.message}\n`);
      return 1;
    }
    throw e;
  }

  if (args.values.check) {
    const diffs = diffCatalogue(result, dataDir);
    if (diffs.length > 0) {
      process.stderr.write(`data:check: committed catalogue in ${dataDir} differs from a fresh import of ${snapshotDir}:\n`);
      for (const d of diffs) process.stderr.write(`  - ${d}\n`);
      process.stderr.write('Run `npm run data:import` and commit the result.\n');
      return 1;
    }
    process.stdout.write(`data:check: ${dataDir}/catalogue matches a fresh import (${result.meta.counts.imported} records, snapshot ${result.meta.snapshot_commit.slice(0, 7)}).\n`);
    return 0;
  }

  writeCatalogue(result, dataDir);
  if (!args.values.quiet) process.stdout.write(result.report);
  process.stdout.write(`\nWrote ${path.join(dataDir, 'catalogue')}: ${result.meta.counts.imported} records (${result.meta.counts.quarantined} quarantined), ${result.meta.counts.dropped} dropped.\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
