/**
 * /openapi.json as a document: valid OpenAPI 3.1 for swagger-parser, clean under Redocly's
 * recommended rules, every route the app serves documented (and nothing it does not serve),
 * `security` true to what each tool route does without a key, and a TypeScript client generated
 * with openapi-typescript that type-checks calls against it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Hono } from 'hono';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import type { AppEnv } from '../../src/http/common.js';
import { documentedPath, PAGE_ROUTES, pagePaths } from '../../src/http/page-docs.js';
import { TOOLS } from '../../src/tools/index.js';
import { redoclyLint } from '../../scripts/lint-openapi.js';
import { startTestServer } from '../support/http.js';
import { testDeps } from '../support/deps.js';
import { http, postJson } from '../accounts-e2e/helpers.js';

type Op = { operationId: string; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; 'x-mcp-tool'?: string };
type Doc = { openapi: string; info: { license: Record<string, string> }; paths: Record<string, Record<string, Op>> };

const root = path.resolve(import.meta.dirname, '..', '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** A fresh folder under .tmp/ (git-ignored) in the repository, so the generated client resolves its imports from node_modules. */
function tempDir(prefix: string): string {
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  return fs.mkdtempSync(path.join(root, '.tmp', prefix));
}

let srv: Awaited<ReturnType<typeof startTestServer>>;
let text: string;
let doc: Doc;

beforeAll(async () => {
  srv = await startTestServer();
  const res = await fetch(`${srv.url}/openapi.json`);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  text = await res.text();
  doc = JSON.parse(text) as Doc;
});
afterAll(async () => {
  await srv?.stop();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([m, op]) => ({ path: p, method: m, op })));

