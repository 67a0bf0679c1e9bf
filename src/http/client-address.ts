/**
 * The client address of a request. The socket's peer, unless that peer is a configured trusted
 * proxy: then the ONE forwarding header the operator names (`--forwarded-header`: X-Forwarded-For
 * by default, or RFC 7239 `Forwarded: for=`) is walked from the nearest hop outwards (right to
 * left), skipping trusted proxies, and the first address that is not a trusted proxy is the
 * client. The other header is never read: a proxy that appends only X-Forwarded-For (HAProxy,
 * nginx) passes a client-sent `Forwarded` through untouched, so believing it would let every
 * client choose its own address. Headers from a peer that is not a trusted proxy are ignored
 * (anyone can send them), and an unreadable hop stops the walk at the last trusted address.
 */
import net from 'node:net';
import type { ForwardedHeader } from '../config.js';

export interface TrustedProxies {
  has(address: string): boolean;
  readonly size: number;
}

/** Plain address: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as IPv4, brackets and ports removed. */
export function normaliseAddress(raw: string): string | null {
  let a = raw.trim().replace(/^"|"$/g, '');
  if (a.startsWith('[')) {
    const end = a.indexOf(']');
    if (end < 0) return null;
    a = a.slice(1, end);
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) {
    a = a.slice(0, a.lastIndexOf(':'));
  }
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  if (mapped) a = mapped[1];
  return net.isIP(a) ? a.toLowerCase() : null;
}

/** Parses `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`; throws naming a bad entry. */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new net.BlockList();
  let size = 0;
  for (const entry of entries.map((e) => e.trim()).filter(Boolean)) {
    const [addr, bits, extra] = entry.split('/');
    const a = normaliseAddress(addr);
    if (!a || extra !== undefined) throw new Error(`trusted proxy "${entry}" is not an IP address or CIDR block`);
    const type = net.isIP(a) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(a, type);
    else {
      const n = Number(bits);
      if (!Number.isInteger(n) || n < 0 || n > (type === 'ipv4' ? 32 : 128)) throw new Error(`trusted proxy "${entry}" has a bad prefix length`);
      list.addSubnet(a, n, type);
    }
    size++;
  }
  return {
    size,
    has: (address) => {
      const a = normaliseAddress(address);
      return a !== null && list.check(a, net.isIP(a) === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/** `for=` values of a Forwarded header, nearest hop last (as sent). */
function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') out.push(pair.slice(eq + 1).trim());
    }
  }
  return out;
}

/** The last socket peer read and its plain form (a server's peers are mostly one: loopback, or its proxy). */
let lastPeer: string | null = null;
let lastDirect: string | null = null;

export function resolveClientAddress(
  peer: string | null,
  headers: { get(name: string): string | null | undefined },
  trusted: TrustedProxies,
  header: ForwardedHeader = 'x-forwarded-for',
): string | null {
  if (peer !== null && peer !== lastPeer) {
    lastDirect = normaliseAddress(peer) ?? peer;
    lastPeer = peer;
  }
  const direct = peer === null ? null : lastDirect;
  if (direct === null || trusted.size === 0 || !trusted.has(direct)) return direct;
  const value = headers.get(header);
  const chain = !value ? [] : header === 'forwarded' ? forwardedFor(value) : value.split(',');
  let last = direct;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(chain[i]);
    if (hop === null) return last; // "unknown", an obfuscated name or garbage: stop at the last address we know
    if (!trusted.has(hop)) return hop;
    last = hop;
  }
  return last;
}
