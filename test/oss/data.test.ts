/**
 * data/oss/oss_components.json: equal to a fresh import of ../shared/robots (skipped only when
 * that folder is absent), deterministic, timestamps carried over, facts computed from the files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { contentKey, importOss, OSS_DATA_FILE, OssDocument, parseRobotsReadme, readOssDocument, serialiseOss } from '../../src/ingest/oss/layer.js';
import { OSS_LIVE_ID, ossToStored } from '../../src/ingest/oss/records.js';
import { ROBOTS, robotsPresent, ROOT } from './helpers.js';

const DATA = path.join(ROOT, 'data');
const COMMITTED = path.join(DATA, OSS_DATA_FILE);
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('committed dataset', () => {
  const doc = OssDocument.parse(JSON.parse(fs.readFileSync(COMMITTED, 'utf8')));

  it('is valid, with OSS-LIVE ids, and every record is a catalogue StoredEntity once converted', () => {
    expect(doc.meta.total_entities).toBe(doc.data.length);
    expect(doc.meta.live_entities).toBe(doc.data.length);
    expect(new Set(doc.data.map((r) => r.id)).size).toBe(doc.data.length);
    for (const r of doc.data) {
      expect(r.id).toMatch(OSS_LIVE_ID);
      expect(StoredEntity.safeParse(ossToStored(r)).success).toBe(true);
      expect(r.source_url.startsWith(`${r.source_repo}/blob/`)).toBe(true);
    }
  });

  it('facts per source: joint counts and DOF computed from the files, licences from shared/robots/README.md', () => {
    const s = Object.fromEntries(doc.meta.sources.map((x) => [x.id, x]));
    expect(s.UNITREE_GO2).toMatchObject({ dof: 12, joints_by_type: { revolute: 12, fixed: 29 }, license: 'BSD-3-Clause', type: 'quadruped', records: 41 });
    expect(s.ROBOTO_ORIGIN_ATOM01).toMatchObject({ dof: 23, joints_by_type: { revolute: 23 }, license: 'GPL-3.0', type: 'humanoid', records: 23 });
    expect(s.SO101).toMatchObject({ dof: 6, joints_by_type: { revolute: 6, fixed: 1 }, license: 'Apache-2.0', type: 'arm', records: 7 });
    expect(s.ROBOTO_ORIGIN_BOM).toMatchObject({ dof: null, license: 'GPL-3.0', records: 63, skipped_by_code: { row_summary: 2 } });
    expect(s.SO_ARM100_BOM).toMatchObject({ records: 14, license: 'Apache-2.0' });
    expect(s.OPENARM_HUB_BOM).toMatchObject({ records: 1, encoding: 'utf-16le', license: 'Apache-2.0', type: null });
    expect(s.ROBOTO_ORIGIN_ATOM01.license_note).toContain('no LICENSE file');
    // Second table of shared/robots/README.md: joint counts as that README states them.
    expect(s.BERKELEY_HUMANOID_LITE).toMatchObject({ dof: 22, joints_by_type: { revolute: 22, fixed: 4 }, license: 'CC-BY-SA-4.0', type: 'humanoid', records: 26 });
    expect(s.TIENKUNG_LITE).toMatchObject({ dof: 20, joints_by_type: { revolute: 20, fixed: 1 }, robot_name: 'humanoid', type: 'humanoid', records: 21 });
    expect(s.OPEN_DUCK_MINI_V2).toMatchObject({ dof: 16, joints_by_type: { revolute: 16, fixed: 4 }, robot_name: 'onshape', type: 'biped', records: 20 });
    for (const id of ['BERKELEY_HUMANOID_LITE', 'TIENKUNG_LITE', 'OPEN_DUCK_MINI_V2', 'UNITREE_GO2']) {
      expect(s[id].dof_detail).toMatchObject({ actuated_dof: s[id].dof, mimic: [], floating: { count: 0 }, planar: { count: 0 } });
      expect(s[id].dof_detail!.convention).toContain('without a <mimic> element');
    }
    expect(s.LEKIWI_BOM).toMatchObject({ dof: null, dof_detail: null, license: 'Apache-2.0', records: 33 });
    expect(s.KOCH_BOM).toMatchObject({ license: 'MIT', records: 15 });
    expect(s.ODRI_ACTUATOR_BOM).toMatchObject({ license: 'BSD-3-Clause', records: 30 });
    expect(doc.meta.robots).toBe(10);
    expect(doc.meta.live_stats).toEqual({
      sources_ok: 12,
      sources_attempted: 12,
      by_extractor: { urdf: 138, bom_md: 155, bom_csv: 1 },
      by_category: { urdf_joints: 138, bom_items: 156 },
      failed: [],
    });
    // Every record carries the licence of its own file.
    for (const r of doc.data) expect(r.source_license).toBe(s[r.source_id].license);
  });

  it('records are facts: a joint record and a BOM record', () => {
    const hip = doc.data.find((r) => r.source_id === 'UNITREE_GO2' && r.joint_name === 'FL_hip_joint')!;
    expect(hip).toMatchObject({
      name: 'go2_description FL_hip_joint',
      category: 'urdf_joints',
      type: 'urdf_joint_revolute',
      joint_type: 'revolute',
      ros_ecosystem_origin: true,
      confidence: 'high',
      extractor: 'urdf',
      live: true,
      oss: true,
      voltage: 'N/A',
      weight: 'N/A',
      torque: '',
      applications: ['quadruped'],
    });
    const dm = doc.data.find((r) => r.source_id === 'ROBOTO_ORIGIN_BOM' && r.name === 'DM 10010L')!;
    expect(dm).toMatchObject({ category: 'bom_items', type: 'bom_item', ros_ecosystem_origin: false, extracted: { quantity: 9, part_number: 'ATOM-01-036' } });
    expect(dm.description).toBe('BOM line of roboto_origin Atom01 BOM (English) (ATOM 01 Actuators); quantity 9; unit price 1989 CNY.');
  });
});

describe.skipIf(!robotsPresent)('import from ../shared/robots', () => {
  const previous = readOssDocument(DATA);

  it('the committed file equals a fresh import, byte for byte', async () => {
    const fresh = await importOss(ROBOTS, { previous, now: '2099-01-01T00:00:00.000Z' });
    expect(serialiseOss(fresh)).toBe(fs.readFileSync(COMMITTED, 'utf8'));
  });

  it('is deterministic without a previous dataset, and timestamps only move when content changes', async () => {
    const a = await importOss(ROBOTS, { now: '2030-01-01T00:00:00.000Z' });
    const b = await importOss(ROBOTS, { now: '2030-01-01T00:00:00.000Z' });
    expect(serialiseOss(a)).toBe(serialiseOss(b));
    expect(contentKey(a)).toBe(contentKey(previous!));
    // Same content, later run: the earlier timestamps stay.
    const again = await importOss(ROBOTS, { previous: a, now: '2031-01-01T00:00:00.000Z' });
    expect(serialiseOss(again)).toBe(serialiseOss(a));
    // Changed content: generated_at and last_seen move, first_seen stays for records seen before.
    const edited = structuredClone(a);
    edited.data = edited.data.slice(1);
    edited.data[0].name = 'renamed';
    const next = await importOss(ROBOTS, { previous: edited, now: '2032-01-01T00:00:00.000Z' });
    expect(next.meta.generated_at).toBe('2032-01-01T00:00:00.000Z');
    expect(next.data[0].first_seen).toBe('2032-01-01T00:00:00.000Z');
    expect(next.data[1]).toMatchObject({ first_seen: '2030-01-01T00:00:00.000Z', last_seen: '2032-01-01T00:00:00.000Z' });
  });

  it('takes sources from the README table and fails on a missing file', async () => {
    const rows = parseRobotsReadme(fs.readFileSync(path.join(ROBOTS, 'README.md'), 'utf8'));
    expect(rows.map((r) => [r.file, r.license, r.type])).toEqual([
      ['urdf/unitree_go2_description.urdf', 'BSD-3-Clause', 'quadruped'],
      ['urdf/roboto_origin_atom01.urdf', 'GPL-3.0', 'humanoid'],
      ['urdf/so101_new_calib.urdf', 'Apache-2.0', 'arm'],
      ['bom/roboto_origin_BOM_EN.md', 'GPL-3.0', 'humanoid'],
      ['bom/so_arm100_README_bom.md', 'Apache-2.0', 'arm'],
      ['bom/openarm_bom-for-hub.utf16.csv', 'Apache-2.0', null],
      ['urdf/berkeley_humanoid_lite.urdf', 'CC-BY-SA-4.0', 'humanoid'],
      ['urdf/tienkung_lite_humanoid_publish.urdf', 'LicenseRef-OpenAtom-OHL-1.0', 'humanoid'],
      ['urdf/open_duck_mini_v2_robot.urdf', 'Apache-2.0', 'biped'],
      ['bom/lekiwi_BOM.md', 'Apache-2.0', null],
      ['bom/koch_low_cost_robot_README.md', 'MIT', null],
      ['bom/odri_actuator_module_v1_README.md', 'BSD-3-Clause', null],
    ]);
    const partial = fs.mkdtempSync(path.join(os.tmpdir(), 'oss-robots-'));
    tmpDirs.push(partial);
    fs.copyFileSync(path.join(ROBOTS, 'README.md'), path.join(partial, 'README.md'));
    const doc = await importOss(partial, { now: '2030-01-01T00:00:00.000Z' });
    expect(doc.meta.live_stats.sources_ok).toBe(0);
    expect(doc.meta.live_stats.failed[0]).toEqual({ id: 'UNITREE_GO2', reason: 'urdf/unitree_go2_description.urdf: ENOENT' });
  });

  it('carries no upstream prose from the README it read', () => {
    const text = fs.readFileSync(COMMITTED, 'utf8');
    expect(text).not.toContain('The follower and leader arm for this teleoperation setup');
    expect(text).not.toContain('You do not need to use this exact screwdriver set');
    expect(text).not.toContain('SolidWorks to URDF Exporter');
  });

  it('npm run data:oss -- --check: 0 on the committed data, 1 with a summary on drift', () => {
    const ok = spawnSync(TSX, ['scripts/import-oss.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('matches a fresh import (294 records from 12 files)');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'oss-data-'));
    tmpDirs.push(out);
    fs.mkdirSync(path.join(out, 'oss'));
    const drift = OssDocument.parse(JSON.parse(fs.readFileSync(COMMITTED, 'utf8')));
    drift.data.pop();
    fs.writeFileSync(path.join(out, OSS_DATA_FILE), serialiseOss(drift));
    const bad = spawnSync(TSX, ['scripts/import-oss.ts', '--check', '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('1 record(s) added');
  });
});