/** A written copy of the served document, removed after `fn`. */
async function withFile<T>(fn: (file: string) => Promise<T> | T, content: string = text): Promise<T> {
  const dir = tempDir('openapi-');
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, content);
    return await fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('/openapi.json as a document', () => {
  it('swagger-parser validates it as OpenAPI 3.1 (licence with an SPDX identifier)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    // validate() throws with the schema errors when the document is invalid.
    const api = (await SwaggerParser.validate(JSON.parse(text))) as { openapi: string };
    expect(api.openapi).toBe('3.1.0');
    // A broken copy is refused: the validation can fail.
    const broken = JSON.parse(text) as Doc;
    broken.info.license = { name: 'Code: MIT; data: CC BY 4.0' };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/license/);
  });

  it("Redocly's recommended rules: 0 errors and 0 warnings", async () => {
    const r = await withFile((file) => redoclyLint(file, ['--format=json']));
    const out = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(out.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(out.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(r.status).toBe(0);
  });

  it('operationIds are unique; every operation states its security and declares 4xx error bodies', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['compare_parts_api_compare_get', 'compare_parts_api_compare_post', 'check_compatibility_api_compatibility_get', 'check_compatibility_api_compatibility_post']));
    for (const { path: p, method, op } of operations()) {
      expect(Array.isArray(op.security), `${method} ${p} security`).toBe(true);
      const fourxx = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s));
      expect(fourxx, `${method} ${p} 4xx`).toContain('403'); // Host/Origin checks apply to every route
    }
  });

  it('every route the app serves is documented, and every documented operation is served', () => {
    const deps = testDeps();
    try {
      const { app } = createApp(deps);
      const served = new Map<string, Set<string>>();
      for (const r of app.routes) {
        if (r.path === '/*' || r.path === '*') continue; // middleware (Host/Origin, body limits)
        if (r.method === 'ALL' && r.path.endsWith('/*')) continue; // middleware on a prefix (CORS on /api/*)
        const p = documentedPath(r.path);
        const set = served.get(p) ?? new Set<string>();
        set.add(r.method.toLowerCase());
        served.set(p, set);
      }
      // The fixed list the issue named, besides every tool route and dataset.
      for (const p of ['/healthz', '/openapi.json', '/mcp', '/api/intelligence.svg', '/api/payment/webhook', '/pay/{order_id}', '/pay/{order_id}/simulate']) expect(served.has(p), p).toBe(true);
      const undocumented: string[] = [];
      for (const [p, methods] of served) {
        const item = doc.paths[p];
        if (!item) {
          undocumented.push(`${[...methods].join(',').toUpperCase()} ${p}`);
          continue;
        }
        for (const m of methods) {
          // app.all (/mcp): at least one documented method.
          if (m === 'all' ? !METHODS.some((x) => item[x]) : !item[m]) undocumented.push(`${m.toUpperCase()} ${p}`);
        }
      }
      // A route added without its description fails here: describe it where it is mounted
      // (a tool's rest route is described from the tool; other modules return their OpenApiPaths).
      expect(undocumented).toEqual([]);
      const invented = operations().filter(({ path: p, method }) => !(served.get(p)?.has(method) || served.get(p)?.has('all')));
      expect(invented.map((o) => `${o.method} ${o.path}`)).toEqual([]);
      // Every tool route is documented as that tool's operation.
      for (const t of TOOLS) for (const r of t.rest) expect(doc.paths[r.path.replace(/:([a-z_]+)/g, '{$1}')]?.[r.method.toLowerCase()]?.['x-mcp-tool'], `${r.method} ${r.path}`).toBe(t.name);
    } finally {
      deps.close();
    }
  });

  it('a route that renders its own body declares what it produces, and the document says exactly that', () => {
    for (const t of TOOLS) {
      for (const r of t.rest) {
        const content = doc.paths[r.path.replace(/:([a-z_]+)/g, '{$1}')]![r.method.toLowerCase()]!.responses['200']!.content!;
        if (!r.render) {
          expect(Object.keys(content), `${r.method} ${r.path}`).toEqual(['application/json']);
          continue;
        }
        expect(r.produces, `${r.method} ${r.path} renders its body: declare its content types in produces`).toBeDefined();
        expect(Object.keys(content).sort(), `${r.method} ${r.path}`).toEqual(r.produces!.map((p) => p.contentType).sort());
      }
    }
    const bom = doc.paths['/api/bom/export']!.post!.responses['200']!.content!;
    expect(Object.keys(bom).sort()).toEqual(['application/json', 'text/csv']);
    expect((bom['application/json']!.schema as { required: string[] }).required.sort()).toEqual(['items', 'metadata', 'print_suggestions', 'reference_prices', 'suggested_lines']);
  });

  it('pages are documented (text/html) exactly when the app serves them', async () => {
    expect(pagePaths([])).toEqual({});
    const routes = [
      { method: 'GET', path: '/' },
      { method: 'GET', path: '/parts/:id' },
      { method: 'POST', path: '/bom' },
      { method: 'GET', path: '/assets/*' },
    ];
    const paths = pagePaths(routes);
    expect(Object.keys(paths).sort()).toEqual(['/', '/assets/{path}', '/bom', '/parts/{id}']);
    expect(Object.keys((paths['/parts/{id}']!.get as Op).responses['200']!.content!)).toEqual(['text/html']);
    expect(Object.keys((paths['/bom']!.post as Op).responses['200']!.content!).sort()).toEqual(['application/json', 'text/csv', 'text/html']);
    // On an app serving the pages, /openapi.json documents each; the whole document still lints clean.
    const mountAll = (app: Hono<AppEnv>) => {
      for (const r of PAGE_ROUTES) {
        const [method, p] = r.split(' ') as [string, string];
        app.on(method, p, (c) => c.html('<!doctype html><title>page</title>'));
      }
    };
    const s = await startTestServer(undefined, {}, { extend: mountAll });
    try {
      const d = (await (await fetch(`${s.url}/openapi.json`)).json()) as Doc;
      expect(Object.keys(d.paths['/']!.get!.responses['200']!.content!)).toEqual(['text/html']);
      for (const r of PAGE_ROUTES) {
        const [method, p] = r.split(' ') as [string, string];
        expect(d.paths[documentedPath(p)]?.[method.toLowerCase()], r).toBeDefined();
      }
      const lint = await withFile((file) => redoclyLint(file, ['--format=json']), JSON.stringify(d));
      expect((JSON.parse(lint.stdout) as { totals: { errors: number; warnings: number } }).totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await s.stop();
    }
  });

  it('a stateless server documents /mcp as POST only, as it serves it', async () => {
    const s = await startTestServer(undefined, { stateless: true });
    try {
      const d = (await (await fetch(`${s.url}/openapi.json`)).json()) as Doc;
      expect(Object.keys(d.paths['/mcp']!)).toEqual(['post']);
      expect((await fetch(`${s.url}/mcp`)).status).toBe(405);
    } finally {
      await s.stop();
    }
  });
});

