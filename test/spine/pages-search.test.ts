/**
 * /search and /parts/{id} over HTTP against the shipped catalogue: the page made from remembered
 * answers (the answer cache on, each answer's HTML kept after the first request) is byte for byte
 * the page a server without the cache makes afresh, and every link the page writes carries the request's own
 * arguments, checked against URLSearchParams (the pager keeps the finder's controls).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer } from '../support/http.js';

type Server = Awaited<ReturnType<typeof startRealServer>>;

/** Page URLs with every argument the page takes, and values that need escaping or encoding. */
const ARGS: Record<string, string>[] = [
  { q: 'servo' },
  // The same search written otherwise: the page shows what was typed, never another request's form.
  { q: 'SERVO ' },
  { q: 'harmonic drive' },
  { q: 'xyzzyplonk' },
  { q: '雷赛智能' },
  {},
  { q: 'motor', category: 'actuators' },
  { q: 'motor', category: 'reducers' },
  { where: 'torque_rated>=30 N·m' },
  { q: 'motor', where: 'voltage covers 48 V', sort: '-torque_rated' },
  { q: 'servo', where: 'bus in EtherCAT|CAN', category: 'actuators', sort: 'torque_rated:desc' },
  { sort: 'mass', category: 'actuators', where: 'mass<=2 kg; torque_rated>=5 N·m' },
  { q: "<b>&\"x'!~()*", category: 'sensors', sort: '-mass' },
  { q: 'motor', cursor: 'bogus' },
  { q: 'motor', category: 'nope' },
  { where: 'bogus>=3' },
];

const url = (args: Record<string, string>) => `/search${Object.keys(args).length ? `?${new URLSearchParams(args).toString()}` : ''}`;

async function get(srv: Server, path: string): Promise<{ status: number; type: string | null; length: string | null; body: string }> {
  // identity: the Content-Length checked is the page's own byte count (compression is tested in pages-browse).
  const res = await fetch(srv.url + path, { headers: { 'accept-encoding': 'identity' } });
  return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), body: await res.text() };
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('/search pages', () => {
  let cached: Server;
  let plain: Server;
  beforeAll(async () => {
    cached = await startRealServer();
    plain = await startRealServer({ answerCacheEntries: 0 });
  });
  afterAll(async () => {
    await cached?.stop();
    await plain?.stop();
  });

  it('with answers remembered, each page is the one a server without the answer cache makes', async () => {
    const paths = ARGS.map(url);
    // The next page of each first page, as the page links it.
    for (const p of [...paths]) {
      const next = (await get(plain, p)).body.match(/href="(\/search\?[^"]*)" rel="next"/);
      if (next) paths.push(unescape(next[1]!));
    }
    expect(paths.some((p) => p.includes('cursor=ey'))).toBe(true);
    for (const p of paths) {
      const fresh = await get(plain, p);
      const first = await get(cached, p);
      const again = await get(cached, p);
      expect(first, p).toEqual(fresh);
      expect(again, p).toEqual(fresh);
      expect(Number(fresh.length), p).toBe(Buffer.byteLength(fresh.body, 'utf8'));
    }
    // The same remembered facets and rows under other arguments: interleaved, still equal.
    for (const p of [...paths].reverse()) expect((await get(cached, p)).body, p).toBe((await get(plain, p)).body);
    expect(cached.deps.answers.size).toBeGreaterThan(0);
    expect(plain.deps.answers.size).toBe(0);
  });

  it('a part page from remembered answers is the one a server without the answer cache makes', async () => {
    const ids = new Set<string>(['ACT-017', 'act-017']);
    for (const q of ['servo', 'harmonic drive', 'jetson', 'realsense']) {
      const api = (await (await fetch(`${plain.url}/api/search?q=${encodeURIComponent(q)}`)).json()) as { data: { id: string }[] };
      for (const h of api.data.slice(0, 3)) ids.add(h.id);
    }
    const paths = [...ids].map((id) => `/parts/${encodeURIComponent(id)}`);
    paths.push('/parts/ACT-017?with=ACT-018', '/parts/ACT-017?with=NOPE-1', `/parts/ACT-017?with=${encodeURIComponent('<x>"&')}`, '/parts/NOPE-1');
    for (const p of [...paths, ...paths]) {
      const fresh = await get(plain, p);
      expect(await get(cached, p), p).toEqual(fresh);
      expect(Number(fresh.length), p).toBe(Buffer.byteLength(fresh.body, 'utf8'));
    }
    // Pages that show alternatives and same-product links are among them.
    const bodies = await Promise.all(paths.map(async (p) => (await get(cached, p)).body));
    expect(bodies.some((b) => b.includes('Compare with the first three'))).toBe(true);
  });

  it("every pager link is the request's arguments (finder controls kept) with its cursor replaced", async () => {
    const cases: [string, string][] = [...ARGS.map((a) => Object.entries(a) as [string, string][]), [['category', 'actuators'], ['min.torque_rated', '1'], ['in.bus', 'CAN'], ['in.bus', 'EtherCAT']], [['category', 'actuators']]].map((pairs) => {
      const q = new URLSearchParams(pairs);
      return [`/search${pairs.length ? `?${q}` : ''}`, q.toString()];
    });
    let next = 0;
    for (const [path, query] of cases) {
      const page = await get(cached, path);
      for (const [, href] of page.body.matchAll(/<a href="(\/search\?[^"]*)" rel="next">/g)) {
        next += 1;
        const got = new URLSearchParams(unescape(href!).slice('/search?'.length));
        expect(got.get('cursor'), path).toBeTruthy();
        got.delete('cursor');
        const want = new URLSearchParams(query);
        want.delete('cursor');
        want.sort();
        got.sort();
        expect(got.toString(), path).toBe(want.toString());
      }
    }
    expect(next).toBeGreaterThan(0);
  });
});
