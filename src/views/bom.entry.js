/**
 * MCP Apps view of check_bom: findings grouped by severity, the bridges and adapter plates the set
 * needs, the supply rails and what connects. A plate finding offers "Design the plate" when the
 * host lets the view call tools (tools/call through the host); without that, the call to make is shown.
 */
import { answerOrAlert, connect, el } from './bridge.js';

const app = document.getElementById('app');
let bridge = null;

const parts = (f) => f.parts.map((p) => p.id).join(', ');
const volts = (r) => (r.min_v === r.max_v ? `${r.min_v} V` : `${r.min_v}–${r.max_v} V`);

function plateButton(call) {
  const out = el('div', { class: 'plate-answer muted' });
  const args = JSON.stringify(call.arguments);
  if (!bridge || !bridge.canCallTools()) return el('p', { class: 'muted' }, 'Design it with ', el('code', {}, `design_adapter_plate ${args}`));
  const b = el('button', {
    type: 'button',
    onclick: async () => {
      b.disabled = true;
      try {
        const r = await bridge.callTool(call.tool, call.arguments);
        const text = (r.content || []).find((c) => c.type === 'text');
        out.textContent = text ? text.text.split('\n')[0] : 'Done.';
      } catch (err) {
        out.textContent = `The host refused the call: ${err.message}`;
      } finally {
        b.disabled = false;
      }
    },
  }, 'Design the plate');
  return el('div', {}, b, ' ', el('code', {}, args), out);
}

function finding(f) {
  return el('div', { class: 'finding', 'data-kind': f.kind, 'data-severity': f.severity },
    el('p', {}, el('span', { class: `badge sev-${f.severity}` }, f.kind.replaceAll('_', ' ')), ' ', f.message),
    f.parts.length ? el('p', { class: 'muted' }, `Parts: ${parts(f)}`) : null,
    f.remedy ? el('p', {}, el('strong', {}, 'Fix: '), f.remedy) : null);
}

function render(result) {
  const out = answerOrAlert(app, result);
  if (!out) return;
  const s = out.summary;
  app.append(
    el('h1', {}, s.errors ? `${s.errors} error(s) in the BOM` : s.warnings ? `No errors; ${s.warnings} warning(s)` : 'No errors or warnings'),
    el('ul', { class: 'facts', id: 'summary' },
      el('li', { class: 'sev-error' }, 'Errors ', el('strong', {}, String(s.errors))),
      el('li', { class: 'sev-warning' }, 'Warnings ', el('strong', {}, String(s.warnings))),
      el('li', { class: 'sev-info' }, 'Info ', el('strong', {}, String(s.infos))),
      el('li', { class: 'muted' }, `${out.parts.length} line(s), ${s.pairs_checked} pair(s) checked`)),
  );
  const bridges = out.findings.filter((f) => f.kind === 'bridge_required');
  const plates = out.findings.filter((f) => f.kind === 'flange_adapter');
  if (bridges.length || plates.length) {
    app.append(el('h2', {}, 'Needed: bridges and adapter plates'), el('ul', { id: 'needed' },
      bridges.map((f) => el('li', { 'data-kind': 'bridge_required' }, el('strong', {}, (f.detail.adapters ?? []).join(' or ') || 'A bridge'), ` for ${parts(f)}`)),
      plates.map((f) => el('li', { 'data-kind': 'flange_adapter' }, el('strong', {}, 'Adapter plate'), ` ${f.detail.pair ? [].concat(f.detail.pair).join(' / ') : parts(f)}`, f.detail.adapter_plate?.tool ? plateButton(f.detail.adapter_plate) : null))));
  }
  for (const sev of ['error', 'warning', 'info']) {
    const group = out.findings.filter((f) => f.severity === sev);
    if (group.length) app.append(el('section', { 'data-severity': sev }, el('h2', { class: `sev-${sev}` }, `${sev[0].toUpperCase()}${sev.slice(1)}s (${group.length})`), group.map(finding)));
  }
  const c = out.connections;
  app.append(el('h2', {}, 'What works'), el('p', { id: 'statement' }, c.statement));
  if (c.rails.length) {
    app.append(el('h2', {}, 'Supply rails'), el('div', { class: 'scroll' }, el('table', { id: 'rails' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Rail'), el('th', { scope: 'col' }, 'Parts'))),
      el('tbody', {}, c.rails.map((r) => el('tr', {}, el('td', {}, volts(r)), el('td', {}, r.parts.join(', '))))))));
  }
  if (c.hosts.length) {
    app.append(el('h2', {}, 'Links to hosts'), el('ul', { id: 'hosts' }, c.hosts.map((h) => el('li', {}, el('strong', {}, h.host), ': ', h.devices.map((d) => `${d.id}${d.buses.length ? ` over ${d.buses.join('/')}` : ''}${d.via ? ` via ${d.via}` : ''}`).join('; ')))));
  }
  app.append(el('p', { class: 'muted' }, out.basis));
}

bridge = connect({ name: 'robot-parts-bom-view', version: '1', onResult: render });
