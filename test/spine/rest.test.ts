/** The REST bridge over a real HTTP server on loopback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEntities } from '../support/factory.js';
import { rawRequest, startTestServer } from '../support/http.js';

let srv: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  srv = await startTestServer(sampleEntities(), { bodyLimitBytes: 2048 });
});
afterAll(async () => {
  await srv.stop();
});

const get = async (path: string, init?: RequestInit) => {
  const r = await fetch(srv.url + path, init);
  return { status: r.status, body: (await r.json()) as Record<string, any>, headers: r.headers };
};

describe('GET /api/search', () => {
  it('answers hits with meta', async () => {
    const r = await get('/api/search?q=servo&limit=2');
    expect(r.status).toBe(200);
    expect(r.body.data.map((h: { id: string }) => h.id)).toEqual(['SERVO-1', 'ACT-001']);
    expect(r.body.meta).toMatchObject({ quarantined_excluded: 1, limit: 2, total: 5 });
    expect(r.body.data[0].detail_url).toBe(`${srv.url}/api/entity/SERVO-1`);
  });

  it('types query parameters from the tool schema', async () => {
    expect((await get('/api/search?q=servo&include_quarantine=true')).body.meta.quarantined_excluded).toBe(0);
    expect((await get('/api/search?q=servo&limit=500')).body.meta).toMatchObject({ limit: 100, limit_clamped: true });
  });

  it('400 for missing q, bad limit, unknown category; each names the field', async () => {
    const cases: [string, string, string][] = [
      ['/api/search', 'q', 'invalid_input'],
      ['/api/search?q=', 'q', 'invalid_input'],
      ['/api/search?q=servo&limit=0', 'limit', 'invalid_input'],
      ['/api/search?q=servo&limit=1.5', 'limit', 'invalid_input'],
      ['/api/search?q=servo&limit=abc', 'limit', 'invalid_input'],
      ['/api/search?q=servo&include_quarantine=maybe', 'include_quarantine', 'invalid_input'],
      ['/api/search?q=servo&category=motors', 'category', 'unknown_category'],
    ];
    for (const [path, field, code] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.body, path).toMatchObject({ code, field });
      expect(typeof r.body.error).toBe('string');
    }
  });
});

describe('GET /api/entity/{id}', () => {
  it('200 case-insensitive with locked_fields', async () => {
    const r = await get('/api/entity/act-001');
    expect(r.status).toBe(200);
    expect(r.body.entity.id).toBe('ACT-001');
    expect(r.body.locked_fields).toContain('price');
  });
  it('decodes path ids once: a literal % is an id like any other', async () => {
    const r = await get('/api/entity/50%25');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'not_found', id: '50%' });
    expect((await get('/api/entity/ACT%2D001')).body.entity.id).toBe('ACT-001');
  });
  it('404 with did_you_mean', async () => {
    const r = await get('/api/entity/ACT-011');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'not_found', did_you_mean: ['ACT-010', 'ACT-004', 'ACT-003', 'ACT-002', 'ACT-001'] });
  });
});

describe('lists and stats', () => {
  it('/api/actuators.json is {count, data} of actuators only', async () => {
    const r = await get('/api/actuators.json');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(4);
    expect(r.body.data.every((d: { category: string }) => d.category === 'actuators')).toBe(true);
  });
  it('the category of a fixed list route cannot be overridden', async () => {
    const r = await get('/api/sensors.json?category=actuators');
    expect(r.body.data.every((d: { category: string }) => d.category === 'sensors')).toBe(true);
  });
  it('/api/chips.json and /api/protocols.json', async () => {
    expect((await get('/api/chips.json')).body.count).toBe(1);
    expect((await get('/api/protocols.json')).body.data[0].id).toBe('PROT-001');
  });
  it('/api/entities.json anonymous: summary fields only, no paid values', async () => {
    const r = await get('/api/entities.json');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(8);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('120 USD');
    expect(text).not.toContain('secretcompat');
  });
  it('/api/stats', async () => {
    const r = await get('/api/stats');
    expect(r.body).toMatchObject({ total: 9, quarantined: 1, license: 'CC BY 4.0', dataset_version: 'test-1' });
  });
  it('/healthz and /openapi.json', async () => {
    expect((await get('/healthz')).body.status).toBe('ok');
    const oa = (await get('/openapi.json')).body;
    expect(oa.openapi).toBe('3.1.0');
    for (const p of ['/api/search', '/api/entity/{id}', '/api/entities.json', '/api/actuators.json', '/api/sensors.json', '/api/chips.json', '/api/protocols.json', '/api/stats']) {
      expect(oa.paths[p], p).toBeDefined();
    }
    expect(oa.paths['/api/search'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['q', 'where', 'sort', 'category', 'limit', 'include_quarantine', 'cursor', 'fields']);
  });
  it('unknown route: 404 JSON', async () => {
    const r = await get('/api/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
});

describe('HTTP security', () => {
  it('403 for a foreign Host, loopback names pass', async () => {
    const bad = await rawRequest(`${srv.url}/api/stats`, { headers: { Host: 'evil.example:80' } });
    expect(bad.status).toBe(403);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'forbidden', field: 'Host' });
    for (const host of ['localhost', `localhost:${srv.port}`, `127.0.0.1:${srv.port}`, '[::1]']) {
      expect((await rawRequest(`${srv.url}/api/stats`, { headers: { Host: host } })).status, host).toBe(200);
    }
  });
  it('403 for a foreign Origin, loopback origins pass', async () => {
    expect((await get('/api/stats', { headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    expect((await get('/api/stats', { headers: { Origin: 'http://localhost:3000' } })).status).toBe(200);
  });
  it('honours configured allowed hosts', async () => {
    const s = await startTestServer(sampleEntities(), { allowedHosts: ['parts.example.com'] });
    try {
      expect((await rawRequest(`${s.url}/api/stats`, { headers: { Host: 'parts.example.com' } })).status).toBe(200);
      expect((await rawRequest(`${s.url}/api/stats`, { headers: { Host: 'other.example.com' } })).status).toBe(403);
    } finally {
      await s.stop();
    }
  });
  it('413 for a body over the limit', async () => {
    const r = await rawRequest(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5000) } }),
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).code).toBe('payload_too_large');
  });
});

describe('store unavailable over REST', () => {
  it('503 with store_unavailable, never an empty 200', async () => {
    const s = await startTestServer(sampleEntities());
    s.deps.close();
    try {
      for (const p of ['/api/search?q=servo', '/api/search?q=zzzz', '/api/entity/ACT-001', '/api/actuators.json', '/healthz']) {
        const r = await fetch(s.url + p);
        expect(r.status, p).toBe(503);
        expect(((await r.json()) as { code: string }).code).toBe('store_unavailable');
      }
    } finally {
      await s.close();
    }
  });
});
