/**
 * The open-source compatibility layer dataset (data/oss/oss_components.json), built by running
 * the extractors on the real robot files in ../shared/robots/. Source facts (project, path,
 * commit, licence, robot type) are read from that folder's README.md table; DOF counts are
 * computed from the URDF files. The files themselves are never copied.
 *
 * Deterministic: records in source order, then file order; fixed key order; 2-space JSON.
 * Timestamps carry over from the previous dataset when nothing else changed, so a re-run is
 * byte-identical; when content changes, generated_at is `now` and each record keeps its
 * first_seen from the previous dataset.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import { decodeText } from './decode.js';
import { extract, extractRobotParts } from './index.js';
import { mirrorFetcher, type FetchedSource } from './fetch.js';
import { fileSourceId, fileUrlOf, readSourcesFile, specPath, type SourceSpec, type SourcesFile } from './sources-file.js';
import { cleanCell, markdownTables } from './table.js';
import { UrdfMention, urdfMentions } from './mentions.js';
import { UrdfKinematics, urdfKinematics } from './kinematics.js';
import { DofSummary, EXTRACTOR_KINDS, type ExtractionResult, type ExtractorKind, SKIP_CODES } from './types.js';
import type { StoredEntity } from '../../domain/catalogue/entity.js';
import { buildRecords, OssRecord, ossToStored, type RecordSource } from './records.js';
import { compileAcceptor } from '../../store/zod-acceptor.js';

export const OSS_SCHEMA_ID = 'oss_components/v1';
export const OSS_DATA_FILE = path.join('oss', 'oss_components.json');

export const OssSource = z
  .object({
    id: z.string(),
    name: z.string(),
    robot: z.string(),
    license: z.string().describe('SPDX identifier of the source file, from shared/robots/README.md'),
    license_note: z.string().nullable(),
    dof: z.number().int().nullable().describe('URDF sources: actuated DOF counted in the file (revolute + prismatic + continuous joints without <mimic>; see dof_detail); null for BOM files'),
    dof_detail: DofSummary.nullable().describe('URDF sources: the DOF with its convention, mimic joints, floating and planar joints apart; null for BOM files'),
    type: z.string().nullable().describe('Robot type as stated for the project (humanoid, quadruped, arm); null when not stated'),
    repo: z.string(),
    path: z.string().describe('Path of the file in its repository'),
    commit: z.string(),
    url: z.string(),
    file: z.string().describe('Local copy the import read (under ../shared/robots/); not shipped'),
    sha256: z.string().describe('sha256 of the file bytes read'),
    encoding: z.string(),
    extractor: z.enum(EXTRACTOR_KINDS),
    robot_name: z.string().nullable().describe('URDF <robot name>'),
    records: z.number().int(),
    joints_by_type: z.record(z.string(), z.number().int()).nullable(),
    mentions: z.array(UrdfMention).nullable().describe('URDF sources: mesh files and materials drawn by each link (names as written), for where-used; null for BOM files'),
    kinematics: UrdfKinematics.nullable(),
    skipped: z.number().int(),
    skipped_by_code: z.record(z.string(), z.number().int()),
    read_at: z.string().optional().describe('Live layer (sources refresh): when this file was last read at `commit`; absent in the shipped layer'),
  })
  .strict();
export type OssSource = z.infer<typeof OssSource>;

export const OssMeta = z
  .object({
    name: z.string(),
    description: z.string(),
    schema: z.literal(OSS_SCHEMA_ID),
    generated_at: z.string(),
    last_updated: z.string(),
    total_entities: z.number().int(),
    robots: z.number().int(),
    sources: z.array(OssSource),
    schema_note: z.string(),
    live: z.boolean(),
    seed_entities: z.number().int(),
    live_entities: z.number().int(),
    live_stats: z
      .object({
        sources_ok: z.number().int(),
        sources_attempted: z.number().int(),
        by_extractor: z.record(z.string(), z.number().int()),
        by_category: z.record(z.string(), z.number().int()),
        failed: z.array(z.object({ id: z.string(), reason: z.string() }).strict()),
      })
      .strict(),
    license: z.string(),
    attribution: z.string(),
    files_copied: z.literal(false),
    gone_entities: z.number().int().optional().describe('Live layer: records no longer produced by their source (kept in the database, left out of data, where-used and counts)'),
    gone: z
      .array(z.object({ id: z.string(), name: z.string(), source_id: z.string(), last_seen: z.string(), gone_since: z.string() }).strict())
      .optional()
      .describe('Live layer: the records no longer produced, most recently gone first (at most 200 listed)'),
  })
  .strict();

export const OssDocument = z.object({ meta: OssMeta, data: z.array(OssRecord) }).strict();
export type OssDocument = z.infer<typeof OssDocument>;

export class OssImportError extends Error {}

export { parseRobotsReadme, type ReadmeRow } from './robots-readme.js';

const TIMESTAMP_KEYS = new Set(['generated_at', 'last_updated', 'first_seen', 'last_seen']);

/** The document without its timestamps, for "did anything change" comparisons. */
export function contentKey(doc: OssDocument): string {
  return JSON.stringify(doc, (k, v) => (TIMESTAMP_KEYS.has(k) ? undefined : v));
}

