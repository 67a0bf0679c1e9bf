/**
 * `/search?q=&where=&category=&sort=&cursor=` and the parametric finder: search_parts with the
 * arguments GET /api/search takes (the compact where form), the finder's controls made from
 * list_spec_fields (min/max in the field's unit for numbers, checkboxes for enumerations; their
 * clauses are added to the where), the filters' unknown and failed counts, and pagination by the
 * tool's cursor. With only a category (no words, where or finder control) the page browses that
 * category: list_parts, paged, with the count of non-quarantined records (GET /api/search keeps
 * the spec's rule that q is required unless where is given). A search without a hit shows the
 * answer's `elsewhere` pointers as links.
 *
 * The tools run on every request (validation, rate limit, answer cache, as for the API). Their
 * answers are deep-frozen and shared when the answer cache is on, so the HTML made of each answer
 * alone (the category options, the rows of hits) is made once per answer object.
 */
import { TOOLS } from '../../tools/index.js';
import { esc, formEncoded, html, Html, HtmlPieces, htmlBytes, joinHtml, renderedOnce, type PageContent } from './html.js';
import type { PageRequest } from './types.js';
import type { CompactSpec } from '../../domain/specs/query.js';

interface SearchOut {
  data: { id: string; name?: string; manufacturer?: string | null; category?: string; quarantine?: boolean; specs?: Record<string, CompactSpec> }[];
  next_cursor: string | null;
  meta: {
    q: string | null;
    filters: { field: string; op: string; value: unknown; applied: string[]; matched: number; unknown_excluded: number; failed: number; near_misses: { id: string; declared: string; reason: string }[] }[];
    sort: { field: string; order: string; undeclared_last: number } | null;
    category: string | null;
    total: number;
    returned: number;
    limit: number;
    quarantined_excluded: number;
    elsewhere?: { where: string; count: number; call: { tool: string; arguments: Record<string, unknown> }; note: string }[];
  };
}

interface ListOut {
  count: number;
  data: { id: string; name?: string; manufacturer?: string | null; type?: string | null }[];
  next_cursor: string | null;
  meta: { category: string | null; returned: number; limit: number; quarantined_excluded: number };
}

interface Facets {
  category: string | null;
  records: number;
  fields: { name: string; kind: string; unit: string | null; description: string; example_value: string; declared: number; read: number; min: number | null; max: number | null; values: { value: string; count: number }[] | null }[];
}

interface Stats {
  categories: { slug: string; name: string; count: number }[];
}

/** The search arguments a page URL carries (the same names as GET /api/search). */
export const SEARCH_PARAMS = ['q', 'where', 'category', 'sort', 'cursor', 'include_quarantine'] as const;

const num = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6))));

/** A normalised value with its SI unit: "120 Nm", "10–14.8 V", "EtherCAT, CAN". */
export function specValue(s: CompactSpec): string {
  const unit = s.unit ? ` ${s.unit}` : '';
  if (s.values) return s.values.join(', ');
  if (s.value !== undefined) return `${num(s.value)}${unit}`;
  if (s.min !== undefined && s.max !== undefined) return `${num(s.min)}–${num(s.max)}${unit}`;
  return s.notation;
}

export function specCell(s: CompactSpec | undefined): Html {
  if (!s) return html`<span class="muted">not declared</span>`;
  return html`${specValue(s)}${s.rating ? ` (${s.rating})` : ''}${s.qualifier ? ` (${s.qualifier})` : ''}<br><span class="muted">as written: ${s.notation}; level ${s.level}</span>`;
}


/** The finder's query names: `min.<field>`, `max.<field>` (numbers in the field's unit), `in.<field>` (checked values, repeated), `near` (show near misses). */
const MIN = 'min.';
const MAX = 'max.';
const IN = 'in.';

