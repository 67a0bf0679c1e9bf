/**
 * A large catalogue's prepared start (src/store/catalogue-prepared.ts): written after a start that
 * derived the catalogue, read by the next start of the same file and code instead of parsing it,
 * and never used for another file, another code, or a file that does not hold together. A server
 * on it answers every catalogue read and search as one that read the catalogue itself.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeps, type Deps } from '../../src/deps.js';
import { createLogger } from '../../src/log.js';
import { fileIdentity, hashUnchangedFile, PREPARED_FILE } from '../../src/store/catalogue-prepared.js';
import { catalogueDir, removeCatalogueDirs } from '../support/catalogue-dir.js';
import { testConfig } from '../support/deps.js';

afterAll(removeCatalogueDirs);

/** The shipped records `copies` times (ids suffixed), shuffled or in id order, compact. */
const catalogue = (copies: number, order: 'shuffled' | 'sorted') => catalogueDir({ copies, order, seed: 11, suffix: 'P' });

const preparedOf = (dir: string) => path.join(dir, 'catalogue', PREPARED_FILE);

/** A server on `dir` whose log lines are kept. */
function start(dir: string, opts: { prepared: boolean }): { deps: Deps; lines: string[] } {
  const lines: string[] = [];
  const deps = buildDeps(testConfig({ dataDir: dir }), { log: createLogger('info', (l) => lines.push(l)), indexWorker: opts.prepared ? true : false, preparedStart: opts.prepared });
  return { deps, lines };
}

