/**
 * Reading the RoboParts snapshot: api/entities.json and the provenance row that names the
 * upstream commit it was copied from. The file must match the size and sha256 prefix recorded in
 * PROVENANCE.md, otherwise the commit written into our meta would be a false claim.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SNAPSHOT_FILE = 'api/entities.json';

export interface Snapshot {
  dir: string;
  /** Upstream commit of api/entities.json, from PROVENANCE.md. */
  commit: string;
  sha256: string;
  bytes: number;
  /** The snapshot's own meta.updated (ISO 8601). */
  updated: string;
  /** meta.categories, in upstream order. */
  categories: string[];
  /** meta.total as declared upstream, when present. */
  declared_total: number | null;
  records: unknown[];
}

export class SnapshotError extends Error {}

interface ProvenanceRow {
  commit: string;
  bytes: number | null;
  sha16: string | null;
}

export function readProvenanceRow(markdown: string, file: string): ProvenanceRow {
  for (const line of markdown.split(/\r?\n/)) {
    const cells = line.split('|').map((c) => c.trim());
    // "| file | commit | bytes | sha256 (first 16) | use |" -> ['', file, commit, bytes, sha, use, '']
    if (cells.length < 5 || cells[1] !== file) continue;
    const commit = cells[2] ?? '';
    if (!/^[0-9a-f]{40}$/.test(commit)) throw new SnapshotError(`PROVENANCE.md: row for ${file} has no 40-hex commit`);
    const bytes = /^\d+$/.test(cells[3] ?? '') ? Number(cells[3]) : null;
    const sha16 = /^[0-9a-f]{16}$/.test(cells[4] ?? '') ? (cells[4] as string) : null;
    return { commit, bytes, sha16 };
  }
  throw new SnapshotError(`PROVENANCE.md: no row for ${file}`);
}

export const MECHANICAL_FILE = 'api/mechanical_interfaces.json';

/** One entry of the source's designations_in_use: a written flange token and the records using it. */
export interface FlangeTokenInUse {
  token: string;
  used_by: string[];
}

/**
 * designations_in_use of api/mechanical_interfaces.json (checked against PROVENANCE.md like the
 * catalogue file). Absent file -> null (the import then reads flanges from the records only).
 */
export function readFlangeTokensInUse(dir: string): { commit: string; entries: FlangeTokenInUse[] } | null {
  const file = path.join(dir, MECHANICAL_FILE);
  if (!fs.existsSync(file)) return null;
  const buf = fs.readFileSync(file);
  const sha256 = createHash('sha256').update(buf).digest('hex');
  const row = readProvenanceRow(fs.readFileSync(path.join(dir, 'PROVENANCE.md'), 'utf8'), MECHANICAL_FILE);
  if ((row.bytes !== null && row.bytes !== buf.length) || (row.sha16 !== null && !sha256.startsWith(row.sha16))) {
    throw new SnapshotError(`${MECHANICAL_FILE} differs from the copy PROVENANCE.md records`);
  }
  const doc = JSON.parse(buf.toString('utf8')) as { designations_in_use?: { entries?: unknown } };
  const raw = doc.designations_in_use?.entries;
  if (!Array.isArray(raw)) throw new SnapshotError(`${MECHANICAL_FILE}: designations_in_use.entries is not an array`);
  const entries = raw.flatMap((e): FlangeTokenInUse[] => {
    const m = e as { token_as_written?: unknown; used_by_entity_ids?: unknown };
    if (typeof m.token_as_written !== 'string' || !Array.isArray(m.used_by_entity_ids)) return [];
    return [{ token: m.token_as_written, used_by: m.used_by_entity_ids.filter((x): x is string => typeof x === 'string') }];
  });
  return { commit: row.commit, entries };
}

export function readSnapshot(dir: string): Snapshot {
  const file = path.join(dir, SNAPSHOT_FILE);
  const prov = path.join(dir, 'PROVENANCE.md');
  if (!fs.existsSync(file)) throw new SnapshotError(`snapshot file not found: ${file}`);
  if (!fs.existsSync(prov)) throw new SnapshotError(`PROVENANCE.md not found in ${dir}`);
  const buf = fs.readFileSync(file);
  const sha256 = createHash('sha256').update(buf).digest('hex');
  const row = readProvenanceRow(fs.readFileSync(prov, 'utf8'), SNAPSHOT_FILE);
  if (row.bytes !== null && row.bytes !== buf.length) {
    throw new SnapshotError(`${SNAPSHOT_FILE} is ${buf.length} bytes, PROVENANCE.md records ${row.bytes}: the file is not the recorded snapshot`);
  }
  if (row.sha16 !== null && !sha256.startsWith(row.sha16)) {
    throw new SnapshotError(`${SNAPSHOT_FILE} sha256 ${sha256.slice(0, 16)} differs from PROVENANCE.md ${row.sha16}: the file is not the recorded snapshot`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(buf.toString('utf8'));
  } catch (e) {
    throw new SnapshotError(`${SNAPSHOT_FILE} is not valid JSON: ${(e as Error).message}`);
  }
  const root = doc as { meta?: Record<string, unknown>; entities?: unknown };
  if (!root || typeof root !== 'object' || !Array.isArray(root.entities)) throw new SnapshotError(`${SNAPSHOT_FILE} has no entities array`);
  const meta = root.meta ?? {};
  const updatedRaw = meta.updated;
  const updatedMs = typeof updatedRaw === 'string' ? Date.parse(updatedRaw) : Number.NaN;
  if (Number.isNaN(updatedMs)) throw new SnapshotError(`${SNAPSHOT_FILE}: meta.updated is missing or not a date`);
  const categories = Array.isArray(meta.categories) ? meta.categories.filter((c): c is string => typeof c === 'string') : [];
  return {
    dir,
    commit: row.commit,
    sha256,
    bytes: buf.length,
    updated: new Date(updatedMs).toISOString(),
    categories,
    declared_total: typeof meta.total === 'number' ? meta.total : null,
    records: root.entities,
  };
}
