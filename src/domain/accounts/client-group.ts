/**
 * The client as a network sees it, for per-client limits (rate limits, registrations, MCP session
 * shares): an IPv4 address is one client; an IPv6 address is grouped by its network prefix (/64 by
 * default, `--ipv6-prefix`), since one subscriber line or host is routinely handed a whole /64 and
 * can pick any of its 2^64 addresses. Anything that is not an IP address is returned as it is.
 */
import { isIP } from 'node:net';

/** The 16 bytes of an IPv6 address (:: and a trailing dotted IPv4 part expanded), or null. */
function ipv6Bytes(address: string): number[] | null {
  let a = address;
  const tail: number[] = [];
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (v4) {
    tail.push(...v4.slice(1).map(Number));
    a = `${a.slice(0, v4.index)}0:0`;
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const all = [...head, ...Array.from({ length: fill }, () => '0'), ...rest];
  const bytes: number[] = [];
  for (const g of all) {
    const n = parseInt(g, 16);
    if (!/^[0-9a-f]{1,4}$/i.test(g) || Number.isNaN(n)) return null;
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** "2001:db8:0:1::/64" for an IPv6 address (its prefix of `prefix` bits); an IPv4 address or anything else unchanged. */
export function clientGroup(address: string, prefix = 64): string {
  if (isIP(address) !== 6) return address;
  const bytes = ipv6Bytes(address.toLowerCase());
  if (bytes === null) return address;
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 client.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12).join('.');
  const masked = bytes.map((b, i) => {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - bits)) & 0xff);
  });
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((masked[i]! << 8) | masked[i + 1]!).toString(16));
  return `${groups.join(':')}/${prefix}`;
}
