/**
 * Everything a handler needs, passed in explicitly (no module-level mutable state).
 * `buildDeps` wires the defaults: SQLite file, shipped data, search index. `openDeps` also
 * wires the PostgreSQL backend (config.databaseUrl): accounts, ledger, rate limits and orders
 * in the shared database, the catalogue read-only in memory from data/ as on every instance.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { adoptionOf, buildIntelligence, referenceYear, type Intelligence } from './domain/analytics/document.js';
import type { Adoption } from './domain/analytics/adoption.js';
import { AccountService } from './domain/accounts/service.js';
import { KeyedDigests, parseMailboxRules } from './domain/accounts/keys.js';
import { systemClock, type Clock } from './domain/shared/clock.js';
import type { StoredEntity } from './domain/catalogue/entity.js';
import type { FastenerTable } from './domain/plates/fasteners.js';
import { createPaymentGateway, type PaymentGateway, type PlanCatalog } from './domain/payments/index.js';
import { idsInGivenOrder, SearchIndex, type WarmWords } from './domain/catalogue/search.js';
import { SEARCH_LIMIT_DEFAULT } from './domain/catalogue/parts.js';
import { SpecIndex } from './domain/specs/index.js';
import { defaultSpecFields } from './domain/specs/fields.js';
import { analyticsSpecFields, recordScores } from './domain/analytics/spec-fields.js';
import type { ManufacturerTable } from './domain/specs/manufacturers.js';
import { readOssLayer, type OssDocument } from './ingest/oss/layer.js';
import { ossToStored } from './ingest/oss/records.js';
import { liveDocument } from './ingest/oss/refresh.js';
import { sqliteLiveSnapshot, type LiveLayerSnapshot } from './store/oss-live-store.js';
import { whereUsedLayer } from './ingest/oss/where-used-layer.js';
import type { WhereUsedLayer } from './domain/oss/where-used.js';
import { createLogger, type Logger } from './log.js';
import type { Catalogue } from './store/catalogue.js';
import { knowledgeOf, loadDatasets, type Knowledge } from './store/datasets.js';
import { durability, openDb, type Db } from './store/db.js';
import type { Ledger, PaymentOrderStore, RateLimiter } from './store/ledger.js';
import { ossBomLines, readAnalyticsTables } from './store/analytics-files.js';
import { AnswerCache } from './store/answer-cache.js';
import { recordsInMemory, recordsLazily, type LazyRecords, type SortedRecords } from './store/catalogue-records.js';
import { MemoryCatalogue } from './store/memory-catalogue.js';
import type { StoreHealth } from './store/pg.js';
import { checkOssIds, preparedCatalogueData, readCatalogueData, type CatalogueData, type DerivedColumns } from './store/catalogue-data.js';
import { hashUnchangedFile, openPrepared, preparedCodeStamp, preparedPath, writePrepared } from './store/catalogue-prepared.js';
import { fileSize, IndexBuild, indexOver, INDEX_WORKER_MIN_BYTES, type IndexBuildOptions, type WarmWordsAsk } from './store/search-index-build.js';
import { sqliteAccountStores } from './store/sqlite-ledger.js';
import { readManufacturers } from './store/spec-data.js';
import { StoreOutages } from './store/outage.js';
import { loadOrCreateSecret } from './secret.js';
import { createJobRunner } from './jobs/pool.js';
import type { JobRunner, JobsFactory } from './jobs/types.js';

export interface Deps {
  config: Config;
  clock: Clock;
  log: Logger;
  catalogue: Catalogue;
  index: SearchIndex;
  /** The spec layer (typed specs, same_as links, manufacturer names), built once at start. */
  specs: SpecIndex;
  accounts: AccountService;
  rateLimiter: RateLimiter;
  payments: { gateway: PaymentGateway; plans: PlanCatalog };
  /** Registries loaded from data/: ISO 9409-1 flanges, bus facts, suppliers, 3D-print rules of thumb. */
  knowledge: Knowledge;
  /** The account store's backend and health (/healthz). */
  store: { backend: 'sqlite' | 'postgres'; health(): Promise<StoreHealth> };
  /** Store outages, logged once per change of state (down, then up with the calls refused meanwhile). */
  outages: StoreOutages;
  /** Keyed digests (server secret): e-mails, keys, pay-page tokens. */
  digests: KeyedDigests;
  /**
   * Settles when the store is bound to the server secret (legacy digests re-keyed) and the search
   * index is built (a large catalogue's is finished on a worker thread after buildDeps returns);
   * rejects when the database was keyed with another secret or the index could not be built.
   * Servers await it before serving.
   */
  ready: Promise<void>;
  /** The open-source layer's BOM lines and URDF mentions, for where-used (empty when the dataset is absent). */
  ossLayer: WhereUsedLayer;
  /**
   * The live open-source layer (issue 45): the document `sources refresh` wrote into the database,
   * or null when it holds none (readers then use the shipped data/oss document).
   */
  liveOssDocument(): OssDocument | null;
  /**
   * Reads the live layer again (after a refresh): where-used, the layer's resources and pages
   * follow at once, and so do the layer's records by id (get_part); resolves to the run now
   * served (0: none).
   */
  reloadOssLayer(): Promise<number>;
  /** TRL, momentum and the intelligence document, computed once (on first use) from the loaded data (immutable). */
  analytics: Intelligence;
  /** Finished answers of the cacheable catalogue tools (bounded; config.answerCacheEntries, 0 = off). */
  answers: AnswerCache;
  /**
   * CPU-heavy jobs (lint, extract, large BOM checks and exports) off the event loop: a bounded
   * worker pool with per-job limits (src/jobs/pool.ts; workers start on first use), created by the
   * composition root (BuildOptions.jobs).
   */
  jobs: JobRunner;
  /**
   * Calls `listener` after each lazy build of derived data (the spec layer's rows, its same_as
   * links, the analytics document: built on the first call that needs them); returns the
   * unsubscribe. The HTTP server uses it to release the build's garbage (src/compact-heap.ts).
   */
  onLazyBuild(listener: (built: LazyBuild) => void): () => void;
  /**
   * The HTTP server calls it as each request arrives: a large catalogue's background reading
   * gives way while requests are coming (src/store/catalogue-records.ts, BackgroundPace).
   */
  requestSeen?(): void;
  /** The words a new instance asks its search before it serves (a lazily read catalogue's most frequent; else none). */
  warmUpWords(): readonly string[];
  /**
   * Words its warm-up then answers again and again without a connection, so that the answer
   * path's code is compiled (a lazily read catalogue's least frequent words that still fill a page
   * of answers: cheap to answer; else none). src/http/warm-up.ts, compileAnswers.
   */
  warmUpNarrowWords(): readonly string[];
  /** Closes what the deps opened (the database; the PostgreSQL pool asynchronously). */
  close(): void | Promise<void>;
}

