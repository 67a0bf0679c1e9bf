/**
 * Reads the analytics inputs shipped in data/: the method tables (data/analytics/trl.json,
 * momentum.json) and the bill-of-materials lines of the open-source layer (data/oss/), in the
 * small shape the analytics need. Read and validated once at start; a malformed file fails start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { BomLine } from '../domain/analytics/adoption.js';
import type { OssInput } from '../domain/analytics/document.js';
import { MomentumMethod, TrlTable } from '../domain/analytics/tables.js';
import { PARSE_ONCE } from '../domain/shared/parse-once.js';

export const TRL_FILE = path.join('analytics', 'trl.json');
export const MOMENTUM_FILE = path.join('analytics', 'momentum.json');
const OSS_FILE = path.join('oss', 'oss_components.json');

function readJson(dataDir: string, rel: string): unknown {
  const file = path.join(dataDir, rel);
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

function parse<T>(schema: z.ZodType<T>, dataDir: string, rel: string): T {
  const r = schema.safeParse(readJson(dataDir, rel), PARSE_ONCE);
  if (!r.success) throw new Error(`${path.join(dataDir, rel)}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

export function readAnalyticsTables(dataDir: string): { trl: TrlTable; momentum: MomentumMethod } {
  return { trl: parse(TrlTable, dataDir, TRL_FILE), momentum: parse(MomentumMethod, dataDir, MOMENTUM_FILE) };
}

/** Only the fields the adoption signal reads; other fields of the layer are ignored. */
const OssBomFile = z.object({
  meta: z.object({ generated_at: z.string().nullable().optional(), attribution: z.string().nullable().optional(), sources: z.array(z.object({ robot: z.string() }).passthrough()).optional() }).passthrough(),
  data: z.array(
    z
      .object({
        id: z.string(),
        type: z.string().nullable().optional(),
        source_robot: z.string().nullable().optional(),
        extracted: z.object({ record_type: z.string().optional(), item: z.string().nullable().optional(), manufacturer_part: z.string().nullable().optional(), quantity: z.number().nullable().optional() }).passthrough().optional(),
      })
      .passthrough(),
  ),
});

/** BOM lines of the open-source layer read from data/; no file -> no lines (the adoption signal then finds no robot). */
export function readOssBomLines(dataDir: string): OssInput {
  const file = path.join(dataDir, OSS_FILE);
  return ossBomLines(fs.existsSync(file) ? parse(OssBomFile, dataDir, OSS_FILE) : null);
}

/**
 * The adoption signal's view of an open-source layer document already read and validated (start-up
 * hands it the one readOssLayer parsed, so the file is not read twice); null -> no lines.
 */
export function ossBomLines(doc: z.infer<typeof OssBomFile> | null): OssInput {
  if (!doc) return { generated_at: null, robots: [], attribution: null, lines: [] };
  const lines: BomLine[] = [];
  for (const r of doc.data) {
    const x = r.extracted;
    if (x?.record_type !== 'bom_item' || !r.source_robot || !x.item) continue;
    lines.push({ id: r.id, robot: r.source_robot, item: x.item, manufacturer_part: x.manufacturer_part ?? null, quantity: typeof x.quantity === 'number' && Number.isInteger(x.quantity) ? x.quantity : null });
  }
  const robots = [...new Set((doc.meta.sources ?? []).map((s) => s.robot))].sort();
  return { generated_at: doc.meta.generated_at ?? null, robots, attribution: doc.meta.attribution ? `Open-source layer: ${doc.meta.attribution}` : null, lines };
}
