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
import { decodeText } from './decode.js';
import { extract } from './index.js';
import { cleanCell, markdownTables } from './table.js';
import { UrdfMention, urdfMentions } from './mentions.js';
import { UrdfKinematics, urdfKinematics } from './kinematics.js';
import { DofSummary, EXTRACTOR_KINDS, type ExtractorKind, SKIP_CODES } from './types.js';
import type { StoredEntity } from '../../domain/catalogue/entity.js';
import { buildRecords, OssRecord, ossToStored, type RecordSource } from './records.js';
import { compileAcceptor } from '../../store/zod-acceptor.js';

export const OSS_SCHEMA_ID = 'oss_components/v1';
export const OSS_DATA_FILE = path.join('oss', 'oss_components.json');

/** The files the layer is built from: our ids and labels; every other fact comes from the README or the file. */
export const OSS_SOURCES: readonly { id: string; file: string; kind: ExtractorKind; name: string; robot: string }[] = [
  { id: 'UNITREE_GO2', file: 'urdf/unitree_go2_description.urdf', kind: 'urdf', name: 'Unitree Go2 description URDF', robot: 'Unitree Go2' },
  { id: 'ROBOTO_ORIGIN_ATOM01', file: 'urdf/roboto_origin_atom01.urdf', kind: 'urdf', name: 'roboto_origin Atom01 URDF', robot: 'roboto_origin Atom01' },
  { id: 'SO101', file: 'urdf/so101_new_calib.urdf', kind: 'urdf', name: 'SO-101 URDF', robot: 'SO-ARM100 / SO-101' },
  { id: 'ROBOTO_ORIGIN_BOM', file: 'bom/roboto_origin_BOM_EN.md', kind: 'bom_md', name: 'roboto_origin Atom01 BOM (English)', robot: 'roboto_origin Atom01' },
  { id: 'SO_ARM100_BOM', file: 'bom/so_arm100_README_bom.md', kind: 'bom_md', name: 'SO-ARM100 README BOM tables', robot: 'SO-ARM100 / SO-101' },
  { id: 'OPENARM_HUB_BOM', file: 'bom/openarm_bom-for-hub.utf16.csv', kind: 'bom_csv', name: 'OpenArm electrical hub BOM', robot: 'OpenArm' },
  { id: 'BERKELEY_HUMANOID_LITE', file: 'urdf/berkeley_humanoid_lite.urdf', kind: 'urdf', name: 'Berkeley Humanoid Lite URDF', robot: 'Berkeley Humanoid Lite' },
  { id: 'TIENKUNG_LITE', file: 'urdf/tienkung_lite_humanoid_publish.urdf', kind: 'urdf', name: 'TienKung Lite URDF', robot: 'TienKung Lite' },
  { id: 'OPEN_DUCK_MINI_V2', file: 'urdf/open_duck_mini_v2_robot.urdf', kind: 'urdf', name: 'Open Duck Mini v2 URDF', robot: 'Open Duck Mini v2' },
  { id: 'LEKIWI_BOM', file: 'bom/lekiwi_BOM.md', kind: 'bom_md', name: 'LeKiwi BOM', robot: 'LeKiwi' },
  { id: 'KOCH_BOM', file: 'bom/koch_low_cost_robot_README.md', kind: 'bom_md', name: 'Koch low-cost robot README BOM tables', robot: 'Koch low-cost robot arm' },
  { id: 'ODRI_ACTUATOR_BOM', file: 'bom/odri_actuator_module_v1_README.md', kind: 'bom_md', name: 'ODRI actuator module v1 README BOM tables', robot: 'ODRI actuator module v1' },
];

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
  })
  .strict();

export const OssDocument = z.object({ meta: OssMeta, data: z.array(OssRecord) }).strict();
export type OssDocument = z.infer<typeof OssDocument>;

export class OssImportError extends Error {}

export interface ReadmeRow {
  file: string;
  repo: string;
  path: string;
  commit: string;
  license: string;
  license_note: string | null;
  type: string | null;
}

const ROBOT_TYPES = new Set(['humanoid', 'quadruped', 'arm', 'hexapod', 'biped', 'hand', 'mobile manipulator']);

/** The file table of shared/robots/README.md; a robot type stated for one file of a project holds for the project. */
export function parseRobotsReadme(text: string): ReadmeRow[] {
  const tables = markdownTables(text).filter((t) => t.header.map((h) => cleanCell(h).text.toLowerCase()).includes('file'));
  if (tables.length === 0) throw new OssImportError('README.md has no file table');
  const rows = tables.flatMap(readmeTableRows);
  for (const r of rows) {
    if (r.type === null) r.type = rows.find((o) => o.repo === r.repo && o.type !== null)?.type ?? null;
  }
  return rows;
}