interface Finder {
  /** Clauses the finder's controls make, in the order of the query. */
  clauses: { field: string; op: string; value: string | string[] }[];
  min: Map<string, string>;
  max: Map<string, string>;
  in: Map<string, Set<string>>;
  near: boolean;
  /** The finder's own query pairs, as the request gave them (kept on the pager and sort links). */
  pairs: [string, string][];
}

/** A finder with no control set. */
const noFinder = (): Finder => ({ clauses: [], min: new Map(), max: new Map(), in: new Map(), near: false, pairs: [] });

/** The finder's controls from the query; a value that is not a number is refused naming its control. */
function readFinder(params: URLSearchParams, unitOf: (field: string) => string | null): Finder {
  const f = noFinder();
  for (const [k, raw] of params) {
    const v = raw.trim();
    if (k === 'near') {
      if (v !== '') {
        f.near = true;
        f.pairs.push([k, '1']);
      }
      continue;
    }
    const kind = k.startsWith(MIN) ? MIN : k.startsWith(MAX) ? MAX : k.startsWith(IN) ? IN : null;
    if (kind === null || v === '') continue;
    const field = k.slice(kind.length);
    if (!/^[a-z_][a-z0-9_]*$/.test(field)) throw new FinderError(k, `"${k}" names no spec field; list_spec_fields gives the fields`);
    f.pairs.push([k, v]);
    if (kind === IN) {
      const set = f.in.get(field) ?? new Set<string>();
      set.add(v);
      f.in.set(field, set);
      continue;
    }
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) {
      const unit = unitOf(field);
      throw new FinderError(k, `"${v}" is not a number: type a plain number${unit ? ` in ${unit}` : ''}, e.g. 30`);
    }
    (kind === MIN ? f.min : f.max).set(field, v);
    const unit = unitOf(field);
    f.clauses.push({ field, op: kind === MIN ? '>=' : '<=', value: unit ? `${v} ${unit}` : v });
  }
  for (const [field, values] of f.in) f.clauses.push({ field, op: 'in', value: [...values] });
  return f;
}

class FinderError extends Error {
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
  }
}

/** The where a search runs: the typed text and the finder's clauses (as text, `|` joining the values of in). */
function combinedWhere(typed: string | undefined, finder: Finder): string | { field: string; op: string; value: string | string[] }[] | undefined {
  if (finder.clauses.length === 0) return typed;
  if (typed === undefined) return finder.clauses;
  const text = finder.clauses.map((c) => `${c.field}${c.op === 'in' ? ' in ' : c.op}${Array.isArray(c.value) ? c.value.join('|') : c.value}`);
  return [typed, ...text].join('; ');
}

/** The page's query with some names replaced (null drops them), as an escaped href to /search. */
function linkWith(args: Record<string, string>, finder: Finder, change: Record<string, string | null>): string {
  const q = new URLSearchParams();
  for (const k of SEARCH_PARAMS) {
    const v = k in change ? change[k] : args[k];
    if (v) q.append(k, v);
  }
  for (const [k, v] of finder.pairs) q.append(k, v);
  const s = q.toString();
  return `/search${s ? `?${s}` : ''}`;
}

