/**
 * SQLite implementation of the Catalogue. At start the shipped dataset (data/catalogue/)
 * replaces the catalogue tables in one transaction, so the file always holds one whole
 * version of the catalogue, never a half-written one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { StoredEntity } from '../domain/entity.js';
import { DomainError } from '../domain/errors.js';
import type { Catalogue, CatalogueMeta, CategoryInfo, ListQuery } from './catalogue.js';
import type { Db } from './db.js';
import { readJsonRecords } from './json-records.js';
import { compileAcceptor } from './zod-acceptor.js';

export const CatalogueFile = z.object({
  meta: z
    .object({
      dataset_version: z.string(),
      license: z.string(),
      attribution: z.string(),
      source: z.string(),
      snapshot_commit: z.string().nullable().optional(),
      imported_at: z.string().nullable().optional(),
    })
    .passthrough(),
  entities: z.array(z.unknown()),
});

export const CategoriesFile = z.object({
  categories: z.array(z.object({ slug: z.string(), name: z.string(), spec_name: z.string().nullable() })),
});

export interface CatalogueData {
  meta: CatalogueMeta;
  categories: { slug: string; name: string; spec_name: string | null }[];
  entities: StoredEntity[];
}

const acceptRecord = compileAcceptor(StoredEntity);

/** Reads and validates data/catalogue/. Throws with the offending record id on invalid data. */
export function readCatalogueData(dataDir: string): CatalogueData {
  const dir = path.join(dataDir, 'catalogue');
  const entFile = path.join(dir, 'entities.json');
  const catFile = path.join(dir, 'categories.json');
  if (!fs.existsSync(entFile)) {
    return {
      meta: { dataset_version: 'empty', license: 'CC BY 4.0', attribution: 'Data: RoboParts (https://roboparts.cc), CC BY 4.0', source: 'none', snapshot_commit: null, imported_at: null },
      categories: [],
      entities: [],
    };
  }
  const validate = (raw: unknown, i: number): StoredEntity => {
    // A record the fast acceptor takes is exactly what zod would give back (src/store/zod-acceptor.ts).
    if (acceptRecord?.(raw)) return raw as StoredEntity;
    const r = StoredEntity.safeParse(raw);
    if (!r.success) {
      const id = (raw as { id?: string })?.id ?? `#${i}`;
      throw new Error(`data/catalogue/entities.json: record ${id} is invalid: ${r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
    }
    return r.data;
  };
  // Record by record (a 100 MB file parsed whole grows the heap to several times what is kept);
  // anything but `{..., "entities": [...]}` is parsed whole, which also reports invalid JSON.
  const bytes = fs.readFileSync(entFile);
  let entities: StoredEntity[] = [];
  const members = readJsonRecords(bytes, 'entities', (raw, i) => entities.push(validate(raw, i)));
  let file: z.infer<typeof CatalogueFile>;
  if (members) {
    file = CatalogueFile.parse({ ...members, entities: [] });
  } else {
    file = CatalogueFile.parse(JSON.parse(bytes.toString('utf8')));
    entities = file.entities.map(validate);
  }
  const categories = fs.existsSync(catFile) ? CategoriesFile.parse(JSON.parse(fs.readFileSync(catFile, 'utf8'))).categories : [];
  const m = file.meta;
  return {
    meta: {
      dataset_version: m.dataset_version,
      license: m.license,
      attribution: m.attribution,
      source: m.source,
      snapshot_commit: m.snapshot_commit ?? null,
      imported_at: m.imported_at ?? null,
    },
    categories,
    entities,
  };
}

/**
 * Throws when an open-source-layer id is also a catalogue id (case-insensitive) or appears twice:
 * a lookup by id must resolve to exactly one record. The "OSS-" prefix is the layer's (spec id
 * shapes), so a catalogue id using it is refused too: answers label such ids as layer records.
 */
export function checkOssIds(data: CatalogueData, oss: readonly StoredEntity[]): void {
  const taken = data.entities.find((e) => /^oss-/i.test(e.id));
  if (taken) throw new Error(`data/catalogue/entities.json: id ${taken.id} uses the prefix OSS-, reserved for the open-source layer`);
  const seen = new Set(data.entities.map((e) => e.id.toLowerCase()));
  for (const e of oss) {
    const k = e.id.toLowerCase();
    if (seen.has(k)) throw new Error(`data/oss/oss_components.json: id ${e.id} is already used by another record`);
    seen.add(k);
  }
}

/**
 * Replaces the catalogue and the open-source-layer records in one transaction. `oss` records
 * (ossToStored() output) are reachable by id only; listings, counts and categories never see them.
 */
export function loadCatalogueIntoDb(db: Db, data: CatalogueData, oss: readonly StoredEntity[] = []): void {
  checkOssIds(data, oss);
  db.transaction(() => {
    db.exec('DELETE FROM catalogue_entities; DELETE FROM catalogue_categories; DELETE FROM catalogue_meta; DELETE FROM oss_entities;');
    const ins = db.prepare('INSERT INTO catalogue_entities (id, id_lower, category, quarantine, doc) VALUES (?, ?, ?, ?, ?)');
    for (const e of data.entities) ins.run(e.id, e.id.toLowerCase(), e.category, e.quarantine ? 1 : 0, JSON.stringify(e));
    const insOss = db.prepare('INSERT INTO oss_entities (id, id_lower, doc) VALUES (?, ?, ?)');
    for (const e of oss) insOss.run(e.id, e.id.toLowerCase(), JSON.stringify(e));
    const cat = db.prepare('INSERT INTO catalogue_categories (slug, name, spec_name, position) VALUES (?, ?, ?, ?)');
    const known = new Set<string>();
    data.categories.forEach((c, i) => {
      cat.run(c.slug, c.name, c.spec_name, i);
      known.add(c.slug);
    });
    // A category used by records but missing from categories.json still gets listed.
    let pos = data.categories.length;
    for (const slug of [...new Set(data.entities.map((e) => e.category))].sort()) {
      if (!known.has(slug)) cat.run(slug, slug, null, pos++);
    }
    db.prepare('INSERT INTO catalogue_meta (key, value) VALUES (?, ?)').run('meta', JSON.stringify(data.meta));
  })();
}

type Row = { doc: string };

export class SqliteCatalogue implements Catalogue {
  /** Prepared statements by SQL text: preparing on every call cost ~12% of a search request. */
  private readonly stmts = new Map<string, Database.Statement>();

  constructor(private readonly db: Db) {}

  private prepare(sql: string): Database.Statement {
    let st = this.stmts.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.stmts.set(sql, st);
    }
    return st;
  }

  /** Runs a read; any driver failure (closed or corrupt file) becomes store_unavailable. */
  private read<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(
        new DomainError('store_unavailable', 'The entity store is unavailable; try again shortly.', {
          cause_kind: err instanceof Error ? err.name : 'unknown',
        }),
      );
    }
  }

  private parse(rows: Row[]): StoredEntity[] {
    return rows.map((r) => JSON.parse(r.doc) as StoredEntity);
  }

  get(id: string) {
    return this.read(() => {
      const k = id.toLowerCase();
      // Ids are unique across both tables (checkOssIds), so at most one row matches.
      const row = this
        .prepare('SELECT doc FROM catalogue_entities WHERE id_lower = ? UNION ALL SELECT doc FROM oss_entities WHERE id_lower = ?')
        .get(k, k) as Row | undefined;
      return row ? (JSON.parse(row.doc) as StoredEntity) : null;
    });
  }

  probe() {
    return this.read(() => {
      this.prepare('SELECT 1').get();
    });
  }

  getMany(ids: readonly string[]) {
    return this.read(() => {
      if (ids.length === 0) {
        this.prepare('SELECT 1').get(); // still touch the store: a closed store must not answer "nothing"
        return [];
      }
      const byId = new Map<string, StoredEntity>();
      const stmt = this.prepare(
        `SELECT doc FROM catalogue_entities WHERE id_lower IN (SELECT value FROM json_each(?))
         UNION ALL SELECT doc FROM oss_entities WHERE id_lower IN (SELECT value FROM json_each(?))`,
      );
      const keys = JSON.stringify(ids.map((i) => i.toLowerCase()));
      for (const e of this.parse(stmt.all(keys, keys) as Row[])) byId.set(e.id.toLowerCase(), e);
      return ids.map((i) => byId.get(i.toLowerCase())).filter((e): e is StoredEntity => e !== undefined);
    });
  }

  list(q: ListQuery) {
    return this.read(() => {
      const where: string[] = [];
      const args: unknown[] = [];
      if (q.category) {
        where.push('category = ?');
        args.push(q.category);
      }
      if (!q.includeQuarantine) where.push('quarantine = 0');
      const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = (this.prepare(`SELECT COUNT(*) AS n FROM catalogue_entities ${w}`).get(...args) as { n: number }).n;
      const rows = this
        .prepare(`SELECT doc FROM catalogue_entities ${w} ORDER BY id_lower LIMIT ? OFFSET ?`)
        .all(...args, q.limit ?? -1, q.offset ?? 0) as Row[];
      return { total, items: this.parse(rows) };
    });
  }

  all() {
    return this.read(() => this.parse(this.prepare('SELECT doc FROM catalogue_entities ORDER BY id_lower').all() as Row[]));
  }

  categories() {
    return this.read(() => {
      const rows = this
        .prepare(
          `SELECT c.slug, c.name, c.spec_name, COUNT(e.id) AS count
           FROM catalogue_categories c LEFT JOIN catalogue_entities e ON e.category = c.slug
           GROUP BY c.slug, c.name, c.spec_name, c.position ORDER BY c.position`,
        )
        .all() as CategoryInfo[];
      return rows;
    });
  }

  idsWithPrefix(prefix: string, limit: number) {
    return this.read(() => {
      const p = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = this
        .prepare(
          `SELECT id, id_lower FROM catalogue_entities WHERE id_lower LIKE ? ESCAPE '\\'
           UNION ALL SELECT id, id_lower FROM oss_entities WHERE id_lower LIKE ? ESCAPE '\\'
           ORDER BY id_lower LIMIT ?`,
        )
        .all(`${p}%`, `${p}%`, limit) as { id: string }[];
      return rows.map((r) => r.id);
    });
  }

  meta() {
    return this.read(() => {
      const row = this.prepare(`SELECT value FROM catalogue_meta WHERE key = 'meta'`).get() as { value: string } | undefined;
      if (!row) throw new Error('catalogue meta missing');
      return JSON.parse(row.value) as CatalogueMeta;
    });
  }
}
