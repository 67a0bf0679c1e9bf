/**
 * Runs a tool definition for any surface: validates input with the tool's zod schema,
 * calls the handler, and classifies failures (expected DomainError vs unexpected).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DomainError, isDomainError } from '../domain/shared/errors.js';
import { deepFreeze } from '../domain/shared/freeze.js';
import { storeOf } from '../store/outage.js';
import { applyRateLimit } from './access.js';
import type { AnyTool, ToolContext } from './define.js';
import { nearest } from '../domain/specs/where.js';

/** zod issues -> invalid_input naming the first offending field. */
export function validationError(err: z.ZodError): DomainError {
  const first = err.issues[0];
  const field = first && first.path.length ? first.path.join('.') : 'input';
  const friendly = (m: string) => (/received undefined$/.test(m) ? 'is required' : m);
  const msg = first ? friendly(first.message) : 'invalid input';
  const fields = err.issues.map((i) => ({ field: i.path.join('.') || 'input', message: friendly(i.message) }));
  return new DomainError('invalid_input', `${field}: ${msg}`, { field, issues: fields });
}

/**
 * For a cacheable tool whose answer the cache keeps (src/store/answer-cache.ts), `output` is
 * deep-frozen and shared (the same arguments get the same object again), so surfaces may prepare
 * its serialised forms once per object; otherwise it is the handler's own.
 */
export type ToolOutcome = { ok: true; output: Record<string, unknown> } | { ok: false; error: DomainError };

/** An argument the tool does not take -> invalid_input naming it and the nearest valid one. */
export function unknownArgument(tool: AnyTool, rawInput: unknown): DomainError | null {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) return null;
  const shape = tool.inputSchema.shape as Record<string, unknown>;
  for (const k of Object.keys(rawInput)) {
    if (Object.hasOwn(shape, k)) continue;
    const valid = Object.keys(shape);
    const near = valid.length ? nearest(k, valid) : null;
    return new DomainError(
      'invalid_input',
      `${k}: unknown argument${near ? ` (did you mean "${near}"?)` : ''}; ${tool.name} takes ${valid.length ? valid.join(', ') : 'no arguments'}`,
      { field: k, nearest: near, valid_arguments: valid },
    );
  }
  return null;
}

/**
 * Who a pool job belongs to and when its caller has gone: the client as the network sees it (its
 * address), else its key (stdio, in-memory), so the pool shares its workers fairly between
 * clients and drops the jobs of a caller that went away.
 */
export function jobCaller(ctx: ToolContext): { client: string | null; signal?: AbortSignal } {
  const key = ctx.credentials[0]?.key;
  const client = ctx.clientAddress !== null ? `address:${ctx.clientAddress}` : key ? `key:${key}` : null;
  const signal = ctx.signal;
  return signal ? { client, signal } : { client };
}

/** An offloaded tool's call: its arguments (and an uploaded archive, unpacked there) to the worker pool, progress back to the caller. */
function offloaded(tool: AnyTool, input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  return ctx.deps.jobs.run('tool', { name: tool.name, input, ...(ctx.archive ? { archive: ctx.archive } : {}) }, { label: tool.name, ...jobCaller(ctx), onProgress: (p, total, message) => void ctx.progress(p, total, message).catch(() => {}) });
}

export async function runTool(tool: AnyTool, rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const unknown = unknownArgument(tool, rawInput);
  if (unknown) return { ok: false, error: unknown };
  const parsed = tool.inputSchema.safeParse(rawInput ?? {});
  if (!parsed.success) return { ok: false, error: validationError(parsed.error) };
  try {
    await applyRateLimit(ctx, parsed.data);
    const { answers } = ctx.deps;
    // Keyed by tool, surface (detail URLs differ over stdio) and the validated arguments.
    if (ctx.archive && !tool.offload && !tool.archiveJob) throw new Error(`${tool.name}: an archive upload needs an offloaded tool (it is unpacked in the worker pool)`);
    const key = tool.cacheable && answers.enabled && !ctx.archive && ctx.uncached !== true ? `${tool.name}\u0000${ctx.surface}\u0000${JSON.stringify(parsed.data)}` : null;
    if (key !== null) {
      const hit = answers.get(key);
      if (hit !== undefined) {
        // The answer is not read from the store again, but an unreadable store still answers
        // store_unavailable, never a remembered result.
        await ctx.deps.catalogue.probe();
        return { ok: true, output: hit };
      }
    }
    const output = (await (tool.offload ? offloaded(tool, parsed.data, ctx) : tool.handler(parsed.data, ctx))) as Record<string, unknown>;
    // Frozen and kept only when the cache wants it (a full cache keeps answers asked more often).
    if (key !== null && answers.wants(key)) answers.set(key, deepFreeze(output));
    return { ok: true, output };
  } catch (err) {
    if (isDomainError(err)) {
      // Logged once per outage (down, then up with the count), not once per refused call.
      if (err.code === 'store_unavailable') ctx.deps.outages.refused(storeOf(err.details), { tool: tool.name, details: err.details });
      return { ok: false, error: err };
    }
    const ref = randomUUID();
    ctx.deps.log.error('unexpected tool failure', {
      tool: tool.name,
      ref,
      error: err instanceof Error ? err.message : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    return { ok: false, error: new DomainError('internal', `Unexpected internal error (ref ${ref}).`, { ref }) };
  }
}