export async function searchPage({ c, call }: PageRequest): Promise<PageContent> {
  const params = new URL(c.req.url).searchParams;
  const args: Record<string, string> = {};
  for (const k of SEARCH_PARAMS) {
    const v = params.get(k);
    if (v !== null && v.trim() !== '') args[k] = v;
  }
  const stats = await call<Stats>('get_catalogue_stats', {});
  // Words alone (no category, where or finder control): the finder shown is the one of the hits' most common
  // category, asked once the hits are known (the whole catalogue's fields are not needed).
  const wordsOnly = args.q !== undefined && args.category === undefined && args.where === undefined && !finderAsked(params);
  let facets: Facets | null = null;
  if (!wordsOnly) facets = await specFields(call, args.category);
  const unitOf = (f: string) => facets?.fields.find((x) => x.name === f)?.unit ?? null;
  let failure: { message: string; field?: string } | null = null;
  let finder = noFinder();
  try {
    finder = readFinder(params, unitOf);
  } catch (err) {
    if (!(err instanceof FinderError)) throw err;
    failure = { message: err.message, field: err.field };
  }
  const where = combinedWhere(args.where, finder);
  const searching = args.q !== undefined || where !== undefined;
  const browsing = !searching && args.category !== undefined;
  let result: SearchOut | null = null;
  /** A words-only search: its hits' categories, most hits first. */
  let hitCats: { slug: string; n: number }[] = [];
  let list: ListOut | null = null;
  if (!failure) {
    try {
      if (searching) {
        const input: Record<string, unknown> = {};
        for (const k of ['q', 'category', 'sort', 'cursor'] as const) if (args[k] !== undefined) input[k] = args[k];
        if (where !== undefined) input.where = where;
        if (args.include_quarantine) input.include_quarantine = true;
        result = await call<SearchOut>('search_parts', input);
        if (wordsOnly) {
          hitCats = hitCategories(result);
          if (hitCats.length > 0) facets = await specFields(call, hitCats[0]!.slug);
        }
      } else if (browsing) {
        list = await call<ListOut>('list_parts', { category: args.category, limit: BROWSE_LIMIT, ...(args.cursor ? { cursor: args.cursor } : {}), ...(args.include_quarantine ? { include_quarantine: true } : {}) });
      }
    } catch (err) {
      const e = err as { message: string; details?: { field?: string }; code?: string };
      if (e.code !== 'invalid_input' && e.code !== 'unknown_category') throw err;
      failure = { message: e.message, field: e.details?.field };
    }
  }

  // The page is a function of its query string and the three answers: for remembered (frozen) answers it is made once,
  // frozen, so that layout() keeps its bytes too (the answer cache hands the same answers out again).
  const answer = result ?? list;
  const query = new URL(c.req.url).search;
  const keep = answer !== null && failure === null && Object.isFrozen(answer) && Object.isFrozen(stats) && (facets === null || Object.isFrozen(facets));
  if (keep) {
    const kept = pageOf.get(answer);
    if (kept && kept.query === query && kept.stats === stats && kept.facets === facets) return kept.page;
  }

  const categoryName = args.category ? stats.categories.find((k) => k.slug === args.category)?.name ?? args.category : null;
  const page: (string | Buffer)[] = [];
  page.push(html`<h1>${browsing && categoryName ? categoryName : 'Search parts'}</h1>
<form id="sf" class="inline" action="/search" method="get" role="search">
<div><label for="q">Words</label><input id="q" type="search" name="q" value="${args.q ?? ''}"></div>
<div><label for="where">Spec filter (where)</label><input id="where" type="text" name="where" value="${args.where ?? ''}" aria-describedby="where-help"></div>
<div><label for="category">Category</label><select id="category" name="category"><option value="">All</option>`.text);
  page.push(categoryOptions(renderedOnce(optionsOf, stats, renderOptions), args.category));
  page.push(html`</select></div>
<div><label for="sort">Sort</label><select id="sort" name="sort">${args.sort === undefined && facets ? new Html(renderedOnce(sortOptionsOf, facets, (f) => sortOptions(f, undefined).text)) : sortOptions(facets, args.sort)}</select></div>
<button type="submit">Search</button></form>
<p id="where-help" class="muted">Filters are separated by <code>;</code>, e.g. <code>torque_rated&gt;=30 N·m; voltage covers 48 V; bus in EtherCAT|CAN</code>, in any unit the fields accept; or use the spec filters below the results. A part that does not declare a field never matches; the counts say how many were left out that way.</p>
<div class="layout"><section aria-label="Results" class="results">`.text);

  if (failure) {
    page.push(html`<div class="error" role="alert"><p>${failure.message}</p>${failure.field ? html`<p class="muted">field <code>${failure.field}</code>: correct it in the form and search again.</p>` : ''}</div>`.text);
  } else if (result) {
    resultSection(page, result, facets, args, finder);
  } else if (list) {
    const m = list.meta;
    page.push(
      html`<h2 id="results">${list.count} part${list.count === 1 ? '' : 's'} in ${categoryName ?? m.category ?? 'the catalogue'}</h2>
<p id="browse-count">${list.count} catalogue record${list.count === 1 ? '' : 's'} not quarantined${m.quarantined_excluded ? html`; ${m.quarantined_excluded} quarantined as suspicious are left out (<a href="${linkWith(args, finder, { include_quarantine: '1', cursor: null })}">include them</a>)` : ''}. In id order${args.sort ? html`; sorting needs words or a spec filter (GET /api/search takes no sort alone): add a filter with the spec filters` : ''}.</p>
<div class="scroll" tabindex="0"><table id="results-table" data-live-filter><caption class="visually-hidden">Parts in this category</caption><thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Manufacturer</th><th scope="col">Type</th><th scope="col"><span class="visually-hidden">BOM</span></th></tr></thead><tbody>`.text,
      renderedOnce(listRowsOf, list, renderListRows),
      TABLE_END,
      html`<nav class="pager" aria-label="Pages">${args.cursor ? html`<a href="${linkWith(args, finder, { cursor: null })}">First page</a>` : ''}${list.next_cursor ? html`<a href="${linkWith(args, finder, { cursor: list.next_cursor })}" rel="next">Next ${m.limit}</a>` : ''}<span class="muted">Showing ${m.returned} of ${list.count}</span></nav>`.text,
    );
  } else page.push(NOTHING_ASKED);
  page.push('</section>');
  // The finder: its controls are made once per list_spec_fields answer (prepared bytes; the answer is remembered
  // until the catalogue's answers are cleared), with this request's values filled in. Words alone: the finder of
  // the hits' most common category, with the others as links; no hit: no finder (a filter only narrows the hits).
  if (facets && !(wordsOnly && (result === null || result.data.length === 0))) {
    const intro = wordsOnly && result ? wordsOnlyIntro(result, hitCats, args, stats, facets) : '';
    for (const piece of filledPanel(renderedOnce(panelOf, facets, preparePanel), finder, intro)) page.push(piece);
  }
  page.push('</div>');

  const content: PageContent = {
    title: result ? `Search: ${result.meta.total} matches` : list ? `${categoryName}: ${list.count} parts` : 'Search',
    current: '/search',
    status: failure ? 400 : 200,
    scripts: result?.data.length || list?.data.length ? PAGE_SCRIPTS : FINDER_SCRIPTS,
    body: new HtmlPieces(page),
  };
  if (!keep) return content;
  const frozen = Object.freeze(content);
  pageOf.set(answer, { query, stats, facets, page: frozen });
  return frozen;
}