/** One file table of the README (every table with a "file" column has the same columns). */
function readmeTableRows(table: ReturnType<typeof markdownTables>[number]): ReadmeRow[] {
  const header = table.header.map((h) => cleanCell(h).text.toLowerCase());
  const col = (name: string) => {
    const i = header.findIndex((h) => h === name || h.startsWith(name));
    if (i < 0) throw new OssImportError(`README.md file table has no "${name}" column`);
    return i;
  };
  const [cFile, cProject, cPath, cCommit, cLicence, cHolds] = ['file', 'project', 'path', 'commit', 'licen', 'what it holds'].map(col);
  return table.rows.map((r) => {
    const cell = (i: number) => cleanCell(r.cells[i] ?? '').text;
    const lic = /^([A-Za-z0-9.+-]+)\s*(?:\((.*)\))?\s*$/.exec(cell(cLicence));
    if (!lic) throw new OssImportError(`README.md line ${r.line}: licence "${cell(cLicence)}" does not start with an SPDX identifier`);
    const holds = /^([a-z ]+):/.exec(cell(cHolds));
    return {
      file: cell(cFile),
      repo: cell(cProject),
      path: cell(cPath),
      commit: cell(cCommit),
      license: lic[1],
      license_note: lic[2]?.trim() || null,
      type: holds && ROBOT_TYPES.has(holds[1]) ? holds[1] : null,
    };
  });
}

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

/** Builds the dataset from the robot files; throws OssImportError when the README or a file cannot be read. */
export function importOss(robotsDir: string, opts: ImportOptions = {}): OssDocument {
  const readmePath = path.join(robotsDir, 'README.md');
  if (!fs.existsSync(readmePath)) throw new OssImportError(`${readmePath} not found`);
  const readme = parseRobotsReadme(fs.readFileSync(readmePath, 'utf8'));
  const PENDING = '1970-01-01T00:00:00.000Z';
  const sources: OssSource[] = [];
  const data: OssRecord[] = [];
  const failed: { id: string; reason: string }[] = [];
  for (const s of OSS_SOURCES) {
    const row = readme.find((r) => r.file === s.file);
    if (!row) {
      failed.push({ id: s.id, reason: `${s.file} is not listed in README.md` });
      continue;
    }
    const file = path.join(robotsDir, s.file);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (e) {
      failed.push({ id: s.id, reason: `${s.file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}` });
      continue;
    }
    const decoded = decodeText(bytes);
    const result = extract(decoded.text, s.kind, s.file);
    const repoUrl = `https://github.com/${row.repo}`;
    const fileUrl = `${repoUrl}/blob/${row.commit}/${row.path}`;
    const src: RecordSource = { id: s.id, name: s.name, robot: s.robot, type: row.type, license: row.license, repo_url: repoUrl, file_url: fileUrl };
    const records = buildRecords(result.records, result.robot_name, src, PENDING);
    data.push(...records);
    const byCode: Record<string, number> = {};
    for (const code of SKIP_CODES) {
      const n = result.skipped.filter((k) => k.code === code).length;
      if (n > 0) byCode[code] = n;
    }
    sources.push({
      id: s.id,
      name: s.name,
      robot: s.robot,
      license: row.license,
      license_note: row.license_note,
      dof: s.kind === 'urdf' ? (result.counts.dof ?? 0) : null,
      dof_detail: result.counts.dof_detail ?? null,
      type: row.type,
      repo: repoUrl,
      path: row.path,
      commit: row.commit,
      url: fileUrl,
      file: s.file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      encoding: decoded.encoding,
      extractor: s.kind,
      robot_name: result.robot_name,
      records: records.length,
      joints_by_type: result.counts.joints_by_type ?? null,
      mentions: s.kind === 'urdf' ? urdfMentions(decoded.text) : null,
      kinematics: s.kind === 'urdf' ? urdfKinematics(decoded.text) : null,
      skipped: result.counts.skipped,
      skipped_by_code: byCode,
    });
  }
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
  const doc: OssDocument = {
    meta: {
      name: 'Open-source robot compatibility layer',
      description:
        'Joints from URDF robot descriptions and lines from bill-of-materials files of public open-source robot projects, extracted by this project\'s extractors (urdf, bom_md, bom_csv). Values are as written in the source files, each record with its source file, commit and licence.',
      schema: OSS_SCHEMA_ID,
      generated_at: PENDING,
      last_updated: PENDING,
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
        sources_ok: sources.length,
        sources_attempted: OSS_SOURCES.length,
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
  // Parsing validates every record and puts keys in schema order, whatever the construction order.
  return withTimestamps(OssDocument.parse(doc), opts);
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
