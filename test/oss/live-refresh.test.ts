/**
 * The live open-source layer (issue 45): sources refreshed from real git repositories made in a
 * temporary folder, into SQLite and PostgreSQL; first_seen kept, last_seen moved, records no
 * longer produced kept as gone, a failing source keeping its records, and servers reading the
 * refreshed layer. Expected values come from the files the test writes and from git itself.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRunnerFactory } from '../../src/compose.js';
import { buildDeps, openDeps } from '../../src/deps.js';
import { mergeSourceRecords } from '../../src/domain/oss/live.js';
import { gitFetcher, mirrorFetcher } from '../../src/ingest/oss/fetch.js';
import { readOssDocument, SHIPPED_SOURCES_FILE } from '../../src/ingest/oss/layer.js';
import { liveDocument, refreshSources } from '../../src/ingest/oss/refresh.js';
import { parseSourcesFile, readSourcesFile, type SourcesFile } from '../../src/ingest/oss/sources-file.js';
import { silentLogger } from '../../src/log.js';
import { serverRefresh } from '../../src/sources-cli.js';
import { openDb } from '../../src/store/db.js';
import { pgOssLiveStore, sqliteOssLiveStore } from '../../src/store/oss-live-store.js';
import { createPgPool, migratePg } from '../../src/store/pg.js';
import { testConfig } from '../support/deps.js';
import { call, memoryClient } from '../support/mcp.js';
import { startInstance } from '../support/instances.js';
import { pgTestsEnabled, startPgCluster, type PgCluster } from '../support/pg.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROBOTS = path.resolve(ROOT, '../shared/robots');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const tmp: string[] = [];
const tmpDir = (p: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), p));
  tmp.push(d);
  return d;
};
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

function urdf(joints: string[]): string {
  const links = ['base', ...joints.map((j) => `${j}_link`)];
  return `<?xml version="1.0"?>
<robot name="testbot">
${links.map((l) => `  <link name="${l}"/>`).join('\n')}
${joints
  .map(
    (j, i) => `  <joint name="${j}" type="revolute">
    <parent link="${links[i]}"/><child link="${j}_link"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="${5 + i}" velocity="2"/>
  </joint>`,
  )
  .join('\n')}
</robot>
`;
}

function bom(rows: [string, number, string][]): string {
  return `# Parts\n\n| Item | Qty | Unit price |\n|---|---|---|\n${rows.map(([item, q, p]) => `| ${item} | ${q} | ${p} |`).join('\n')}\n`;
}

/** A git repository with a URDF and a BOM; returns its folder. */
function makeRepo(): string {
  const dir = tmpDir('rp-src-');
  git(dir, 'init', '-q');
  fs.mkdirSync(path.join(dir, 'desc'));
  fs.writeFileSync(path.join(dir, 'desc/bot.urdf'), urdf(['hip', 'knee']));
  fs.writeFileSync(path.join(dir, 'BOM.md'), bom([['STS3215 servo', 6, '$13.89'], ['M3 screw kit', 1, '$5.00'], ['Raspberry Pi 5', 1, '$80.00']]));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'first');
  return dir;
}

function sourcesFor(repo: string, extra: SourcesFile['sources'] = []): SourcesFile {
  return parseSourcesFile(
    JSON.stringify({
      sources: [
        { id: 'TESTBOT', name: 'Testbot URDF', robot: 'Testbot', type: 'arm', repo, ref: 'main', license: 'MIT', files: [{ path: 'desc/bot.urdf', extractor: 'urdf' }] },
        { id: 'TESTBOT_BOM', name: 'Testbot BOM', robot: 'Testbot', repo: `file://${repo}`, ref: 'main', license: 'MIT', files: [{ path: 'BOM.md', extractor: 'bom_md' }] },
        ...extra,
      ],
    }),
    'sources.json',
  );
}