/** The last page made from a remembered search or list answer, with what else it was made from. */
const pageOf = new WeakMap<object, { query: string; stats: Stats; facets: Facets | null; page: PageContent }>();

const BROWSE_LIMIT = 50;
const PAGE_SCRIPTS = ['/assets/filter.js', '/assets/finder.js', '/assets/bom-cart.js'];
const FINDER_SCRIPTS = ['/assets/finder.js'];
const TABLE_END = htmlBytes('</tbody></table></div>');
const NOTHING_ASKED = htmlBytes('<p>Type words, a spec filter, or pick a category.</p>');

/** The sort choices of a list_spec_fields answer with none chosen, and its finder panel prepared. */
const sortOptionsOf = new WeakMap<Facets, string>();
const panelOf = new WeakMap<Facets, PreparedPanel>();

/** list_spec_fields of a category (or the catalogue); null for an unknown category (the search or the list reports it). */
async function specFields(call: PageRequest['call'], category: string | undefined): Promise<Facets | null> {
  try {
    return await call<Facets>('list_spec_fields', category ? { category } : {});
  } catch {
    return null;
  }
}

/** Whether the query sets a finder control (a min, max, checked value or near misses). */
function finderAsked(params: URLSearchParams): boolean {
  for (const [k, v] of params) if ((k === 'near' || k.startsWith(MIN) || k.startsWith(MAX) || k.startsWith(IN)) && v.trim() !== '') return true;
  return false;
}