async function until(what: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A first start on `dir`, until it has written the prepared start. */
async function prepare(dir: string): Promise<void> {
  const first = start(dir, { prepared: true });
  try {
    await first.deps.ready;
    await until(() => fs.existsSync(preparedOf(dir)));
  } finally {
    first.deps.close();
  }
}

/** Every catalogue read and search of `a` equals `b`'s. */
async function sameAnswers(a: Deps, b: Deps, records: Record<string, unknown>[]): Promise<void> {
  await Promise.all([a.ready, b.ready]);
  const ids = [records[0]!.id, records[7]!.id, String(records[3]!.id).toLowerCase(), 'nope', records[records.length - 1]!.id] as string[];
  for (const id of ids) expect(await a.catalogue.get(id), id).toEqual(await b.catalogue.get(id));
  expect(await a.catalogue.getMany(ids)).toEqual(await b.catalogue.getMany(ids));
  expect(await a.catalogue.categories()).toEqual(await b.catalogue.categories());
  expect(await a.catalogue.meta()).toEqual(await b.catalogue.meta());
  for (const p of ['act', 'SEN', 'zz']) expect(await a.catalogue.idsWithPrefix(p, 30), p).toEqual(await b.catalogue.idsWithPrefix(p, 30));
  for (const q of [{}, { category: 'actuators', offset: 5, limit: 10 }, { includeQuarantine: true, offset: 100, limit: 50 }]) expect(await a.catalogue.list(q), JSON.stringify(q)).toEqual(await b.catalogue.list(q));
  expect(a.index.parts()).toEqual(b.index.parts());
  for (const q of [['servo'], ['harmonic', 'drive'], ['谐波'], ['sensor']]) expect(a.index.query(q, { limit: 20 }), q.join(' ')).toEqual(b.index.query(q, { limit: 20 }));
  // Every spec field's column, built from what the start kept of each record (SpecSource), for every record: b's, built from the records.
  const fields = a.specs.fields.map((f) => f.name);
  a.specs.prepare(fields);
  for (const f of fields) {
    expect(a.specs.appliesTo(f), f).toEqual(b.specs.appliesTo(f));
    for (const e of records) {
      expect(a.specs.fieldSpecs(String(e.id), f), `${f} ${String(e.id)}`).toEqual(b.specs.fieldSpecs(String(e.id), f));
      expect(a.specs.fieldUnread(String(e.id), f), `${f} ${String(e.id)}`).toEqual(b.specs.fieldUnread(String(e.id), f));
    }
  }
  expect(await a.catalogue.all()).toEqual(await b.catalogue.all());
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('a prepared start', () => {
  for (const order of ['shuffled', 'sorted'] as const) {
    it(`is written after a start that derived the catalogue, and the next start reads it instead (${order} ids)`, async () => {
      const { dir, records } = catalogue(2, order);
      const first = start(dir, { prepared: true });
      const plain = start(dir, { prepared: false });
      try {
        await first.deps.ready;
        // The log line comes once the rename has been seen (the file can be there a moment before).
        await until(() => first.lines.join('').includes('prepared start written'));
        expect(fs.existsSync(preparedOf(dir))).toBe(true);
        // Keyed by the catalogue file's bytes (hashed here independently).
        expect(fs.readFileSync(preparedOf(dir), 'latin1').slice(0, 4096)).toContain(sha256(path.join(dir, 'catalogue/entities.json')));
        const second = start(dir, { prepared: true });
        try {
          expect(second.lines.join('')).toContain('catalogue read from its prepared start');
          await sameAnswers(second.deps, plain.deps, records);
          await sameAnswers(first.deps, plain.deps, records);
        } finally {
          second.deps.close();
        }
      } finally {
        first.deps.close();
        plain.deps.close();
      }
    });
  }

  it('is not used for a changed catalogue file (derived again, and prepared again for the new bytes)', async () => {
    const { dir, records } = catalogue(1, 'shuffled');
    await prepare(dir);
    const before = fs.readFileSync(preparedOf(dir));
    // One record renamed, same size of file.
    const file = path.join(dir, 'catalogue/entities.json');
    const text = fs.readFileSync(file, 'utf8');
    const name = String(records[5]!.name);
    const renamed = name.slice(0, -1) + (name.endsWith('X') ? 'Y' : 'X');
    fs.writeFileSync(file, text.replace(JSON.stringify(name), JSON.stringify(renamed)));
    const second = start(dir, { prepared: true });
    try {
      await second.deps.ready;
      expect(second.lines.join('')).toContain('prepared start not used');
      expect((await second.deps.catalogue.get(String(records[5]!.id)))?.name).toBe(renamed);
      await until(() => !fs.readFileSync(preparedOf(dir)).equals(before));
      expect(fs.readFileSync(preparedOf(dir), 'latin1').slice(0, 4096)).toContain(sha256(file));
      const third = start(dir, { prepared: true });
      try {
        expect(third.lines.join('')).toContain('catalogue read from its prepared start');
        expect((await third.deps.catalogue.get(String(records[5]!.id)))?.name).toBe(renamed);
      } finally {
        third.deps.close();
      }
    } finally {
      second.deps.close();
    }
  });

  it('is not written when the catalogue file is written in place after its records were read; the next start derives it and prepares it for the new bytes', async () => {
    const { dir, records } = catalogue(1, 'shuffled');
    const file = path.join(dir, 'catalogue/entities.json');
    const first = start(dir, { prepared: true });
    try {
      // The records are read (buildDeps returns after the read); then one name changes, in place, same size (an ASCII name).
      const text = fs.readFileSync(file, 'utf8');
      const k = records.findIndex((r) => /^[ -~]*[A-Za-z]$/.test(String(r.name)));
      const name = String(records[k]!.name);
      const renamed = name.slice(0, -1) + (name.endsWith('X') ? 'Y' : 'X');
      fs.writeFileSync(file, text.replace(JSON.stringify(name), JSON.stringify(renamed)));
      expect(fs.statSync(file).size).toBe(Buffer.byteLength(text));
      await first.deps.ready;
      await until(() => first.lines.join('').includes('prepared start not written'));
      expect(first.lines.join('')).toContain('the catalogue file changed after its records were read');
      expect(fs.existsSync(preparedOf(dir))).toBe(false);
      const second = start(dir, { prepared: true });
      try {
        await second.deps.ready;
        expect(second.lines.join('')).not.toContain('catalogue read from its prepared start');
        expect((await second.deps.catalogue.get(String(records[k]!.id)))?.name).toBe(renamed);
        await until(() => second.lines.join('').includes('prepared start written'));
        expect(fs.readFileSync(preparedOf(dir), 'latin1').slice(0, 4096)).toContain(sha256(file));
      } finally {
        second.deps.close();
      }
    } finally {
      first.deps.close();
    }
  });

  it("hashUnchangedFile: the file's SHA-256 while it is the file its identity was taken of; null once it was written in place, replaced, cut or removed", async () => {
    const { dir } = catalogue(1, 'sorted');
    const file = path.join(dir, 'catalogue/entities.json');
    const text = fs.readFileSync(file);
    const identityOf = (f: string) => {
      const fd = fs.openSync(f, 'r');
      try {
        return fileIdentity(fd);
      } finally {
        fs.closeSync(fd);
      }
    };
    let id = identityOf(file);
    expect(await hashUnchangedFile(file, id)).toEqual({ sha256: sha256(file), bytes: text.length });
    // Written in place with the same bytes: its times moved.
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(file, text);
    expect(await hashUnchangedFile(file, id)).toBeNull();
    // The modification time set back: the change time still moved.
    id = identityOf(file);
    await new Promise((r) => setTimeout(r, 20));
    const st = fs.statSync(file);
    fs.writeFileSync(file, text);
    fs.utimesSync(file, st.atime, st.mtime);
    expect(await hashUnchangedFile(file, id)).toBeNull();
    // Another file renamed into its place, the same bytes.
    id = identityOf(file);
    fs.writeFileSync(`${file}.new`, text);
    fs.renameSync(`${file}.new`, file);
    expect(await hashUnchangedFile(file, id)).toBeNull();
    // Cut.
    id = identityOf(file);
    fs.truncateSync(file, text.length - 10);
    expect(await hashUnchangedFile(file, id)).toBeNull();
    // Removed.
    id = identityOf(file);
    fs.rmSync(file);
    expect(await hashUnchangedFile(file, id)).toBeNull();
  });

  it('is not used when made by other code, or when it does not hold together; the start derives the catalogue', async () => {
    const { dir, records } = catalogue(1, 'shuffled');
    await prepare(dir);
    const good = fs.readFileSync(preparedOf(dir));
    const headerLength = good.readUInt32LE(8);
    const header = JSON.parse(good.toString('utf8', 16, 16 + headerLength)) as { key: { code_sha256: string }; sections: Record<string, [number, number, string]>; sections_sha256: string };
    const base = 16 + ((headerLength + 7) & ~7);
    const variants: [string, Buffer][] = [];
    /** The sections' checksum made to match them again (so that the structure checks, not the checksum, refuse the file). */
    const resum = (b: Buffer): Buffer => {
      b.write(createHash('sha256').update(b.subarray(base)).digest('hex'), b.indexOf(header.sections_sha256, 16, 'latin1'), 'latin1');
      return b;
    };
    // Damaged on disk: one posting's field changed (still a field: only the checksum tells), the checksum left as it was.
    const damaged = Buffer.from(good);
    damaged[base + header.sections.postField![0] + 3] ^= 1;
    variants.push(['damaged', damaged]);
    // Another code stamp (same length: the sections stay where they are).
    const other = Buffer.from(good);
    other.write(header.key.code_sha256.replace(/^./, (c) => (c === '0' ? '1' : '0')), good.indexOf(header.key.code_sha256, 16, 'latin1'), 'latin1');
    variants.push(['other code', other]);
    // A posting pointing past the documents.
    const badPosting = Buffer.from(good);
    badPosting.writeInt32LE(records.length + 5, base + header.sections.postDoc![0]);
    variants.push(['posting out of range', resum(badPosting)]);
    // Cut short.
    variants.push(['truncated', good.subarray(0, good.length - 100)]);
    // Ids out of order (two ids swapped in their section, same length).
    const ids = JSON.parse(good.toString('utf8', base + header.sections.ids![0], base + header.sections.ids![0] + header.sections.ids![1])) as string[];
    const swapped = Buffer.from(good);
    const a = ids.findIndex((x, i) => i > 0 && x.length === ids[0]!.length);
    [ids[0], ids[a]] = [ids[a]!, ids[0]!];
    Buffer.from(JSON.stringify(ids)).copy(swapped, base + header.sections.ids![0]);
    variants.push(['ids swapped', resum(swapped)]);
    for (const [what, bytes] of variants) {
      fs.writeFileSync(preparedOf(dir), bytes);
      const s = start(dir, { prepared: true });
      try {
        await s.deps.ready;
        expect(s.lines.join(''), what).not.toContain('catalogue read from its prepared start');
        expect((await s.deps.catalogue.get(String(records[0]!.id)))?.id, what).toBe(records[0]!.id);
        expect(s.deps.index.query(['servo'], { limit: 5 }).total, what).toBeGreaterThan(0);
      } finally {
        s.deps.close();
      }
    }
  });

  it('a write removes the temporaries an ended process left (killed mid-write), never one of a running process', async () => {
    const { dir } = catalogue(1, 'shuffled');
    // A process that has ended: its pid is free (a new process would have to reuse it within this test).
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(ended.stdout);
    expect(deadPid).toBeGreaterThan(0);
    const left = `${PREPARED_FILE}.${deadPid}.abc123.tmp`;
    const running = `${PREPARED_FILE}.${process.pid}.def456.tmp`;
    const other = `${PREPARED_FILE}.notes.txt`;
    for (const name of [left, running, other]) fs.writeFileSync(path.join(dir, 'catalogue', name), 'x');
    await prepare(dir);
    const names = fs.readdirSync(path.join(dir, 'catalogue'));
    expect(names).not.toContain(left);
    expect(names).toContain(running);
    expect(names).toContain(other);
    expect(names).toContain(PREPARED_FILE);
  });

  it('a folder where it cannot be written or read: the start derives the catalogue and serves', async () => {
    const { dir, records } = catalogue(1, 'shuffled');
    fs.mkdirSync(preparedOf(dir)); // a folder in its place: neither readable nor replaceable as a file
    const s = start(dir, { prepared: true });
    try {
      await s.deps.ready;
      expect((await s.deps.catalogue.get(String(records[2]!.id)))?.id).toBe(records[2]!.id);
      await until(() => s.lines.join('').includes('prepared start not written'));
      expect(fs.statSync(preparedOf(dir)).isDirectory()).toBe(true);
      expect(fs.readdirSync(path.join(dir, 'catalogue')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      s.deps.close();
    }
  });
});
