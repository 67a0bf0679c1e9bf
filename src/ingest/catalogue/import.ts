/**
 * The catalogue import: snapshot -> data/catalogue/{entities.json, categories.json, REPORT.md}.
 * Deterministic: the same snapshot gives byte-identical files (stable record and key order,
 * 2-space JSON with a trailing newline, imported_at taken from the snapshot, never the clock).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoredEntity } from '../../domain/catalogue/entity.js';
import { buildCategories, CATEGORY_DEFS, type CategoryDef } from './categories.js';
import { normaliseRecord, RecordError, REASON_CODES, type Normalised } from './normalise.js';
import { markDuplicates, resolveIdCollisions, type DroppedRecord, type DuplicateFound, type IdRename } from './quarantine.js';
import { buildReport } from './report.js';
import { MECHANICAL_FILE, readFlangeTokensInUse, readSnapshot, SNAPSHOT_FILE, type Snapshot } from './snapshot.js';
import { registeredFlange } from './flange.js';
import type { FlangeRegistry } from '../../domain/knowledge/flange.js';
import { readFlangeRegistry } from '../../store/datasets.js';
import { buildSpecsFile } from './specs-file.js';
import { CATALOGUE_FILES, type CatalogueFileName, type ImportMeta, type ImportResult } from './types.js';

export const LICENSE = 'CC BY 4.0';
export const ATTRIBUTION = 'Data: RoboParts (https://roboparts.cc), CC BY 4.0';
export const SOURCE = 'RoboParts public dataset';

export { CATALOGUE_FILES, type CatalogueFileName, type ImportCounts, type ImportMeta, type ImportResult } from './types.js';

/** Case-insensitive id order, then exact (code-unit comparison, no locale). */
export function compareIds(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The repository's data directory (holds the flange registry the import joins labels against). */
const REPO_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../data');

export interface ImportOptions {
  /** Flange registry to join labels against; default: data/flange/designations.json of this repository. */
  flanges?: FlangeRegistry;
}

export function importCatalogue(snapshotDir: string, opts: ImportOptions = {}): ImportResult {
  const snapshot = readSnapshot(snapshotDir);
  const flanges = opts.flanges ?? readFlangeRegistry(REPO_DATA);
  const inUse = readFlangeTokensInUse(snapshotDir);
  const tokensById = new Map<string, { label: string; path: string }[]>();
  for (const e of inUse?.entries ?? []) {
    for (const id of e.used_by) {
      const list = tokensById.get(id) ?? [];
      list.push({ label: e.token, path: `${MECHANICAL_FILE}#designations_in_use.entries[token_as_written=${e.token}].used_by_entity_ids` });
      tokensById.set(id, list);
    }
  }
  const flangeCtx = {
    registeredFlange: (label: string) => registeredFlange(flanges, label),
    flangeOrder: flanges.designations.map((d) => d.designation),
    flangeTokensOf: (id: string) => tokensById.get(id) ?? [],
  };

  const seen = new Set<string>();
  for (const r of snapshot.records) {
    const c = (r as { category?: unknown } | null)?.category;
    if (typeof c === 'string') seen.add(c);
  }
  // Upstream order first; a slug only seen on records follows, sorted. Unnamed slugs are not
  // listed (their records are dropped with a reason below).
  const slugs = [...snapshot.categories, ...[...seen].filter((s) => !snapshot.categories.includes(s)).sort()].filter(
    (s, i, all) => all.indexOf(s) === i && CATEGORY_DEFS[s] !== undefined,
  );
  const categories = buildCategories(slugs);
  const catName = new Map(categories.map((c) => [c.slug, c.name]));

  const dropped: DroppedRecord[] = [];
  let items: Normalised[] = [];
  snapshot.records.forEach((raw, index) => {
    try {
      items.push(normaliseRecord(raw, index, { categoryName: (s) => catName.get(s), ...flangeCtx }));
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      dropped.push({ index, id: e.upstreamId, reason: e.reason });
    }
  });

  const collisions = resolveIdCollisions(items);
  items = collisions.items;
  dropped.push(...collisions.dropped);
  const duplicates = markDuplicates(items);

  // Validate every record; a record the schema refuses is dropped with the reason, never patched.
  const valid: Normalised[] = [];
  for (const n of items) {
    const r = StoredEntity.safeParse(n.entity);
    if (r.success) valid.push(n);
    else dropped.push({ index: n.notes.index, id: n.entity.id, reason: `schema: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
  }
  dropped.sort((a, b) => a.index - b.index);
  valid.sort((a, b) => compareIds(a.entity.id, b.entity.id));
  const entities = valid.map((n) => n.entity);

  if (valid.length + dropped.length !== snapshot.records.length) {
    throw new Error(`import does not reconcile: ${snapshot.records.length} records in, ${valid.length} imported + ${dropped.length} dropped`);
  }

  const byCategory: Record<string, number> = {};
  for (const c of categories) byCategory[c.slug] = 0;
  for (const e of entities) byCategory[e.category] = (byCategory[e.category] ?? 0) + 1;
  const byReason: Record<string, number> = {};
  for (const code of REASON_CODES) {
    const n = valid.filter((x) => x.reasons.includes(code)).length;
    if (n > 0) byReason[code] = n;
  }
  const quarantined = entities.filter((e) => e.quarantine).length;

  const meta: ImportMeta = {
    dataset_version: `${snapshot.updated.slice(0, 10)}.${snapshot.commit.slice(0, 7)}`,
    license: LICENSE,
    attribution: ATTRIBUTION,
    source: SOURCE,
    source_url: 'https://github.com/lm203688/roboparts',
    snapshot_file: SNAPSHOT_FILE,
    snapshot_commit: snapshot.commit,
    snapshot_sha256: snapshot.sha256,
    imported_at: snapshot.updated,
    counts: {
      snapshot_records: snapshot.records.length,
      imported: entities.length,
      dropped: dropped.length,
      quarantined,
      clean: entities.length - quarantined,
      by_category: byCategory,
      quarantined_by_reason: byReason,
    },
  };

  const partial = { meta, categories, entities, normalised: valid, renames: collisions.renames, duplicates, dropped, snapshot };
  const specs = buildSpecsFile(entities, meta);
  const report = `${buildReport(partial)}\n${specs.report.join('\n')}`;
  const files: Record<CatalogueFileName, string> = {
    'catalogue/entities.json': toJson({ meta, entities }),
    'catalogue/categories.json': toJson({ categories }),
    'catalogue/REPORT.md': report,
    'catalogue/specs.json': toJson(specs.json),
  };
  return { ...partial, report, files };
}

export function writeCatalogue(result: Pick<ImportResult, 'files'>, dataDir: string): void {
  for (const name of CATALOGUE_FILES) {
    const file = path.join(dataDir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, result.files[name]);
    fs.renameSync(tmp, file);
  }
}

/** Compares committed files with a fresh import; returns human-readable differences (empty: equal). */
export function diffCatalogue(result: Pick<ImportResult, 'files'>, dataDir: string): string[] {
  const out: string[] = [];
  for (const name of CATALOGUE_FILES) {
    const file = path.join(dataDir, name);
    const fresh = result.files[name];
    if (!fs.existsSync(file)) {
      out.push(`${name}: missing (a fresh import writes it)`);
      continue;
    }
    const committed = fs.readFileSync(file, 'utf8');
    if (committed === fresh) continue;
    if (name === 'catalogue/entities.json') out.push(...diffEntities(committed, fresh));
    else out.push(`${name}: differs from a fresh import, first at line ${firstDiffLine(committed, fresh)}`);
  }
  return out;
}

function firstDiffLine(a: string, b: string): number {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) if (la[i] !== lb[i]) return i + 1;
  return 0;
}

function diffEntities(committedText: string, freshText: string): string[] {
  const name = 'catalogue/entities.json';
  let committed: { meta?: unknown; entities?: { id?: string }[] };
  try {
    committed = JSON.parse(committedText);
  } catch {
    return [`${name}: not valid JSON`];
  }
  const fresh = JSON.parse(freshText) as { meta: unknown; entities: { id: string }[] };
  const out: string[] = [];
  if (JSON.stringify(committed.meta) !== JSON.stringify(fresh.meta)) out.push(`${name}: meta differs`);
  const a = new Map((committed.entities ?? []).map((e) => [String(e.id), JSON.stringify(e)]));
  const b = new Map(fresh.entities.map((e) => [e.id, JSON.stringify(e)]));
  const added = [...b.keys()].filter((k) => !a.has(k));
  const removed = [...a.keys()].filter((k) => !b.has(k));
  const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k));
  const show = (xs: string[]) => xs.slice(0, 10).join(', ') + (xs.length > 10 ? `, ... (${xs.length - 10} more)` : '');
  if (added.length) out.push(`${name}: ${added.length} record(s) only in a fresh import: ${show(added)}`);
  if (removed.length) out.push(`${name}: ${removed.length} record(s) only in the committed file: ${show(removed)}`);
  if (changed.length) out.push(`${name}: ${changed.length} record(s) differ: ${show(changed)}`);
  if (out.length === 0) out.push(`${name}: same content, different bytes (formatting or order), first at line ${firstDiffLine(committedText, freshText)}`);
  return out;
}
