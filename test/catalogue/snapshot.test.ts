/**
 * Against the real snapshot (../shared/reference/roboparts; present here and in CI; the suite is
 * skipped only when it is absent): counts reconcile, no upstream prose reached data/, a re-import
 * is byte-identical, the check mode fails on drift, a foreign snapshot file is refused.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE_FILES, diffCatalogue, importCatalogue, writeCatalogue } from '../../src/ingest/catalogue/import.js';
import { readSnapshot, SnapshotError } from '../../src/ingest/catalogue/snapshot.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SNAPSHOT = path.resolve(ROOT, '../shared/reference/roboparts');
const DATA = path.join(ROOT, 'data');
const present = fs.existsSync(path.join(SNAPSHOT, 'api/entities.json'));
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

const tmpDirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-test-'));
  tmpDirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

function runScript(args: string[]) {
  return spawnSync(TSX, ['scripts/import-catalogue.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? listFiles(p) : [p];
  });
}

describe.skipIf(!present)('import against the snapshot', () => {
  const result = present ? importCatalogue(SNAPSHOT) : (null as never);
  const snapshotRecords = present ? (JSON.parse(fs.readFileSync(path.join(SNAPSHOT, 'api/entities.json'), 'utf8')).entities as Record<string, unknown>[]) : [];

  it('every snapshot record is imported or listed as dropped; counts reconcile exactly', () => {
    expect(snapshotRecords).toHaveLength(798);
    expect(result.meta.counts.snapshot_records).toBe(798);
    expect(result.entities.length + result.dropped.length).toBe(798);
    expect(result.dropped).toEqual([]);
    // Upstream ids, with the one rename, are exactly the output ids.
    const renamed = new Map(result.renames.map((r) => [r.upstream_id, r.new_id]));
    const expected = snapshotRecords.map((r) => renamed.get(r.id as string) ?? (r.id as string)).sort();
    expect(result.entities.map((e) => e.id).sort()).toEqual(expected);
    expect(result.renames).toEqual([{ upstream_id: 'act-agility-digit-v2', new_id: 'RP-ACT-0083', kept_id: 'ACT-agility-digit-v2' }]);
    // Category counts equal the snapshot's own.
    const snapCounts: Record<string, number> = {};
    for (const r of snapshotRecords) snapCounts[r.category as string] = (snapCounts[r.category as string] ?? 0) + 1;
    expect(result.meta.counts.by_category).toEqual(snapCounts);
    // Upstream's 99 quarantined are all quarantined here, plus our own additions.
    const upstreamQ = snapshotRecords.filter((r) => r.quarantine === true).length;
    expect(upstreamQ).toBe(99);
    expect(result.meta.counts.quarantined).toBe(99 + 2 /* upstream_audit_reason */ + 1 /* id_collision */ + 0);
    expect(result.meta.counts.quarantined_by_reason).toEqual({
      placeholder_id: 51,
      unverifiable_vendor: 30,
      duplicate: 6,
      non_entity: 14,
      upstream_audit_reason: 2,
      id_collision: 1,
    });
  });

  it('the report states the reconciliation and the dropped list', () => {
    expect(result.report).toContain('| records in the snapshot | 798 |');
    expect(result.report).toContain('798 + 0 = 798');
    expect(result.report).toContain('## Dropped records');
    expect(result.report).toContain('| torque | 78 | 71 | 7 | 0 | 0 |');
  });

  it('no upstream prose reached data/', () => {
    const prose = new Set<string>();
    const collect = (v: unknown): void => {
      if (typeof v === 'string') {
        // A bare URL is a fact, not prose.
        if (v.trim().length > 20 && !/^https?:\/\/\S+$/.test(v.trim())) prose.add(v.trim());
      } else if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object') Object.values(v).forEach(collect);
    };
    const PROSE_FIELDS = ['description', 'description_en', 'features', 'pros', 'cons', 'notes', 'note', 'verification_note', 'tier_upgrade_reason', 'tier_cap_reason', 'quarantine_reason', 'material_note', 'composition_note', 'mates_with_note', 'team_background'];
    for (const r of snapshotRecords) {
      for (const f of PROSE_FIELDS) collect(r[f]);
      const mi = r.mechanical_interface as Record<string, unknown> | undefined;
      if (mi) for (const f of ['declared_note', 'gap', 'reason']) collect(mi[f]);
    }
    // Blocks addressed to AI assistants and marketing blurbs anywhere in the snapshot's api files.
    const walkKeys = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walkKeys);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (['for_ai_assistants', 'access', 'note', 'description', 'rationale', 'neutrality'].includes(k)) collect(x);
          walkKeys(x);
        }
      }
    };
    for (const f of fs.readdirSync(path.join(SNAPSHOT, 'api'))) walkKeys(JSON.parse(fs.readFileSync(path.join(SNAPSHOT, 'api', f), 'utf8')));
    expect(prose.size).toBeGreaterThan(600);

    const files = listFiles(DATA).filter((f) => /\.(json|md|csv|txt)$/.test(f));
    expect(files.map((f) => path.relative(DATA, f))).toEqual(expect.arrayContaining(['README.md', 'catalogue/entities.json', 'catalogue/REPORT.md', 'catalogue/categories.json']));
    const leaks: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      // JSON escapes quotes and backslashes; compare against both raw and JSON-escaped forms.
      for (const p of prose) if (text.includes(p) || text.includes(JSON.stringify(p).slice(1, -1))) leaks.push(`${path.relative(DATA, f)}: ${p.slice(0, 60)}`);
    }
    expect(leaks).toEqual([]);
  });

  it('a re-import into a temp dir is byte-identical to the committed files, and repeatable', () => {
    const out = tmp();
    writeCatalogue(result, out);
    for (const name of CATALOGUE_FILES) {
      expect(fs.readFileSync(path.join(out, name), 'utf8'), name).toBe(fs.readFileSync(path.join(DATA, name), 'utf8'));
    }
    const again = importCatalogue(SNAPSHOT);
    expect(again.files).toEqual(result.files);
    expect(result.files['catalogue/entities.json'].endsWith('}\n')).toBe(true);
    expect(result.files['catalogue/entities.json']).toContain('\n  "meta": {\n    "dataset_version"');
    expect(diffCatalogue(result, DATA)).toEqual([]);
  });

  it('data:check passes on the committed data and fails with a summary on drift', () => {
    const ok = runScript(['--check']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('matches a fresh import (798 records');

    const out = tmp();
    writeCatalogue(result, out);
    const f = path.join(out, 'catalogue/entities.json');
    const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
    doc.entities.find((e: { id: string }) => e.id === 'ACT-001').name = 'edited by hand';
    doc.entities = doc.entities.filter((e: { id: string }) => e.id !== 'CHIP-81');
    fs.writeFileSync(f, JSON.stringify(doc, null, 2) + '\n');
    fs.appendFileSync(path.join(out, 'catalogue/REPORT.md'), 'extra line\n');
    const bad = runScript(['--check', '--out', out]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('catalogue/entities.json: 1 record(s) only in a fresh import: CHIP-81');
    expect(bad.stderr).toContain('catalogue/entities.json: 1 record(s) differ: ACT-001');
    expect(bad.stderr).toContain('catalogue/REPORT.md: differs from a fresh import');
    expect(bad.stderr).not.toContain('categories.json');

    const empty = runScript(['--check', '--out', tmp()]);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('catalogue/entities.json: missing');
  });

  it('data:import writes the files and prints the report', () => {
    const out = tmp();
    const r = runScript([SNAPSHOT, '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('# Catalogue import report');
    expect(r.stdout).toContain('798 records (102 quarantined), 0 dropped');
    expect(fs.readFileSync(path.join(out, 'catalogue/REPORT.md'), 'utf8')).toBe(result.report);
  });

  it('refuses a snapshot file that is not the one PROVENANCE.md records', () => {
    const dir = tmp();
    fs.mkdirSync(path.join(dir, 'api'));
    fs.copyFileSync(path.join(SNAPSHOT, 'PROVENANCE.md'), path.join(dir, 'PROVENANCE.md'));
    const text = fs.readFileSync(path.join(SNAPSHOT, 'api/entities.json'), 'utf8').replace('DYNAMIXEL XM540-W270-T', 'DYNAMIXEL XM540-W270-X');
    fs.writeFileSync(path.join(dir, 'api/entities.json'), text);
    expect(() => readSnapshot(dir)).toThrow(SnapshotError);
    expect(() => readSnapshot(dir)).toThrow(/sha256 .* differs from PROVENANCE\.md 766fd9cc8393307c/);
    const r = runScript([dir, '--out', tmp()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is not the recorded snapshot');
  });
});