/** The categories of a page's hits with their counts, most hits first (a tie: the category of the better-ranked hit first). */
function hitCategories(result: SearchOut): { slug: string; n: number }[] {
  const count = new Map<string, number>();
  for (const h of result.data) if (h.category) count.set(h.category, (count.get(h.category) ?? 0) + 1);
  return [...count].map(([slug, n]) => ({ slug, n })).sort((a, b) => b.n - a.n); // stable: first seen first among equals
}

/** Sort choices: the order by relevance, and each numeric field parts declare, ascending and descending. */
function sortOptions(facets: Facets | null, current: string | undefined): Html {
  const choices: [string, string][] = [['', 'Relevance (words) or id']];
  for (const f of facets?.fields ?? []) {
    if (!(f.read > 0) || (f.kind !== 'number' && f.kind !== 'range')) continue;
    choices.push([f.name, `${f.name}, lowest first`], [`-${f.name}`, `${f.name}, highest first`]);
  }
  if (current && !choices.some(([v]) => v === current)) choices.push([current, current]);
  return html`${choices.map(([v, label]) => html`<option value="${v}"${v === (current ?? '') ? new Html(' selected') : ''}>${label}</option>`)}`;
}


/** The results of a search: the filters' counts, near misses when asked, the hits, the pager; the `elsewhere` pointers when none matched. */
function resultSection(page: (string | Buffer)[], result: SearchOut, facets: Facets | null, args: Record<string, string>, finder: Finder): void {
  const m = result.meta;
  const fields = shownFields(result);
  const unitOf = (f: string) => facets?.fields.find((x) => x.name === f)?.unit ?? null;
  page.push(
    html`<h2 id="results">${m.total} match${m.total === 1 ? '' : 'es'}</h2>
${m.filters.length ? html`<div class="scroll" tabindex="0"><table id="filter-counts"><caption class="visually-hidden">What each filter did</caption><thead><tr><th scope="col">Filter</th><th scope="col">Applied as</th><th scope="col" class="num">Matched</th><th scope="col" class="num">Unknown (not declared, left out)</th><th scope="col" class="num">Declared but failed</th></tr></thead><tbody>${m.filters.map(
      (f) => html`<tr><td><code>${f.field} ${f.op} ${Array.isArray(f.value) ? f.value.join('|') : String(f.value)}</code></td><td>${f.applied.join(', ')}</td><td class="num">${f.matched}</td><td class="num">${f.unknown_excluded}</td><td class="num">${f.failed}</td></tr>`,
    )}</tbody></table></div>` : ''}
${m.sort ? html`<p>Sorted by ${m.sort.field} ${m.sort.order}; ${m.sort.undeclared_last} without a value are listed last.</p>` : ''}
${m.quarantined_excluded ? html`<p class="note">${m.quarantined_excluded} matching record(s) are quarantined as suspicious and left out.</p>` : ''}
${finder.near ? nearMisses(result) : ''}`.text,
  );
  if (result.data.length) {
    page.push(
      html`<div class="scroll" tabindex="0"><table id="results-table" data-live-filter><caption class="visually-hidden">Matching parts</caption><thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Manufacturer</th><th scope="col">Category</th>${fields.map((f) => html`<th scope="col">${f}${unitOf(f) ? ` (${unitOf(f)})` : ''}</th>`)}<th scope="col"><span class="visually-hidden">BOM</span></th></tr></thead><tbody>`.text,
      renderedOnce(rowsOf, result, renderRows),
      TABLE_END,
    );
  } else page.push(html`<p id="no-match">No catalogue part matches.</p>${elsewhereLinks(m.elsewhere ?? [])}`.text);
  page.push(
    html`<nav class="pager" aria-label="Pages">${args.cursor ? html`<a href="${linkWith(args, finder, { cursor: null })}">First page</a>` : ''}${result.next_cursor ? html`<a href="${linkWith(args, finder, { cursor: result.next_cursor })}" rel="next">Next ${m.limit}</a>` : ''}<span class="muted">Showing ${m.returned} of ${m.total}</span></nav>`.text,
  );
}

