/** Start-up failures are clear and leave nothing half-open. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { buildDeps, type Deps, type LazyBuild } from '../../src/deps.js';
import { silentLogger } from '../../src/log.js';
import { testConfig } from '../support/deps.js';
import { catalogueData, makeEntity } from '../support/factory.js';

it('an unknown payment gateway fails start-up with its name, and the database is closed again', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-deps-'));
  const file = path.join(dir, 'x.db');
  try {
    expect(() => buildDeps(testConfig({ dbPath: file, paymentGateway: 'nope', webhookSecret: 's3cret-s3cret-s3cret' }), { log: silentLogger, catalogueData: catalogueData([]) })).toThrow(
      /Unknown payment gateway "nope"/,
    );
    // Closed: an exclusive lock can be taken at once.
    const db = new Database(file);
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('a real gateway without a webhook secret is refused', () => {
  expect(() => buildDeps(testConfig({ paymentGateway: 'acme-pay', webhookSecret: null }), { log: silentLogger, catalogueData: catalogueData([]) })).toThrow(
    /ROBOT_PARTS_WEBHOOK_SECRET is required/,
  );
});

it('an invalid catalogue record is named before any database is opened', () => {
  const bad = catalogueData([makeEntity({ id: 'OK-1' })]);
  (bad.entities[0] as { quarantine: unknown }).quarantine = 'yes';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-deps-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(path.join(dataDir, 'catalogue'), { recursive: true });
  for (const f of ['plans.json', 'buses.json', 'suppliers.json', 'print.json']) fs.copyFileSync(path.resolve(import.meta.dirname, '../../data', f), path.join(dataDir, f));
  fs.mkdirSync(path.join(dataDir, 'flange'));
  fs.copyFileSync(path.resolve(import.meta.dirname, '../../data/flange/designations.json'), path.join(dataDir, 'flange/designations.json'));
  fs.mkdirSync(path.join(dataDir, 'plate'));
  fs.copyFileSync(path.resolve(import.meta.dirname, '../../data/plate/fasteners.json'), path.join(dataDir, 'plate/fasteners.json'));
  fs.writeFileSync(path.join(dataDir, 'catalogue/entities.json'), JSON.stringify({ meta: bad.meta, entities: bad.entities }));
  const file = path.join(dir, 'never.db');
  try {
    expect(() => buildDeps(testConfig({ dataDir, dbPath: file }), { log: silentLogger })).toThrow(/record OK-1 is invalid: quarantine/);
    expect(fs.existsSync(file)).toBe(false);
    // Deferred (stdio): the server starts; the first reader of the catalogue gets the same error, every time.
    fs.copyFileSync(path.resolve(import.meta.dirname, '../../data/manufacturers.json'), path.join(dataDir, 'manufacturers.json'));
    const deps = buildDeps(testConfig({ dataDir, dbPath: ':memory:' }), { log: silentLogger, deferCatalogue: true });
    try {
      expect(() => deps.catalogue).toThrow(/record OK-1 is invalid: quarantine/);
      expect(() => deps.index).toThrow(/record OK-1 is invalid: quarantine/);
    } finally {
      deps.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('a deferred catalogue is read on first use and is the shipped one (the same records, indexed once)', async () => {
  const shipped = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: { id: string }[] }).entities;
  const deps = buildDeps(testConfig({ dbPath: ':memory:' }), { log: silentLogger, deferCatalogue: true });
  try {
    const index = deps.index;
    expect(index.size).toBe(shipped.length);
    expect(deps.index).toBe(index);
    const [first] = await deps.catalogue.getMany([shipped[0].id]);
    expect(first?.id).toBe(shipped[0].id);
  } finally {
    deps.close();
  }
});

it('tells onLazyBuild listeners once per lazy build, with the records it covered, until unsubscribed', async () => {
  const { testDeps, toolContext } = await import('../support/deps.js');
  const { sampleEntities } = await import('../support/factory.js');
  const { TOOLS } = await import('../../src/tools/index.js');
  const { runTool } = await import('../../src/tools/run.js');
  const run = async (deps: Deps, name: string, args: Record<string, unknown>) => {
    const r = await runTool(TOOLS.find((t) => t.name === name)!, args, toolContext(deps));
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  };
  const n = sampleEntities().length;
  const d = testDeps(undefined, { answerCacheEntries: 0 });
  try {
    const seen: LazyBuild[] = [];
    const off = d.onLazyBuild((b) => seen.push(b));
    await run(d, 'search_parts', { q: 'servo' });
    expect(seen).toEqual([]); // a plain search builds nothing
    // A filter reads its own fields' columns (TRL from the table, not from the analytics document):
    // neither the rows nor the document is built for it.
    await run(d, 'search_parts', { where: 'torque_rated>=1 N·m' });
    await run(d, 'search_parts', { where: 'torque_rated>=2 N·m; trl>=1', sort: '-momentum' });
    expect(seen).toEqual([]);
    // get_part shows the record's analytics and product links (same_as, versions): each built once, on it.
    await run(d, 'get_part', { id: 'ACT-001' });
    await run(d, 'get_part', { id: 'ACT-002' });
    const parts = [
      { what: 'analytics', records: n },
      { what: 'same_as', records: n },
    ];
    expect([...seen].sort((a, b) => a.what.localeCompare(b.what))).toEqual(parts);
    // Alternatives compare whole rows: the rows are built once, on the first such call.
    await run(d, 'find_alternatives', { id: 'ACT-001' });
    await run(d, 'find_alternatives', { id: 'ACT-002' });
    expect(seen.slice(2)).toEqual([{ what: 'spec_rows', records: n }]);
    off();
    await run(d, 'list_spec_fields', {});
    expect(seen).toHaveLength(3);
  } finally {
    d.close();
  }
  // The same call on deps with a listener: the same_as links are a lazy build of their own.
  const d2 = testDeps(undefined, { answerCacheEntries: 0 });
  try {
    const seen: LazyBuild[] = [];
    d2.onLazyBuild((b) => seen.push(b));
    await run(d2, 'find_alternatives', { id: 'ACT-001' });
    expect(seen).toContainEqual({ what: 'same_as', records: n });
  } finally {
    d2.close();
  }
});