/** What a lazy build made, over how many records ('records': a large catalogue's records all read, after the start). */
export interface LazyBuild {
  what: 'spec_rows' | 'same_as' | 'analytics' | 'records';
  records: number;
}

/** How long each slice of the background reading of a lazily read catalogue's records runs before requests get their turn. */
const BACKGROUND_READ_SLICE_MS = 4;
/** The background reading waits while a request was seen in the last QUIET ms, at most MAX_WAIT ms between slices. */
const BACKGROUND_READ_QUIET_MS = 20;
const BACKGROUND_READ_MAX_WAIT_MS = 250;
/**
 * A lazily read (large) catalogue's server warms its answers before it serves: the most frequent
 * words of its names, makers and types, each asked once over the server's own answer path
 * (src/http/warm-up.ts), so that a new instance's first broad searches do not pay for compiling
 * it, reading their records and preparing their bytes (issue 47: at 100,000 records the first 40
 * broad searches took 5-6 ms each).
 */
const WARM_WORDS = 64;
/** The fields whose words people search by: a warm-up word is frequent there. */
const WARM_FIELDS = ['name', 'manufacturer', 'type'] as const;
/**
 * Then, without a connection, words that each fill a page of answers (SEARCH_LIMIT_DEFAULT records
 * or more) while matching few, answered again and again so that the answer path's code is compiled
 * (src/http/warm-up.ts, compileAnswers).
 */
const WARM_NARROW_WORDS = 64;
/** What the warm-up's words are counted with (SearchIndex.wordsByCount), on the index's worker when it has one. */
export const WARM_ASK: WarmWordsAsk = { n: WARM_WORDS, narrowN: WARM_NARROW_WORDS, minDocs: SEARCH_LIMIT_DEFAULT, fields: WARM_FIELDS };

interface AccountStores {
  ledger: Ledger;
  rateLimiter: RateLimiter;
  orders: PaymentOrderStore;
}

