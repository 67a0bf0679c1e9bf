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

const SPECIAL = /[&<>"']/;
const SPECIAL_ALL = /[&<>"']/g;
const escapeChar = (ch: string) => ESCAPES[ch]!;

export function esc(v: unknown): string {
  const s = typeof v === 'string' ? v : String(v);
  // Most values (ids, names, numbers) hold nothing to escape: one test, no replace.
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, escapeChar) : s;
}

/**
 * render(key), kept per frozen object: a cacheable tool's answer is deep-frozen and handed out
 * again (src/tools/run.ts), so the HTML a page makes of it is made once (memoisation, not state;
 * an answer that is not frozen is rendered afresh every time).
 */
export function renderedOnce<K extends object, V>(memo: WeakMap<K, V>, key: K, render: (key: K) => V): V {
  let v = memo.get(key);
  if (v === undefined) {
    v = render(key);
    if (Object.isFrozen(key)) memo.set(key, v);
  }
  return v;
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

const FORM_EXTRA = /%20|[!'()~]/g;
const formExtra = (m: string) => (m === '%20' ? '+' : `%${m.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A name or value as URLSearchParams writes it (application/x-www-form-urlencoded: space as +,
 * everything but letters, digits and *-._ percent-encoded as UTF-8): encodeURIComponent, which
 * also leaves !'()~ and writes space as %20, then those. A lone surrogate (encodeURIComponent
 * throws) goes through URLSearchParams itself, which writes it as U+FFFD.
 */
export function formEncoded(v: string): string {
  try {
    return encodeURIComponent(v).replace(FORM_EXTRA, formExtra);
  } catch {
    return new URLSearchParams([['', v]]).toString().slice(1);
  }
}

export const NAV: readonly [string, string][] = [
  ['/search', 'Search'],
  ['/compare', 'Compare'],
  ['/robots', 'Robots'],
  ['/bom', 'BOM'],
  ['/plates', 'Plates'],
  ['/size', 'Sizing'],
  ['/intelligence', 'Intelligence'],
  ['/docs', 'API'],
];

export interface PageContent {
  title: string;
  body: Html | HtmlPieces;
  /** Page scripts (served under /assets/), run in order after the content: ours as modules, vendor bundles as classic deferred scripts. */
  scripts?: readonly string[];
  /** Extra stylesheets (served under /assets/). */
  styles?: readonly string[];
  /** The nav entry of this page. */
  current?: string;
  status?: number;
}

/** HTML made once, as the UTF-8 bytes a page is sent in. */
export const htmlBytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** A page body in pieces: HTML text made for this request and HTML bytes made once (htmlBytes), in order. */
export class HtmlPieces {
  constructor(readonly pieces: readonly (string | Buffer)[]) {}
}

/** The pieces written one after another into one Buffer (no string of the whole page is made). */
export function joinHtml(pieces: readonly (string | Buffer)[]): Buffer {
  let size = 0;
  for (const p of pieces) size += typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.length;
  const out = Buffer.allocUnsafe(size);
  let off = 0;
  for (const p of pieces) {
    if (typeof p === 'string') off += out.write(p, off, 'utf8');
    else {
      out.set(p, off); // TypedArray#set: a small piece's copy without Buffer#copy's argument checks
      off += p.length;
    }
  }
  return out;
}

/**
 * The page around a body, as the bytes sent (a frozen page: once). Everything but the title and the body depends only
 * on the nav entry, stylesheets, scripts and attribution (the same few per page kind), so those
 * two pieces are made once per combination and kept.
 */
export function layout(p: PageContent, attribution: string): Buffer {
  if (!Object.isFrozen(p)) return laidOut(p, attribution);
  // A page kept whole (frozen, handed out again): laid out once, for the attribution it got first.
  let kept = laidOutOf.get(p);
  if (kept === undefined || kept.attribution !== attribution) laidOutOf.set(p, (kept = { attribution, bytes: laidOut(p, attribution) }));
  return kept.bytes;
}

const laidOutOf = new WeakMap<PageContent, { attribution: string; bytes: Buffer }>();

function laidOut(p: PageContent, attribution: string): Buffer {
  const [afterTitle, close] = chrome(p, attribution);
  const pieces: (string | Buffer)[] = [HEAD, esc(p.title), afterTitle];
  if (p.body instanceof Html) pieces.push(p.body.text);
  else for (const x of p.body.pieces) pieces.push(x);
  pieces.push(close);
  return joinHtml(pieces);
}

const HEAD = htmlBytes('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\n<title>');
const openings = new Map<string, Buffer>();
const closings = new Map<string, Buffer>();
/** At most this many of each are kept (pages name their styles and scripts literally: a handful). */
const CHROME_KEPT = 64;

function kept<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    if (map.size < CHROME_KEPT) map.set(key, v);
  }
  return v;
}

/** The page's HTML from its title to its body, and from its body to the end. */
function chrome(p: PageContent, attribution: string): [Buffer, Buffer] {
  const styles = p.styles ?? [];
  const scripts = p.scripts ?? [];
  const open = kept(
    openings,
    `${p.current ?? ''}\u0000${styles.join('\u0000')}`,
    () =>
      htmlBytes(html` · robot-parts-mcp</title><link rel="icon" href="data:,">${styles.map((s) => html`<link rel="stylesheet" href="${s}">`)}<link rel="stylesheet" href="/assets/style.css"></head>
<body><a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="brand" href="/">robot-parts-mcp</a><nav aria-label="Main">${NAV.map(
      ([href, label]) => html` <a href="${href}"${p.current === href ? new Html(' aria-current="page"') : ''}>${label}</a>`,
    )}</nav></header>
<main id="main">`.text),
  );
  const close = kept(
    closings,
    `${attribution}\u0000${scripts.join('\u0000')}`,
    () =>
      htmlBytes(html`</main>
<footer class="site">${attribution} · Pages are views over the same tools as the MCP server and the REST API (<a href="/docs">API reference</a>).</footer>
${scripts.map((s) => (s.includes('/vendor/') ? html`<script defer src="${s}"></script>` : html`<script type="module" src="${s}"></script>`))}</body></html>`.text),
  );
  return [open, close];
}

/** A stated value, or "not stated" (absent stays absent). */
export function absent(v: unknown): Html {
  return v === null || v === undefined || v === '' || v === 'N/A' ? html`<span class="muted">not stated</span>` : html`${v}`;
}
