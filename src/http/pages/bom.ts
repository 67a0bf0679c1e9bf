/**
 * `/bom`: a BOM a person builds while browsing, and the one form that posts. "Add to BOM" on
 * result rows and part pages keeps the items in the browser (localStorage, /assets/bom-cart.js
 * fills this form from it); with JavaScript off the button posts here (`action=add`) and the
 * items are kept in a cookie of this path until cleared. Lines "ID quantity" (or "ID, quantity", "ID x quantity")
 * go to check_bom; "Export" goes to export_bom with the key given (1 credit, as the API) and
 * answers the CSV or JSON file as POST /api/bom/export does.
 */
import { invalidInput } from '../../domain/shared/errors.js';
import type { AnyTool } from '../../tools/define.js';
import { TOOLS } from '../../tools/index.js';
import { getCookie, setCookie } from 'hono/cookie';
import { html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';
import { restContext } from '../rest.js';

interface CheckOut {
  parts: { line: number; id: string; quantity: number; found: boolean; catalogue_id?: string | null; name?: string | null; category?: string | null }[];
  findings: { kind: string; severity: string; dimension?: string; message?: string; remedy?: string | null; parts?: { id: string }[]; detail?: { pair?: [string, string]; links?: { via?: string | null; bridge?: { id: string } | null }[] } }[];
  summary?: Record<string, unknown>;
}

export const BOM_LINE_MAX = 500;
const BOM_SCRIPTS = ['/assets/bom-cart.js'];

/** "ACT-017 2", "ACT-017, 2", "ACT-017 x2", "ACT-017" (quantity 1): one line per item. */
export function parseBomLines(text: string): { id: string; quantity: number }[] {
  const out: { id: string; quantity: number }[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(\S+?)[\s,;]*(?:[x×*]\s*)?(\d+)?$/i.exec(line);
    if (!m) throw invalidInput('lines', `line ${i + 1} "${line.slice(0, 80)}" is not "ID quantity"`);
    out.push({ id: m[1]!, quantity: m[2] ? parseInt(m[2], 10) : 1 });
  }
  return out;
}

/** The cookie of a BOM built with JavaScript off: "ID*quantity" items, comma-separated, URI-encoded. */
const CART_COOKIE = 'rp_bom';
/** Items and bytes the cookie holds at most (a browser keeps ~4 kB per cookie); longer BOMs go in the text box. */
export const CART_MAX_ITEMS = 60;
const CART_MAX_CHARS = 3000;

export function readCart(raw: string | undefined): { id: string; quantity: number }[] {
  const out: { id: string; quantity: number }[] = [];
  if (!raw) return out;
  for (const piece of raw.split(',')) {
    let text: string;
    try {
      text = decodeURIComponent(piece);
    } catch {
      continue; // not written by this page: left out
    }
    const m = /^([^*\s]{1,100})\*(\d{1,6})$/.exec(text);
    if (m && out.length < CART_MAX_ITEMS) out.push({ id: m[1]!, quantity: parseInt(m[2]!, 10) });
  }
  return out;
}

function writeCart(items: { id: string; quantity: number }[]): string {
  return items.map((i) => encodeURIComponent(`${i.id}*${i.quantity}`)).join(',');
}

const cartLines = (items: { id: string; quantity: number }[]) => items.map((i) => `${i.id} ${i.quantity}`).join('\n');

function form(lines: string, key = ''): ReturnType<typeof html> {
  return html`<form action="/bom" method="post" id="bom-form">
<label for="lines">Parts, one per line: id and quantity</label>
<textarea id="lines" name="lines" required aria-describedby="lines-help" data-cart>${lines}</textarea>
<p id="lines-help" class="muted">For example <code>ACT-017 2</code>. Ids are catalogue ids (see <a href="/search">Search</a>) or OSS-LIVE ids of robot BOM lines. At most ${BOM_LINE_MAX} lines.</p>
<p><button type="submit" name="action" value="check">Check the BOM</button></p>
<fieldset><legend>Export (1 credit, needs an API key)</legend>
<div class="inline"><div><label for="api_key">API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" value="${key}"></div>
<div><label for="format">Format</label><select id="format" name="format"><option value="csv">CSV</option><option value="json">JSON</option></select></div>
<button type="submit" name="action" value="export">Export</button></div></fieldset></form>`;
}

export async function bomPage({ c }: PageRequest): Promise<PageContent> {
  const items = readCart(getCookie(c, CART_COOKIE));
  const added = c.req.query('added');
  return {
    title: 'BOM',
    current: '/bom',
    scripts: BOM_SCRIPTS,
    body: html`<h1>Your bill of materials</h1>
<p>Add parts with “Add to BOM” on search results and part pages, or type them below; check them for bus, voltage and flange problems, and export them with a key.</p>
${added ? html`<p class="note" role="status">Added ${added}.</p>` : ''}
<div id="cart">${items.length ? html`<div class="scroll" tabindex="0"><table id="cart-items"><caption>Items</caption><thead><tr><th scope="col">Id</th><th scope="col" class="num">Quantity</th></tr></thead><tbody>${items.map((i) => html`<tr data-id="${i.id}"><td><a href="/parts/${encodeURIComponent(i.id)}">${i.id}</a></td><td class="num">${i.quantity}</td></tr>`)}</tbody></table></div>
<form action="/bom" method="post"><button type="submit" name="action" value="clear">Empty the list</button></form>` : html`<p class="muted" id="cart-empty">No part added yet.</p>`}</div>
${form(cartLines(items))}`,
  };
}

const exportTool = (): AnyTool => TOOLS.find((t) => t.name === 'export_bom')!;

export async function bomPost({ c, deps, call }: PageRequest): Promise<PageContent | Response> {
  const body = await c.req.parseBody();
  if (body.action === 'add' || body.action === 'clear') {
    // JavaScript off: the list lives in a cookie of /bom (with JavaScript, in localStorage).
    const items = body.action === 'clear' ? [] : readCart(getCookie(c, CART_COOKIE));
    let id = '';
    if (body.action === 'add') {
      id = typeof body.add === 'string' ? body.add.trim() : '';
      if (!/^[^*\s,]{1,100}$/.test(id)) throw invalidInput('add', 'give one part id (no spaces, commas or *), e.g. ACT-017');
      const it = items.find((i) => i.id === id);
      if (it) it.quantity = Math.min(it.quantity + 1, 999_999);
      else if (items.length >= CART_MAX_ITEMS) throw invalidInput('add', `the list holds ${CART_MAX_ITEMS} parts without JavaScript; type more lines into the text box instead`);
      else items.push({ id, quantity: 1 });
    }
    const value = writeCart(items);
    if (value.length > CART_MAX_CHARS) throw invalidInput('add', 'the list is too long to keep without JavaScript; type more lines into the text box instead');
    setCookie(c, CART_COOKIE, value, { path: '/bom', sameSite: 'Lax', httpOnly: true, maxAge: items.length ? 30 * 24 * 3600 : 0 });
    return c.redirect(id ? `/bom?added=${encodeURIComponent(id)}` : '/bom', 303);
  }
  const text = typeof body.lines === 'string' ? body.lines : '';
  const items = parseBomLines(text);
  if (items.length === 0) throw invalidInput('lines', 'give at least one line "ID quantity"');
  if (body.action === 'export') {
    const format = body.format === 'json' ? 'json' : 'csv';
    const key = typeof body.api_key === 'string' ? body.api_key.trim() : '';
    const out = await call('export_bom', { items, format, ...(key ? { api_key: key } : {}) });
    // The same file POST /api/bom/export answers (its route's own rendering).
    const r = await exportTool().rest[0]!.render!(out, restContext(c, deps));
    return c.body(r.body as string, 200, { ...(r.headers ?? { 'Content-Disposition': `attachment; filename="bom.${format}"` }), 'Content-Type': r.contentType ?? 'application/json; charset=utf-8' });
  }
  const out = await call<CheckOut>('check_bom', { items });
  return {
    title: `BOM check: ${out.findings.length} findings`,
    current: '/bom',
    scripts: BOM_SCRIPTS,
    body: html`<h1>Check a bill of materials</h1>
<h2 id="findings">${out.findings.length} finding${out.findings.length === 1 ? '' : 's'}</h2>
${out.findings.length ? html`<ul id="finding-list">${out.findings.map((f) => html`<li data-kind="${f.kind}"><strong class="${f.severity === 'error' ? 'bad' : 'warning'}">${f.severity}</strong> ${f.kind}${f.dimension ? ` (${f.dimension})` : ''}: ${f.message ?? ''}${f.remedy ? html` Remedy: ${f.remedy}` : ''}${findingLinks(f)}${f.parts?.length ? html` <span class="muted">parts ${f.parts.map((p, i) => html`${i ? ', ' : ''}<a href="/parts/${encodeURIComponent(p.id)}">${p.id}</a>`)}</span>` : ''}</li>`)}</ul>` : html`<p>No problem found between these parts.</p>`}
<h2>Lines</h2><div class="scroll" tabindex="0"><table><caption class="visually-hidden">BOM lines</caption><thead><tr><th scope="col" class="num">Line</th><th scope="col">Id</th><th scope="col" class="num">Quantity</th><th scope="col">Part</th></tr></thead><tbody>${out.parts.map(
      (p) => html`<tr><td class="num">${p.line}</td><td>${p.found ? html`<a href="/parts/${encodeURIComponent(p.catalogue_id ?? p.id)}">${p.id}</a>` : p.id}</td><td class="num">${p.quantity}</td><td>${p.found ? `${p.name ?? ''} (${p.category ?? ''})` : html`<span class="warning">not in the catalogue</span>`}</td></tr>`,
    )}</tbody></table></div>
<h2>Change and check again</h2>${form(text)}`,
  };
}

/** A finding's links: the adapter plate page of a flange pair, the bridges named on a bus link. */
function findingLinks(f: CheckOut['findings'][number]): ReturnType<typeof html> {
  const pair = f.kind === 'flange_adapter' ? f.detail?.pair : undefined;
  const bridges = [...new Set((f.detail?.links ?? []).map((l) => l.via).filter((v): v is string => typeof v === 'string' && v !== ''))];
  return html`${pair ? html` <a href="/plates?a=${encodeURIComponent(pair[0])}&amp;b=${encodeURIComponent(pair[1])}">Adapter plate ${pair[0]} to ${pair[1]}</a>` : ''}${bridges.length ? html` <span class="bridge">Bridge: ${bridges.map((b, i) => html`${i ? ', ' : ''}<a href="/search?q=${encodeURIComponent(b.split(' (')[0]!)}">${b}</a>`)}</span>` : ''}`;
}