export interface BuildOptions {
  clock?: Clock;
  log?: Logger;
  /** Catalogue data to load instead of reading config.dataDir (tests). */
  catalogueData?: CatalogueData;
  /**
   * Open-source-layer records (ossToStored output) to load instead of reading
   * data/oss/oss_components.json (tests). Resolvable by id only; never listed or counted.
   */
  ossEntities?: readonly StoredEntity[];
  /**
   * Read the catalogue (and build its indexes and analytics) when first needed instead of at
   * start: stdio answers initialize and tools/list without it. Bad catalogue data then fails the
   * first call that needs it, not the start. SQLite only (PostgreSQL checks the dataset version
   * at start).
   */
  deferCatalogue?: boolean;
  /**
   * Build the search index on a worker thread while the catalogue is read: true (or the worker's
   * options: tests) / false, or by default when data/catalogue/entities.json is large
   * (INDEX_WORKER_MIN_BYTES). Never with `catalogueData` or `deferCatalogue` (the index is then
   * built on the calling thread).
   */
  indexWorker?: boolean | IndexBuildOptions;
  /**
   * A large catalogue's prepared start (src/store/catalogue-prepared.ts): read it when it matches
   * the file and this code, and write it after a start that derived the catalogue. By default for
   * catalogue files of INDEX_WORKER_MIN_BYTES and more; true: also for a smaller one read lazily
   * (tests, in a folder of their own); false: never.
   */
  preparedStart?: boolean;
  /**
   * The job runner (worker pool) the composition root creates (src/compose.ts), given the
   * registries once they are read. Without it, a pool that knows no tool: offloaded tools still
   * run in its workers (their entry holds the registry), but not at pool size 0 (refused, naming
   * src/compose.ts).
   */
  jobs?: JobsFactory;
}

/** The shipped registries: small files, always read at start. */
interface Registries {
  plans: PlanCatalog;
  knowledge: Deps['knowledge'];
  manufacturers: ManufacturerTable;
}

/** The catalogue and what is built from it once: records, indexes, the open-source layer, analytics. */
interface CatalogueParts {
  data: CatalogueData;
  /** Catalogue records. */
  size: number;
  /** Open-source-layer records resolvable by id. */
  ossCount: number;
  catalogue: MemoryCatalogue;
  index: SearchIndex;
  /** Settles when the index is built (at once unless it is built on a worker); rejects with its failure. */
  indexReady: Promise<void>;
  specs: SpecIndex;
  ossLayer: WhereUsedLayer;
  /** Where-used over another layer document (a live refresh); the catalogue's makers as at start. */
  whereUsedOf: (doc: OssDocument | null) => WhereUsedLayer;
  analytics: Intelligence;
  /** The warm-up's words (WARM_ASK) when the index's worker counted them, once the index is built; else null. */
  warmWords(): WarmWords | null;
}

/** The live layer as the database last gave it (set before the catalogue parts are built). */
interface LiveLayer {
  doc: OssDocument | null;
  run: number;
}

function liveOf(snap: LiveLayerSnapshot | null): LiveLayer {
  return snap ? { doc: liveDocument(snap), run: snap.run.run } : { doc: null, run: 0 };
}

/** What the catalogue parts need of the search index made apart from them (IndexBuild: on a worker; a prepared start's: read). */
interface IndexSource {
  complete(records: SortedRecords): void;
  index(): SearchIndex;
  readonly ready: Promise<void>;
  abandon(): void;
  /** The warm-up's words when counted apart (on the worker), else null. */
  warmWords(): WarmWords | null;
}

/** The search index made apart (on a worker, or read from a prepared start), and the catalogue's records in the id order it numbers documents by. */
interface IndexOnWorker {
  build: IndexSource;
  records: SortedRecords;
}

/** The catalogue, its records in id order and its index from a prepared start, or null (none, not this file's or this code's, unreadable). */
function preparedStart(dataDir: string, log: Logger): { data: CatalogueData; on: IndexOnWorker } | null {
  const file = preparedPath(dataDir);
  if (!fs.existsSync(file)) return null;
  const fd = fs.openSync(path.join(dataDir, 'catalogue/entities.json'), 'r');
  let data: CatalogueData | null = null;
  let used = false;
  const notUsed = () => log.info('prepared start not used: another catalogue file or code, or unreadable; deriving the catalogue', { file });
  // Built on while the worker still checks its bytes; used only once they hold.
  const pending = openPrepared(file, fd);
  try {
    if (!pending) {
      notUsed();
      return null;
    }
    const p = pending.start;
    // The ids in the order kept (checked in one pass: a file out of order is not this catalogue's prepared start).
    const order = idsInGivenOrder(p.columns.ids, p.positions);
    if (!order) {
      log.warn('prepared start not used: its ids are out of order; deriving the catalogue', { file });
      return null;
    }
    data = preparedCatalogueData(dataDir, fd, p.members, p.columns, p.specSources);
    const records = recordsLazily(data.lazy!, order);
    const index = indexOver(records, p.postings);
    if (!pending.checked()) {
      notUsed();
      return null;
    }
    const build: IndexSource = { complete: () => {}, index: () => index, ready: Promise.resolve(), abandon: () => {}, warmWords: () => null };
    log.info('catalogue read from its prepared start', { file, records: records.size });
    used = true;
    return { data, on: { build, records } };
  } catch (err) {
    log.warn('prepared start not used', { file, error: err instanceof Error ? err.message : String(err) });
    return null;
  } finally {
    // The worker may read the descriptor until it has answered; then what is not used is closed
    // (the lazily read records own the descriptor once made).
    pending?.checked();
    if (!used) {
      if (data) data.lazy?.close();
      else fs.closeSync(fd);
    }
  }
}