function nearMisses(result: SearchOut): Html {
  const near = result.meta.filters.flatMap((f) => f.near_misses.map((n) => ({ ...n, field: f.field })));
  if (near.length === 0) return html`<p id="near-misses" class="muted">No near miss: no part declares one of these fields in a text that could not be read.</p>`;
  return html`<h3>Near misses to check</h3><ul id="near-misses">${near.map((n) => html`<li><a href="/parts/${encodeURIComponent(n.id)}">${n.id}</a> declares ${n.field} as “${n.declared}”: ${n.reason}</li>`)}</ul>`;
}

/** Where a tool call of an `elsewhere` pointer is shown: its page, else its GET route on the REST API (derived from the tool's definition). */
export function callHref(call: { tool: string; arguments: Record<string, unknown> }): string | null {
  const a = call.arguments;
  const query = (names?: string[]) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(a)) {
      if (names && !names.includes(k)) continue;
      if (typeof v === 'string' || typeof v === 'number') q.append(k, String(v));
      else if (v === true) q.append(k, k === 'include_quarantine' ? '1' : 'true');
    }
    const s = q.toString();
    return s ? `?${s}` : '';
  };
  if (call.tool === 'search_parts') return `/search${query()}`;
  if (call.tool === 'get_part' && typeof a.id === 'string') return `/parts/${encodeURIComponent(a.id)}`;
  if (call.tool === 'find_where_used') return `/robots${query(['q', 'id'])}`;
  const route = TOOLS.find((t) => t.name === call.tool)?.rest.find((r) => r.method === 'GET');
  if (!route) return null;
  return route.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(String(a[k] ?? ''))) + query();
}

function elsewhereLinks(pointers: NonNullable<SearchOut['meta']['elsewhere']>): Html {
  if (pointers.length === 0) return html``;
  return html`<h3>Found elsewhere</h3><ul id="elsewhere">${pointers.map((e) => {
    const href = callHref(e.call);
    const label = `${e.count} ${LABELS[e.where] ?? e.where}`;
    return html`<li>${href ? html`<a href="${href}">${label}</a>` : label}: ${e.note}</li>`;
  })}</ul>`;
}

const LABELS: Record<string, string> = {
  quarantined: 'quarantined record(s)',
  other_name: 'record(s) under another name',
  open_source_layer: 'line(s) in open-source robots',
  catalogue: 'catalogue record(s)',
  close_spelling: 'record(s) with a close spelling',
};

/**
 * A finder panel made once per list_spec_fields answer: its HTML as bytes, cut where a request's values go
 * (the details' open state, a words-only search's introduction, each min/max input's value, each checkbox's
 * checked state). Everything else (fields, units, counts, ranges, enumerated values) comes from the catalogue.
 */
interface PreparedPanel {
  chunks: Buffer[];
  /** slots[i] goes between chunks[i] and chunks[i + 1]. */
  slots: Slot[];
}
type Slot = { kind: 'open' } | { kind: 'intro' } | { kind: 'near' } | { kind: 'min' | 'max'; field: string } | { kind: 'in'; field: string; value: string };

