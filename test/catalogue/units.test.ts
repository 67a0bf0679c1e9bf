/** Importer building blocks on synthetic upstream records (written here; no upstream text). */
import { describe, expect, it } from 'vitest';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { buildCategories } from '../../src/ingest/catalogue/categories.js';
import { extractDeclared } from '../../src/ingest/catalogue/declared.js';
import { describe as describeFacts } from '../../src/ingest/catalogue/describe.js';
import { registeredFlange as regFlange } from '../../src/ingest/catalogue/flange.js';
import { readFlangeRegistry } from '../../src/store/datasets.js';

const FLANGES = readFlangeRegistry(new URL('../../data', import.meta.url).pathname);
const registeredFlange = (label: string) => regFlange(FLANGES, label);
import { compareIds } from '../../src/ingest/catalogue/import.js';
import { normaliseRecord, RecordError } from '../../src/ingest/catalogue/normalise.js';
import { markDuplicates, resolveIdCollisions } from '../../src/ingest/catalogue/quarantine.js';
import { readProvenanceRow } from '../../src/ingest/catalogue/snapshot.js';
import { classifyUrl, urlsInText } from '../../src/ingest/catalogue/urls.js';

const ctx = { categoryName: (s: string) => ({ actuators: 'Actuators', chips: 'Chips' })[s], registeredFlange };

function raw(p: Record<string, unknown>): Record<string, unknown> {
  return { category: 'actuators', source_tier: 'B', quarantine: false, data_quality: 'ok', mechanical_interface: { status: 'n_a' }, ...p };
}

describe('urls', () => {
  it('classifies search-engine queries and self links apart from sources', () => {
    expect(classifyUrl('https://www.google.com/search?q=x%20datasheet')).toBe('search_engine');
    expect(classifyUrl('https://www.google.de/search?q=x')).toBe('search_engine');
    expect(classifyUrl('https://www.bing.com/search?q=x')).toBe('search_engine');
    expect(classifyUrl('https://roboparts.cc')).toBe('self_link');
    expect(classifyUrl('https://deepmind.google/discover/blog/x/')).toBe('source');
    expect(classifyUrl('https://github.com/google-deepmind/x')).toBe('source');
    expect(classifyUrl('not a url')).toBe('invalid');
    expect(classifyUrl('ftp://example.com/x')).toBe('invalid');
  });

  it('reads URLs out of text that runs into CJK punctuation, keeping balanced parentheses', () => {
    expect(urlsInText('官方页面：https://example.com/a（报道')).toEqual(['https://example.com/a']);
    expect(urlsInText('see https://en.wikipedia.org/wiki/Servo_(robot). and http://b.org/x, then')).toEqual([
      'https://en.wikipedia.org/wiki/Servo_(robot)',
      'http://b.org/x',
    ]);
    expect(urlsInText('(https://c.org/p)')).toEqual(['https://c.org/p']);
    expect(urlsInText('no link here')).toEqual([]);
  });
});

describe('registeredFlange', () => {
  it('accepts a registered designation written exactly (case, spaces, dashes aside)', () => {
    expect(registeredFlange('ISO9409-1-A50-4-M6')).toBe('ISO9409-1-A50-4-M6');
    expect(registeredFlange('iso 9409-1-a31.5-4-m5')).toBe('ISO9409-1-A31.5-4-M5');
    expect(registeredFlange('ISO 9409\u20111\u2010A100\u20134\u2010M8')).toBe('ISO9409-1-A100-4-M8');
  });
  it('finds the row through the join rule for the form without A (listed as an alias)', () => {
    expect(registeredFlange('ISO 9409-1-50-4-M6')).toBe('ISO9409-1-A50-4-M6');
    expect(registeredFlange('ISO 9409-1-31.5-4-M5')).toBe('ISO9409-1-A31.5-4-M5');
  });
  it('never completes a partial label or an unregistered designation', () => {
    expect(registeredFlange('ISO 9409-1 A50')).toBeNull();
    expect(registeredFlange('ISO 9409-1 A50 compatible')).toBeNull();
    expect(registeredFlange('ISO 9409-1-50-4-M8')).toBeNull();
    expect(registeredFlange('ISO9409-1-A50-4-M8')).toBeNull();
    expect(registeredFlange('ISO 9409-1')).toBeNull();
  });
});