/**
 * Writes the prepared start of a catalogue this start derived, once its index is built and every
 * record read again (in the background: the server does not wait), keyed by the catalogue file's
 * hash taken then, when it is still the file the records were read from (hashUnchangedFile).
 */
function prepareNextStart(dataDir: string, log: Logger, derived: DerivedColumns, on: IndexOnWorker, lazy: LazyRecords): void {
  const code = preparedCodeStamp();
  if (code === null) return;
  const positions = on.records.positions;
  // Once the index is built and every record read again (their spec sources made as they are read).
  const sourcesRead = lazy.specSourcesWhenRead();
  if (sourcesRead === null) return;
  const file = preparedPath(dataDir);
  Promise.all([on.build.ready, sourcesRead]).then(
    async ([, specSources]) => {
      const hash = await hashUnchangedFile(derived.file, derived.identity);
      if (hash === null) {
        log.warn('prepared start not written: the catalogue file changed after its records were read; the next start derives it again', { file: derived.file });
        return;
      }
      const { vocab, tokStart, postDoc, postField, docStart, docTok, docField } = on.build.index().parts();
      const key = { entities_sha256: hash.sha256, bytes: hash.bytes, code_sha256: code };
      const start = { members: derived.members, columns: derived.columns, positions: positions === null ? null : Int32Array.from(positions), postings: { vocab, tokStart, postDoc, postField, docStart, docTok, docField }, specSources };
      if (await writePrepared(file, key, start)) log.info('prepared start written: the next start reads it instead of deriving the catalogue', { file });
      else log.warn('prepared start not written (the catalogue folder cannot be written); each start derives the catalogue', { file });
    },
    () => {},
  ).catch((err: unknown) => log.warn('prepared start not written', { file, error: err instanceof Error ? err.message : String(err) }));
}

interface LoadedData {
  registries: Registries;
  /** Listeners of lazy builds (Deps.onLazyBuild). */
  lazyBuildListeners: Set<(built: LazyBuild) => void>;
  /** The catalogue parts, built on the first call (given the store's probe); the same object after. */
  catalogueParts: (probe: () => void) => CatalogueParts;
  /** The live layer (filled from the database before the parts are built; replaced by reloads). */
  live: LiveLayer;
  /** Stops what the load started (the index's worker) when the start fails before the parts are built. */
  discard(): void;
}

/** The catalogue's records in id order: read lazily when the data says so, else the records themselves. */
function recordsOf(data: CatalogueData): SortedRecords {
  return data.lazy ? recordsLazily(data.lazy) : recordsInMemory(data.entities);
}

function loadRegistries(config: Config): Registries {
  const datasets = loadDatasets(config.dataDir);
  return {
    plans: datasets.plans,
    knowledge: knowledgeOf(datasets),
    manufacturers: readManufacturers(config.dataDir),
  };
}

