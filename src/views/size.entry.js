/**
 * MCP Apps view of size_actuators (issue 43): the robot in 3D (src/views/robot-canvas.js, as the
 * robot view draws it) and the per-joint table: the static torque
 * each joint must hold, the need times the safety factor, and the candidates' rated torque with
 * their margin, a bar showing the need against the first candidate's rating. All of it from the
 * tool result the host sends; the 3D drawing from the URDF in the call's arguments (content, or the
 * entry file of a package), as the robot view does. A xacro input is listed without a 3D view (the
 * answer does not carry the expanded URDF).
 */
import { answerOrAlert, connect, el } from './bridge.js';
import { appendRobotCanvas } from './robot-canvas.js';

const app = document.getElementById('app');
let args = null;

function urdfText(input) {
  if (!input) return null;
  let text = null;
  if (typeof input.content === 'string') text = input.content;
  else if (Array.isArray(input.files) && typeof input.entry === 'string') {
    const entry = input.files.find((f) => f && f.path === input.entry);
    text = entry && typeof entry.content === 'string' ? entry.content : null;
  }
  // A xacro document needs expanding first (the answer does not carry the result).
  if (text === null || /xmlns:xacro|<xacro:/.test(text)) return null;
  return text;
}

const num = (v, digits = 4) => (typeof v === 'number' ? String(Number(v.toPrecision(digits))) : '—');

function need(j) {
  if (j.required_force_n !== null && j.required_force_n !== undefined) return { value: j.required_force_n, unit: 'N' };
  return { value: j.required_torque_nm, unit: 'N·m' };
}

function bar(j) {
  const n = need(j);
  const best = j.candidates[0];
  const rated = best ? (n.unit === 'N' ? best.force_rated_n : best.torque_rated_nm) : null;
  if (typeof n.value !== 'number' || typeof rated !== 'number' || rated <= 0) return el('span', { class: 'muted' }, '—');
  const share = Math.min(1, n.value / rated);
  const target = typeof j.target === 'number' ? Math.min(1, j.target / rated) : null;
  return el('div', { class: 'bar', title: `need ${num(n.value)} ${n.unit} of ${num(rated)} ${n.unit} rated`, 'data-share': share.toFixed(4) },
    el('span', { class: 'need', style: `width:${(share * 100).toFixed(1)}%` }),
    target !== null ? el('span', { class: 'target', style: `left:${(target * 100).toFixed(1)}%` }) : null);
}

function candidates(j) {
  if (j.candidates.length === 0) return el('span', { class: 'muted' }, `none${j.near_misses_total ? ` (${j.near_misses_total} near misses: torque not read exactly)` : ''}`);
  const unit = need(j).unit;
  return el('ul', { class: 'cands' },
    j.candidates.map((c) => el('li', { 'data-id': c.id },
      el('strong', {}, c.id), ` ${c.name}: ${num(unit === 'N' ? c.force_rated_n : c.torque_rated_nm)} ${unit}`,
      typeof c.margin === 'number' ? el('span', { class: 'muted' }, ` ×${num(c.margin, 3)}`) : null)),
    j.candidates_total > j.candidates.length ? el('li', { class: 'muted' }, `${j.candidates_total - j.candidates.length} more qualify`) : null);
}

function table(out) {
  return el('div', { class: 'scroll' }, el('table', { id: 'joints' },
    el('caption', { class: 'muted' }, `${out.joints.length} joint(s) sized; margin = rated ÷ need`),
    el('thead', {}, el('tr', {}, ['Joint', 'Need', 'Need × safety', 'Need vs first candidate', 'Candidates (rated)'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, out.joints.map((j) => {
      const n = need(j);
      return el('tr', { 'data-joint': j.joint_name },
        el('td', {}, j.joint_name, j.worst_pose ? el('div', { class: 'muted' }, `worst: ${j.worst_pose.source}${typeof j.worst_pose.index === 'number' ? ` ${j.worst_pose.index + 1}` : ''}`) : null),
        el('td', { class: 'num', 'data-need': String(n.value) }, `${num(n.value)} ${n.unit}`),
        el('td', { class: 'num' }, `${num(j.target)} ${n.unit}`),
        el('td', {}, bar(j)),
        el('td', {}, candidates(j)));
    }))));
}

function render(result) {
  const out = answerOrAlert(app, result);
  if (!out) return;
  const largest = out.joints.reduce((m, j) => (typeof j.required_torque_nm === 'number' && (m === null || j.required_torque_nm > m.required_torque_nm) ? j : m), null);
  app.append(
    el('h1', {}, out.robot_name ?? 'URDF robot'),
    el('ul', { class: 'facts' },
      el('li', { id: 'sized' }, 'Joints sized ', el('strong', {}, String(out.joints.length - out.unsized.length))),
      el('li', {}, 'Total mass ', el('strong', {}, typeof out.total_mass_kg === 'number' ? `${out.total_mass_kg} kg` : 'not stated')),
      largest ? el('li', {}, 'Largest need ', el('strong', {}, `${num(largest.required_torque_nm)} N·m`), ` (${largest.joint_name})`) : null,
      out.bom_items.length ? el('li', { id: 'bom-items' }, 'BOM ', el('strong', {}, out.bom_items.map((b) => `${b.quantity}× ${b.id}`).join(', '))) : null),
  );
  const text = urdfText(args);
  if (text) {
    appendRobotCanvas(app, text);
  } else {
    app.append(el('p', { class: 'status', id: 'robot-status' }, 'No 3D view: the host did not send a URDF (a xacro input is not expanded in the answer); the joints are listed below.'));
  }
  app.append(el('h2', {}, 'Required torque vs candidates'), table(out));
  if (out.method?.text) app.append(el('p', { class: 'muted', id: 'method' }, out.method.text));
}

connect({ name: 'robot-parts-size-view', version: '1', onInput: (a) => (args = a), onResult: render });
