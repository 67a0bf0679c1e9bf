/**
 * An offloaded tool's handler run as a job (src/jobs/jobs.ts, kind 'tool'): in a pool worker
 * (src/jobs/worker.ts hands it the registry) or on the main thread when the pool is off. The tool
 * layer owns this, so the pool itself knows no tool.
 */
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import type { Knowledge } from '../store/datasets.js';
import type { AnyTool, ToolContext } from './define.js';

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
function jobContext(env: OffloadEnv, progress: Progress, signal?: AbortSignal): ToolContext {
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
    ...(signal ? { signal } : {}),
  };
}

/** Runs the offloaded tool `name` of `tools` on `input` (its validated arguments). */
export async function runOffloadedTool(tools: readonly AnyTool[], name: string, input: Record<string, unknown>, env: OffloadEnv, progress: Progress, signal?: AbortSignal): Promise<unknown> {
  const tool = tools.find((t) => t.name === name && t.offload === true);
  if (!tool) throw new Error(`no offloaded tool named ${name}`);
  return tool.handler(input, jobContext(env, progress, signal));
}

/** The 'tool' job of a registry, for a job runner on this thread (pool size 0): the registry is imported on first use. */
export function offloadedToolJob(env: OffloadEnv): (name: string, input: Record<string, unknown>, progress: Progress, signal?: AbortSignal) => Promise<unknown> {
  return async (name, input, progress, signal) => runOffloadedTool((await import('./index.js')).TOOLS, name, input, env, progress, signal);
}