const T1 = '2030-01-01T00:00:00.000Z';
const T2 = '2030-02-01T00:00:00.000Z';
const T3 = '2030-03-01T00:00:00.000Z';
const at = (t: string) => () => t;

describe('sources file', () => {
  it('the shipped sources name each upstream repository and commit, and validate', () => {
    const file = readSourcesFile(SHIPPED_SOURCES_FILE);
    expect(file.sources).toHaveLength(12);
    for (const s of file.sources) {
      expect(s.repo).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
      expect(s.ref).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('refuses bad files naming the field', () => {
    expect(() => parseSourcesFile('{', 'f.json')).toThrow(/f\.json: not valid JSON/);
    expect(() => parseSourcesFile(JSON.stringify({ sources: [{ id: 'a b' }] }), 'f.json')).toThrow(/sources\.0\.id/);
    const one = { id: 'A', name: 'n', robot: 'r', repo: '/x', ref: 'main', license: 'MIT', files: [{ path: 'a.urdf', extractor: 'urdf' }] };
    expect(() => parseSourcesFile(JSON.stringify({ sources: [one, one] }), 'f.json')).toThrow(/duplicate source id A/);
    expect(() => parseSourcesFile(JSON.stringify({ sources: [{ ...one, files: [{ path: 'a', extractor: 'pdf' }] }] }), 'f.json')).toThrow(/sources\.0\.files\.0/);
  });
});

describe('mergeSourceRecords (pure)', () => {
  it('keeps first_seen, moves last_seen, marks the missing gone once and brings them back', () => {
    const first = mergeSourceRecords([], [{ id: 'a', record: 1 }, { id: 'b', record: 2 }], T1, (x, y) => x === y);
    expect(first).toMatchObject({ added: 2, gone: 0 });
    const second = mergeSourceRecords(first.rows, [{ id: 'a', record: 9 }], T2, (x, y) => x === y);
    expect(second).toMatchObject({ changed: 1, gone: 1 });
    expect(second.rows.find((r) => r.id === 'a')).toMatchObject({ first_seen: T1, last_seen: T2, gone: false, record: 9 });
    expect(second.rows.find((r) => r.id === 'b')).toMatchObject({ first_seen: T1, last_seen: T1, gone: true, gone_since: T2 });
    const third = mergeSourceRecords(second.rows, [{ id: 'a', record: 9 }], T3, (x, y) => x === y);
    expect(third.rows.find((r) => r.id === 'b')).toMatchObject({ gone_since: T2 }); // still gone since the first refresh that missed it
    const back = mergeSourceRecords(third.rows, [{ id: 'a', record: 9 }, { id: 'b', record: 2 }], T3, (x, y) => x === y);
    expect(back).toMatchObject({ back: 1, kept: 1 });
    expect(back.rows.find((r) => r.id === 'b')).toMatchObject({ first_seen: T1, last_seen: T3, gone: false, gone_since: null });
  });
});

describe('sources refresh into SQLite from real git repositories', () => {
  let repo: string;
  let dbFile: string;
  beforeAll(() => {
    repo = makeRepo();
    dbFile = path.join(tmpDir('rp-db-'), 'layer.db');
  });

  it('first refresh, then commits that add a joint, drop a BOM row and change a price', async () => {
    const db = openDb(dbFile);
    const store = sqliteOssLiveStore(db);
    try {
      const c1 = git(repo, 'rev-parse', 'HEAD');
      const s1 = await refreshSources(sourcesFor(repo), store, gitFetcher(), { now: at(T1) });
      expect(s1).toMatchObject({ sources_ok: 2, sources_attempted: 2, failed: [] });
      const d1 = liveDocument((await store.snapshot())!);
      const joints1 = d1.data.filter((r) => r.category === 'urdf_joints');
      expect(joints1.map((r) => r.joint_name)).toEqual(['hip', 'knee']);
      expect(d1.data.filter((r) => r.category === 'bom_items').map((r) => r.name)).toEqual(['STS3215 servo', 'M3 screw kit', 'Raspberry Pi 5']);
      expect(d1.meta.sources.map((s) => [s.id, s.commit, s.read_at])).toEqual([
        ['TESTBOT', c1, T1],
        ['TESTBOT_BOM', c1, T1],
      ]);
      for (const r of d1.data) expect([r.first_seen, r.last_seen]).toEqual([T1, T1]);

      // Upstream changes: a third joint, the screw kit dropped, the Pi's price changed.
      fs.writeFileSync(path.join(repo, 'desc/bot.urdf'), urdf(['hip', 'knee', 'ankle']));
      fs.writeFileSync(path.join(repo, 'BOM.md'), bom([['STS3215 servo', 6, '$13.89'], ['Raspberry Pi 5', 1, '$95.00']]));
      git(repo, 'commit', '-qam', 'second');
      const c2 = git(repo, 'rev-parse', 'HEAD');
      expect(c2).not.toBe(c1);
      const s2 = await refreshSources(sourcesFor(repo), store, gitFetcher(), { now: at(T2) });
      expect(s2.per_source).toEqual([
        { id: 'TESTBOT', commit: c2, records: 3, added: 1, changed: 2, gone: 0, back: 0 },
        { id: 'TESTBOT_BOM', commit: c2, records: 2, added: 0, changed: 2, gone: 1, back: 0 },
      ]);
      const d2 = liveDocument((await store.snapshot())!);
      const byName = new Map(d2.data.map((r) => [r.joint_name ?? r.name, r]));
      expect(byName.get('hip')).toMatchObject({ first_seen: T1, last_seen: T2 });
      expect(byName.get('hip')!.id).toBe(joints1[0].id); // identity stable across refreshes
      expect(byName.get('ankle')).toMatchObject({ first_seen: T2, last_seen: T2 });
      const pi = byName.get('Raspberry Pi 5')!;
      expect(pi).toMatchObject({ first_seen: T1, last_seen: T2 });
      expect(pi.extracted).toMatchObject({ unit_prices: [expect.objectContaining({ amount: '95.00', as_written: '$95.00' })] });
      expect(pi.source_url).toContain(c2); // the price is named with the commit it was read at
      expect(byName.has('M3 screw kit')).toBe(false); // gone records are left out of data and counts
      expect(d2.meta.total_entities).toBe(5);
      expect(d2.meta.gone_entities).toBe(1);
      expect(d2.meta.gone).toEqual([expect.objectContaining({ name: 'M3 screw kit', source_id: 'TESTBOT_BOM', last_seen: T1, gone_since: T2 })]);
      // ...but kept in the database, marked.
      const rows = db.prepare("SELECT gone, gone_since, last_seen FROM oss_live_records WHERE doc LIKE '%M3 screw kit%'").all();
      expect(rows).toEqual([{ gone: 1, gone_since: T2, last_seen: T1 }]);
      expect(d2.meta.live_stats).toMatchObject({ sources_ok: 2, sources_attempted: 2, by_extractor: { urdf: 3, bom_md: 2, bom_csv: 0 }, failed: [] });
    } finally {
      db.close();
    }
  });

  it('a broken source fails with its reason and keeps its earlier records', async () => {
    const db = openDb(dbFile);
    const store = sqliteOssLiveStore(db);
    try {
      const broken = sourcesFor(repo);
      broken.sources[1] = { ...broken.sources[1], ref: 'no-such-branch' };
      const s3 = await refreshSources(broken, store, gitFetcher(), { now: at(T3) });
      expect(s3.sources_ok).toBe(1);
      expect(s3.failed).toEqual([{ id: 'TESTBOT_BOM', reason: expect.stringMatching(/git fetch failed: .*no-such-branch/) }]);
      const d3 = liveDocument((await store.snapshot())!);
      expect(d3.data.filter((r) => r.source_id === 'TESTBOT_BOM').map((r) => [r.name, r.last_seen])).toEqual([
        ['STS3215 servo', T2],
        ['Raspberry Pi 5', T2],
      ]);
      expect(d3.meta.live_stats).toMatchObject({ sources_ok: 1, sources_attempted: 2, failed: [{ id: 'TESTBOT_BOM' }] });
      const missing = sourcesFor(repo);
      missing.sources[0] = { ...missing.sources[0], files: [{ path: 'desc/none.urdf', extractor: 'urdf' }] };
      const s4 = await refreshSources(missing, store, gitFetcher(), { now: at(T3) });
      expect(s4.failed[0]).toEqual({ id: 'TESTBOT', reason: expect.stringMatching(/desc\/none\.urdf is not in/) });
    } finally {
      db.close();
    }
  });

  it('a server on that database serves the refreshed layer: where-used, the dataset and reload after a refresh', async () => {
    const deps = buildDeps(testConfig({ dbPath: dbFile }), { log: silentLogger });
    try {
      const doc = deps.liveOssDocument()!;
      expect(doc.meta.sources.map((s) => s.id)).toEqual(['TESTBOT', 'TESTBOT_BOM']);
      expect(deps.ossLayer.bom.some((l) => /STS3215/.test(l.item))).toBe(true);
      // A refresh by another process (the CLI, on the same file) is served after a reload.
      fs.writeFileSync(path.join(repo, 'BOM.md'), bom([['STS3215 servo', 6, '$13.89'], ['Raspberry Pi 5', 1, '$95.00'], ['XL430-W250 servo', 2, '$49.90']]));
      git(repo, 'commit', '-qam', 'third');
      const srcFile = path.join(tmpDir('rp-sf-'), 'sources.json');
      fs.writeFileSync(srcFile, JSON.stringify(sourcesFor(repo)));
      const cli = spawnSync(TSX, ['src/cli.ts', 'sources', 'refresh', '--sources', srcFile, '--db', dbFile], { cwd: ROOT, encoding: 'utf8' });
      expect(cli.status, cli.stderr).toBe(0);
      expect(cli.stdout).toMatch(/TESTBOT_BOM: 3 records at [0-9a-f]{12} \(1 new/);
      expect(deps.ossLayer.bom.some((l) => /XL430/.test(l.item))).toBe(false);
      const before = deps.liveOssDocument();
      const { client, close } = await memoryClient(deps);
      try {
        const run = await deps.reloadOssLayer();
        expect(run).toBeGreaterThan(0);
        expect(deps.liveOssDocument()).not.toBe(before);
        expect(deps.ossLayer.bom.some((l) => /XL430/.test(l.item))).toBe(true);
        // The row the refresh added resolves by id at once (no restart), over MCP and in any case.
        const added = deps.liveOssDocument()!.data.find((r) => r.name === 'XL430-W250 servo')!;
        expect(before!.data.some((r) => r.id === added.id)).toBe(false);
        const got = await call(client, 'get_part', { id: added.id.toLowerCase() });
        expect(got.isError, JSON.stringify(got.content)).toBeFalsy();
        expect((got.structuredContent as { entity: { id: string; name: string } }).entity).toMatchObject({ id: added.id, name: 'XL430-W250 servo' });
        expect((await deps.catalogue.idsWithPrefix(added.id.slice(0, -2), 50))).toContain(added.id);
      } finally {
        await close();
      }
      const status = spawnSync(TSX, ['src/cli.ts', 'sources', 'status', '--db', dbFile], { cwd: ROOT, encoding: 'utf8' });
      expect(status.stdout).toMatch(/2\/2 sources ok, 6 records, 1 gone/);
    } finally {
      await deps.close();
    }
  });

  it('serve --sources --refresh-every refreshes in the background and serves the new layer', async () => {
    const repo2 = makeRepo();
    const dir = tmpDir('rp-serve-');
    const srcFile = path.join(dir, 'sources.json');
    fs.writeFileSync(srcFile, JSON.stringify(sourcesFor(repo2)));
    const inst = await startInstance({ args: ['--db', path.join(dir, 'serve.db'), '--sources', srcFile, '--refresh-every', '10s'] });
    try {
      const robots = async () => ((await (await fetch(`${inst.url}/api/oss_components.json`)).json()) as { meta: { sources: { id: string }[] } }).meta.sources.map((x) => x.id);
      expect(await robots()).toContain('SO101'); // the shipped layer until the first refresh
      let ids: string[] = [];
      for (let i = 0; i < 120 && !ids.includes('TESTBOT'); i++) {
        await new Promise((r) => setTimeout(r, 500));
        ids = await robots();
      }
      expect(ids).toEqual(['TESTBOT', 'TESTBOT_BOM']);
      const health = await fetch(`${inst.url}/healthz`);
      expect(health.status).toBe(200);
      // The extraction ran as jobs of the server's worker pool (one per source), not on its event loop.
      expect(((await health.json()) as { pool: { completed: number; size: number } }).pool).toMatchObject({ size: 2, completed: expect.any(Number) });
      const layer = (await (await fetch(`${inst.url}/api/oss_components.json`)).json()) as { data: { id: string; joint_name?: string }[] };
      const hip = layer.data.find((r) => r.joint_name === 'hip')!;
      // A joint the background refresh added resolves by id in the same process (no restart).
      const got = await fetch(`${inst.url}/api/entity/${encodeURIComponent(hip.id)}`);
      expect(got.status).toBe(200);
      expect(((await got.json()) as { entity: { id: string } }).entity.id).toBe(hip.id);
    } finally {
      await inst.stop();
    }
  }, 120_000);

  it("a serving process's refresh extracts in its worker pool and get_part follows the layer without a restart", async () => {
    const repo3 = makeRepo();
    const dir = tmpDir('rp-bg-');
    const srcFile = path.join(dir, 'sources.json');
    fs.writeFileSync(srcFile, JSON.stringify(sourcesFor(repo3)));
    const config = testConfig({ dbPath: path.join(dir, 'bg.db') });
    const deps = buildDeps(config, { log: silentLogger, jobs: jobRunnerFactory() });
    const { client, close } = await memoryClient(deps);
    try {
      expect(deps.liveOssDocument()).toBeNull(); // the shipped layer until the first refresh
      const before = deps.jobs.stats();
      expect(before.size).toBeGreaterThan(0); // a real pool of worker threads
      const r1 = await serverRefresh(config, deps, srcFile, 0, silentLogger);
      expect(r1).toMatchObject({ sources_ok: 2, sources_attempted: 2, failed: [] });
      // One extract_source job per source went through the pool.
      expect(deps.jobs.stats().completed - before.completed).toBe(2);
      expect(deps.jobs.stats().workers).toBeGreaterThan(0);

      // Upstream adds a joint; the next background refresh picks it up and get_part resolves it at once.
      fs.writeFileSync(path.join(repo3, 'desc/bot.urdf'), urdf(['hip', 'knee', 'ankle']));
      git(repo3, 'commit', '-qam', 'ankle');
      const knownIds = new Set(deps.liveOssDocument()!.data.map((r) => r.id));
      const r2 = await serverRefresh(config, deps, srcFile, 0, silentLogger);
      expect(r2).toMatchObject({ sources_ok: 2 });
      expect(deps.jobs.stats().completed - before.completed).toBe(4);
      const ankle = deps.liveOssDocument()!.data.find((r) => r.joint_name === 'ankle')!;
      expect(knownIds.has(ankle.id)).toBe(false);
      const got = await call(client, 'get_part', { id: ankle.id });
      expect(got.isError, JSON.stringify(got.content)).toBeFalsy();
      expect((got.structuredContent as { entity: { id: string } }).entity.id).toBe(ankle.id);
      // A refresh younger than the period is skipped (another instance sharing the database refreshed).
      expect(await serverRefresh(config, deps, srcFile, 3_600_000, silentLogger)).toBe('fresh');
    } finally {
      await close();
      await deps.close();
    }
  }, 60_000);

  it('serve refuses a bad --refresh-every naming the flag', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'serve', '--port', '0', '--sources', SHIPPED_SOURCES_FILE, '--refresh-every', 'soon'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--refresh-every must be a duration');
  });

  it('the CLI refuses bad usage naming the flag', () => {
    const r = spawnSync(TSX, ['src/cli.ts', 'sources', 'refresh', '--db', dbFile], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--sources <file> is required');
  });
});

describe.skipIf(!fs.existsSync(path.join(ROBOTS, 'README.md')))('the shipped layer from the same refresh code', () => {
  it('a refresh of the shipped sources from the local copies gives the shipped records', async () => {
    const db = openDb(':memory:');
    try {
      const store = sqliteOssLiveStore(db);
      const summary = await refreshSources(readSourcesFile(SHIPPED_SOURCES_FILE), store, mirrorFetcher(ROBOTS), { now: at(T1) });
      expect(summary.failed).toEqual([]);
      const live = liveDocument((await store.snapshot())!);
      const shipped = readOssDocument(path.join(ROOT, 'data'))!;
      const strip = (r: object) => JSON.stringify({ ...r, first_seen: undefined, last_seen: undefined });
      expect(live.data.map(strip)).toEqual(shipped.data.map(strip));
      expect(live.meta.sources.map((s) => ({ ...s, read_at: undefined, file: undefined }))).toEqual(shipped.meta.sources.map((s) => ({ ...s, read_at: undefined, file: undefined })));
    } finally {
      db.close();
    }
  });
});

const PG = pgTestsEnabled();
describe.skipIf(!PG)('sources refresh on PostgreSQL, two instances reading one refresh', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 120_000);
  afterAll(() => cluster?.destroy());

  it('one refresh at a time under the lock; both instances serve what it wrote', async () => {
    const url = cluster.createDatabase('live_layer');
    const repo = makeRepo();
    const pools = [createPgPool(url, { max: 2 }), createPgPool(url, { max: 2 })];
    try {
      await migratePg(pools[0]);
      const [a, b] = pools.map(pgOssLiveStore);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const first = a.withRefreshLock(async () => {
        await held;
        return refreshSources(sourcesFor(repo), a, gitFetcher(), { now: at(T1) });
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(await b.withRefreshLock(async () => 'ran')).toBeNull(); // the other instance does nothing
      release();
      expect((await first)!.sources_ok).toBe(2);
      fs.writeFileSync(path.join(repo, 'desc/bot.urdf'), urdf(['hip', 'knee', 'ankle']));
      git(repo, 'commit', '-qam', 'second');
      await b.withRefreshLock(() => refreshSources(sourcesFor(repo), b, gitFetcher(), { now: at(T2) }));
      const config = testConfig({ databaseUrl: url, secret: 'c3'.repeat(32) });
      const instances = [await openDeps(config, { log: silentLogger }), await openDeps(config, { log: silentLogger })];
      try {
        for (const deps of instances) {
          await deps.ready;
          const doc = deps.liveOssDocument()!;
          expect(doc.data.filter((r) => r.category === 'urdf_joints').map((r) => [r.joint_name, r.first_seen, r.last_seen])).toEqual([
            ['hip', T1, T2],
            ['knee', T1, T2],
            ['ankle', T2, T2],
          ]);
        }
        expect(JSON.stringify(instances[0].liveOssDocument())).toBe(JSON.stringify(instances[1].liveOssDocument()));
      } finally {
        for (const d of instances) await d.close();
      }
    } finally {
      for (const p of pools) await p.end();
    }
  }, 120_000);
});
