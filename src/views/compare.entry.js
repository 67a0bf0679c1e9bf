/**
 * MCP Apps view of compare_parts: the side-by-side table. Comparable rows first, each cell with its
 * rank (1 = highest); then the rows that are not comparable with the reason the answer gives. A
 * user-declared part (source user) is marked as such.
 */
import { answerOrAlert, connect, el } from './bridge.js';

const app = document.getElementById('app');

const cellText = (s) => (s ? s.notation : '—');

function table(out, rows, ranked) {
  const ids = out.parts.map((p) => p.id);
  return el('div', { class: 'scroll' }, el('table', { class: ranked ? 'comparable' : 'not-comparable' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Field'), ids.map((id) => el('th', { scope: 'col', 'data-id': id }, id)), el('th', { scope: 'col' }, ranked ? 'Level' : 'Why not comparable'))),
    el('tbody', {}, rows.map((r) => {
      const rank = new Map((r.ranking ?? []).map((x) => [x.id, x.rank]));
      return el('tr', { 'data-field': r.field },
        el('th', { scope: 'row' }, r.field, r.unit ? el('span', { class: 'muted' }, ` (${r.unit})`) : null),
        ids.map((id) => {
          const c = r.cells.find((x) => x.id === id);
          const k = rank.get(id);
          return el('td', { 'data-id': id, class: k === 1 ? 'rank1' : null }, cellText(c?.spec), k ? el('span', { class: 'muted' }, ` #${k}`) : null, c?.note ? el('div', { class: 'muted' }, c.note) : null);
        }),
        el('td', { class: 'muted' }, ranked ? (r.level ?? '') : r.reason));
    }))));
}

function render(result) {
  const out = answerOrAlert(app, result);
  if (!out) return;
  const comparable = out.rows.filter((r) => r.comparable);
  const other = out.rows.filter((r) => !r.comparable);
  app.append(
    el('h1', {}, `${out.parts.length} parts compared`),
    el('ul', { class: 'facts', id: 'parts' }, out.parts.map((p) => el('li', { 'data-id': p.id, 'data-source': p.source ?? null }, el('strong', {}, p.id), ` ${p.name}`, p.manufacturer ? el('span', { class: 'muted' }, ` · ${p.manufacturer}`) : null, p.source === 'user' ? el('span', { class: 'badge' }, ' declared by you') : null))),
  );
  if (out.same_product.length) app.append(el('p', { class: 'sev-warning' }, `Same product: ${out.same_product.map((g) => g.join(' = ')).join('; ')}`));
  app.append(el('h2', {}, `Comparable (${comparable.length}), ranked: 1 = highest`), comparable.length ? table(out, comparable, true) : el('p', { class: 'muted' }, 'No field has values read exactly enough on every part to rank.'));
  app.append(el('h2', {}, `Not comparable (${other.length})`), other.length ? table(out, other, false) : el('p', { class: 'muted' }, 'None.'));
  if (out.meta?.attribution) app.append(el('p', { class: 'muted' }, out.meta.attribution));
}

connect({ name: 'robot-parts-compare-view', version: '1', onResult: render });
