/**
 * npm run data:oss -- [robots dir] [--out <data dir>] [--check]
 *   Runs the open-source-layer extractors over the sources of data/oss/sources.json, reading the
 *   local copies of their files in the robots folder (default ../shared/robots; its README maps
 *   each copy to its repository, path and commit), and writes <data dir>/oss/oss_components.json
 *   (default data/). The same extraction code as `robot-parts-mcp sources refresh`. Deterministic: when nothing
 *   changed the file is rewritten byte-identical (timestamps carry over); set SOURCE_DATE_EPOCH
 *   to fix the time stamped on changed content.
 *   --check: builds in memory and exits 1 with a summary when the committed file differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { diffOss, importOss, OSS_DATA_FILE, OssImportError, readOssDocument, serialiseOss, writeOssDocument } from '../src/ingest/oss/layer.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: import-oss [robots dir] [--check] [--out <data dir>]\n';

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { check: { type: 'boolean', default: false }, out: { type: 'string' } } });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const robotsDir = path.resolve(REPO_ROOT, args.positionals[0] ?? '../shared/robots');
  const dataDir = path.resolve(REPO_ROOT, args.values.out ?? 'data');
  const file = path.join(dataDir, OSS_DATA_FILE);

  let previous = null;
  try {
    previous = readOssDocument(dataDir);
  } catch (e) {
    if (args.values.check) {
      process.stderr.write(`data:oss --check: ${file} is not a valid dataset: ${(e as Error).message.slice(0, 500)}\n`);
      return 1;
    }
    // A schema change (a new field) fails the strict read: keep the record timestamps (first_seen)
    // from the raw JSON when it still has the dataset's shape; otherwise they start afresh.
    try {
      const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { meta?: unknown; data?: unknown };
      if (raw && typeof raw === 'object' && raw.meta && Array.isArray(raw.data)) {
        previous = raw as unknown as NonNullable<typeof previous>;
        process.stderr.write(`import-oss: the previous ${file} no longer matches the schema; its timestamps are kept\n`);
      }
    } catch {
      /* unreadable JSON: timestamps start afresh */
    }
    if (previous === null) process.stderr.write(`import-oss: ignoring the unreadable previous ${file} (timestamps start afresh)\n`);
  }

  let doc;
  try {
    doc = await importOss(robotsDir, { previous });
  } catch (e) {
    if (e instanceof OssImportError) {
      process.stderr.write(`import-oss: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  if (doc.meta.live_stats.failed.length > 0) {
    process.stderr.write(`import-oss: ${doc.meta.live_stats.failed.length} source(s) failed, nothing written:\n`);
    for (const f of doc.meta.live_stats.failed) process.stderr.write(`  - ${f.id}: ${f.reason}\n`);
    return 1;
  }

  if (args.values.check) {
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (committed !== serialiseOss(doc)) {
      process.stderr.write(`data:oss --check: ${file} differs from a fresh import of ${robotsDir}:\n`);
      for (const d of diffOss(doc, previous)) process.stderr.write(`  - ${d}\n`);
      process.stderr.write('Run `npm run data:oss` and commit the result.\n');
      return 1;
    }
    process.stdout.write(`data:oss --check: ${file} matches a fresh import (${doc.meta.total_entities} records from ${doc.meta.sources.length} files).\n`);
    return 0;
  }

  writeOssDocument(doc, dataDir);
  process.stdout.write(`Wrote ${file}: ${doc.meta.total_entities} records from ${doc.meta.sources.length} files\n`);
  for (const s of doc.meta.sources) {
    const types = s.joints_by_type ? ` ${Object.entries(s.joints_by_type).map(([k, v]) => `${v} ${k}`).join(' + ')}, dof ${s.dof};` : '';
    process.stdout.write(`  ${s.id.padEnd(22)} ${s.extractor.padEnd(8)} ${String(s.records).padStart(4)} records;${types} skipped ${s.skipped} (${s.license})\n`);
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