function buildCatalogueParts(
  config: Config,
  opts: BuildOptions,
  { knowledge, manufacturers }: Registries,
  probe: () => void,
  built: (b: LazyBuild) => void,
  onWorker: IndexOnWorker | null,
  live: LiveLayer,
): CatalogueParts {
  const data = opts.catalogueData ?? readCatalogueData(config.dataDir);
  const indexBuild = onWorker?.build ?? null;
  // In id order; a large catalogue's records are read on first use (its columns are known).
  const records = onWorker?.records ?? recordsOf(data);
  // The open-source layer: the live one a refresh wrote into the database, else the shipped file
  // (absent file -> no records; present but invalid -> fail here).
  const layer = live.doc ? { doc: live.doc, entities: live.doc.data.map(ossToStored) } : readOssLayer(config.dataDir);
  const oss = opts.ossEntities ?? layer.entities;
  checkOssIds(records, oss);
  const whereUsedOf = (doc: OssDocument | null) => whereUsedLayer(doc, data.lazy ? data.lazy.makers() : data.entities, manufacturers);
  const ossLayer = whereUsedOf(layer.doc);
  // The analytics inputs are read (and validated) now; the document is computed on first use
  // (get_analytics, get_part, a trl/momentum filter): plain searches never need it. The records
  // are asked for then (a catalogue read lazily reads those not read yet).
  const analyticsInput = {
    get entities() {
      return data.entities;
    },
    categories: data.categories,
    meta: data.meta,
    oss: ossBomLines(layer.doc),
    ...readAnalyticsTables(config.dataDir),
  };
  let adoption: ReadonlyMap<string, Adoption> | null = null;
  const adoptionShared = () => (adoption ??= adoptionOf(analyticsInput));
  let intelligence: Intelligence | null = null;
  const analytics = () => {
    if (intelligence === null) {
      intelligence = buildIntelligence(analyticsInput, adoptionShared());
      built({ what: 'analytics', records: records.size });
    }
    return intelligence;
  };
  // The catalogue is immutable while the process runs: it is served from an in-memory snapshot
  // (no per-request SQLite reads or JSON.parse). The database holds accounts, ledger, rate
  // limits and orders; its health is still probed on every catalogue read (cheap: the handle
  // is open), so a closed store answers store_unavailable, never an empty result.
  const catalogue = new MemoryCatalogue(data, records, oss, probe);
  // On a worker (large catalogues): it has tokenised the records while they were read; the rest of
  // this function runs while it finishes. Else here, over the sorted records (not sorted again).
  indexBuild?.complete(records);
  const ownIndex = indexBuild ? null : new SearchIndex(records.all());
  // The spec layer's field table plus TRL and momentum (issue 14), so `where` filters can use them.
  // Its rows and same_as links are built on first use (SpecIndex), over every record.
  const specs = new SpecIndex(() => data.entities, {
    buses: knowledge.buses,
    manufacturers,
    fields: [...defaultSpecFields(), ...analyticsSpecFields(recordScores(analyticsInput, referenceYear(analyticsInput.meta.imported_at), adoptionShared))],
    onBuilt: (what, records) => built({ what, records }),
    lookup: (id) => catalogue.catalogueRecord(id),
    // A field's column looks at every record once: a lazily read catalogue's unread records are read for it and let go.
    each: data.lazy ? (visit) => data.lazy!.forEachSpecSource(visit) : undefined,
  });
  return {
    data,
    size: records.size,
    ossCount: oss.length,
    catalogue,
    get index() {
      return ownIndex ?? indexBuild!.index();
    },
    indexReady: indexBuild?.ready ?? Promise.resolve(),
    specs,
    ossLayer,
    whereUsedOf,
    get analytics() {
      return analytics();
    },
    warmWords: () => indexBuild?.warmWords() ?? null,
  };
}

/**
 * Every shipped file is read and validated before the database is opened, so bad data fails
 * fast; the catalogue file too unless deferred (then it is read on the first catalogue call).
 */
function loadData(config: Config, opts: BuildOptions, defer: boolean, log: Logger, live: LiveLayer): LoadedData {
  const entFile = path.join(config.dataDir, 'catalogue/entities.json');
  const own = !defer && !opts.catalogueData;
  // A large catalogue prepared by an earlier start (same bytes, same code) is read, not derived.
  const size = own ? fileSize(entFile) : 0;
  const large = size >= INDEX_WORKER_MIN_BYTES;
  // Read lazily with its index on a worker (what IndexBuild.forFile decides); prepared when large, or when asked (tests).
  const lazy = own && IndexBuild.wanted(size, opts.indexWorker);
  const preparing = lazy && (opts.preparedStart === true || (opts.preparedStart === undefined && large));
  const prepared = preparing ? preparedStart(config.dataDir, log) : null;
  const indexBuild = own && !prepared ? IndexBuild.forFile(entFile, opts.indexWorker) : null;
  let data: CatalogueData | null = prepared?.data ?? null;
  let registries: Registries;
  let onWorker: IndexOnWorker | null = prepared?.on ?? null;
  try {
    let derived: DerivedColumns | null = null;
    // With the index on a worker (a large catalogue), the records are read lazily: their columns now, each record on first use.
    if (!prepared) {
      const readOpts = { lazy: indexBuild !== null, ...(preparing && indexBuild ? { derived: (d: DerivedColumns | null) => (derived = d) } : {}) };
      data = defer ? null : (opts.catalogueData ?? readCatalogueData(config.dataDir, indexBuild ?? undefined, readOpts));
    }
    if (indexBuild && data) {
      // The records' id order, computed once: the worker numbers the documents by it, the catalogue sorts by it.
      onWorker = { build: indexBuild, records: recordsOf(data) };
      indexBuild.end(onWorker.records, WARM_ASK);
      if (derived && data.lazy) prepareNextStart(config.dataDir, log, derived, onWorker, data.lazy);
    }
    registries = loadRegistries(config);
  } catch (err) {
    indexBuild?.abandon();
    data?.lazy?.close();
    throw err;
  }
  const lazyBuildListeners = new Set<(b: LazyBuild) => void>();
  const notify = (b: LazyBuild) => {
    for (const listener of lazyBuildListeners) listener(b);
  };
  let built: CatalogueParts | null = null;
  const loaded: LoadedData = {
    registries,
    lazyBuildListeners,
    live,
    // A build that throws stops the index's worker (nothing is built yet: discard() does it).
    catalogueParts: (probe) => (built ??= discardOnThrow(loaded, () => buildCatalogueParts(config, data ? { ...opts, catalogueData: data } : opts, registries, probe, notify, onWorker, live))),
    discard: () => {
      if (built === null) indexBuild?.abandon();
    },
  };
  return loaded;
}

