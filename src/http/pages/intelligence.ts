/**
 * `/intelligence`: get_analytics as charts in plain HTML (bars are links, no script): the TRL
 * distribution with unknown shown apart so TRL 1-9 stay legible (each level a link to the search
 * where=trl=N), and records, TRL and mean momentum per category, each a link to that category's search.
 */
import { html, type Html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';

interface Stats {
  known: number;
  unknown: number;
  mean: number | null;
  distribution: Record<string, number>;
}

interface Intel {
  meta: { counts: { entities: number; quarantined_excluded: number; with_trl: number; trl_unknown: number; with_momentum: number; momentum_unknown: number }; method: { trl?: { levels?: Record<string, string>; mapping?: Record<string, number | null> } } };
  categories: Record<string, { name: string; count: number; trl: Stats; momentum: Stats }>;
  maturity_distribution: Record<string, number>;
}

/** One horizontal bar per row, widths relative to the largest value of the chart. */
function bars(rows: { label: string; value: number; href?: string; title: string; unknown?: boolean }[], caption: string, unit = ''): Html {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return html`<figure><figcaption>${caption}</figcaption><ul class="bars">${rows.map(
    (r) => html`<li><span>${r.label}</span><span>${r.href ? html`<a class="bar w${Math.round((100 * r.value) / max)}${r.unknown ? ' unknown' : ''}" href="${r.href}" aria-label="${r.title}"></a>` : html`<span class="bar w${Math.round((100 * r.value) / max)}${r.unknown ? ' unknown' : ''}" role="img" aria-label="${r.title}"></span>`}</span><span class="num">${r.value}${unit}</span></li>`,
  )}</ul></figure>`;
}

export async function intelligencePage({ call }: PageRequest): Promise<PageContent> {
  const doc = await call<Intel>('get_analytics', {});
  const counts = doc.meta.counts;
  const levels = doc.meta.method.trl?.levels ?? {};
  const mapping = doc.meta.method.trl?.mapping ?? {};
  const statusesOf = (l: number) => Object.entries(mapping).filter(([, v]) => v === l).map(([k]) => k);
  const trlRows = Array.from({ length: 9 }, (_, i) => {
    const l = i + 1;
    const n = doc.maturity_distribution[String(l)] ?? 0;
    const st = statusesOf(l);
    return { label: `TRL ${l}`, value: n, href: `/search?where=${encodeURIComponent(`trl=${l}`)}`, title: `TRL ${l} (${levels[String(l)] ?? ''}): ${n} records${st.length ? `; statuses ${st.join(', ')}` : ''}` };
  });
  const cats = Object.entries(doc.categories).sort((a, b) => b[1].count - a[1].count);
  const search = (slug: string) => `/search?category=${encodeURIComponent(slug)}`;
  return {
    title: 'Readiness and momentum',
    current: '/intelligence',
    body: html`<h1>Technology readiness and momentum</h1>
<p>${counts.entities} catalogue records (${counts.quarantined_excluded} quarantined left out). A TRL is known for ${counts.with_trl}; for ${counts.trl_unknown} no lifecycle status says it, and nothing is filled in. Momentum is known for ${counts.with_momentum}, unknown for ${counts.momentum_unknown}. The same figures as JSON: <a href="/api/intelligence.json">/api/intelligence.json</a>.</p>
<h2>TRL of the records with a known TRL</h2>
${bars(trlRows, `TRL 1 to 9 (${counts.with_trl} records; scale: largest level); each bar links to the search where=trl=N`)}
<p class="note">Unknown TRL: <strong>${counts.trl_unknown}</strong> records, shown apart so the levels above stay readable.</p>
<details><summary>How statuses map to TRL</summary><ul>${Object.entries(mapping).map(([s, l]) => html`<li>${s}: ${l === null ? 'no TRL' : `TRL ${l}`}</li>`)}</ul></details>
<h2>Records per category</h2>
${bars(cats.map(([slug, c]) => ({ label: c.name, value: c.count, href: search(slug), title: `${c.name}: ${c.count} records; search them` })), 'Each bar links to the category\u2019s search')}
<h2>Mean TRL per category (known only)</h2>
${bars(cats.filter(([, c]) => c.trl.mean !== null).map(([slug, c]) => ({ label: c.name, value: c.trl.mean!, href: search(slug), title: `${c.name}: mean TRL ${c.trl.mean} over ${c.trl.known} records, ${c.trl.unknown} unknown` })), 'Mean TRL; categories where no record has a TRL are listed below')}
<p class="muted">No TRL known: ${cats.filter(([, c]) => c.trl.mean === null).map(([slug, c], i) => html`${i ? ', ' : ''}<a href="${search(slug)}">${c.name}</a>`)}</p>
<h2>Mean momentum per category (0 to 100, known only)</h2>
${bars(cats.filter(([, c]) => c.momentum.mean !== null).map(([slug, c]) => ({ label: c.name, value: c.momentum.mean!, href: search(slug), title: `${c.name}: mean momentum ${c.momentum.mean} over ${c.momentum.known} records, ${c.momentum.unknown} unknown` })), 'Mean momentum')}
<div class="scroll" tabindex="0"><table><caption>Known and unknown per category</caption><thead><tr><th scope="col">Category</th><th scope="col" class="num">Records</th><th scope="col" class="num">TRL known</th><th scope="col" class="num">TRL unknown</th><th scope="col" class="num">Momentum known</th><th scope="col" class="num">Momentum unknown</th></tr></thead><tbody>${cats.map(
      ([slug, c]) => html`<tr><th scope="row"><a href="${search(slug)}">${c.name}</a></th><td class="num">${c.count}</td><td class="num">${c.trl.known}</td><td class="num">${c.trl.unknown}</td><td class="num">${c.momentum.known}</td><td class="num">${c.momentum.unknown}</td></tr>`,
    )}</tbody></table></div>`,
  };
}