/** The finder: per spec field parts of this category declare, a control, with the counts of parts that declare it and not. */
function preparePanel(facets: Facets): PreparedPanel {
  const chunks: Buffer[] = [];
  const slots: Slot[] = [];
  let text = '';
  const slot = (s: Slot) => {
    chunks.push(htmlBytes(text));
    slots.push(s);
    text = '';
  };
  text += '<aside aria-label="Spec filters"><details class="facets" id="finder"';
  slot({ kind: 'open' });
  text += html`><summary>Spec filters${facets.category ? ` in ${facets.category}` : ''} (${facets.records} records)</summary>`.text;
  slot({ kind: 'intro' });
  for (const f of facets.fields) {
    if (!(f.declared > 0)) continue;
    const id = `f-${f.name}`;
    const counts = html`<p class="muted" id="${id}-n">${f.read} with a value read, ${f.declared - f.read} declared but unread, ${facets.records - f.declared} not declared${f.min !== null && f.max !== null ? html`; ${num(f.min)}–${num(f.max)}${f.unit ? ` ${f.unit}` : ''}` : ''}</p>`;
    if (f.values) {
      text += html`<fieldset aria-describedby="${id}-n"><legend>${f.name}</legend>${counts}`.text;
      f.values.slice(0, 16).forEach((v, i) => {
        text += html`<div class="check"><input type="checkbox" form="sf" id="${id}-${i}" name="in.${f.name}" value="${v.value}"`.text;
        slot({ kind: 'in', field: f.name, value: v.value });
        text += html`><label for="${id}-${i}">${v.value} (${v.count})</label></div>`.text;
      });
      text += '</fieldset>';
    } else if (f.kind === 'number' || f.kind === 'range') {
      const unit = f.unit ? ` (${f.unit})` : '';
      text += html`<fieldset aria-describedby="${id}-n"><legend>${f.name}${unit}</legend>${counts}<div class="minmax"><div><label for="${id}-min">Min${unit}</label><input id="${id}-min" form="sf" name="min.${f.name}" inputmode="decimal" size="7" value="`.text;
      slot({ kind: 'min', field: f.name });
      text += html`"></div><div><label for="${id}-max">Max${unit}</label><input id="${id}-max" form="sf" name="max.${f.name}" inputmode="decimal" size="7" value="`.text;
      slot({ kind: 'max', field: f.name });
      text += '"></div></div></fieldset>';
    }
  }
  text += '<div class="check"><input type="checkbox" form="sf" id="near" name="near" value="1"';
  slot({ kind: 'near' });
  text += '><label for="near">Include near misses (declared in a text that could not be read)</label></div>\n<p><button type="submit" form="sf">Apply filters</button></p></details></aside>';
  chunks.push(htmlBytes(text));
  return { chunks, slots };
}

/** A prepared panel with a request's values: the prepared bytes, and between them what this request sets (most slots: nothing). */
function filledPanel(p: PreparedPanel, finder: Finder, intro: string): (string | Buffer)[] {
  const out: (string | Buffer)[] = [p.chunks[0]!];
  p.slots.forEach((s, i) => {
    let v = '';
    if (s.kind === 'open') v = finder.pairs.length > 0 ? ' open' : '';
    else if (s.kind === 'intro') v = intro;
    else if (s.kind === 'near') v = finder.near ? ' checked' : '';
    else if (s.kind === 'in') v = finder.in.get(s.field)?.has(s.value) ? ' checked' : '';
    else v = esc((s.kind === 'min' ? finder.min : finder.max).get(s.field) ?? '');
    if (v !== '') out.push(v);
    out.push(p.chunks[i + 1]!);
  });
  return out;
}