export function serialiseOss(doc: OssDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export interface ImportOptions {
  /** The dataset committed before: timestamps carry over from it. */
  previous?: OssDocument | null;
  /** ISO 8601 UTC time used when the content changed (default: SOURCE_DATE_EPOCH, else now). */
  now?: string;
}

export function defaultNow(env: NodeJS.ProcessEnv = process.env): string {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).toISOString();
  return new Date().toISOString();
}

/** Where the shipped sources file is (data/oss/sources.json), from src/ingest/oss or dist/ingest/oss. */
export const SHIPPED_SOURCES_FILE = fileURLToPath(new URL('../../../data/oss/sources.json', import.meta.url));

/** Builds the dataset from the robot files; throws OssImportError when the README or a file cannot be read. */
export async function importOss(robotsDir: string, opts: ImportOptions & { sources?: SourcesFile } = {}): Promise<OssDocument> {
  const sources = opts.sources ?? readSourcesFile(SHIPPED_SOURCES_FILE);
  let fetcher: ReturnType<typeof mirrorFetcher>;
  try {
    fetcher = mirrorFetcher(robotsDir);
  } catch (e) {
    throw new OssImportError((e as Error).message);
  }
  const PENDING = '1970-01-01T00:00:00.000Z';
  const extracted: ExtractedSource[] = [];
  const failed: { id: string; reason: string }[] = [];
  for (const s of sources.sources) {
    try {
      extracted.push(extractSource(s, await fetcher(s), PENDING, (i) => fetcher.localFile(s, i)));
    } catch (e) {
      failed.push({ id: s.id, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  // Parsing validates every record and puts keys in schema order, whatever the construction order.
  return withTimestamps(OssDocument.parse(layerDocument(extracted, sources.sources.length, failed)), opts);
}

/** What one source gave: its files (meta.sources entries) and records, timestamps left to the caller. */
export interface ExtractedSource {
  id: string;
  files: OssSource[];
  records: OssRecord[];
  /** What decoding the files found (UTF-16, an unknown declared encoding, bytes replaced), one line each, for the operator. */
  notes?: string[];
}

/**
 * Runs the extractors on one fetched source. Every file must read (a file that fails fails the
 * source, so a refresh keeps its earlier records). `localFile` names the copy read when it is not
 * the repository path (the mirror).
 */
export function extractSource(s: SourceSpec, fetched: FetchedSource, seenAt: string, localFile?: (index: number) => string): ExtractedSource {
  const files: OssSource[] = [];
  const records: OssRecord[] = [];
  const notes: string[] = [];
  s.files.forEach((f, i) => {
    const id = fileSourceId(s, i);
    const repoPath = specPath(f);
    const bytes = fetched.files.get(repoPath);
    if (!bytes) throw new OssImportError(`${repoPath} was not read from ${s.repo}`);
    const decoded = decodeText(bytes);
    for (const n of decoded.notes) notes.push(`${repoPath}: ${n.message}`);
    const kind: ExtractorKind = f.extractor === 'readme' ? 'bom_md' : f.extractor === 'xacro' ? 'urdf' : f.extractor;
    let result: ExtractionResult;
    try {
      if (f.extractor === 'xacro') {
        const texts = [...fetched.files].map(([p, b]) => ({ path: p, content: decodeText(b).text }));
        result = extractRobotParts({ files: texts, entry: f.entry, args: f.args });
      } else {
        result = extract(decoded.text, kind, repoPath);
      }
    } catch (e) {
      throw new OssImportError(`${repoPath}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const url = fileUrlOf(s.repo, fetched.commit, repoPath);
    const src: RecordSource = { id, name: s.name, robot: s.robot, type: s.type ?? null, license: s.license, repo_url: s.repo, file_url: url };
    const built = buildRecords(result.records, result.robot_name, src, seenAt);
    records.push(...built);
    const byCode: Record<string, number> = {};
    for (const code of SKIP_CODES) {
      const n = result.skipped.filter((k) => k.code === code).length;
      if (n > 0) byCode[code] = n;
    }
    const plainUrdf = f.extractor === 'urdf';
    files.push({
      id,
      name: s.name,
      robot: s.robot,
      license: s.license,
      license_note: s.license_note ?? null,
      dof: kind === 'urdf' ? (result.counts.dof ?? 0) : null,
      dof_detail: result.counts.dof_detail ?? null,
      type: s.type ?? null,
      repo: s.repo,
      path: repoPath,
      commit: fetched.commit,
      url,
      file: localFile ? localFile(i) : repoPath,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      encoding: decoded.encoding,
      extractor: kind,
      robot_name: result.robot_name,
      records: built.length,
      joints_by_type: result.counts.joints_by_type ?? null,
      mentions: plainUrdf ? urdfMentions(decoded.text) : null,
      kinematics: plainUrdf ? urdfKinematics(decoded.text) : null,
      skipped: result.counts.skipped,
      skipped_by_code: byCode,
    });
  });
  return { id: s.id, files, records, ...(notes.length > 0 ? { notes } : {}) };
}

/** The layer document of extracted sources (records in source order, then file order); timestamps as the records carry them. */
export function layerDocument(extracted: readonly ExtractedSource[], attempted: number, failed: { id: string; reason: string }[], seenAt = '1970-01-01T00:00:00.000Z'): OssDocument {
  const sources = extracted.flatMap((e) => e.files);
  const data = extracted.flatMap((e) => e.records);
  const ids = new Set<string>();
  for (const r of data) {
    if (ids.has(r.id)) throw new OssImportError(`id collision: ${r.id}`);
    ids.add(r.id);
  }
  const count = (key: (r: OssRecord) => string) => {
    const out: Record<string, number> = {};
    for (const r of data) out[key(r)] = (out[key(r)] ?? 0) + 1;
    return out;
  };
  const licenses = [...new Set(sources.map((s) => s.license))];
  return {
    meta: {
      name: 'Open-source robot compatibility layer',
      description:
        'Joints from URDF robot descriptions and lines from bill-of-materials files of public open-source robot projects, extracted by this project\'s extractors (urdf, bom_md, bom_csv). Values are as written in the source files, each record with its source file, commit and licence.',
      schema: OSS_SCHEMA_ID,
      generated_at: seenAt,
      last_updated: seenAt,
      total_entities: data.length,
      robots: new Set(sources.map((s) => s.robot)).size,
      sources,
      schema_note:
        'Records carry the catalogue entity\'s free fields (id, name, category, type, ... as get_part returns them; no paid fields exist for them) plus the live-record fields (ros_ecosystem_origin, joint_name, joint_type, confidence, extractor, source_url, source_repo, live, first_seen, last_seen), source_id, and `extracted`: the extractor output with values as written. ' +
        'Categories: urdf_joints (type urdf_joint_<joint type>) and bom_items (type bom_item). Prices are never converted; an amount has a currency only when the source names exactly one.',
      live: true,
      seed_entities: 0,
      live_entities: data.length,
      live_stats: {
        sources_ok: extracted.length,
        sources_attempted: attempted,
        by_extractor: Object.fromEntries(EXTRACTOR_KINDS.map((k) => [k, data.filter((r) => r.extractor === k).length])),
        by_category: count((r) => r.category),
        failed,
      },
      license: `Per source file (${licenses.join(', ')}): see sources[].license and each record's source_license.`,
      attribution: sources.map((s) => `${s.repo.replace('https://github.com/', '')} (${s.path} @ ${s.commit.slice(0, 7)}, ${s.license})`).join('; '),
      files_copied: false,
    },
    data,
  };
}

function withTimestamps(doc: OssDocument, opts: ImportOptions): OssDocument {
  const prev = opts.previous ?? null;
  if (prev && contentKey(prev) === contentKey(doc)) {
    const seen = new Map(prev.data.map((r) => [r.id, r]));
    doc.meta.generated_at = prev.meta.generated_at;
    doc.meta.last_updated = prev.meta.last_updated;
    for (const r of doc.data) {
      r.first_seen = seen.get(r.id)!.first_seen;
      r.last_seen = seen.get(r.id)!.last_seen;
    }
    return doc;
  }
  const now = opts.now ?? defaultNow();
  const first = new Map((prev?.data ?? []).map((r) => [r.id, r.first_seen]));
  doc.meta.generated_at = now;
  doc.meta.last_updated = now;
  for (const r of doc.data) {
    r.first_seen = first.get(r.id) ?? now;
    r.last_seen = now;
  }
  return doc;
}

/** True for a document zod would give back unchanged (src/store/zod-acceptor.ts), as catalogue-data.ts's acceptRecord; null: zod decides. */
const acceptDocument = compileAcceptor(OssDocument);

/**
 * The committed dataset, or null when absent; throws when present but not a valid document. A
 * document the fast acceptor takes is kept as JSON.parse made it: zod's parse (and copy) of the
 * shipped one cost ~0.1 s of every start, most of it compiling zod's checks on first use.
 */
export function readOssDocument(dataDir: string): OssDocument | null {
  const file = path.join(dataDir, OSS_DATA_FILE);
  if (!fs.existsSync(file)) return null;
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  return acceptDocument?.(raw) ? (raw as OssDocument) : OssDocument.parse(raw);
}

/**
 * The layer's records as catalogue-shaped StoredEntity values (ossToStored), for lookups by id;
 * [] when the dataset file is absent. Throws, naming the file, when it is present but invalid.
 */
export function readOssEntities(dataDir: string): StoredEntity[] {
  return readOssLayer(dataDir).entities;
}

/** The dataset and its records as StoredEntity values; { doc: null, entities: [] } when absent; throws, naming the file, when invalid. */
export function readOssLayer(dataDir: string): { doc: OssDocument | null; entities: StoredEntity[] } {
  let doc: OssDocument | null;
  try {
    doc = readOssDocument(dataDir);
  } catch (err) {
    const why = err instanceof z.ZodError ? err.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : err instanceof Error ? err.message : String(err);
    throw new Error(`data/${OSS_DATA_FILE.split(path.sep).join('/')} is invalid: ${why}`);
  }
  return { doc, entities: doc ? doc.data.map(ossToStored) : [] };
}

export function writeOssDocument(doc: OssDocument, dataDir: string): string {
  const file = path.join(dataDir, OSS_DATA_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, serialiseOss(doc));
  return file;
}

/** Human-readable differences between two datasets (ids added, removed, changed; meta). */
export function diffOss(fresh: OssDocument, committed: OssDocument | null): string[] {
  if (!committed) return ['no committed dataset'];
  const out: string[] = [];
  const a = new Map(committed.data.map((r) => [r.id, JSON.stringify(r)]));
  const b = new Map(fresh.data.map((r) => [r.id, JSON.stringify(r)]));
  const added = [...b.keys()].filter((k) => !a.has(k));
  const removed = [...a.keys()].filter((k) => !b.has(k));
  const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k));
  if (added.length) out.push(`${added.length} record(s) added: ${added.slice(0, 5).join(', ')}${added.length > 5 ? ', …' : ''}`);
  if (removed.length) out.push(`${removed.length} record(s) removed: ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', …' : ''}`);
  if (changed.length) out.push(`${changed.length} record(s) changed: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}`);
  if (JSON.stringify(fresh.meta) !== JSON.stringify(committed.meta)) out.push('meta differs');
  if (out.length === 0 && serialiseOss(fresh) !== serialiseOss(committed)) out.push('formatting or order differs');
  return out;
}
