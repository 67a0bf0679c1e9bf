/**
 * The web catalogue: server-rendered pages over the same tool definitions as MCP and REST. Each
 * page calls tools through runTool with the REST context of its request (same validation, rate
 * limits and answer cache as the API) and renders their answers; no rule is implemented here.
 * Browser assets (stylesheet, small scripts, the 3D view bundle, Swagger UI) are built into
 * dist/assets by scripts/browser-assets.mjs and served from memory under /assets/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { DomainError } from '../../domain/shared/errors.js';
import { ATTRIBUTION } from '../../tools/schemas.js';
import type { AnyTool } from '../../tools/define.js';
import { runTool } from '../../tools/run.js';
import { requestHeader, type AppEnv } from '../common.js';
import { restContext } from '../rest.js';
import { html, layout, type Html, type PageContent } from './html.js';
import { homePage } from './home.js';
import { searchPage } from './search.js';
import { partPage } from './part.js';
import { comparePage } from './compare.js';
import { robotPage, robotsPage, robotUrdf } from './robots.js';
import { bomPage, bomPost } from './bom.js';
import { platesPage } from './plates.js';
import { sizePage, sizePost } from './size.js';
import { intelligencePage } from './intelligence.js';
import { docsPage } from './docs.js';
import type { CallTool, PageRequest } from './types.js';

export { absent } from './html.js';
export { errorPage } from './error-page.js';
import { errorPage } from './error-page.js';

export type { CallTool, PageRequest };

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** Swagger UI sets style attributes: /docs allows inline styles (never inline scripts). */
const CSP_DOCS = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.LICENSE': 'text/plain; charset=utf-8' };

/** dist/assets of this package: the same folder from src/http/pages and dist/http/pages. */
export const ASSETS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/assets');

/**
 * A built asset: its bytes, or (a large one, stored as `<name>.gz` by scripts/browser-assets.mjs)
 * its gzip, sent as it is where the client accepts gzip and decompressed once for one that does not.
 */
interface Asset {
  type: string;
  bytes?: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
}

/** The built assets, read once (~1 MB): name -> bytes and type. Empty when not built. */
function loadAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const walk = (d: string, prefix: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(path.join(d, e.name), `${prefix}${e.name}/`);
      else {
        const gz = e.name.endsWith('.gz');
        const name = gz ? e.name.slice(0, -'.gz'.length) : e.name;
        const type = TYPES[path.extname(name)];
        if (!type) continue;
        const bytes = new Uint8Array(fs.readFileSync(path.join(d, e.name)));
        const a = out.get(`${prefix}${name}`) ?? { type };
        if (gz) a.gzip = bytes;
        else a.bytes = bytes;
        out.set(`${prefix}${name}`, a);
      }
    }
  };
  walk(dir, '');
  return out;
}