describe('security is true to what each tool route does without a key', () => {
  // Arguments that pass validation, so that a call without a key reaches the key check.
  const validBody: Record<string, unknown> = {
    export_bom: { items: [{ id: 'ACT-001', quantity: 1 }] },
    get_balance: {},
    create_payment: { plan: 'starter' },
  };

  it('free operations: []; key-only ones: the three key schemes, answered 401 missing_credentials without one', async () => {
    const keySchemes = [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }];
    for (const t of TOOLS) {
      const takesKey = 'api_key' in t.inputSchema.shape;
      expect(t.access !== undefined, `${t.name}: access declared exactly when the tool takes api_key`).toBe(takesKey);
      for (const r of t.rest) {
        const op = doc.paths[r.path.replace(/:([a-z_]+)/g, '{$1}')]![r.method.toLowerCase()]!;
        if (!t.access) {
          expect(op.security, `${r.method} ${r.path}`).toEqual([]);
          continue;
        }
        if (t.access.key === 'optional') {
          expect(op.security, `${r.method} ${r.path}`).toEqual([{}, ...keySchemes]);
          continue;
        }
        expect(op.security, `${r.method} ${r.path}`).toEqual(keySchemes);
        expect(validBody[t.name], `give ${t.name} a valid body in this test`).toBeDefined();
        const res = await postJson(`${srv.url}${r.path}`, validBody[t.name]);
        expect(res.status, `${r.method} ${r.path}`).toBe(401);
        expect(res.body).toMatchObject({ code: 'missing_credentials' });
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
  });

  it('an optional-key route answers without a key (free fields), and a charged one declares 402 with its body', async () => {
    const r = await http(`${srv.url}/api/entities.json?limit=1`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ meta: { fields: 'summary', credits_charged: 0 } });
    const op = doc.paths['/api/bom/export']!.post!;
    const body402 = JSON.stringify(op.responses['402']);
    expect(body402).toContain('#/components/schemas/PaymentRequiredError');
    expect(JSON.stringify(op.responses['429'])).toContain('Retry-After');
  });
});

describe('a TypeScript client generated with openapi-typescript', () => {
  it('type-checks calls against the generated types with tsc (0 errors), and refuses wrong ones', async () => {
    const types = astToString(await openapiTS(JSON.parse(text)));
    const dir = tempDir('openapi-client-');
    try {
      // A .ts file, not .d.ts: checked in full while the libraries' declarations are skipped.
      fs.writeFileSync(path.join(dir, 'schema.ts'), types);
      fs.writeFileSync(path.join(dir, 'calls.ts'), CALLS);
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: true, types: [] }, files: ['calls.ts', 'schema.ts'] }),
      );
      const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
      // The same check fails on a call the document does not allow.
      fs.writeFileSync(path.join(dir, 'calls.ts'), `${CALLS}\nvoid client.GET('/api/search', { params: { query: { limit: 'five' } } });\n`);
      const bad = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      expect(bad.status).not.toBe(0);
      expect(bad.stdout).toMatch(/calls\.ts\(\d+,\d+\): error TS/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

/** Calls against the generated types with openapi-fetch (type-checked, not run). */
const CALLS = `import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

export const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });

export async function calls(): Promise<void> {
  const search = await client.GET('/api/search', { params: { query: { q: 'servo', limit: 5, where: 'torque_rated>=30 N·m' } } });
  if (search.data) {
    const total: number = search.data.meta.total;
    const next: string | null = search.data.next_cursor;
    void total;
    void next;
  }
  if (search.error) {
    const code: string = search.error.code;
    void code;
  }
  const part = await client.GET('/api/entity/{id}', { params: { path: { id: 'ACT-001' } } });
  if (part.data) void part.data.entity.id;
  if (part.error) void part.error.error;
  const cmp = await client.POST('/api/compare', { body: { ids: ['ACT-001', 'ACT-002'] } });
  if (cmp.data) void cmp.data.rows.length;
  const cmpGet = await client.GET('/api/compare', { params: { query: { ids: ['ACT-001', 'ACT-002'] } } });
  if (cmpGet.data) void cmpGet.data.same_product;
  const compat = await client.GET('/api/compatibility', { params: { query: { a: 'ACT-001', b: 'ACT-002' } } });
  void compat.data;
  const exp = await client.POST('/api/bom/export', {
    body: { items: [{ id: 'ACT-001', quantity: 2 }], format: 'json' },
    params: { header: { 'Idempotency-Key': 'k-1' } },
    headers: { Authorization: 'Bearer gtk_x' },
  });
  void exp.response.status;
  const balance = await client.POST('/api/credits/balance', { body: { api_key: 'gtk_x' } });
  if (balance.data) {
    const credits: number = balance.data.credits;
    void credits;
  }
  const health = await client.GET('/healthz');
  if (health.data) {
    const status: 'ok' | 'degraded' = health.data.status;
    void status;
  }
}

type ExportOk = paths['/api/bom/export']['post']['responses'][200]['content'];
export const csv: ExportOk['text/csv'] = 'id,quantity';
export function exportedItems(doc: ExportOk['application/json']): number {
  return doc.items.length + doc.print_suggestions.length + (doc.metadata.total_items ?? 0);
}
type ExportShort = paths['/api/bom/export']['post']['responses'][402]['content']['application/json'];
export function recharge(e: ExportShort): string {
  const left: number = e.credits_remaining;
  return \`\${e.recharge_url} (\${left} left, \${e.code})\`;
}
type Limited = paths['/api/search']['get']['responses'][429]['content']['application/json'];
export const retryIn = (e: Limited): number => e.retry_after;
export const errorCode = (e: components['schemas']['Error']): string => e.code;
`;
