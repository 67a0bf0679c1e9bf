/**
 * Which API key a request carries. Transports collect every key they see (header, query,
 * env, body) as PresentedKey entries; the tool's own `api_key` argument is passed separately.
 * Several identical keys are fine; two different ones are an error, never a silent pick.
 */
import { DomainError } from '../shared/errors.js';

/** A key presented outside the tool arguments (HTTP header, query string, stdio env). */
export interface PresentedKey {
  source: 'authorization' | 'x-api-key' | 'query:key' | 'env:ROBOT_PARTS_API_KEY' | 'body:api_key' | 'argument:api_key';
  key: string;
}

export type KeySource = PresentedKey['source'];

/**
 * The one key presented, or null when none was. Blank values (e.g. `Authorization: Bearer `)
 * count as not presented. Throws conflicting_credentials naming the sources when keys differ.
 */
export function resolveApiKey(presented: readonly PresentedKey[], argKey?: string | null): string | null {
  const all: PresentedKey[] = [...presented];
  if (typeof argKey === 'string') all.push({ source: 'argument:api_key', key: argKey });
  const given = all.map((p) => ({ source: p.source, key: p.key.trim() })).filter((p) => p.key !== '');
  if (given.length === 0) return null;
  const first = given[0].key;
  if (given.every((p) => p.key === first)) return first;
  const sources = [...new Set(given.map((p) => p.source))];
  throw new DomainError(
    'conflicting_credentials',
    `Different API keys were presented (${sources.join(', ')}); send a single key`,
    { sources },
  );
}

/** Like resolveApiKey, but a missing key is an error (401 missing_credentials). */
export function requireApiKey(presented: readonly PresentedKey[], argKey?: string | null): string {
  const key = resolveApiKey(presented, argKey);
  if (key === null) {
    throw new DomainError(
      'missing_credentials',
      'An API key is required: send Authorization: Bearer <key>, X-API-Key, query key, or api_key',
    );
  }
  return key;
}

/** The token of an `Authorization: Bearer <token>` header value, else null (case-insensitive scheme). */
export function parseBearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}
