/**
 * Everything a handler needs, passed in explicitly (no module-level mutable state).
 * `buildDeps` wires the defaults: SQLite file, shipped data, search index.
 */
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { StoredEntity } from './domain/entity.js';
import { SearchIndex } from './domain/search.js';
import { createLogger, type Logger } from './log.js';
import type { Catalogue } from './store/catalogue.js';
import { openDb, type Db } from './store/db.js';
import { loadCatalogueIntoDb, readCatalogueData, SqliteCatalogue, type CatalogueData } from './store/sqlite-catalogue.js';

export interface Deps {
  config: Config;
  clock: Clock;
  log: Logger;
  catalogue: Catalogue;
  index: SearchIndex;
  /** Closes what the deps opened (the database). */
  close(): void;
}

export interface BuildOptions {
  clock?: Clock;
  log?: Logger;
  /** Catalogue data to load instead of reading config.dataDir (tests). */
  catalogueData?: CatalogueData;
}

export function buildDeps(config: Config, opts: BuildOptions = {}): Deps {
  const log = opts.log ?? createLogger(config.logLevel);
  const data = opts.catalogueData ?? readCatalogueData(config.dataDir);
  const db: Db = openDb(config.dbPath);
  try {
    loadCatalogueIntoDb(db, data);
  } catch (err) {
    db.close();
    throw err;
  }
  const catalogue = new SqliteCatalogue(db);
  const index = new SearchIndex(data.entities);
  log.info('catalogue loaded', { entities: data.entities.length, db: config.dbPath, dataset_version: data.meta.dataset_version });
  return {
    config,
    clock: opts.clock ?? systemClock,
    log,
    catalogue,
    index,
    close: () => {
      if (db.open) db.close();
    },
  };
}

export type { StoredEntity };
