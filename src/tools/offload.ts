/**
 * An offloaded tool's handler run as a job (src/jobs/jobs.ts, kind 'tool'): in a pool worker
 * (src/jobs/worker.ts hands it the registry) or on the main thread when the pool is off. The tool
 * layer owns this, so the pool itself knows no tool. A REST archive upload is unpacked here (in
 * the worker, after the rate-limit check on the main thread) and the arguments validated again.
 */
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import type { ToolJob } from '../jobs/jobs.js';
import type { ToolJobPayload } from '../jobs/types.js';
import type { Knowledge } from '../store/datasets.js';
import type { AnyTool, ToolContext } from './define.js';
import { validationError } from './run.js';

type Progress = (progress: number, total?: number, message?: string) => void;

/** What an offloaded handler may read besides its arguments. */
export interface OffloadEnv {
  config: Config;
  knowledge(): Knowledge;
}

/**
 * The context an offloaded tool's handler gets: its arguments are all it may depend on, so the
 * deps hold the configuration and the registries; anything else is an error naming what was read.
 */
function jobContext(env: OffloadEnv, progress: Progress): ToolContext {
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

/** The arguments of a tool job: an uploaded archive unpacked (by the tool's own REST upload) and merged in, then validated. */
function jobInput(tool: AnyTool, job: ToolJobPayload): Record<string, unknown> {
  if (!job.archive) return job.input;
  const upload = tool.rest.find((r) => r.upload)?.upload;
  if (!upload) throw new Error(`${tool.name} takes no archive upload`);
  const unpacked = upload.unpack(job.archive) as Record<string | symbol, unknown>;
  const merged = { ...job.input, ...unpacked };
  const parsed = tool.inputSchema.safeParse(merged);
  if (!parsed.success) throw validationError(parsed.error);
  // What the unpacking found beside the arguments (symbol keys: the files' encoding notes) is kept.
  const out = { ...(parsed.data as Record<string, unknown>) } as Record<string | symbol, unknown>;
  for (const k of Object.getOwnPropertySymbols(unpacked)) out[k] = unpacked[k];
  return out as Record<string, unknown>;
}

/** Runs the offloaded tool `job.name` of `tools` on the job's arguments. */
export async function runOffloadedTool(tools: readonly AnyTool[], job: ToolJobPayload, env: OffloadEnv, progress: Progress): Promise<unknown> {
  const tool = tools.find((t) => t.name === job.name && t.offload === true);
  if (!tool) throw new Error(`no offloaded tool named ${job.name}`);
  return tool.handler(jobInput(tool, job), jobContext(env, progress));
}

/** The 'tool' job for a job runner on this thread (pool size 0): the registry is imported on first use. */
export function offloadedToolJob(env: OffloadEnv): ToolJob {
  return async (job, progress) => runOffloadedTool((await import('./index.js')).TOOLS, job, env, progress);
}
