/**
 * The catalogue pages over HTTP on loopback (no browser): the API's Host/Origin checks, the CSP,
 * only the BOM form posts, bad input as a 400 page naming the field, the REST rate limit, and
 * the kinematics URDF of a robot read against the source file.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startRealServer, startTestServer } from '../support/http.js';
import { sampleEntities } from '../support/factory.js';
import { ROBOTS, robotsPresent } from '../oss/helpers.js';

describe('pages over HTTP', () => {
  let srv: Awaited<ReturnType<typeof startRealServer>>;
  beforeAll(async () => {
    srv = await startRealServer();
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('every page answers HTML with a CSP that allows no inline script', async () => {
    for (const p of ['/', '/search?q=servo', '/parts/ACT-017', '/compare?ids=ACT-017,ACT-018', '/robots', '/robots/unitree-go2', '/bom', '/intelligence', '/docs']) {
      const res = await fetch(srv.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(await res.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script has a src
    }
  });

  it('Host and Origin are checked as for the API; only /bom takes a POST', async () => {
    const host = await rawRequest(`${srv.url}/search?q=servo`, { headers: { host: 'evil.example' } });
    expect(host.status).toBe(403);
    const origin = await rawRequest(`${srv.url}/bom`, { method: 'POST', headers: { host: new URL(srv.url).host, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'lines=ACT-017+1&action=check' });
    expect(origin.status).toBe(403);
    for (const p of ['/search', '/parts/ACT-017', '/compare', '/robots', '/intelligence', '/docs', '/']) {
      const res = await fetch(srv.url + p, { method: 'POST', body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status, p).toBe(404);
    }
  });

  it('bad input is a 400 page naming the field; an unknown part a 404 page with suggestions', async () => {
    const bad = await fetch(`${srv.url}/search?where=${encodeURIComponent('torqe>=3 Nm')}`);
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain('role="alert"');
    expect(text).toContain('torque'); // the nearest field is named
    const miss = await fetch(`${srv.url}/parts/ACT-9999`);
    expect(miss.status).toBe(404);
    const form = await fetch(`${srv.url}/bom`, { method: 'POST', body: 'lines=ACT-017+two+three&action=check', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain('lines');
    const noKey = await fetch(`${srv.url}/bom`, { method: 'POST', body: 'lines=ACT-017+1&action=export&format=csv', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(noKey.status).toBe((await fetch(`${srv.url}/api/bom/export`, { method: 'POST', body: JSON.stringify({ items: [{ id: 'ACT-017', quantity: 1 }] }), headers: { 'content-type': 'application/json' } })).status);
    expect((await fetch(`${srv.url}/robots/no-such-robot`)).status).toBe(404);
    expect((await fetch(`${srv.url}/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('large assets go gzip-compressed to a client that accepts gzip, as they are to one that does not', async () => {
    // Expected bytes: Swagger UI's own files, as swagger-ui-dist ships them (copied by the build).
    const vendor = path.join(process.cwd(), 'node_modules/swagger-ui-dist');
    for (const [asset, file] of [
      ['/assets/vendor/swagger-ui-bundle.js', 'swagger-ui-bundle.js'],
      ['/assets/vendor/swagger-ui.css', 'swagger-ui.css'],
    ] as const) {
      const source = fs.readFileSync(path.join(vendor, file));
      const host = new URL(srv.url).host;
      const gz = await rawRequest(srv.url + asset, { headers: { host, 'accept-encoding': 'gzip, deflate, br' } });
      expect(gz.status, asset).toBe(200);
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers.vary).toBe('Accept-Encoding');
      expect(gz.bytes.length).toBeLessThan(source.length / 3);
      expect(zlib.gunzipSync(gz.bytes).equals(source), asset).toBe(true);
      // Brotli only: the stored gzip is decompressed and the response compression sends it as br.
      const br = await rawRequest(srv.url + asset, { headers: { host, 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(zlib.brotliDecompressSync(br.bytes).equals(source), asset).toBe(true);
      for (const ae of [undefined, 'identity', 'gzip;q=0, deflate']) {
        const plain = await rawRequest(srv.url + asset, { headers: ae === undefined ? { host } : { host, 'accept-encoding': ae } });
        expect(plain.status).toBe(200);
        expect(plain.headers['content-encoding'], String(ae)).toBeUndefined();
        expect(plain.bytes.equals(source), `${asset} with ${ae}`).toBe(true);
      }
    }
    // A small asset (stored as it is) is compressed per response above 1 kB, and the same bytes decoded.
    const css = await rawRequest(`${srv.url}/assets/style.css`, { headers: { host: new URL(srv.url).host, 'accept-encoding': 'gzip' } });
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(css.bytes).equals(fs.readFileSync('src/http/pages/static/style.css'))).toBe(true);
    const tiny = await rawRequest(`${srv.url}/assets/finder.js`, { headers: { host: new URL(srv.url).host, 'accept-encoding': 'gzip' } });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.bytes.equals(fs.readFileSync('src/http/pages/static/finder.js'))).toBe(true);
  });

  it('BOM export with a key answers the same CSV as POST /api/bom/export', async () => {
    const { api_key } = await srv.deps.accounts.register('pages@example.com');
    const form = await fetch(`${srv.url}/bom`, { method: 'POST', body: `lines=ACT-017+2&action=export&format=csv&api_key=${encodeURIComponent(api_key)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toMatch(/^text\/csv/);
    const api = await fetch(`${srv.url}/api/bom/export`, { method: 'POST', body: JSON.stringify({ items: [{ id: 'ACT-017', quantity: 2 }], format: 'csv', api_key }), headers: { 'content-type': 'application/json' } });
    const strip = (t: string) => t.split('\n').filter((l) => !/generated|export_id|created/i.test(l)).join('\n');
    expect(strip(await form.text())).toBe(strip(await api.text()));
  });

  it('each TRL bar of /intelligence links to a search whose total is the bar\'s count', async () => {
    const page = await (await fetch(`${srv.url}/intelligence`)).text();
    const bars = [...page.matchAll(/href="(\/search\?where=trl%3D(\d))" aria-label="TRL \d[^"]*: (\d+) records/g)];
    expect(bars.map((b) => b[2])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for (const [, , level, count] of bars) {
      const api = (await (await fetch(`${srv.url}/api/search?where=${encodeURIComponent(`trl=${level}`)}`)).json()) as { meta: { total: number } };
      expect(api.meta.total, `TRL ${level}`).toBe(Number(count));
    }
  });

  it('a robot page lists the catalogue parts whose get_part used_in names that robot', async () => {
    const page = await (await fetch(`${srv.url}/robots/roboto-origin-atom01`)).text();
    const listed = [...page.slice(page.indexOf('Catalogue parts matched')).matchAll(/href="\/parts\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(listed.length).toBeGreaterThan(0);
    for (const id of listed) {
      const part = (await (await fetch(`${srv.url}/api/entity/${encodeURIComponent(id)}`)).json()) as { used_in: { robots: { robot: string }[] } | null };
      expect(part.used_in?.robots.map((r) => r.robot)).toContain('roboto_origin Atom01');
    }
  });

  it.skipIf(!robotsPresent)('/robots/unitree-go2/kinematics.urdf has every joint of the source with its origin', async () => {
    const source = fs.readFileSync(path.join(ROBOTS, 'urdf/unitree_go2_description.urdf'), 'utf8');
    const urdf = await (await fetch(`${srv.url}/robots/unitree-go2/kinematics.urdf`)).text();
    const names = (t: string) => [...t.matchAll(/<joint\s+name="([^"]+)"/g)].map((m) => m[1]).sort();
    expect(names(urdf)).toEqual(names(source));
    const origin = /<joint name="FR_thigh_joint"[^>]*>\s*<origin\s+xyz="([^"]+)"/.exec(source)![1];
    expect(urdf).toMatch(new RegExp(`<joint name="FR_thigh_joint"[^>]*><origin xyz="${origin!.replace(/\./g, '\\.')}"`));
  });
});

describe('pages and the REST rate limit', () => {
  it('a page is refused with 429 and Retry-After once the free limit is used, like REST', async () => {
    const srv = await startTestServer(sampleEntities(), { rateLimitFree: 2 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${srv.url}/compare?ids=ACT-001,ACT-002`)).status);
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(statuses[2]).toBe(429);
      const page = await fetch(`${srv.url}/compare?ids=ACT-001,ACT-002`);
      expect(page.status).toBe(429);
      expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await fetch(`${srv.url}/api/stats`)).status).toBe(429);
    } finally {
      await srv.stop();
    }
  });
});
