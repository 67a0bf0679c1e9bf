/**
 * Joining a shared PostgreSQL database: migrations applied once under the advisory lock when
 * instances start together, the dataset-version handshake, refusal of a newer schema, and the
 * error mapping of a database that is not there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeps } from '../../src/deps.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { silentLogger } from '../../src/log.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { createPgPool, migratePg, pgHealth } from '../../src/store/pg.js';
import { PgLedger } from '../../src/store/pg-ledger.js';
import { catalogueData, sampleEntities } from '../support/factory.js';
import { testConfig } from '../support/deps.js';
import { pgTestsEnabled, startPgCluster, type PgCluster } from '../support/pg.js';

const PG = pgTestsEnabled();
const SECRET = 'a1'.repeat(32);
const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));

describe.skipIf(!PG)('joining a shared PostgreSQL database', () => {
  let cluster: PgCluster;
  let n = 0;
  const freshDb = () => cluster.createDatabase(`startup_${++n}`);
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 120_000);
  afterAll(() => cluster?.destroy());

  it('eight pools migrating one empty database at once: every migration applied exactly once', async () => {
    const url = freshDb();
    const pools = Array.from({ length: 8 }, () => createPgPool(url, { max: 2 }));
    try {
      const results = await Promise.all(pools.map((p) => migratePg(p)));
      expect(results.map((r) => r.applied).sort((a, b) => b - a)).toEqual([MIGRATIONS.length, 0, 0, 0, 0, 0, 0, 0]);
      for (const r of results) expect(r.version).toBe(LATEST);
      const rows = (await pools[0]!.query('SELECT version FROM schema_migrations ORDER BY version')).rows;
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await pgHealth(pools[1]!)).toEqual({ backend: 'postgres', reachable: true, migration_version: LATEST, synchronous_commit: 'on' });
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('refuses a database migrated by a newer build', async () => {
    const url = freshDb();
    const pool = createPgPool(url, { max: 1 });
    try {
      await migratePg(pool);
      await pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from_the_future', '2030-01-01')", [LATEST + 100]);
      await expect(migratePg(pool)).rejects.toThrow(`(${LATEST + 100})`);
      await expect(migratePg(pool)).rejects.toThrow(/upgrade this instance/);
    } finally {
      await pool.end();
    }
  });

  it('the first instance records its dataset version; another version refuses to join unless adopted', async () => {
    const url = freshDb();
    const data = (version: string) => {
      const d = catalogueData(sampleEntities());
      return { ...d, meta: { ...d.meta, dataset_version: version } };
    };
    const config = testConfig({ databaseUrl: url, secret: SECRET });
    const first = await openDeps(config, { log: silentLogger, catalogueData: data('2025.1') });
    try {
      expect(first.store.backend).toBe('postgres');
      expect(await first.store.health()).toEqual({ backend: 'postgres', reachable: true, migration_version: LATEST, synchronous_commit: 'on' });
      const same = await openDeps(config, { log: silentLogger, catalogueData: data('2025.1') });
      await same.close();
      const err = await openDeps(config, { log: silentLogger, catalogueData: data('2025.2') }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/dataset version mismatch: this instance serves dataset 2025\.2 but the shared database records 2025\.1/);
      expect(err?.message).toMatch(/--adopt-dataset/);
      const adopted = await openDeps({ ...config, adoptDataset: true }, { log: silentLogger, catalogueData: data('2025.2') });
      await adopted.close();
      await expect(openDeps(config, { log: silentLogger, catalogueData: data('2025.1') })).rejects.toThrow(/records 2025\.2/);
    } finally {
      await first.close();
    }
  });

  it('a database that is not there: start-up fails naming it (password redacted); store calls answer store_unavailable', async () => {
    cluster.stop();
    try {
      const url = cluster.url.replace('postgres@', 'postgres:hunter2@');
      const err = await openDeps(testConfig({ databaseUrl: url, secret: SECRET }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/^PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/robot_parts/);
      expect(err?.message).not.toContain('hunter2');
      const pool = createPgPool(cluster.url, { max: 1, connectionTimeoutMillis: 2000 });
      try {
        const e = await new PgLedger(pool).account('x').then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).code).toBe('store_unavailable');
        expect((e as DomainError).status).toBe(503);
        expect(await pgHealth(pool)).toMatchObject({ backend: 'postgres', reachable: false, migration_version: null });
      } finally {
        await pool.end();
      }
    } finally {
      cluster.start();
    }
  });

  it('configuration: a database URL must be postgres://; a shared database needs an explicit shared secret', async () => {
    expect(() => testConfig({ databaseUrl: 'mysql://x' })).toThrow(/must be a postgres:\/\/ or postgresql:\/\/ URL/);
    await expect(openDeps(testConfig({ databaseUrl: cluster.url }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) })).rejects.toThrow(
      /same server secret: set ROBOT_PARTS_SECRET or ROBOT_PARTS_SECRET_FILE/,
    );
  });

  it('instances with different server secrets cannot share a database', async () => {
    const url = freshDb();
    const first = await openDeps(testConfig({ databaseUrl: url, secret: SECRET }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
    try {
      await first.ready;
      const other = await openDeps(testConfig({ databaseUrl: url, secret: 'b2'.repeat(32) }), { log: silentLogger, catalogueData: catalogueData(sampleEntities()) });
      try {
        await expect(other.ready).rejects.toThrow(/different server secret/);
      } finally {
        await other.close();
      }
    } finally {
      await first.close();
    }
  });
});
