import { loadConfig, type Config } from '../../src/config.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import type { StoredEntity } from '../../src/domain/entity.js';
import { silentLogger } from '../../src/log.js';
import { catalogueData, sampleEntities } from './factory.js';

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Rate limits off unless a test sets them: the rate-limit tests turn them on.
  return loadConfig({}, { dbPath: ':memory:', port: 0, logLevel: 'error', rateLimitFree: 0, rateLimitPaid: 0, ...overrides });
}

/** Deps over a synthetic catalogue in an in-memory SQLite store. */
export function testDeps(entities: StoredEntity[] = sampleEntities(), overrides: Partial<Config> = {}): Deps {
  return buildDeps(testConfig(overrides), { log: silentLogger, catalogueData: catalogueData(entities) });
}

/** Deps over the shipped data/ catalogue. */
export function realDeps(overrides: Partial<Config> = {}): Deps {
  return buildDeps(testConfig(overrides), { log: silentLogger });
}
