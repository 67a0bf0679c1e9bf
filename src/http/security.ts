/**
 * Host and Origin validation (DNS-rebinding protection) and credential extraction.
 * Loopback names always pass; further hosts/origins come from configuration.
 */
import type { PresentedKey } from '../tools/define.js';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Hostname part of a Host header value ("localhost:8787" -> "localhost", "[::1]:80" -> "[::1]"). */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(0, end + 1) : h;
  }
  const colon = h.lastIndexOf(':');
  return colon > 0 ? h.slice(0, colon) : h;
}

export function isAllowedHost(host: string | undefined, allowed: readonly string[]): boolean {
  // Repeated Host headers arrive joined with ", " (RFC 9112 allows exactly one): never an allowed host.
  if (!host || host.includes(',')) return false;
  const name = hostnameOf(host);
  if (LOOPBACK_HOSTNAMES.has(name) || /^127(\.\d{1,3}){3}$/.test(name)) return true;
  const lower = host.trim().toLowerCase();
  return allowed.some((a) => {
    const x = a.trim().toLowerCase();
    return x === lower || x === name;
  });
}

export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true; // non-browser clients send none
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && isAllowedHost(url.host, [])) return true;
  return allowed.some((a) => a.trim().toLowerCase() === origin.trim().toLowerCase());
}

/**
 * Keys presented by headers and the query string. Malformed Authorization is ignored, not guessed.
 * Repeated headers arrive joined with ", " and a repeated query parameter as several values (a key
 * never contains a comma): each is kept, so two different ones are reported as conflicting rather
 * than one silently winning.
 */
export function presentedKeys(
  headers: { get(name: string): string | null | undefined },
  queryKey: string | readonly string[] | undefined,
): PresentedKey[] {
  const out: PresentedKey[] = [];
  const authorization = headers.get('authorization');
  if (authorization) {
    for (const part of authorization.split(',')) {
      const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(part);
      if (m) out.push({ source: 'authorization', key: m[1] });
    }
  }
  const apiKey = headers.get('x-api-key');
  if (apiKey) {
    for (const part of apiKey.split(',')) {
      if (part.trim()) out.push({ source: 'x-api-key', key: part.trim() });
    }
  }
  for (const q of typeof queryKey === 'string' ? [queryKey] : (queryKey ?? [])) {
    if (q && q.trim()) out.push({ source: 'query:key', key: q.trim() });
  }
  return out;
}
