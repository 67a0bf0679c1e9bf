/**
 * The search index built by a worker thread (src/store/index-job.ts, run from dist/: the worker
 * is compiled JavaScript) answers every query exactly like the index built on the main thread,
 * and is refused when it does not index exactly the main thread's records.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredEntity } from '../../src/domain/entity.js';
import { SearchIndex, sortedById, tokenize } from '../../src/domain/search.js';

const root = path.resolve(import.meta.dirname, '../..');
const DIST_JOB = path.join(root, 'dist/store/index-job.js');
const DATA = path.join(root, 'data');
const entities = (JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { entities: StoredEntity[] }).entities;
const QUERIES = ['servo', 'ethercat', 'can joint', 'dynamixel xm540', 'humanoid', '雷赛智能', 'xyzzyplonk', 'a', 'motor driver', 'imu'];

type Job = { settled: Promise<void>; take(ids: readonly string[]): SearchIndex | null; stop(): void };
const load = async () => (await import(DIST_JOB)) as { startIndexJob(dataDir: string, minBytes?: number): Job | null; INDEX_WORKER_MIN_BYTES: number };

describe.skipIf(!fs.existsSync(DIST_JOB))('search index built by a worker', () => {
  it('answers every query, page and quarantine count like the main thread index', async () => {
    const { startIndexJob } = await load();
    const job = startIndexJob(DATA, 0)!;
    expect(job).not.toBeNull();
    await job.settled;
    const ids = sortedById(entities).map((e) => e.id);
    const fromWorker = job.take(ids);
    expect(fromWorker).not.toBeNull();
    const here = new SearchIndex(entities);
    expect(fromWorker!.size).toBe(here.size);
    for (const q of QUERIES) {
      const terms = [...new Set(tokenize(q))];
      for (const opts of [{ limit: 20 }, { limit: 5, offset: 3 }, { limit: 50, includeQuarantine: true }]) {
        expect(JSON.parse(JSON.stringify(fromWorker!.query(terms, opts))), `${q} ${JSON.stringify(opts)}`).toEqual(JSON.parse(JSON.stringify(here.query(terms, opts))));
      }
    }
    expect(job.take(ids)).toBeNull(); // once
  });

  it('is refused for other records (another order, one record fewer) and when the file is not a catalogue', async () => {
    const { startIndexJob } = await load();
    const ids = sortedById(entities).map((e) => e.id);
    for (const other of [[...ids].reverse(), ids.slice(1)]) {
      const job = startIndexJob(DATA, 0)!;
      await job.settled;
      expect(job.take(other)).toBeNull();
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-ij-'));
    try {
      fs.mkdirSync(path.join(dir, 'catalogue'));
      fs.writeFileSync(path.join(dir, 'catalogue/entities.json'), '{"entities": [ {"id": ');
      const job = startIndexJob(dir, 0)!;
      await job.settled;
      expect(job.take([])).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not started for a small file or a missing one', async () => {
    const { startIndexJob, INDEX_WORKER_MIN_BYTES } = await load();
    expect(fs.statSync(path.join(DATA, 'catalogue/entities.json')).size).toBeLessThan(INDEX_WORKER_MIN_BYTES);
    expect(startIndexJob(DATA)).toBeNull();
    expect(startIndexJob(path.join(os.tmpdir(), 'rp-absent-dir'), 0)).toBeNull();
  });
});
