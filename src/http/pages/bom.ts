/**
 * `/bom`: the one form that posts. Lines "ID quantity" (or "ID, quantity", "ID x quantity")
 * go to check_bom; "Export" goes to export_bom with the key given (1 credit, as the API) and
 * answers the CSV or JSON file as POST /api/bom/export does.
 */
import { invalidInput } from '../../domain/shared/errors.js';
import type { AnyTool } from '../../tools/define.js';
import { TOOLS } from '../../tools/index.js';
import { html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';
import { restContext } from '../rest.js';

interface CheckOut {
  parts: { line: number; id: string; quantity: number; found: boolean; catalogue_id?: string | null; name?: string | null; category?: string | null }[];
  findings: { kind: string; severity: string; dimension?: string; message?: string; remedy?: string | null; parts?: { id: string }[] }[];
  summary?: Record<string, unknown>;
}

export const BOM_LINE_MAX = 500;

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

function form(lines: string, key = ''): ReturnType<typeof html> {
  return html`<form action="/bom" method="post">
<label for="lines">Parts, one per line: id and quantity</label>
<textarea id="lines" name="lines" required aria-describedby="lines-help">${lines}</textarea>
<p id="lines-help" class="muted">For example <code>ACT-017 2</code>. Ids are catalogue ids (see <a href="/search">Search</a>) or OSS-LIVE ids of robot BOM lines. At most ${BOM_LINE_MAX} lines.</p>
<p><button type="submit" name="action" value="check">Check the BOM</button></p>
<fieldset><legend>Export (1 credit, needs an API key)</legend>
<div class="inline"><div><label for="api_key">API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" value="${key}"></div>
<div><label for="format">Format</label><select id="format" name="format"><option value="csv">CSV</option><option value="json">JSON</option></select></div>
<button type="submit" name="action" value="export">Export</button></div></fieldset></form>`;
}

export async function bomPage(_r: PageRequest): Promise<PageContent> {
  return { title: 'BOM check', current: '/bom', body: html`<h1>Check a bill of materials</h1>${form('')}` };
}

const exportTool = (): AnyTool => TOOLS.find((t) => t.name === 'export_bom')!;

export async function bomPost({ c, deps, call }: PageRequest): Promise<PageContent | Response> {
  const body = await c.req.parseBody();
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
    body: html`<h1>Check a bill of materials</h1>
<h2 id="findings">${out.findings.length} finding${out.findings.length === 1 ? '' : 's'}</h2>
${out.findings.length ? html`<ul>${out.findings.map((f) => html`<li><strong class="${f.severity === 'error' ? 'bad' : 'warning'}">${f.severity}</strong> ${f.kind}${f.dimension ? ` (${f.dimension})` : ''}: ${f.message ?? ''}${f.remedy ? html` Remedy: ${f.remedy}` : ''}${f.parts?.length ? html` <span class="muted">parts ${f.parts.map((p) => p.id).join(', ')}</span>` : ''}</li>`)}</ul>` : html`<p>No problem found between these parts.</p>`}
<h2>Lines</h2><div class="scroll"><table><caption class="visually-hidden">BOM lines</caption><thead><tr><th scope="col" class="num">Line</th><th scope="col">Id</th><th scope="col" class="num">Quantity</th><th scope="col">Part</th></tr></thead><tbody>${out.parts.map(
      (p) => html`<tr><td class="num">${p.line}</td><td>${p.found ? html`<a href="/parts/${encodeURIComponent(p.catalogue_id ?? p.id)}">${p.id}</a>` : p.id}</td><td class="num">${p.quantity}</td><td>${p.found ? `${p.name ?? ''} (${p.category ?? ''})` : html`<span class="warning">not in the catalogue</span>`}</td></tr>`,
    )}</tbody></table></div>
<h2>Change and check again</h2>${form(text)}`,
  };
}
