/** `/compare?ids=a,b,c`: compare_parts side by side, each row with its comparability reason. */
import { html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';
import { specCell } from './search.js';

interface CompareOut {
  parts: { id: string; name: string; manufacturer: string | null }[];
  rows: { field: string; unit: string | null; cells: { id: string; spec: Parameters<typeof specCell>[0] | null; note: string | null }[]; comparable: boolean; level: string; reason: string; ranking: { id: string; rank: number }[] | null }[];
  same_product: string[][];
}

export async function comparePage({ c, call }: PageRequest): Promise<PageContent> {
  const raw = c.req.queries('ids') ?? [];
  const ids = raw.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  const form = html`<form class="inline" action="/compare" method="get"><div><label for="ids">Part ids, separated by commas (2 to 10)</label><input id="ids" name="ids" type="text" value="${ids.join(',')}" placeholder="ACT-017,ACT-018"></div><button type="submit">Compare</button></form>`;
  if (ids.length === 0) return { title: 'Compare parts', current: '/compare', body: html`<h1>Compare parts</h1>${form}` };
  const out = await call<CompareOut>('compare_parts', { ids });
  return {
    title: `Compare ${out.parts.map((p) => p.id).join(', ')}`,
    current: '/compare',
    body: html`<h1>Compare parts</h1>${form}
${out.same_product.length ? html`<p class="note">Same product: ${out.same_product.map((p) => p.join(' = ')).join('; ')}.</p>` : ''}
<div class="scroll" tabindex="0"><table id="compare"><caption class="visually-hidden">Specs side by side</caption><thead><tr><th scope="col">Field</th>${out.parts.map((p) => html`<th scope="col"><a href="/parts/${encodeURIComponent(p.id)}">${p.id}</a><br>${p.name}</th>`)}<th scope="col">Comparable?</th></tr></thead>
<tbody>${out.rows.map(
      (r) => html`<tr><th scope="row">${r.field}${r.unit ? ` (${r.unit})` : ''}</th>${r.cells.map((cell) => html`<td>${cell.spec ? specCell(cell.spec) : html`<span class="muted">${cell.note ?? 'not declared'}</span>`}${r.ranking?.find((x) => x.id === cell.id) ? html`<br>rank ${r.ranking.find((x) => x.id === cell.id)!.rank}` : ''}</td>`)}<td><span class="${r.comparable ? 'good' : 'warning'}">${r.comparable ? 'yes' : 'no'}</span>, level ${r.level}: ${r.reason}</td></tr>`,
    )}</tbody></table></div>`,
  };
}