/** fn(), stopping what loadData started (the index's worker) when it throws. */
function discardOnThrow<T>(loaded: LoadedData, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    loaded.discard();
    throw err;
  }
}

function replayPolicy(config: Config) {
  return { ttlMs: config.replayTtlHours * 3_600_000, maxPerAccount: config.maxReplaysPerAccount };
}

/** Digests keyed with the server secret (every instance on one database needs the same secret). */
function keyedDigests(config: Config, log: Logger): { digests: KeyedDigests; persistSecret: () => void } {
  const secret = loadOrCreateSecret(config, log);
  return { digests: new KeyedDigests(secret.value, parseMailboxRules(config.mailboxRules)), persistSecret: secret.persist };
}

/** Deps on the SQLite file of config.dbPath (synchronous). For config.databaseUrl use openDeps. */
export function buildDeps(config: Config, opts: BuildOptions = {}): Deps {
  if (config.databaseUrl) throw new Error('buildDeps: a PostgreSQL database URL is set; use openDeps()');
  const log = opts.log ?? createLogger(config.logLevel);
  const live: LiveLayer = { doc: null, run: 0 };
  const loaded = loadData(config, opts, opts.deferCatalogue === true, log, live);
  const { digests, db } = discardOnThrow(loaded, () => ({ digests: keyedDigests(config, log), db: openDb(config.dbPath, { synchronous: config.sqliteSynchronous }) }));
  // Rate-limit windows on their own connection at NORMAL: every free HTTP call writes one, and a
  // flush to disk per free call (about 8 ms on a loaded VM disk, blocking the event loop) buys
  // nothing for a window. Money (ledger, accounts, orders) stays on the FULL connection.
  // (':memory:' is one database per connection: there the one connection serves both.)
  let windows: Db | null = null;
  try {
    windows = config.dbPath === ':memory:' ? null : openDb(config.dbPath, { synchronous: 'normal' });
    const clock = opts.clock ?? systemClock;
    const health = async (): Promise<StoreHealth> => {
      try {
        const r = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
        return { backend: 'sqlite', reachable: true, migration_version: r.v, ...durability(db) };
      } catch (err) {
        return { backend: 'sqlite', reachable: false, migration_version: null, error: (err as Error).message };
      }
    };
    const probe = () => {
      if (!db.open) throw new Error('database closed');
    };
    Object.assign(live, liveOf(sqliteLiveSnapshot(db)));
    return wire(config, opts, log, probe, loaded, opts.deferCatalogue === true, sqliteAccountStores(db, { clock, replays: replayPolicy(config), rateLimitDb: windows ?? undefined }), {
      liveSnapshot: async () => sqliteLiveSnapshot(db),
      store: { backend: 'sqlite', health },
      outages: new StoreOutages(log),
      describe: config.dbPath,
      close: () => {
        if (windows?.open) windows.close();
        if (db.open) db.close();
      },
    }, digests);
  } catch (err) {
    windows?.close(); // nothing half-open is left behind
    db.close();
    loaded.discard();
    throw err;
  }
}

/**
 * Deps on either backend. With config.databaseUrl: connects, applies the migrations under an
 * advisory lock and checks the dataset version against the shared database (refusing to start
 * on a mismatch); the catalogue is the same read-only in-memory snapshot as on SQLite.
 */
