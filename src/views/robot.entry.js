/**
 * MCP Apps view of extract_robot_parts: the robot in 3D (what the pages draw, by the compact
 * renderer of src/views/robot-canvas.js), its DOF, mass and joint list; a BOM answer shows its lines. The
 * answer has no joint frames, so the 3D drawing is made from the URDF the tool read: the call's
 * arguments the host sends (content, or the entry file of a package). A xacro input is drawn as
 * its joint list only (the expanded URDF is not in the answer).
 */
import { answerOrAlert, connect, el } from './bridge.js';
import { appendRobotCanvas } from './robot-canvas.js';

const app = document.getElementById('app');
let args = null;

function urdfText(input, out) {
  if (!input || out.kind !== 'urdf' || out.xacro) return null;
  if (typeof input.content === 'string') return input.content;
  if (Array.isArray(input.files) && out.package) {
    const entry = input.files.find((f) => f && f.path === out.package.entry);
    return entry && typeof entry.content === 'string' ? entry.content : null;
  }
  return null;
}

const fmt = (v) => (v === null || v === undefined ? '—' : typeof v === 'object' ? (v.as_written ?? v.value ?? '—') : String(v));

function joints(out) {
  const rows = out.records.filter((r) => r.record_type === 'urdf_joint');
  return el('div', { class: 'scroll' }, el('table', { id: 'joints' },
    el('caption', { class: 'muted' }, `${rows.length} joints as written`),
    el('thead', {}, el('tr', {}, ['Joint', 'Type', 'Parent → child', 'Axis', 'Limits', 'Child mass (kg)'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((j) => el('tr', { 'data-joint': j.joint_name },
      el('td', {}, j.joint_name, j.actuated ? '' : el('span', { class: 'muted' }, ' (not actuated)')),
      el('td', {}, j.joint_type),
      el('td', {}, `${j.parent_link ?? '?'} → ${j.child_link ?? '?'}`),
      el('td', {}, j.axis ?? '—'),
      el('td', {}, j.limits ? Object.entries(j.limits).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k} ${fmt(v)}`).join(', ') || '—' : '—'),
      el('td', { class: 'num' }, fmt(j.child_link_mass)),
    )))));
}

function bomLines(out) {
  const rows = out.records.filter((r) => r.record_type !== 'urdf_joint');
  return el('div', { class: 'scroll' }, el('table', { id: 'bom-lines' },
    el('thead', {}, el('tr', {}, ['Item', 'Quantity', 'Unit price', 'Part number'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((r) => el('tr', {},
      el('td', {}, r.item ?? '—'),
      el('td', { class: 'num' }, r.quantity ?? r.quantity_as_written ?? '—'),
      el('td', {}, r.unit_prices?.[0]?.as_written ?? '—'),
      el('td', {}, r.manufacturer_part ?? '—'))))));
}

function render(result) {
  const out = answerOrAlert(app, result);
  if (!out) return;
  const c = out.counts;
  if (out.kind !== 'urdf') {
    app.append(el('h1', {}, `BOM: ${c.records} line(s)`), el('p', { class: 'muted' }, `${c.bom_tables ?? 0} BOM table(s) of ${c.tables ?? 0}; ${c.skipped} skipped.`), bomLines(out));
    return;
  }
  app.append(
    el('h1', {}, out.robot_name ?? 'URDF robot'),
    el('ul', { class: 'facts' },
      el('li', { id: 'dof' }, 'Actuated DOF ', el('strong', {}, String(c.dof ?? '—'))),
      el('li', {}, 'Joints ', el('strong', {}, String(out.records.filter((r) => r.record_type === 'urdf_joint').length))),
      el('li', { id: 'mass' }, 'Total mass ', el('strong', {}, out.mass?.total != null ? `${out.mass.total} kg` : 'not stated')),
      c.joints_by_type ? el('li', { class: 'muted' }, Object.entries(c.joints_by_type).map(([k, v]) => `${v} ${k}`).join(', ')) : null),
  );
  const text = urdfText(args, out);
  if (text) {
    appendRobotCanvas(app, text);
  } else {
    app.append(el('p', { class: 'status', id: 'robot-status' }, out.xacro ? 'No 3D view: the input is xacro and the answer does not carry the expanded URDF; the joints are listed below.' : 'No 3D view: the host did not send the URDF the tool read; the joints are listed below.'));
  }
  app.append(el('h2', {}, 'Joints'), joints(out));
}

connect({ name: 'robot-parts-robot-view', version: '1', onInput: (a) => (args = a), onResult: render });
