/**
 * `/search?q=&where=&category=&sort=&cursor=`: search_parts with the arguments GET /api/search
 * takes (the compact where form), facets from list_spec_fields, the filters' unknown and failed
 * counts, and pagination by the tool's cursor.
 *
 * The three tools run on every request (validation, rate limit, answer cache, as for the API).
 * Their answers are deep-frozen and shared when the answer cache is on, so the HTML made of each
 * answer alone (the category options, the facet list, the rows of hits) is made once per answer
 * object; only what the request's own arguments change (form values, the facet links' query,
 * the pager) is written per request.
 */
import { esc, formEncoded, html, HtmlPieces, htmlBytes, joinHtml, renderedOnce, type Html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';
import type { CompactSpec } from '../../domain/specs/query.js';


interface SearchOut {
  data: { id: string; name?: string; manufacturer?: string | null; category?: string; quarantine?: boolean; specs?: Record<string, CompactSpec> }[];
  next_cursor: string | null;
  meta: {
    q: string | null;
    filters: { field: string; op: string; value: unknown; applied: string[]; matched: number; unknown_excluded: number; failed: number }[];
    sort: { field: string; order: string; undeclared_last: number } | null;
    category: string | null;
    total: number;
    returned: number;
    limit: number;
    quarantined_excluded: number;
  };
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
export const SEARCH_PARAMS = ['q', 'where', 'category', 'sort', 'cursor'] as const;

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

export async function searchPage({ c, call }: PageRequest): Promise<PageContent> {
  const raw = c.req.query(); // one parse of the query string (the first value of each name)
  const args: Record<string, string> = {};
  for (const k of SEARCH_PARAMS) {
    const v = raw[k];
    if (v !== undefined && v.trim() !== '') args[k] = v;
  }
  const asked = args.q !== undefined || args.where !== undefined || args.category !== undefined || args.sort !== undefined;
  const stats = await call<Stats>('get_catalogue_stats', {});
  let result: SearchOut | null = null;
  let failure: { message: string; field?: string } | null = null;
  if (asked) {
    try {
      result = await call<SearchOut>('search_parts', args);
    } catch (err) {
      const e = err as { message: string; details?: { field?: string }; code?: string; status?: number };
      if (e.code !== 'invalid_input') throw err;
      failure = { message: e.message, field: e.details?.field };
    }
  }
  let facets: Facets | null = null;
  try {
    facets = await call<Facets>('list_spec_fields', args.category ? { category: args.category } : {});
  } catch {
    facets = null; // an unknown category is already reported by the search
  }

  // The same three answer objects and the same arguments make the same page: kept with the
  // answers when they are frozen (handed out again by the answer cache), as the rows are.
  const key = failure ? null : argsKey(args);
  const owner = result ?? facets ?? stats;
  const kept = key === null ? undefined : pagesOf.get(owner)?.get(key);
  if (kept && kept.stats === stats && kept.facets === facets && kept.result === result) return kept.content;

  const page: (string | Buffer)[] = [FORM_Q, esc(args.q ?? ''), FORM_WHERE, esc(args.where ?? ''), FORM_CATEGORY, categoryOptions(renderedOnce(optionsOf, stats, renderOptions), args.category), FORM_SORT, esc(args.sort ?? ''), FORM_END];
  if (facets) facetList(page, facets, args);
  page.push(ASIDE_END);
  if (result) {
    const m = result.meta;
    const fields = shownFields(result);
    const unitOf = (f: string) => facets?.fields.find((x) => x.name === f)?.unit ?? null;
    page.push(
      html`<h2 id="results">${m.total} match${m.total === 1 ? '' : 'es'}</h2>
${m.filters.length ? html`<div class="scroll"><table><caption class="visually-hidden">What each filter did</caption><thead><tr><th scope="col">Filter</th><th scope="col">Applied as</th><th scope="col" class="num">Matched</th><th scope="col" class="num">Unknown (not declared, left out)</th><th scope="col" class="num">Declared but failed</th></tr></thead><tbody>${m.filters.map(
        (f) => html`<tr><td><code>${f.field} ${f.op} ${Array.isArray(f.value) ? f.value.join('|') : String(f.value)}</code></td><td>${f.applied.join(', ')}</td><td class="num">${f.matched}</td><td class="num">${f.unknown_excluded}</td><td class="num">${f.failed}</td></tr>`,
      )}</tbody></table></div>` : ''}
${m.sort ? html`<p>Sorted by ${m.sort.field} ${m.sort.order}; ${m.sort.undeclared_last} without a value are listed last.</p>` : ''}
${m.quarantined_excluded ? html`<p class="note">${m.quarantined_excluded} matching record(s) are quarantined as suspicious and left out.</p>` : ''}
`.text,
    );
    if (result.data.length) {
      page.push(
        html`<div class="scroll"><table id="results-table" data-live-filter><caption class="visually-hidden">Matching parts</caption><thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Manufacturer</th><th scope="col">Category</th>${fields.map((f) => html`<th scope="col">${f}${unitOf(f) ? ` (${unitOf(f)})` : ''}</th>`)}</tr></thead><tbody>`.text,
        renderedOnce(rowsOf, result, renderRows),
        TABLE_END,
      );
    } else page.push(NO_MATCH);
    page.push(
      html`
<nav class="pager" aria-label="Pages">${args.cursor ? html`<a href="${pageLink(args, null)}">First page</a>` : ''}${result.next_cursor ? html`<a href="${pageLink(args, result.next_cursor)}" rel="next">Next ${m.limit}</a>` : ''}<span class="muted">Showing ${m.returned} of ${m.total}</span></nav>`.text,
    );
  } else if (failure) {
    page.push(html`<div class="error" role="alert"><p>${failure.message}</p>${failure.field ? html`<p class="muted">field <code>${failure.field}</code></p>` : ''}</div>`.text);
  } else page.push(NOTHING_ASKED);
  page.push(SECTION_END);

  const content: PageContent = {
    title: result ? `Search: ${result.meta.total} matches` : 'Search',
    current: '/search',
    status: failure ? 400 : 200,
    scripts: result?.data.length ? FILTER_SCRIPT : [],
    body: new HtmlPieces(page),
  };
  if (key !== null && Object.isFrozen(stats) && Object.isFrozen(owner) && (facets === null || Object.isFrozen(facets))) {
    let pages = pagesOf.get(owner);
    if (!pages) pagesOf.set(owner, (pages = new Map()));
    else if (pages.size >= PAGES_PER_ANSWER) pages.delete(pages.keys().next().value!);
    content.body = new HtmlPieces([joinHtml(page)]);
    pages.set(key, { stats, facets, result, content: Object.freeze(content) });
  }
  return content;
}

/**
 * Finished page bodies by the answer they show (the search's, else the facets' or the stats'), for
 * each set of arguments (a few per answer: the same query written differently, a cursor), with the
 * other answers they were made from. Only frozen answers are keys, so a body lives as long as
 * the answer cache keeps its answer.
 */
interface KeptPage {
  stats: Stats;
  facets: Facets | null;
  result: SearchOut | null;
  content: PageContent;
}
const pagesOf = new WeakMap<object, Map<string, KeptPage>>();
const PAGES_PER_ANSWER = 4;

const argsKey = (args: Record<string, string>): string => JSON.stringify(SEARCH_PARAMS.map((p) => args[p] ?? null));

const FILTER_SCRIPT = ['/assets/filter.js'];

const FORM_Q = htmlBytes(`<h1>Search parts</h1><form class="inline" action="/search" method="get" role="search">
<div><label for="q">Words</label><input id="q" type="search" name="q" value="`);
const FORM_WHERE = htmlBytes(`"></div>
<div><label for="where">Spec filter (where)</label><input id="where" type="text" name="where" value="`);
const FORM_CATEGORY = htmlBytes(`" aria-describedby="where-help"></div>
<div><label for="category">Category</label><select id="category" name="category"><option value="">All</option>`);
const FORM_SORT = htmlBytes(`</select></div>
<div><label for="sort">Sort</label><input id="sort" type="text" name="sort" value="`);
const FORM_END = htmlBytes(`" placeholder="torque_rated desc"></div>
<button type="submit">Search</button></form>
<p id="where-help" class="muted">Filters are separated by <code>;</code>, e.g. <code>torque_rated&gt;=30 N·m; voltage covers 48 V; bus in EtherCAT|CAN</code>, in any unit the fields below accept. A part that does not declare a field never matches; the counts say how many were left out that way.</p><div class="layout"><aside aria-label="Spec fields">`);
const ASIDE_END = htmlBytes('</aside><section aria-label="Results">');
const TABLE_END = htmlBytes('</tbody></table></div>');
const NO_MATCH = htmlBytes('<p>No part matches.</p>');
const NOTHING_ASKED = htmlBytes('<p>Type words, a spec filter, or pick a category.</p>');
const SECTION_END = htmlBytes('</section></div>');

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

/** The spec fields a result's filters and sort name: a column each. */
function shownFields(result: SearchOut): string[] {
  return [...new Set([...result.meta.filters.map((f) => f.field), ...(result.meta.sort ? [result.meta.sort.field] : [])])];
}

const rowsOf = new WeakMap<SearchOut, Buffer>();

/** The table rows of a search answer's hits (their columns depend on the answer alone). */
function renderRows(result: SearchOut): Buffer {
  const fields = shownFields(result);
  let out = '';
  for (const h of result.data) {
    const id = esc(h.id);
    out += `<tr data-id="${id}"><td><a href="/parts/${esc(encodeURIComponent(h.id))}">${id}</a></td><td>${esc(h.name ?? '')}</td><td>${h.manufacturer === null || h.manufacturer === undefined ? '<span class="muted">not stated</span>' : esc(h.manufacturer)}</td><td>${esc(h.category ?? '')}</td>`;
    for (const f of fields) out += `<td>${specCell(h.specs?.[f]).text}</td>`;
    out += '</tr>';
  }
  return htmlBytes(out);
}

/**
 * The facet list of a list_spec_fields answer with its links cut out: `text` around the links'
 * `where` clauses (`clauses`, form-encoded and escaped; `clauseText[i]` is clause i and the text
 * after it). Each link is the page's own query with the clause added to its where
 * (whereLinkAround), so only that query is written per request.
 */
interface FacetPieces {
  text: Buffer[];
  clauses: Buffer[];
  clauseText: Buffer[];
}
const facetsOf = new WeakMap<Facets, FacetPieces>();

function renderFacets(facets: Facets): FacetPieces {
  const text: string[] = [];
  const clauses: string[] = [];
  let cur = html`<details class="facets" open><summary>Spec fields${facets.category ? ` in ${facets.category}` : ''} (${facets.records} records)</summary>`.text;
  const linkTo = (clause: string) => {
    cur += '<a href="';
    text.push(cur);
    clauses.push(esc(formEncoded(clause)));
    cur = '">';
  };
  for (const f of facets.fields) {
    if (!(f.declared > 0)) continue;
    cur += html`<h3>${f.name}${f.unit ? ` (${f.unit})` : ''}</h3><p class="muted">${f.read} read of ${f.declared} declaring it${f.min !== null && f.max !== null ? html`; ${num(f.min)}–${num(f.max)}${f.unit ? ` ${f.unit}` : ''}` : ''}</p>`.text;
    if (f.values) {
      cur += '<ul>';
      for (const v of f.values.slice(0, 12)) {
        cur += '<li>';
        linkTo(`${f.name} in ${v.value}`);
        cur += html`${v.value}</a> (${v.count})</li>`.text;
      }
      cur += '</ul>';
    } else if (f.min !== null) {
      cur += '<ul><li>';
      linkTo(`${f.name}>=${f.example_value}`);
      cur += html`${f.name} ≥ ${f.example_value}</a></li></ul>`.text;
    }
  }
  text.push(cur + '</details>');
  return { text: text.map(htmlBytes), clauses: clauses.map(htmlBytes), clauseText: clauses.map((c, i) => htmlBytes(c + text[i + 1]!)) };
}

/** The facet list for a request, onto `page`: each link is /search with the request's arguments and the clause added to its where. */
function facetList(page: (string | Buffer)[], facets: Facets, args: Record<string, string>): void {
  const { text, clauses, clauseText } = renderedOnce(facetsOf, facets, renderFacets);
  page.push(text[0]!);
  if (clauses.length === 0) return;
  const [before, after] = whereLinkAround(args);
  const head = htmlBytes(before);
  if (after === '') for (const ct of clauseText) page.push(head, ct);
  else for (let i = 0; i < clauses.length; i++) page.push(head, clauses[i]!, after, text[i + 1]!);
}

/** /search with the request's arguments (its cursor replaced by `cursor`, or dropped), in the order the page reads them. */
function pageLink(args: Record<string, string>, cursor: string | null): string {
  let s = '';
  for (const k of SEARCH_PARAMS) {
    const v = k === 'cursor' ? cursor : args[k];
    if (v) s += `${s ? '&' : '?'}${k}=${formEncoded(v)}`;
  }
  return `/search${s}`;
}

/**
 * The escaped href of a link to /search with the request's arguments and `<args.where>; <clause>`
 * as its where, before and after the clause's own encoding: a where already given keeps its place
 * (after q), a new one goes last (after category and sort); the cursor is dropped.
 */
function whereLinkAround(args: Record<string, string>): [string, string] {
  const hasWhere = args.where !== undefined;
  let before = '/search?';
  let after = '';
  for (let i = 0; i < SEARCH_PARAMS.length; i++) {
    const k = SEARCH_PARAMS[i]!;
    const v = args[k];
    if (k === 'where' || k === 'cursor' || v === undefined) continue;
    if (hasWhere && i > WHERE_AT) after += `&${k}=${formEncoded(v)}`;
    else before += `${k}=${formEncoded(v)}&`;
  }
  before += `where=${hasWhere ? formEncoded(`${args.where}; `) : ''}`;
  return [esc(before), after === '' ? '' : esc(after)];
}

const WHERE_AT = SEARCH_PARAMS.indexOf('where');