export async function openDeps(config: Config, opts: BuildOptions = {}): Promise<Deps> {
  if (!config.databaseUrl) return buildDeps(config, opts);
  if (!config.secret && !config.secretFile) {
    // A secret generated next to a local file would differ per instance (and the database refuses a second one).
    throw new Error('with a shared PostgreSQL database every instance needs the same server secret: set ROBOT_PARTS_SECRET or ROBOT_PARTS_SECRET_FILE');
  }
  // The PostgreSQL driver is loaded only when a database URL is set (stdio and SQLite never need it).
  const { checkDatasetVersion, checkDurability, createPgPool, migratePg, pgHealth, redactUrl } = await import('./store/pg.js');
  const { pgAccountStores } = await import('./store/pg-ledger.js');
  const log = opts.log ?? createLogger(config.logLevel);
  const live: LiveLayer = { doc: null, run: 0 };
  const loaded = loadData(config, opts, false, log, live);
  const digests = discardOnThrow(loaded, () => keyedDigests(config, log));
  const { pgOssLiveStore } = await import('./store/oss-live-store.js');
  const where = redactUrl(config.databaseUrl);
  const outages = new StoreOutages(log);
  const pool = createPgPool(config.databaseUrl, {
    max: config.databasePoolSize,
    // An idle connection dropped (the server restarted or went away): the pool reconnects on the next call.
    onError: (err) => outages.unavailable('postgres', { error: err.message }),
  });
  let closed = false;
  try {
    let migrated;
    try {
      migrated = await migratePg(pool);
      await checkDurability(pool);
    } catch (err) {
      throw new Error(`PostgreSQL at ${where}: ${(err as Error).message}`);
    }
    const probe = () => {
      if (closed) throw new Error('stores closed');
    };
    const liveStore = pgOssLiveStore(pool);
    Object.assign(live, liveOf(await liveStore.snapshot()));
    const dataset = await checkDatasetVersion(pool, loaded.catalogueParts(probe).data.meta.dataset_version, config.adoptDataset);
    if (dataset.adopted) log.warn('adopted this dataset version for the shared database', { dataset_version: dataset.recorded });
    log.info('postgresql ready', { database: where, migrations_applied: migrated.applied, migration_version: migrated.version });
    const clock = opts.clock ?? systemClock;
    return wire(config, opts, log, probe, loaded, false, pgAccountStores(pool, { clock, replays: replayPolicy(config), watch: outages }), {
      liveSnapshot: () => liveStore.snapshot(),
      store: { backend: 'postgres', health: () => pgHealth(pool) },
      outages,
      describe: where,
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end().catch(() => {});
      },
    }, digests);
  } catch (err) {
    await pool.end().catch(() => {});
    loaded.discard();
    throw err;
  }
}

