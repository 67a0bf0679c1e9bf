/**
 * What a job does: the same tool handlers and domain functions the main thread would call
 * (never a second implementation). A pool worker (src/jobs/worker.ts) runs these; so does the
 * main thread when the pool is off (ROBOT_PARTS_POOL_SIZE=0).
 */
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { bomCheckEngines, buildBomExport, checkBom, recordLookup, renderBomCsv, toCheckParts } from '../domain/bom/index.js';
import type { Knowledge } from '../store/datasets.js';
import type { AnyTool, ToolContext } from '../tools/define.js';
import type { JobKind, JobPayloads } from './types.js';

/** What a job may read besides its payload. */
export interface JobEnv {
  config: Config;
  /** The engines' registries (read on first use in a worker). */
  knowledge(): Knowledge;
  /** The tool registry (imported on first use). */
  tools(): Promise<readonly AnyTool[]>;
}

type Progress = (progress: number, total?: number, message?: string) => void;

/**
 * The context an offloaded tool's handler gets: its arguments are all it may depend on, so the
 * deps hold the configuration and the registries; anything else is an error naming what was read.
 */
function jobContext(env: JobEnv, progress: Progress): ToolContext {
  const deps = new Proxy({} as Deps, {
    get(_t, key) {
      if (key === 'config') return env.config;
      if (key === 'knowledge') return env.knowledge();
      if (key === 'then') return undefined;
      throw new Error(`deps.${String(key)} is not available to a job in the worker pool (offloaded tools read their arguments only)`);
    },
  });
  return {
    deps,
    surface: 'mcp-memory',
    credentials: [],
    clientAddress: null,
    idempotencyKey: null,
    progress: async (p, total, message) => progress(p, total, message),
    setHeader: () => {},
  };
}

export async function runJob<K extends JobKind>(kind: K, payload: JobPayloads[K], env: JobEnv, progress: Progress): Promise<unknown> {
  switch (kind) {
    case 'tool': {
      const { name, input } = payload as JobPayloads['tool'];
      const tool = (await env.tools()).find((t) => t.name === name && t.offload === true);
      if (!tool) throw new Error(`no offloaded tool named ${name}`);
      return tool.handler(input, jobContext(env, progress));
    }
    case 'check_bom': {
      const { items, records, baseUrl } = payload as JobPayloads['check_bom'];
      return checkBom(toCheckParts(items, recordLookup(records)), bomCheckEngines({ ...env.knowledge(), baseUrl }));
    }
    case 'export_bom': {
      const { req, records, now, references } = payload as JobPayloads['export_bom'];
      const k = env.knowledge();
      const doc = buildBomExport(req, {
        lookup: recordLookup(records),
        suppliers: k.suppliers,
        printRules: k.printRules,
        flanges: k.flanges,
        now: new Date(now),
        references: new Map(references ?? []),
        onProgress: (done, total) => progress(done, total, `BOM lines ${done}/${total}`),
        check: (items, lookup) => checkBom(toCheckParts(items, lookup), bomCheckEngines(k)),
      });
      return { ...doc, format: req.format, csv: req.format === 'csv' ? renderBomCsv(doc, req.include_suppliers) : null, document_uri: null };
    }
    default:
      throw new Error(`unknown job kind ${String(kind)}`);
  }
}
