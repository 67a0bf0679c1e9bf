/**
 * HTML for the catalogue pages: an escaping tagged template and the page layout. Plain
 * functions (nothing is compiled per request): every interpolated value is escaped unless it
 * is already Html made by this template.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(v: unknown): string {
  return String(v).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

function part(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(part).join('');
  return esc(v);
}

/** html`<p>${value}</p>`: values escaped, Html and arrays of Html kept as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** A query string from the non-empty values given ('' when none). */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const NAV: readonly [string, string][] = [
  ['/search', 'Search'],
  ['/compare', 'Compare'],
  ['/robots', 'Robots'],
  ['/bom', 'BOM check'],
  ['/intelligence', 'Intelligence'],
  ['/docs', 'API'],
];

export interface PageContent {
  title: string;
  body: Html;
  /** Page scripts (served under /assets/), run in order after the content: ours as modules, vendor bundles as classic deferred scripts. */
  scripts?: readonly string[];
  /** Extra stylesheets (served under /assets/). */
  styles?: readonly string[];
  /** The nav entry of this page. */
  current?: string;
  status?: number;
}

export function layout(p: PageContent, attribution: string): string {
  return (
    '<!doctype html>' +
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title} · robot-parts-mcp</title><link rel="icon" href="data:,">${(p.styles ?? []).map((s) => html`<link rel="stylesheet" href="${s}">`)}<link rel="stylesheet" href="/assets/style.css"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="brand" href="/">robot-parts-mcp</a><nav aria-label="Main">${NAV.map(
      ([href, label]) => html` <a href="${href}"${p.current === href ? new Html(' aria-current="page"') : ''}>${label}</a>`,
    )}</nav></header>
<main id="main">${p.body}</main>
<footer class="site">${attribution} · Pages are views over the same tools as the MCP server and the REST API (<a href="/docs">API reference</a>).</footer>
${(p.scripts ?? []).map((s) => (s.includes('/vendor/') ? html`<script defer src="${s}"></script>` : html`<script type="module" src="${s}"></script>`))}</body></html>`.text
  );
}
