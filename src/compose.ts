/**
 * The composition root's wiring of the worker pool (issue 46): the pool is infrastructure created
 * here and handed to the handlers through the deps (BuildOptions.jobs). It runs jobs by name; the
 * 'tool' job comes from the tool layer (src/tools/offload.ts), so neither the pool nor the deps
 * import a tool. The CLI, the tests' helpers, the benches and the scripts build their deps with it.
 */
import { createJobRunner, withoutSecrets, type WorkerFactory } from './jobs/pool.js';
import type { JobsFactory } from './jobs/types.js';
import { offloadedToolJob } from './tools/offload.js';

/** The job runner of a configuration (worker pool, or this thread at pool size 0), as BuildOptions.jobs. */
export function jobRunnerFactory(start?: WorkerFactory): JobsFactory {
  return (config, log, knowledge) => createJobRunner(config, log, knowledge, { runTool: offloadedToolJob({ config: withoutSecrets(config), knowledge }), ...(start ? { start } : {}) });
}
