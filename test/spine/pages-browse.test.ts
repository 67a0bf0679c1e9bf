/**
 * Issue 41 over HTTP against the shipped catalogue: category browsing (/search with only a
 * category lists that category, paged, with its count of non-quarantined records counted here
 * from data/catalogue/entities.json), the parametric finder (its controls submitted list the ids
 * GET /api/search returns for the where written by hand), the zero-hit page's `elsewhere` links,
 * HTML error pages for browsers and JSON for API clients, and the BOM built with JavaScript off
 * (Add to BOM posts, the list is kept in a cookie of /bom).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { rawRequest, startRealServer } from '../support/http.js';
import { ROOT } from '../oss/helpers.js';

type Server = Awaited<ReturnType<typeof startRealServer>>;

const ENTITIES = (JSON.parse(fs.readFileSync(path.join(ROOT, 'data/catalogue/entities.json'), 'utf8')) as { entities: { id: string; category: string; quarantine: boolean }[] }).entities;
const HTML = { accept: 'text/html,application/xhtml+xml' };
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const rowIds = (body: string) => [...body.matchAll(/<tr data-id="([^"]*)">/g)].map((m) => unescape(m[1]!));

describe('pages a parts engineer can work with (issue 41)', () => {
  let srv: Server;
  beforeAll(async () => {
    srv = await startRealServer();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });
  const get = async (p: string, headers: Record<string, string> = HTML) => {
    const res = await fetch(srv.url + p, { headers, redirect: 'manual' });
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text(), headers: res.headers };
  };

  it('/search with only a category lists that category in id order, paged, stating its non-quarantined count; REST /api/search still needs q or where', async () => {
    const live = ENTITIES.filter((e) => e.category === 'actuators' && !e.quarantine).map((e) => e.id).sort();
    const quarantined = ENTITIES.filter((e) => e.category === 'actuators' && e.quarantine).length;
    expect(live.length).toBeGreaterThan(50);
    const seen: string[] = [];
    let next: string | null = '/search?category=actuators';
    let pages = 0;
    while (next) {
      const page = await get(next);
      expect(page.status, next).toBe(200);
      expect(page.body).toContain(`<h2 id="results">${live.length} parts in Actuators</h2>`);
      expect(page.body).toContain(`${live.length} catalogue records not quarantined; ${quarantined} quarantined`);
      seen.push(...rowIds(page.body));
      const m = /<a href="([^"]*)" rel="next">/.exec(page.body);
      next = m ? unescape(m[1]!) : null;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen.length).toBe(live.length);
    expect([...seen].sort()).toEqual(live);
    // Every home tile opens its category.
    const home = await get('/');
    const tiles = [...home.body.matchAll(/<a href="(\/search\?category=[^"&]*)">/g)].map((m) => unescape(m[1]!));
    expect(tiles.length).toBeGreaterThan(5);
    for (const t of tiles) expect((await get(t)).status, t).toBe(200);
    // The API keeps the spec's rule.
    const api = await get('/api/search?category=actuators', {});
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body)).toMatchObject({ code: 'invalid_input', field: 'q' });
  });

  it("a search by words alone in no category has the finder of its hits' most common category (the category page's controls), the others as links, and its controls list the API's ids", async () => {
    const controls = (body: string) => {
      const aside = body.slice(body.indexOf('<aside aria-label="Spec filters">'), body.indexOf('</aside>'));
      return [...aside.matchAll(/<input [^>]*name="([^"]+)"[^>]*?(?: value="([^"]*)")?>/g)].map((m) => `${m[1]}=${m[2] ?? ''}`);
    };
    for (const q of ['servo', 'harmonic drive', 'gripper']) {
      const api = JSON.parse((await get(`/api/search?${new URLSearchParams({ q })}`, {})).body) as { data: { category: string }[] };
      // Counted here: the most hits; a tie goes to the category of the better-ranked hit.
      const count = new Map<string, number>();
      for (const h of api.data) count.set(h.category, (count.get(h.category) ?? 0) + 1);
      const ranked = [...count.keys()].sort((a, b) => count.get(b)! - count.get(a)! || api.data.findIndex((h) => h.category === a) - api.data.findIndex((h) => h.category === b));
      const top = ranked[0]!;
      const page = await get(`/search?${new URLSearchParams({ q })}`);
      expect(page.status).toBe(200);
      expect(page.body, q).toContain(`<summary>Spec filters in ${top} (`);
      const inCategory = await get(`/search?${new URLSearchParams({ q, category: top })}`);
      const own = controls(inCategory.body);
      expect(own.some((c) => c.startsWith('min.')), q).toBe(true);
      expect(controls(page.body), q).toEqual(own);
      const links = [...page.body.slice(page.body.indexOf('id="finder-categories"')).matchAll(/<li><a href="([^"]+)"/g)].map((m) => unescape(m[1]!));
      expect(links, q).toEqual(page.body.includes('id="finder-categories"') ? ranked.slice(1).map((c) => `/search?${new URLSearchParams({ q, category: c })}`) : []);
    }
    // Submitted as the browser sends the form (the empty fields too), a control lists the ids of the same where by hand, in every category.
    for (const [pairs, where] of [
      [[['min.torque_rated', '5']], 'torque_rated>=5 N·m'],
      [[['max.voltage', '24'], ['in.bus', 'TTL']], 'voltage<=24 V; bus in TTL'],
      [[['in.bus', 'CAN']], 'bus in CAN'],
    ] as [[string, string][], string][]) {
      const form = new URLSearchParams([['q', 'servo'], ['where', ''], ['category', ''], ['sort', ''], ...pairs]);
      const page = await get(`/search?${form}`);
      expect(page.status, String(form)).toBe(200);
      const api = JSON.parse((await get(`/api/search?${new URLSearchParams({ q: 'servo', where })}`, {})).body) as { data: { id: string }[]; meta: { total: number } };
      expect(api.meta.total, where).toBeGreaterThan(0);
      expect(rowIds(page.body), where).toEqual(api.data.map((h) => h.id));
      // The control keeps its value on the page it made.
      for (const [k, v] of pairs) expect(page.body).toMatch(new RegExp(`name="${k.replace('.', '\\.')}"[^>]*value="${v}"${k.startsWith('in.') ? ' checked' : ''}`));
    }
    // No hit: no finder (a filter only narrows the words' hits).
    const none = await get('/search?q=xyzzyplonk');
    expect(none.status).toBe(200);
    expect(none.body).not.toContain('id="finder"');
  });

  it("the finder's controls list the ids GET /api/search returns for the same where written by hand", async () => {
    const cases: [[string, string][], string][] = [
      [[['min.torque_rated', '30']], 'torque_rated>=30 N·m'],
      [[['in.bus', 'CAN'], ['in.bus', 'EtherCAT']], 'bus in CAN|EtherCAT'],
      [[['min.mass', '0.1'], ['max.mass', '1.5'], ['in.bus', 'CAN']], 'mass>=100 g; mass<=1500 g; bus in CAN'],
      [[['max.voltage', '24'], ['where', 'torque_rated>=1 N·m']], 'torque_rated>=1 N·m; voltage<=24 V'],
    ];
    for (const [pairs, where] of cases) {
      const q = new URLSearchParams([['category', 'actuators'], ...pairs]);
      const page = await get(`/search?${q}`);
      expect(page.status, String(q)).toBe(200);
      const api = JSON.parse((await get(`/api/search?${new URLSearchParams({ category: 'actuators', where })}`, {})).body) as { data: { id: string }[]; meta: { total: number } };
      expect(api.meta.total, where).toBeGreaterThan(0);
      expect(rowIds(page.body), where).toEqual(api.data.map((h) => h.id));
      expect(page.body).toContain(`<h2 id="results">${api.meta.total} match`);
      // Each filtered field is a result column.
      for (const [k] of pairs) if (k !== 'where') expect(page.body).toMatch(new RegExp(`<th scope="col">${k.split('.')[1]}`));
    }
    // Every spec field the category's parts declare has a control, with its counts.
    const fields = JSON.parse((await get('/api/spec_fields?category=actuators', {})).body) as { records: number; fields: { name: string; kind: string; declared: number; read: number; values: unknown[] | null }[] };
    const page = (await get('/search?category=actuators')).body;
    for (const f of fields.fields.filter((x) => x.declared > 0)) {
      if (f.values) expect(page, f.name).toContain(`name="in.${f.name}"`);
      else {
        expect(page, f.name).toContain(`name="min.${f.name}"`);
        expect(page, f.name).toContain(`name="max.${f.name}"`);
      }
      expect(page).toContain(`${f.read} with a value read, ${f.declared - f.read} declared but unread, ${fields.records - f.declared} not declared`);
    }
    // A control that is not a number: 400 naming it and the fix.
    const bad = await get('/search?category=actuators&min.torque_rated=lots');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('min.torque_rated: &quot;lots&quot; is not a number: type a plain number in Nm');
  });

  it('sort is a fixed choice list; every choice is a valid sort of the API', async () => {
    const page = (await get('/search?category=actuators&min.torque_rated=1')).body;
    const select = /<select id="sort" name="sort">(.*?)<\/select>/s.exec(page)![1]!;
    const values = [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => unescape(m[1]!));
    expect(values.length).toBeGreaterThan(4);
    for (const v of values) {
      const res = await get(`/search?category=actuators&min.torque_rated=1${v ? `&sort=${encodeURIComponent(v)}` : ''}`);
      expect(res.status, v).toBe(200);
      const api = JSON.parse((await get(`/api/search?${new URLSearchParams({ category: 'actuators', where: 'torque_rated>=1 Nm', ...(v ? { sort: v } : {}) })}`, {})).body) as { data: { id: string }[] };
      expect(rowIds(res.body), v).toEqual(api.data.map((h) => h.id));
      if (v) expect(res.body).toMatch(new RegExp(`<option value="${v.replace('-', '\\-')}" selected>`));
    }
  });

  it('a search without a hit links the answer’s elsewhere pointers; /robots?q= lists the robots naming it', async () => {
    const api = JSON.parse((await get('/api/search?q=feetech', {})).body) as { meta: { total: number; elsewhere: { where: string; count: number }[] } };
    expect(api.meta.total).toBe(0);
    const osl = api.meta.elsewhere.find((e) => e.where === 'open_source_layer')!;
    const page = await get('/search?q=feetech');
    expect(page.body).toContain(`<a href="/robots?q=feetech">${osl.count} line(s) in open-source robots</a>`);
    const robots = await get('/robots?q=feetech');
    expect(robots.status).toBe(200);
    const used = JSON.parse((await get('/api/where-used?q=feetech', {})).body) as { robots: { robot: string; bom_lines: unknown[]; urdf_mentions: unknown[] }[] };
    for (const r of used.robots) expect(robots.body).toContain(`${r.robot}</a>: ${r.bom_lines.length} BOM line(s), ${r.urdf_mentions.length} URDF mention(s)`);
    expect(used.robots.reduce((n, r) => n + r.bom_lines.length + r.urdf_mentions.length, 0)).toBe(osl.count);
  });

  it('a browser gets HTML error pages (404 with a search box, a missing part with names); API clients get JSON', async () => {
    const nf = await get('/no/such-page');
    expect(nf.status).toBe(404);
    expect(nf.type).toContain('text/html');
    expect(nf.body).toContain('<h1>Not found</h1>');
    expect(nf.body).toContain('value="such page"');
    const json = await get('/no/such-page', { accept: 'application/json' });
    expect(json.status).toBe(404);
    expect(JSON.parse(json.body)).toMatchObject({ code: 'not_found' });
    const apiNf = await get('/api/no-such-route');
    expect(apiNf.type).toContain('application/json');
    // A missing part: the ids it may have meant, with their names from the records.
    const part = await get('/parts/ACT-01');
    expect(part.status).toBe(404);
    const did = JSON.parse((await get('/api/entity/ACT-01', {})).body) as { did_you_mean: string[] };
    expect(did.did_you_mean.length).toBeGreaterThan(1);
    for (const id of did.did_you_mean) {
      const name = ENTITIES.find((e) => e.id === id) as unknown as { name: string };
      expect(unescape(part.body)).toContain(`${id} ${name.name}</a>`);
    }
    // A 400 page names the field and says how to fix it.
    const bad = await get('/search?q=motor&cursor=bogus');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/field <code>cursor<\/code>/);
  });

  it('with JavaScript off, Add to BOM posts to /bom, which keeps the list in its cookie and shows it', async () => {
    let cookie = '';
    for (const id of ['ACT-001', 'CHIP-001', 'ACT-001']) {
      const res = await fetch(`${srv.url}/bom`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) }, body: new URLSearchParams({ action: 'add', add: id }) });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/bom?added=${id}`);
      cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    }
    const page = await get('/bom', { ...HTML, cookie });
    expect(page.body).toMatch(/<tr data-id="ACT-001"><td><a href="\/parts\/ACT-001">ACT-001<\/a><\/td><td class="num">2<\/td>/);
    expect(page.body).toMatch(/<tr data-id="CHIP-001">.*?<td class="num">1<\/td>/);
    expect(page.body).toContain('ACT-001 2\nCHIP-001 1</textarea>');
    // Checking it shows the U2D2 bridge finding check_bom gives.
    const check = await fetch(`${srv.url}/bom`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ action: 'check', lines: 'ACT-001 2\nCHIP-001 1' }) });
    const body = await check.text();
    expect(body).toContain('data-kind="bridge_required"');
    expect(body).toContain('U2D2');
    const bad = await fetch(`${srv.url}/bom`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ action: 'add', add: 'two words' }) });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('field <code>add</code>');
  });

  it('HTML, JSON and large assets go br or gzip compressed to a client that accepts it (decoded: the same bytes); small bodies and /mcp are not', async () => {
    const routes = ['/search?category=actuators', '/api/oss_components.json', '/openapi.json', '/assets/style.css'];
    for (const r of routes) {
      const plain = await rawRequest(srv.url + r, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      expect(plain.status, r).toBe(200);
      expect(plain.headers['content-encoding'], r).toBeUndefined();
      expect(Number(plain.headers['content-length'] ?? plain.bytes.length)).toBe(plain.bytes.length);
      for (const [coding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
        const res = await rawRequest(srv.url + r, { headers: { accept: 'text/html', 'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip' } });
        expect(res.headers['content-encoding'], `${r} ${coding}`).toBe(coding);
        expect(res.headers.vary).toMatch(/Accept-Encoding/i);
        expect(Number(res.headers['content-length'])).toBe(res.bytes.length);
        expect(res.bytes.length, r).toBeLessThan(plain.bytes.length);
        expect(Buffer.compare(decode(res.bytes), plain.bytes), `${r} ${coding}`).toBe(0);
      }
    }
    const big = await rawRequest(`${srv.url}/api/oss_components.json`, { headers: { 'accept-encoding': 'br' } });
    const raw = await rawRequest(`${srv.url}/api/oss_components.json`, { headers: {} });
    console.log(`/api/oss_components.json: ${raw.bytes.length} B as is, ${big.bytes.length} B brotli`);
    const small = await rawRequest(`${srv.url}/healthz`, { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    // An asset carries a cache lifetime.
    const css = await rawRequest(`${srv.url}/assets/style.css`, { headers: {} });
    expect(css.headers['cache-control']).toMatch(/max-age=\d+/);
  });

  it('/openapi.json groups operations by area and documents where as the text a query string carries', async () => {
    const doc = JSON.parse((await rawRequest(`${srv.url}/openapi.json`, { headers: {} })).body) as { tags: { name: string }[]; paths: Record<string, Record<string, { tags: string[]; parameters?: { name: string; schema: Record<string, unknown> }[] }>> };
    const names = doc.tags.map((t) => t.name);
    expect(names.length).toBeGreaterThan(5);
    for (const [p, item] of Object.entries(doc.paths)) for (const op of Object.values(item)) expect(names, p).toContain(op.tags[0]);
    expect(doc.paths['/api/search']!.get!.tags).toEqual(['Catalogue']);
    expect(doc.paths['/api/bom/check']!.post!.tags).toEqual(['BOM']);
    expect(doc.paths['/plates']!.get!.tags).toEqual(['Pages']);
    const where = doc.paths['/api/search']!.get!.parameters!.find((x) => x.name === 'where')!;
    expect(where.schema.type).toBe('string');
    expect(where.schema.anyOf).toBeUndefined();
  });
});

