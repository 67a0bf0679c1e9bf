/**
 * `/search?q=&where=&category=&sort=&cursor=`: search_parts with the arguments GET /api/search
 * takes (the compact where form), facets from list_spec_fields, the filters' unknown and failed
 * counts, and pagination by the tool's cursor.
 */
import { html, query, type Html, type PageContent } from './html.js';
import type { PageRequest } from './index.js';
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
  const args: Record<string, string> = {};
  for (const k of SEARCH_PARAMS) {
    const v = c.req.query(k);
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
  const shownFields = result ? [...new Set([...result.meta.filters.map((f) => f.field), ...(result.meta.sort ? [result.meta.sort.field] : [])])] : [];
  const unitOf = (f: string) => facets?.fields.find((x) => x.name === f)?.unit ?? null;
  const link = (over: Record<string, string | undefined>) => `/search${query({ ...args, cursor: undefined, ...over })}`;
  const addWhere = (clause: string) => link({ where: args.where ? `${args.where}; ${clause}` : clause });

  const form = html`<form class="inline" action="/search" method="get" role="search">
<div><label for="q">Words</label><input id="q" type="search" name="q" value="${args.q ?? ''}"></div>
<div><label for="where">Spec filter (where)</label><input id="where" type="text" name="where" value="${args.where ?? ''}" aria-describedby="where-help"></div>
<div><label for="category">Category</label><select id="category" name="category"><option value="">All</option>${stats.categories.map(
    (k) => html`<option value="${k.slug}"${args.category === k.slug ? html` selected` : ''}>${k.name} (${k.count})</option>`,
  )}</select></div>
<div><label for="sort">Sort</label><input id="sort" type="text" name="sort" value="${args.sort ?? ''}" placeholder="torque_rated desc"></div>
<button type="submit">Search</button></form>
<p id="where-help" class="muted">Filters are separated by <code>;</code>, e.g. <code>torque_rated&gt;=30 N·m; voltage covers 48 V; bus in EtherCAT|CAN</code>, in any unit the fields below accept. A part that does not declare a field never matches; the counts say how many were left out that way.</p>`;

  const results = result
    ? html`<h2 id="results">${result.meta.total} match${result.meta.total === 1 ? '' : 'es'}</h2>
${result.meta.filters.length ? html`<div class="scroll"><table><caption class="visually-hidden">What each filter did</caption><thead><tr><th scope="col">Filter</th><th scope="col">Applied as</th><th scope="col" class="num">Matched</th><th scope="col" class="num">Unknown (not declared, left out)</th><th scope="col" class="num">Declared but failed</th></tr></thead><tbody>${result.meta.filters.map(
      (f) => html`<tr><td><code>${f.field} ${f.op} ${Array.isArray(f.value) ? f.value.join('|') : String(f.value)}</code></td><td>${f.applied.join(', ')}</td><td class="num">${f.matched}</td><td class="num">${f.unknown_excluded}</td><td class="num">${f.failed}</td></tr>`,
    )}</tbody></table></div>` : ''}
${result.meta.sort ? html`<p>Sorted by ${result.meta.sort.field} ${result.meta.sort.order}; ${result.meta.sort.undeclared_last} without a value are listed last.</p>` : ''}
${result.meta.quarantined_excluded ? html`<p class="note">${result.meta.quarantined_excluded} matching record(s) are quarantined as suspicious and left out.</p>` : ''}
${result.data.length ? html`<div class="scroll"><table id="results-table" data-live-filter><caption class="visually-hidden">Matching parts</caption><thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Manufacturer</th><th scope="col">Category</th>${shownFields.map((f) => html`<th scope="col">${f}${unitOf(f) ? ` (${unitOf(f)})` : ''}</th>`)}</tr></thead><tbody>${result.data.map(
      (h) => html`<tr data-id="${h.id}"><td><a href="/parts/${encodeURIComponent(h.id)}">${h.id}</a></td><td>${h.name ?? ''}</td><td>${h.manufacturer ?? html`<span class="muted">not stated</span>`}</td><td>${h.category ?? ''}</td>${shownFields.map((f) => html`<td>${specCell(h.specs?.[f])}</td>`)}</tr>`,
    )}</tbody></table></div>` : html`<p>No part matches.</p>`}
<nav class="pager" aria-label="Pages">${args.cursor ? html`<a href="${link({})}">First page</a>` : ''}${result.next_cursor ? html`<a href="${link({ cursor: result.next_cursor })}" rel="next">Next ${result.meta.limit}</a>` : ''}<span class="muted">Showing ${result.meta.returned} of ${result.meta.total}</span></nav>`
    : failure
      ? html`<div class="error" role="alert"><p>${failure.message}</p>${failure.field ? html`<p class="muted">field <code>${failure.field}</code></p>` : ''}</div>`
      : html`<p>Type words, a spec filter, or pick a category.</p>`;

  const facetList = facets
    ? html`<details class="facets" open><summary>Spec fields${facets.category ? ` in ${facets.category}` : ''} (${facets.records} records)</summary>${facets.fields
        .filter((f) => f.declared > 0)
        .map(
          (f) => html`<h3>${f.name}${f.unit ? ` (${f.unit})` : ''}</h3><p class="muted">${f.read} read of ${f.declared} declaring it${f.min !== null && f.max !== null ? html`; ${num(f.min)}–${num(f.max)}${f.unit ? ` ${f.unit}` : ''}` : ''}</p>${
            f.values
              ? html`<ul>${f.values.slice(0, 12).map((v) => html`<li><a href="${addWhere(`${f.name} in ${v.value}`)}">${v.value}</a> (${v.count})</li>`)}</ul>`
              : f.min !== null
                ? html`<ul><li><a href="${addWhere(`${f.name}>=${f.example_value}`)}">${f.name} ≥ ${f.example_value}</a></li></ul>`
                : ''
          }`,
        )}</details>`
    : '';

  return {
    title: result ? `Search: ${result.meta.total} matches` : 'Search',
    current: '/search',
    status: failure ? 400 : 200,
    scripts: result?.data.length ? ['/assets/filter.js'] : [],
    body: html`<h1>Search parts</h1>${form}<div class="layout"><aside aria-label="Spec fields">${facetList}</aside><section aria-label="Results">${results}</section></div>`,
  };
}