/** Whether an Accept-Encoding header accepts gzip (by name or `*`, with a q-value above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: boolean | null = null;
  let any: boolean | null = null;
  for (const part of header.split(',')) {
    const [raw = '', ...params] = part.toLowerCase().split(';');
    const coding = raw.trim();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = ok;
    else if (coding === '*') any = ok;
  }
  return gzip ?? any ?? false;
}

export function mountPages(app: Hono<AppEnv>, deps: Deps, tools: readonly AnyTool[]): void {
  const byName = new Map(tools.map((t) => [t.name, t]));
  let assets: ReturnType<typeof loadAssets> | null = null;
  app.get('/assets/*', (c) => {
    assets ??= loadAssets(ASSETS_DIR);
    const a = assets.get(c.req.path.slice('/assets/'.length));
    if (!a) return c.text('Not found', 404);
    const headers: Record<string, string> = { 'Content-Type': a.type, 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' };
    if (a.gzip === undefined) return c.body(a.bytes!, 200, headers);
    headers.Vary = 'Accept-Encoding';
    if (acceptsGzip(requestHeader(c, 'accept-encoding'))) return c.body(a.gzip, 200, { ...headers, 'Content-Encoding': 'gzip' });
    a.bytes ??= new Uint8Array(gunzipSync(a.gzip));
    return c.body(a.bytes, 200, headers);
  });

  const request = (c: Context<AppEnv>): PageRequest => {
    const ctx = restContext(c, deps);
    const call: CallTool = async (name, input, opts) => {
      const tool = byName.get(name);
      if (!tool) throw new DomainError('not_found', `The ${name} tool is not served here`);
      const outcome = await runTool(tool, input, opts?.archive ? { ...ctx, archive: opts.archive } : ctx);
      if (!outcome.ok) throw outcome.error;
      return outcome.output as never;
    };
    return { c, deps, call };
  };


  const page = (route: string, render: (r: PageRequest) => Promise<PageContent>, csp = CSP) =>
    app.get(route, async (c) => {
      try {
        return send(c, await render(request(c)), csp);
      } catch (err) {
        if (err instanceof DomainError) return refused(c, err, send);
        throw err;
      }
    });

  page('/', homePage);
  page('/search', searchPage);
  page('/parts/:id', partPage);
  page('/compare', comparePage);
  page('/robots', robotsPage);
  page('/robots/:id', robotPage);
  page('/bom', bomPage);
  page('/plates', platesPage);
  page('/size', sizePage);
  page('/intelligence', intelligencePage);
  page('/docs', docsPage, CSP_DOCS);
  app.get('/robots/:id/kinematics.urdf', async (c) => {
    try {
      return c.body(await robotUrdf(request(c)), 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Security-Policy': CSP });
    } catch (err) {
      if (err instanceof DomainError) return refused(c, err, send);
      throw err;
    }
  });
  app.post('/size', async (c) => {
    try {
      return send(c, await sizePost(request(c)));
    } catch (err) {
      if (err instanceof DomainError) return refused(c, err, send);
      throw err;
    }
  });
  // BOM check / export.
  app.post('/bom', async (c) => {
    try {
      const r = await bomPost(request(c));
      if (r instanceof Response) return r;
      return send(c, r);
    } catch (err) {
      if (err instanceof DomainError) return refused(c, err, send);
      throw err;
    }
  });
}

/**
 * A page's bytes, their length declared: the compression middleware then never asks for the body
 * to learn there is one (on @hono/node-server's lightweight Response that builds the fetch Response
 * and a ReadableStream around the bytes, and the server then streams them: ~15% of a words-only
 * /search request's CPU in the profile under load, issue 41).
 */
const send = (c: Context<AppEnv>, p: PageContent, csp = CSP) => {
  const bytes = layout(p, ATTRIBUTION);
  return c.body(bytes as Uint8Array<ArrayBuffer>, (p.status ?? 200) as 200, {
    'Content-Type': 'text/html; charset=UTF-8',
    'Content-Length': String(bytes.length),
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
};

/**
 * Whether a failed request gets an HTML error page: a browser's GET or HEAD (its Accept names
 * text/html) of a path outside the API (/api/, /mcp, /openapi.json, /healthz stay JSON).
 */
export function wantsHtmlPage(c: Context<AppEnv>): boolean {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return false;
  const p = c.req.path;
  if (p.startsWith('/api/') || p === '/api' || p === '/mcp' || p.startsWith('/mcp/') || p === '/openapi.json' || p === '/healthz' || p.startsWith('/assets/')) return false;
  return (requestHeader(c, 'accept') ?? '').toLowerCase().includes('text/html');
}

/** An error as an HTML page (the status and Retry-After the API would answer). */
export function htmlErrorResponse(c: Context<AppEnv>, err: DomainError): Response {
  // A missing page: its last path segment, as words, goes into the search box offered.
  const last = c.req.path.split('/').filter(Boolean).pop() ?? '';
  let query = '';
  try {
    query = decodeURIComponent(last).replace(/[-_.]+/g, ' ').trim().slice(0, 100);
  } catch {
    query = '';
  }
  if (err.code === 'rate_limited' && typeof err.details.retry_after === 'number') c.header('Retry-After', String(err.details.retry_after));
  return send(c, errorPage(err, { query }));
}

/** A tool's refusal as a page, with the status (and Retry-After) the API would answer. */
function refused(c: Context<AppEnv>, err: DomainError, send: (c: Context<AppEnv>, p: PageContent) => Response): Response {
  if (err.code === 'rate_limited' && typeof err.details.retry_after === 'number') c.header('Retry-After', String(err.details.retry_after));
  return send(c, errorPage(err));
}

/** A short text for a value the data does not state. */