describe('extractDeclared', () => {
  it('copies strings verbatim and numbers as decimal text, in DECLARED_KEYS order', () => {
    const r = extractDeclared({ weight: 0.5, torque: '9.2 Nm @ 12V', reduction_ratio: 100, speed: '6.3 rad/s' });
    expect(r.declared).toEqual({ torque: '9.2 Nm @ 12V', speed: '6.3 rad/s', weight: '0.5', reduction_ratio: '100' });
    expect(Object.keys(r.declared)).toEqual(['torque', 'speed', 'weight', 'reduction_ratio']);
  });

  it('prefers top-level over specs over key_specs and counts a differing lower value as a conflict', () => {
    const r = extractDeclared({ load_capacity: '200N', specs: { load_capacity: '200N', 重量: '0.3 kg' }, key_specs: { load_capacity: '80N', weight: '120g' } });
    expect(r.declared).toEqual({ weight: '0.3 kg', load_capacity: '200N' });
    expect(r.origin).toEqual({ load_capacity: 'top_level', weight: 'specs' });
    expect(r.conflicts).toEqual(['load_capacity', 'weight']);
  });

  it('maps unambiguous Chinese spec keys and leaves remarks and ambiguous keys out', () => {
    const r = extractDeclared({ specs: { 额定扭矩: '50 Nm', 峰值扭矩: '120 Nm', 电压: '48V DC', 背隙: '≤1 弧分', 抓取力: '自适应', 重量: '较同类产品减少约 15%', 分辨率: '0.1% F.S.', 力量程: '5 ~ 500 N' } });
    expect(r.declared).toEqual({ torque: '50 Nm', peak_torque: '120 Nm', voltage: '48V DC', backlash: '≤1 弧分' });
    expect(r.rejected).toEqual([
      { key: 'grip_force', origin: 'specs' },
      { key: 'weight', origin: 'specs' },
    ]);
  });
});

describe('describe', () => {
  it('builds an English sentence from facts only', () => {
    expect(
      describeFacts({ type: 'smart_servo', type_en: null, category_name: 'Actuators', manufacturer: 'ROBOTIS', protocol: 'DYNAMIXEL Protocol 2.0', interface: 'TTL/RS485', status: null, year: null }),
    ).toBe('Smart servo by ROBOTIS (Actuators); protocol DYNAMIXEL Protocol 2.0; interface TTL/RS485.');
    expect(
      describeFacts({ type: 'smart_servo', type_en: null, category_name: 'Actuators', manufacturer: 'ROBOTIS', protocol: 'DYNAMIXEL Protocol 2.0', interface: 'TTL/RS485', status: null, year: null, voltage: '10.0~14.8V', torque: '9.2 Nm @ 12V' }),
    ).toBe('Smart servo by ROBOTIS (Actuators); protocol DYNAMIXEL Protocol 2.0; interface TTL/RS485; supply 10.0~14.8V; torque 9.2 Nm @ 12V.');
    expect(describeFacts({ type: 'x', type_en: null, category_name: 'Actuators', manufacturer: null, protocol: 'N/A', interface: 'N/A', status: null, year: null, voltage: '额定48V' })).toBe('X (Actuators).');
    expect(describeFacts({ type: '伺服电机', type_en: 'Servo Motor', category_name: 'Actuators', manufacturer: null, protocol: 'N/A', interface: 'N/A', status: 'pre_production', year: 2026 })).toBe(
      'Servo Motor (Actuators); status pre production; year 2026.',
    );
    expect(describeFacts({ type: '智能协议', type_en: null, category_name: 'Power supplies and batteries', manufacturer: null, protocol: 'N/A', interface: 'N/A', status: null, year: null })).toBe(
      'Power supply (Power supplies and batteries).',
    );
  });
});