function wire(
  config: Config,
  opts: BuildOptions,
  log: Logger,
  /** Throws once the deps are closed (the catalogue then answers store_unavailable). */
  probe: () => void,
  { registries: { plans, knowledge }, catalogueParts, lazyBuildListeners, live }: LoadedData,
  /** Build the catalogue parts on first use (stdio) instead of now. */
  deferCatalogue: boolean,
  stores: AccountStores,
  backend: { store: Deps['store']; outages: StoreOutages; describe: string; close: Deps['close']; liveSnapshot: () => Promise<LiveLayerSnapshot | null> },
  { digests, persistSecret }: ReturnType<typeof keyedDigests>,
): Deps {
  let announced = false;
  const parts = (): CatalogueParts => {
    const p = catalogueParts(probe);
    if (!announced) {
      announced = true;
      log.info('catalogue loaded', { entities: p.size, oss_entities: p.ossCount, db: backend.describe, dataset_version: p.data.meta.dataset_version });
    }
    return p;
  };
  // The search index may still be building on its worker: `ready` waits for it (servers listen after).
  const indexReady = deferCatalogue ? Promise.resolve() : parts().indexReady;
  indexReady.catch((err: unknown) => log.error('search index could not be built', { error: err instanceof Error ? err.message : String(err) }));
  // A large catalogue's records are read lazily: once a search can be answered, the rest are read
  // in the background, a few milliseconds at a time, so that the first call needing them all (a
  // spec filter, the analytics) need not. Their garbage is released once they are all read.
  const lazy = deferCatalogue ? undefined : parts().data.lazy;
  let lastRequest = -Infinity;
  if (lazy) {
    const pace = { lastRequest: () => lastRequest, quietMs: BACKGROUND_READ_QUIET_MS, maxWaitMs: BACKGROUND_READ_MAX_WAIT_MS };
    indexReady.then(
      () =>
        lazy.readInBackground(
          BACKGROUND_READ_SLICE_MS,
          () => {
            for (const listener of lazyBuildListeners) listener({ what: 'records', records: lazy.size });
          },
          pace,
        ),
      () => {},
    );
  }
  const clock = opts.clock ?? systemClock;
  const keyed = stores.ledger.adoptDigestSecret(digests.fingerprint(), (legacy) => digests.rekey(legacy), persistSecret).then((r) => {
    if (r.rekeyed > 0) log.info('account digests re-keyed with the server secret', { accounts: r.rekeyed });
  });
  keyed.catch((err: unknown) => log.error('store refused the server secret', { error: err instanceof Error ? err.message : String(err) }));
  const ready = Promise.all([keyed, indexReady]).then(() => undefined);
  ready.catch(() => {}); // logged above; the server awaits it
  const accounts = new AccountService(stores.ledger, {
    digests,
    get rechargeUrl() {
      return `${config.publicBaseUrl.replace(/\/$/, '')}/api/payment/create`;
    },
  });
  let secret = config.webhookSecret;
  if (!secret) {
    if (config.paymentGateway !== 'sandbox') throw new Error(`ROBOT_PARTS_WEBHOOK_SECRET is required for the ${config.paymentGateway} payment gateway`);
    // The sandbox signs its own completions; a per-process secret keeps them unforgeable.
    secret = randomBytes(32).toString('hex');
  }
  const gateway = createPaymentGateway(config.paymentGateway, {
    orders: stores.orders,
    plans,
    secret,
    payToken: (orderId) => digests.orderToken(orderId),
    get publicBaseUrl() {
      return config.publicBaseUrl;
    },
    clock,
  });
  if (gateway.name === 'sandbox') {
    log.warn('payment gateway is the sandbox: its pay page lets anyone mark an order paid; configure a real gateway before taking money', {
      gateway: gateway.name,
    });
  }
  // The pool is infrastructure the composition root made; deps only hands it to the handlers.
  const jobs = (opts.jobs ?? createJobRunner)(config, log, () => knowledge);
  // Counted once, for both lists, when the server first asks.
  let warm: WarmWords | null = null;
  const warmWords = () => {
    if (warm === null && lazy) {
      const p = parts();
      warm = p.warmWords() ?? p.index.wordsByCount(WARM_ASK.n, WARM_ASK.narrowN, WARM_ASK.minDocs, WARM_ASK.fields);
    }
    return warm ?? { frequent: [], narrow: [] };
  };
  const answers = new AnswerCache(config.answerCacheEntries);
  return {
    config,
    clock,
    log,
    requestSeen: lazy
      ? () => {
          lastRequest = performance.now();
        }
      : undefined,
    warmUpWords: () => warmWords().frequent,
    warmUpNarrowWords: () => warmWords().narrow,
    // Getters: with a deferred catalogue the first reader builds it (once); otherwise it is built above.
    get catalogue() {
      return parts().catalogue;
    },
    get index() {
      return parts().index;
    },
    get specs() {
      return parts().specs;
    },
    get analytics() {
      return parts().analytics;
    },
    get ossLayer() {
      return parts().ossLayer;
    },
    liveOssDocument: () => live.doc,
    reloadOssLayer: async () => {
      const snap = await backend.liveSnapshot();
      if (!snap || snap.run.run === live.run) return live.run;
      const next = liveOf(snap);
      const p = parts();
      // The layer's records by id (get_part OSS-LIVE-...) follow the reloaded layer, like where-used.
      const entities = next.doc ? next.doc.data.map(ossToStored) : [];
      checkOssIds(p.catalogue.sortedRecords, entities);
      p.catalogue.replaceOss(entities);
      p.ossCount = entities.length;
      p.ossLayer = p.whereUsedOf(next.doc);
      Object.assign(live, next);
      // Remembered answers were computed from the layer served before.
      answers.clear();
      log.info('open-source layer reloaded', { run: next.run, records: next.doc?.data.length ?? 0 });
      return live.run;
    },
    answers,
    jobs,
    onLazyBuild(listener) {
      lazyBuildListeners.add(listener);
      return () => {
        lazyBuildListeners.delete(listener);
      };
    },
    accounts,
    rateLimiter: stores.rateLimiter,
    payments: { gateway, plans },
    knowledge,
    store: backend.store,
    outages: backend.outages,
    digests,
    ready,
    close: () => {
      lazy?.stop();
      // The workers are unref'd (they never hold the process); terminating them frees their heaps.
      void jobs.close();
      return backend.close();
    },
  };
}

