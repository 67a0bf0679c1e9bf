/**
 * Everything a handler needs, passed in explicitly (no module-level mutable state).
 * `buildDeps` wires the defaults: SQLite file, shipped data, search index.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { AccountService } from './domain/accounts/service.js';
import { KeyedDigests, parseMailboxRules } from './domain/accounts/keys.js';
import type { PrintRules } from './domain/bom/print.js';
import { supplierIndex, type SupplierIndex } from './domain/bom/suppliers.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { StoredEntity } from './domain/entity.js';
import type { BusTable } from './domain/compatibility/index.js';
import type { FlangeRegistry } from './domain/flange.js';
import { createPaymentGateway, type PaymentGateway, type PlanCatalog } from './domain/payments/index.js';
import { SearchIndex } from './domain/search.js';
import { SpecIndex } from './domain/specs/index.js';
import type { ManufacturerTable } from './domain/specs/manufacturers.js';
import { readOssLayer } from './ingest/oss/layer.js';
import { whereUsedLayer } from './ingest/oss/where-used-layer.js';
import type { WhereUsedLayer } from './domain/where-used.js';
import { createLogger, type Logger } from './log.js';
import type { Catalogue } from './store/catalogue.js';
import { loadDatasets } from './store/datasets.js';
import { openDb, type Db } from './store/db.js';
import type { RateLimiter } from './store/ledger.js';
import { MemoryCatalogue } from './store/memory-catalogue.js';
import { checkOssIds, readCatalogueData, type CatalogueData } from './store/sqlite-catalogue.js';
import { sqliteAccountStores } from './store/sqlite-ledger.js';
import { readManufacturers } from './store/spec-data.js';
import { loadOrCreateSecret } from './secret.js';

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
  knowledge: { flanges: FlangeRegistry; buses: BusTable; suppliers: SupplierIndex; printRules: PrintRules };
  /** Keyed digests (server secret): e-mails, keys, pay-page tokens. */
  digests: KeyedDigests;
  /**
   * Settles when the store is bound to the server secret (legacy digests re-keyed); rejects when
   * the database was keyed with another secret. Servers await it before serving.
   */
  ready: Promise<void>;
  /** The open-source layer's BOM lines and URDF mentions, for where-used (empty when the dataset is absent). */
  ossLayer: WhereUsedLayer;
  /** Closes what the deps opened (the database). */
  close(): void;
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
}

export function buildDeps(config: Config, opts: BuildOptions = {}): Deps {
  const log = opts.log ?? createLogger(config.logLevel);
  // Every shipped file is read and validated before the database is opened: bad data fails fast.
  const data = opts.catalogueData ?? readCatalogueData(config.dataDir);
  // The open-source layer: absent file -> no records; present but invalid -> fail here.
  const layer = readOssLayer(config.dataDir);
  const oss = opts.ossEntities ?? layer.entities;
  checkOssIds(data, oss);
  const ossLayer = whereUsedLayer(layer.doc, data.entities);
  const datasets = loadDatasets(config.dataDir);
  const plans = datasets.plans;
  const knowledge = {
    flanges: datasets.flanges,
    buses: datasets.buses,
    suppliers: supplierIndex(datasets.suppliers),
    printRules: datasets.printRules,
  };
  const manufacturers = readManufacturers(config.dataDir);
  const mailboxRules = parseMailboxRules(config.mailboxRules);
  const digests = new KeyedDigests(loadOrCreateSecret(config, log), mailboxRules);
  const db: Db = openDb(config.dbPath);
  try {
    return { ...wire(config, opts, log, db, data, oss, plans, knowledge, manufacturers, digests), ossLayer };
  } catch (err) {
    db.close(); // nothing half-open is left behind
    throw err;
  }
}

function wire(
  config: Config,
  opts: BuildOptions,
  log: Logger,
  db: Db,
  data: CatalogueData,
  oss: readonly StoredEntity[],
  plans: PlanCatalog,
  knowledge: Deps['knowledge'],
  manufacturers: ManufacturerTable,
  digests: KeyedDigests,
): Omit<Deps, 'ossLayer'> {
  // The catalogue is immutable while the process runs: it is served from an in-memory snapshot
  // (no per-request SQLite reads or JSON.parse). The database holds accounts, ledger, rate
  // limits and orders; its health is still probed on every catalogue read (cheap: the handle
  // is open), so a closed store answers store_unavailable, never an empty result.
  const catalogue = new MemoryCatalogue(data, oss, () => {
    if (!db.open) throw new Error('database closed');
  });
  const index = new SearchIndex(data.entities);
  const specs = new SpecIndex(data.entities, { buses: knowledge.buses, manufacturers });
  const clock = opts.clock ?? systemClock;
  const stores = sqliteAccountStores(db, {
    clock,
    replays: { ttlMs: config.replayTtlHours * 3_600_000, maxPerAccount: config.maxReplaysPerAccount },
  });
  const ready = stores.ledger.adoptDigestSecret(digests.fingerprint(), (legacy) => digests.rekey(legacy)).then((r) => {
    if (r.rekeyed > 0) log.info('account digests re-keyed with the server secret', { accounts: r.rekeyed });
  });
  ready.catch((err: unknown) => log.error('store refused the server secret', { error: err instanceof Error ? err.message : String(err) }));
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
  log.info('catalogue loaded', { entities: data.entities.length, oss_entities: oss.length, db: config.dbPath, dataset_version: data.meta.dataset_version });
  return {
    config,
    clock,
    log,
    catalogue,
    index,
    specs,
    accounts,
    rateLimiter: stores.rateLimiter,
    payments: { gateway, plans },
    knowledge,
    digests,
    ready,
    close: () => {
      if (db.open) db.close();
    },
  };
}