describe('normaliseRecord', () => {
  it('keeps facts, puts paid fields under deep, fills spec-shaped fields exactly and drops prose', () => {
    const n = normaliseRecord(
      raw({
        id: 'ACT-900',
        name: 'Test Servo 9',
        name_en: 'Test Servo 9',
        manufacturer: 'Acme',
        type: 'smart_servo',
        torque: '9.2 Nm @ 12V',
        weight: '82g',
        voltage: '10.0~14.8V',
        protocol: 'CAN bus',
        interface: 'CAN/RS485',
        applications: 'humanoid, quadruped',
        price: '120',
        price_range: '100-200',
        compatibility: 'ros2,can',
        confidence: 0.5,
        domestic_rate: 1,
        standard_compliance: { iso_8373: 'pending', a: 'yes' },
        sources: [{ source_type: 'web', source_credibility: 'A', collected_at: '2026-01-01T00:00:00Z' }, 'https://vendor.example.com/doc.pdf'],
        source_url: 'https://www.google.com/search?q=acme',
        source: '官方页面：https://acme.example.com/p（未证实）',
        description: 'An upstream sentence that must not be copied anywhere at all.',
        features: ['an upstream feature blurb'],
        year: '2025',
        status: 'production',
        ros_support: true,
        license: 'MIT',
        open_source: true,
      }),
      0,
      ctx,
    );
    const e = StoredEntity.parse(n.entity);
    expect(e).toMatchObject({
      id: 'ACT-900',
      manufacturer: 'Acme',
      protocol: 'CAN bus',
      interface: 'CAN/RS485',
      interfaces: ['CAN', 'RS485'],
      voltage: '10.0~14.8V',
      weight: '82g',
      torque: '9.2 Nm',
      applications: ['humanoid', 'quadruped'],
      price_range: '100-200',
      year: 2025,
      status: 'production',
      ros_support: true,
      source_license: 'MIT',
      oss: true,
      source_urls: ['https://vendor.example.com/doc.pdf', 'https://acme.example.com/p'],
      declared: { torque: '9.2 Nm @ 12V', weight: '82g', voltage: '10.0~14.8V' },
      description: 'Smart servo by Acme (Actuators); protocol CAN bus; interface CAN/RS485; supply 10.0~14.8V; torque 9.2 Nm @ 12V; status production; year 2025.',
      quarantine: false,
      quarantine_reason: null,
    });
    expect(e.deep).toEqual({
      price: '120',
      compatibility: ['ros2', 'can'],
      confidence: 0.5,
      sources: [
        { source_type: 'web', credibility: 'A', url: null, collected_at: '2026-01-01T00:00:00Z' },
        { source_type: null, credibility: null, url: 'https://vendor.example.com/doc.pdf', collected_at: null },
      ],
      compliance: { a: 'yes', iso_8373: 'pending' },
      localization_ratio: '1',
    });
    const text = JSON.stringify(e);
    expect(text).not.toContain('upstream sentence');
    expect(text).not.toContain('feature blurb');
    expect(text).not.toContain('google.com');
    expect(n.notes.urls_dropped.search_engine).toBe(1);
  });

  it('lowers a tier A that rested on a search-engine link to the previous upstream tier', () => {
    const a = normaliseRecord(raw({ id: 'X-1', name: 'x', source_tier: 'A', source_tier_prev: 'B', source_tier_basis: 'deep_link:www.google.com/search' }), 0, ctx);
    const b = normaliseRecord(raw({ id: 'X-2', name: 'y', source_tier: 'A', source_tier_prev: 'B', source_tier_basis: 'deep_link:vendor.example.com/p' }), 1, ctx);
    expect([a.entity.source_tier, a.notes.tier_adjusted]).toEqual(['B', true]);
    expect([b.entity.source_tier, b.notes.tier_adjusted]).toEqual(['A', false]);
  });

  it('reads manufacturer fallbacks and placeholders, and years', () => {
    const a = normaliseRecord(raw({ id: 'X-1', name: 'x', manufacturer: '未明确', company: 'Beta Co', release_date: '2026-07-07' }), 0, ctx);
    expect([a.entity.manufacturer, a.notes.manufacturer_from, a.notes.manufacturer_placeholder, a.entity.year]).toEqual(['Beta Co', 'company', true, 2026]);
    const b = normaliseRecord(raw({ id: 'X-2', name: 'y', developer: 'Unspecified', year: '2025-2026' }), 1, ctx);
    expect([b.entity.manufacturer, b.entity.year, b.notes.year_unread]).toEqual([null, null, '2025-2026']);
  });

  it('carries upstream quarantine marks as codes, never the upstream reason text', () => {
    const a = normaliseRecord(raw({ id: 'X-1', name: 'x', quarantine: true, data_quality: 'duplicate', duplicate_of: 'X-0' }), 0, ctx);
    expect([a.entity.quarantine, a.entity.quarantine_reason, a.entity.duplicate_of]).toEqual([true, 'duplicate', 'X-0']);
    const b = normaliseRecord(raw({ id: 'X-2', name: 'y', quarantine_reason: 'some upstream sentence about a dead link' }), 1, ctx);
    expect([b.entity.quarantine, b.entity.quarantine_reason]).toEqual([true, 'upstream_audit_reason']);
    expect(JSON.stringify(b.entity)).not.toContain('dead link');
  });

  it('turns the relation map form of compatibility into relation:id strings', () => {
    const n = normaliseRecord(raw({ id: 'X-1', name: 'x', compatibility: { mounts_to: ['F-1'], connects_to: ['C-1', 'C-2'], compatible_with: [] } }), 0, ctx);
    expect(n.entity.deep.compatibility).toEqual(['connects_to:C-1', 'connects_to:C-2', 'mounts_to:F-1']);
  });

  it('refuses records without id, name or a known category', () => {
    expect(() => normaliseRecord(raw({ name: 'x' }), 3, ctx)).toThrow(RecordError);
    expect(() => normaliseRecord(raw({ id: 'X-1' }), 3, ctx)).toThrow(/no name/);
    expect(() => normaliseRecord(raw({ id: 'X-1', name: 'x', category: 'gizmos' }), 3, ctx)).toThrow(/unknown category "gizmos"/);
    expect(() => normaliseRecord('text', 3, ctx)).toThrow(/not a JSON object/);
  });
});

