/** The committed catalogue in data/catalogue/: schema, ids, free/paid split, known parts. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FreeEntity, PAID_FIELDS, StoredEntity, toFree, toSummary } from '../../src/domain/catalogue/entity.js';
import { SPEC_SUMMARY_CATEGORIES } from '../../src/ingest/catalogue/categories.js';
import { readFlangeRegistry } from '../../src/store/datasets.js';

const REGISTERED_FLANGES = readFlangeRegistry(new URL('../../data', import.meta.url).pathname).designations.map((d) => d.designation);
import { compareIds } from '../../src/ingest/catalogue/import.js';
import { REASON_CODES } from '../../src/ingest/catalogue/normalise.js';
import { classifyUrl } from '../../src/ingest/catalogue/urls.js';
import { readCatalogueData } from '../../src/store/catalogue-data.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = path.join(ROOT, 'data/catalogue');
const file = JSON.parse(fs.readFileSync(path.join(DIR, 'entities.json'), 'utf8')) as { meta: Record<string, any>; entities: unknown[] };
const entities = file.entities.map((e) => StoredEntity.parse(e));
const byId = new Map(entities.map((e) => [e.id, e]));
const categories = (JSON.parse(fs.readFileSync(path.join(DIR, 'categories.json'), 'utf8')) as { categories: { slug: string; name: string; spec_name: string | null }[] }).categories;

describe('committed catalogue', () => {
  it('every record passes StoredEntity and the store reads the files', () => {
    expect(entities).toHaveLength(798);
    for (const raw of file.entities) expect(StoredEntity.safeParse(raw).success).toBe(true);
    const data = readCatalogueData(path.join(ROOT, 'data'));
    expect(data.entities).toHaveLength(798);
    expect(data.meta.snapshot_commit).toBe('012a81e8e447f8d7a998c9aad4c4c51bb4103a96');
    expect(data.categories).toEqual(categories);
  });

  it('ids are unique case-insensitively and sorted (case-insensitive, then exact)', () => {
    const lower = entities.map((e) => e.id.toLowerCase());
    expect(new Set(lower).size).toBe(entities.length);
    const ids = entities.map((e) => e.id);
    expect([...ids].sort(compareIds)).toEqual(ids);
  });

  it('meta carries source, licence, attribution, snapshot commit, deterministic imported_at and counts that reconcile', () => {
    const m = file.meta;
    expect(m).toMatchObject({
      dataset_version: '2026-09-08.012a81e',
      license: 'CC BY 4.0',
      attribution: 'Data: RoboParts (https://roboparts.cc), CC BY 4.0',
      source: 'RoboParts public dataset',
      snapshot_commit: '012a81e8e447f8d7a998c9aad4c4c51bb4103a96',
      imported_at: '2026-09-08T14:35:00.463Z',
    });
    expect(m.counts.snapshot_records).toBe(m.counts.imported + m.counts.dropped);
    expect(m.counts.imported).toBe(entities.length);
    expect(m.counts.quarantined).toBe(entities.filter((e) => e.quarantine).length);
    expect(m.counts.clean).toBe(entities.filter((e) => !e.quarantine).length);
    const byCat: Record<string, number> = {};
    for (const e of entities) byCat[e.category] = (byCat[e.category] ?? 0) + 1;
    expect(m.counts.by_category).toEqual(byCat);
    for (const [code, n] of Object.entries(m.counts.quarantined_by_reason as Record<string, number>)) {
      expect(entities.filter((e) => (e.quarantine_reason ?? '').split(', ').includes(code)).length).toBe(n);
    }
  });

  it('categories keep the snapshot slugs, name the eleven spec categories and list every used slug', () => {
    expect(categories.map((c) => c.slug)).toEqual([
      'actuators', 'sensors', 'chips', 'interfaces', 'protocols', 'llms', 'platforms', 'flexible_actuators', 'robot_ai_models', 'data_acquisition',
      'connectors', 'integrated_joints', 'reducers', 'controllers', 'grippers', 'structural', 'cables', 'power', 'pcb', 'bionic_mechanisms',
    ]);
    expect(categories.map((c) => c.spec_name).filter((s) => s !== null).sort()).toEqual([...SPEC_SUMMARY_CATEGORIES].sort());
    expect(categories.find((c) => c.slug === 'robot_ai_models')?.spec_name).toBe('robot foundation models');
    expect(categories.find((c) => c.slug === 'llms')?.spec_name).toBe('general foundation models');
    expect(categories.find((c) => c.slug === 'platforms')?.spec_name).toBe('whole-machine platforms');
    expect(categories.find((c) => c.slug === 'data_acquisition')?.spec_name).toBe('data-acquisition devices');
    expect(categories.find((c) => c.slug === 'reducers')?.spec_name).toBeNull();
    const slugs = new Set(categories.map((c) => c.slug));
    for (const e of entities) expect(slugs.has(e.category)).toBe(true);
  });

  it('no free field carries a paid value: paid fields live under deep only', () => {
    const freeKeys = Object.keys(FreeEntity.shape).sort();
    for (const raw of file.entities as Record<string, unknown>[]) {
      expect(Object.keys(raw).filter((k) => k !== 'deep').sort()).toEqual(freeKeys);
      for (const k of [...PAID_FIELDS, 'sources', 'domestic_rate', 'standard_compliance']) expect(raw).not.toHaveProperty(k);
    }
    for (const e of entities) {
      const free = toFree(e);
      expect(free).not.toHaveProperty('deep');
      expect(FreeEntity.safeParse(free).success).toBe(true);
      expect(toSummary(e)).not.toHaveProperty('deep');
    }
    // A distinctive paid value never appears in the free form of its record.
    const priced = entities.filter((e) => e.deep.price !== null && e.deep.price.length > 8);
    expect(priced.length).toBeGreaterThan(3);
    for (const e of priced) expect(JSON.stringify(toFree(e))).not.toContain(e.deep.price!);
    const compat = entities.find((e) => e.id === 'ACT-001')!;
    expect(compat.deep.compatibility).toEqual(['U2D2', 'OpenCM', 'ROS2']);
    expect(JSON.stringify(toFree(compat))).not.toContain('U2D2');
  });

  it('quarantine fields are consistent and duplicate_of names a record in the catalogue', () => {
    const lower = new Set(entities.map((e) => e.id.toLowerCase()));
    for (const e of entities) {
      if (e.quarantine) {
        expect(e.quarantine_reason).not.toBeNull();
        for (const code of e.quarantine_reason!.split(', ')) expect(REASON_CODES).toContain(code);
      } else {
        expect(e.quarantine_reason).toBeNull();
      }
      if (e.duplicate_of !== null) {
        expect(e.quarantine).toBe(true);
        expect(lower.has(e.duplicate_of.toLowerCase())).toBe(true);
      }
    }
  });

  it('resolves the snapshot id collision and the duplicates', () => {
    expect(byId.get('ACT-agility-digit-v2')).toMatchObject({ name: 'Agility Robotics Digit New Actuators', quarantine: false });
    expect(byId.get('RP-ACT-0083')).toMatchObject({ name: 'Agility Robotics Digit v2 Actuator', quarantine: true, quarantine_reason: 'id_collision' });
    expect(byId.has('act-agility-digit-v2')).toBe(false);
    expect(byId.get('CHIP-66')).toMatchObject({ quarantine_reason: 'duplicate', duplicate_of: 'CHIP-81' });
    expect(byId.get('RPLAT-009')).toMatchObject({ quarantine_reason: 'duplicate', duplicate_of: 'RPLAT-010' });
    expect(byId.get('ACTUATOR-M3N4O5')).toMatchObject({ quarantine_reason: 'placeholder_id, duplicate', duplicate_of: 'ACT-032' });
    expect(byId.get('ACT-032')).toMatchObject({ quarantine: false, duplicate_of: null });
  });

  it('source URLs are sources: no search-engine queries, no self links', () => {
    for (const e of entities) for (const u of e.source_urls) expect(classifyUrl(u)).toBe('source');
    expect(entities.filter((e) => e.source_urls.length > 0).length).toBe(305);
  });

  it('flange is null or a registered designation', () => {
    for (const e of entities) {
      const f = e.mechanical_interface.flange;
      if (f !== null) expect(REGISTERED_FLANGES).toContain(f);
    }
  });

  it('keeps facts of a known record exactly', () => {
    expect(byId.get('ACT-001')).toEqual({
      id: 'ACT-001',
      name: 'DYNAMIXEL XM540-W270-T',
      name_en: 'DYNAMIXEL XM540-W270-T',
      category: 'actuators',
      entity_kind: 'component',
      manufacturer: 'ROBOTIS',
      type: 'smart_servo',
      protocol: 'DYNAMIXEL Protocol 2.0',
      interface: 'TTL/RS485',
      interfaces: ['TTL', 'RS485'],
      voltage: '10.0~14.8V',
      weight: '82g',
      torque: '9.2 Nm',
      ros_support: true,
      applications: ['humanoid', 'manipulator', 'quadruped'],
      price_range: '0-100',
      standard: null,
      status: null,
      year: null,
      source_urls: [],
      source_tier: 'B',
      source_robot: null,
      source_license: null,
      oss: false,
      mechanical_interface: { status: 'partial', mount_type: 'direct_mount', flange: null },
      declared: { torque: '9.2 Nm @ 12V', speed: '0.222 sec/60° @ 12V', weight: '82g', voltage: '10.0~14.8V', position_resolution: '4096' },
      provenance: {
        'declared.position_resolution': ['position_resolution'],
        'declared.speed': ['speed'],
        'declared.torque': ['torque'],
        'declared.voltage': ['voltage'],
        'declared.weight': ['weight'],
        interface: ['interface'],
        interfaces: ['interface'],
        protocol: ['protocol'],
        torque: ['torque'],
        voltage: ['voltage'],
        weight: ['weight'],
      },
      description: 'Smart servo by ROBOTIS (Actuators); protocol DYNAMIXEL Protocol 2.0; interface TTL/RS485; supply 10.0~14.8V; torque 9.2 Nm @ 12V.',
      quarantine: false,
      quarantine_reason: null,
      duplicate_of: null,
      deep: { price: null, compatibility: ['U2D2', 'OpenCM', 'ROS2'], confidence: 0.5, sources: [], compliance: {}, localization_ratio: '进口替代中' },
    });
  });

  it('real parts are present and not quarantined: DYNAMIXEL, Harmonic Drive, Jetson Orin, EtherCAT, RealSense', () => {
    const clean = entities.filter((e) => !e.quarantine);
    const find = (re: RegExp) => clean.filter((e) => re.test(`${e.name} ${e.manufacturer ?? ''}`)).map((e) => e.id);
    expect(find(/DYNAMIXEL/i)).toEqual(expect.arrayContaining(['ACT-001', 'ACT-002', 'ACT-003']));
    expect(find(/Harmonic Drive/)).toEqual(expect.arrayContaining(['RED-001', 'REDUCER-HD-25']));
    expect(find(/Jetson Orin/)).toEqual(expect.arrayContaining(['CHIP-001', 'CHIP-81']));
    expect(byId.get('PROTO-001')).toMatchObject({ name: 'EtherCAT', category: 'protocols', quarantine: false });
    expect(find(/RealSense/)).toEqual(expect.arrayContaining(['CHIP-010', 'CHIP-67']));
  });

  it('data/README.md names the snapshot commit, licence and attribution', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'data/README.md'), 'utf8');
    expect(readme).toContain(file.meta.snapshot_commit);
    expect(readme).toContain('CC BY 4.0');
    expect(readme).toContain('Data: RoboParts (https://roboparts.cc), CC BY 4.0');
  });
});