/** What the finder of a words-only search is: the hits' most common category's, the others a link each to the same words in them. */
function wordsOnlyIntro(result: SearchOut, cats: readonly { slug: string; n: number }[], args: Record<string, string>, stats: Stats, facets: Facets): string {
  const name = (slug: string) => stats.categories.find((k) => k.slug === slug)?.name ?? slug;
  const none = noFinder();
  const top = cats.find((c) => c.slug === facets.category);
  const others = cats.filter((c) => c.slug !== facets.category);
  return html`<p id="finder-of">The fields of ${name(facets.category ?? '')}, the category of ${top?.n ?? 0} of the ${result.data.length} hits shown (<a href="${linkWith(args, none, { category: facets.category, cursor: null, sort: null })}">only these words in ${name(facets.category ?? '')}</a>). A filter applies to these words in every category; a part that does not declare the field never matches.</p>${
    others.length ? html`<p>Other categories of the hits:</p><ul id="finder-categories">${others.map((c) => html`<li><a href="${linkWith(args, none, { category: c.slug, cursor: null, sort: null })}">${name(c.slug)}</a> <span class="muted">(${c.n} of the hits shown)</span></li>`)}</ul>` : ''
  }`.text;
}

/** The spec fields a result's filters and sort name: a column each. */
function shownFields(result: SearchOut): string[] {
  return [...new Set([...result.meta.filters.map((f) => f.field), ...(result.meta.sort ? [result.meta.sort.field] : [])])];
}

const addCell = (id: string) =>
  `<td><form class="add-bom" action="/bom" method="post"><input type="hidden" name="add" value="${esc(id)}"><button type="submit" name="action" value="add">Add to BOM<span class="visually-hidden">: ${esc(id)}</span></button></form></td>`;

const rowsOf = new WeakMap<SearchOut, Buffer>();

/** The table rows of a search answer's hits (their columns depend on the answer alone). */
function renderRows(result: SearchOut): Buffer {
  const fields = shownFields(result);
  let out = '';
  for (const h of result.data) {
    const id = esc(h.id);
    out += `<tr data-id="${id}"><td><a href="/parts/${esc(encodeURIComponent(h.id))}">${id}</a></td><td>${esc(h.name ?? '')}</td><td>${h.manufacturer === null || h.manufacturer === undefined ? '<span class="muted">not stated</span>' : esc(h.manufacturer)}</td><td>${esc(h.category ?? '')}</td>`;
    for (const f of fields) out += `<td>${specCell(h.specs?.[f]).text}</td>`;
    out += addCell(h.id) + '</tr>';
  }
  return htmlBytes(out);
}

const listRowsOf = new WeakMap<ListOut, Buffer>();

function renderListRows(list: ListOut): Buffer {
  let out = '';
  for (const h of list.data) {
    const id = esc(h.id);
    out += `<tr data-id="${id}"><td><a href="/parts/${esc(encodeURIComponent(h.id))}">${id}</a></td><td>${esc(h.name ?? '')}</td><td>${h.manufacturer === null || h.manufacturer === undefined ? '<span class="muted">not stated</span>' : esc(h.manufacturer)}</td><td>${h.type ? esc(h.type) : '<span class="muted">not stated</span>'}</td>${addCell(h.id)}</tr>`;
  }
  return htmlBytes(out);
}

/** The category options of a get_catalogue_stats answer, none selected, and where ` selected` goes for each slug. */
interface Options {
  text: string;
  bytes: Buffer;
  at: Map<string, number[]>;
}
const optionsOf = new WeakMap<Stats, Options>();

function renderOptions(stats: Stats): Options {
  let text = '';
  const at = new Map<string, number[]>();
  for (const k of stats.categories) {
    text += html`<option value="${k.slug}"`.text;
    const list = at.get(k.slug) ?? [];
    list.push(text.length);
    at.set(k.slug, list);
    text += html`>${k.name} (${k.count})</option>`.text;
  }
  return { text, bytes: htmlBytes(text), at };
}

function categoryOptions(o: Options, category: string | undefined): string | Buffer {
  const at = category === undefined ? undefined : o.at.get(category);
  if (!at) return o.bytes;
  let out = '';
  let from = 0;
  for (const i of at) {
    out += o.text.slice(from, i) + ' selected';
    from = i;
  }
  return out + o.text.slice(from);
}