describe('import-wide checks', () => {
  it('keeps the better record under a case-colliding id and renames the other to its rp_id', () => {
    const items = [
      normaliseRecord(raw({ id: 'act-x', name: 'first', source_tier: 'C', rp_id: 'RP-ACT-0001' }), 0, ctx),
      normaliseRecord(raw({ id: 'ACT-x', name: 'second', source_tier: 'B', rp_id: 'RP-ACT-0002' }), 1, ctx),
      normaliseRecord(raw({ id: 'ACT-X', name: 'third', source_tier: 'B', rp_id: 'act-x' }), 2, ctx),
    ];
    const r = resolveIdCollisions(items);
    expect(r.renames).toEqual([{ upstream_id: 'act-x', new_id: 'RP-ACT-0001', kept_id: 'ACT-x' }]);
    expect(r.dropped).toEqual([{ index: 2, id: 'ACT-X', reason: 'id collides case-insensitively with ACT-x and no free upstream rp_id to rename it to' }]);
    expect(r.items.map((n) => [n.entity.id, n.entity.quarantine_reason])).toEqual([
      ['RP-ACT-0001', 'id_collision'],
      ['ACT-x', null],
    ]);
  });

  it('marks the same name and manufacturer under a later id as a duplicate of the first clean one', () => {
    const items = [
      normaliseRecord(raw({ id: 'P-1', name: 'Foo  Bar', manufacturer: 'Acme', quarantine: true, data_quality: 'placeholder_id' }), 0, ctx),
      normaliseRecord(raw({ id: 'P-2', name: 'foo bar', manufacturer: 'ACME' }), 1, ctx),
      normaliseRecord(raw({ id: 'P-3', name: 'Foo Bar', manufacturer: 'acme' }), 2, ctx),
      normaliseRecord(raw({ id: 'P-4', name: 'Foo Bar', manufacturer: 'Acme', quarantine: true, data_quality: 'duplicate', duplicate_of: 'P-9' }), 3, ctx),
      normaliseRecord(raw({ id: 'P-5', name: 'Foo Bar' }), 4, ctx),
    ];
    const found = markDuplicates(items);
    expect(found.map((d) => [d.id, d.canonical])).toEqual([
      ['P-1', 'P-2'],
      ['P-3', 'P-2'],
    ]);
    expect(items.map((n) => [n.entity.id, n.entity.quarantine_reason, n.entity.duplicate_of])).toEqual([
      ['P-1', 'placeholder_id, duplicate', 'P-2'],
      ['P-2', null, null],
      ['P-3', 'duplicate', 'P-2'],
      ['P-4', 'duplicate', 'P-9'],
      ['P-5', null, null],
    ]);
  });
});

describe('misc', () => {
  it('orders ids case-insensitively, then exactly, without locale', () => {
    expect(['b-1', 'A-2', 'a-2', 'a-10', 'B-0'].sort(compareIds)).toEqual(['a-10', 'A-2', 'a-2', 'B-0', 'b-1']);
  });

  it('reads the provenance row of a file', () => {
    const md = '| file | upstream commit | bytes | sha256 (first 16) | use |\n|---|---|---|---|---|\n| api/entities.json | 012a81e8e447f8d7a998c9aad4c4c51bb4103a96 | 10 | 766fd9cc8393307c | x |\n';
    expect(readProvenanceRow(md, 'api/entities.json')).toEqual({ commit: '012a81e8e447f8d7a998c9aad4c4c51bb4103a96', bytes: 10, sha16: '766fd9cc8393307c' });
    expect(() => readProvenanceRow(md, 'api/other.json')).toThrow(/no row/);
  });

  it('refuses a category without a display name', () => {
    expect(buildCategories(['actuators', 'llms'])).toEqual([
      { slug: 'actuators', name: 'Actuators', spec_name: 'actuators' },
      { slug: 'llms', name: 'General foundation models', spec_name: 'general foundation models' },
    ]);
    expect(() => buildCategories(['gizmos'])).toThrow(/gizmos/);
  });
});
