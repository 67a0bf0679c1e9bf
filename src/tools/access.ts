/**
 * Credentials and rate limits for tool calls. Keys come from the transport (headers, query,
 * ROBOT_PARTS_API_KEY on stdio) and from the tool's own api_key argument; differing keys are
 * an error. Rate limits apply to HTTP surfaces only (REST and MCP over HTTP), never stdio.
 */
import { resolveApiKey, requireApiKey } from '../domain/accounts/credentials.js';
import { clientGroup } from '../domain/accounts/client-group.js';
import { enforceRateLimit, limitForPlan, rateLimitSubject } from '../domain/accounts/rate-limit.js';
import { DomainError, isDomainError } from '../domain/shared/errors.js';
import type { AccountRecord } from '../store/ledger.js';
import type { ToolContext } from './define.js';

function argKey(input: unknown): string | null {
  const v = (input as { api_key?: unknown } | null)?.api_key;
  return typeof v === 'string' ? v : null;
}

/** The presented key (transport or argument), or null. conflicting_credentials when they differ. */
export function presentedKey(ctx: ToolContext, input: unknown): string | null {
  return resolveApiKey(ctx.credentials, argKey(input));
}

/** The caller's account; missing_credentials (401) / unknown_key (403). */
export async function requireAccount(ctx: ToolContext, input: unknown): Promise<{ key: string; account: AccountRecord }> {
  const key = requireApiKey(ctx.credentials, argKey(input));
  return { key, account: await ctx.deps.accounts.authenticate(key) };
}

/** Counts the call against its hourly window; rate_limited (429) when over. */
export async function applyRateLimit(ctx: ToolContext, input: unknown): Promise<void> {
  if (ctx.surface !== 'rest' && ctx.surface !== 'mcp-http') return;
  if (ctx.internal === true) return; // the server's own warm-up before it serves (ToolContext.internal)
  const { config, accounts, rateLimiter, clock } = ctx.deps;
  const key = presentedKey(ctx, input); // conflicting_credentials even when limits are off
  if (config.rateLimitFree === 0 && config.rateLimitPaid === 0) return; // limits off: nothing to count
  let account: AccountRecord | null = null;
  if (key) {
    try {
      account = await accounts.authenticate(key);
    } catch (err) {
      // An unknown key is limited as anonymous (the tool answers 403 if it needs one); a store that is down is not.
      if (!isDomainError(err) || err.code === 'store_unavailable') throw err;
    }
  }
  const subject = account && key ? rateLimitSubject({ keyDigest: accounts.digests.key(key) }) : rateLimitSubject({ address: clientGroup(ctx.clientAddress ?? 'unknown', config.ipv6Prefix) });
  const limit = limitForPlan(account?.plan ?? null, { free: config.rateLimitFree, paid: config.rateLimitPaid });
  await enforceRateLimit(rateLimiter, subject, limit, clock(), ctx.setHeader);
}

/**
 * Counts a registration against the client's hourly registration window (its address, IPv6 by
 * prefix): beyond `registrationsPerHour` register_key answers rate_limited (429, Retry-After)
 * naming the limit. HTTP surfaces only; 0 disables it.
 */
export async function applyRegistrationLimit(ctx: ToolContext): Promise<void> {
  if (ctx.surface !== 'rest' && ctx.surface !== 'mcp-http') return;
  const { config, rateLimiter, clock } = ctx.deps;
  if (config.registrationsPerHour === 0) return;
  const subject = `reg:${rateLimitSubject({ address: clientGroup(ctx.clientAddress ?? 'unknown', config.ipv6Prefix) })}`;
  try {
    await enforceRateLimit(rateLimiter, subject, config.registrationsPerHour, clock());
  } catch (err) {
    if (!isDomainError(err) || err.code !== 'rate_limited') throw err;
    const retry = err.details.retry_after as number;
    throw new DomainError(
      'rate_limited',
      `register_key: at most ${config.registrationsPerHour} keys per client address per hour (limit registrations_per_hour, --registrations-per-hour); retry in ${retry} s`,
      { limit: config.registrationsPerHour, limit_name: 'registrations_per_hour', retry_after: retry },
    );
  }
}
