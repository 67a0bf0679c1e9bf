import { loadConfig, type Config } from '../../src/config.js';
import { jobRunnerFactory } from '../../src/compose.js';
import { buildDeps, type Deps } from '../../src/deps.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { silentLogger } from '../../src/log.js';
import type { Surface, ToolContext } from '../../src/tools/define.js';
import { catalogueData, sampleEntities } from './factory.js';

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Rate limits off unless a test sets them: the rate-limit tests turn them on.
  return loadConfig({}, { dbPath: ':memory:', port: 0, logLevel: 'error', rateLimitFree: 0, rateLimitPaid: 0, ...overrides });
}

/** Deps over a synthetic catalogue in an in-memory SQLite store. */
export function testDeps(entities: StoredEntity[] = sampleEntities(), overrides: Partial<Config> = {}): Deps {
  return buildDeps(testConfig(overrides), { log: silentLogger, catalogueData: catalogueData(entities), jobs: jobRunnerFactory() });
}

/** Deps over the shipped data/ catalogue. */
export function realDeps(overrides: Partial<Config> = {}): Deps {
  return buildDeps(testConfig(overrides), { log: silentLogger, jobs: jobRunnerFactory() });
}

/** A tool context with no caller (no key, no address), as an in-process caller of runTool has. */
export function toolContext(deps: Deps, surface: Surface = 'mcp-memory'): ToolContext {
  return { deps, surface, credentials: [], clientAddress: null, idempotencyKey: null, progress: async () => {}, setHeader: () => {} };
}
