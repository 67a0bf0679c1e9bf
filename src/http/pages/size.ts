/**
 * `/size`: actuator sizing from an uploaded robot description (works with JavaScript off). The
 * form posts a URDF / xacro file (or pasted text), or a .zip / .tar.gz package with its entry,
 * to size_actuators through runTool (the same validation, limits and pool as the API) and shows
 * the per-joint table, a bar chart (inline SVG) of each joint's required torque against the
 * rated torque of the part chosen for it, links to the parts and a form that sends the chosen
 * parts to /bom. No rule is implemented here.
 */
import { invalidInput } from '../../domain/shared/errors.js';
import { decodeText } from '../../ingest/oss/decode.js';
import { archiveUpload } from '../../tools/robot-input.js';
import type { SizeActuatorsOutput } from '../../domain/sizing/index.js';
import { html, type Html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';

const ARCHIVE = /\.(zip|tar\.gz|tgz)$/i;

function form(v: { entry?: string; safety?: string; pick?: string; samples?: string } = {}): Html {
  const picks = ['lightest', 'cheapest', 'strongest'];
  return html`<form action="/size" method="post" enctype="multipart/form-data">
<div><label for="file">Robot description: a URDF or xacro file, or a .zip / .tar.gz package</label>
<input id="file" name="file" type="file" accept=".urdf,.xacro,.xml,.zip,.tar.gz,.tgz" aria-describedby="file-help"></div>
<p id="file-help" class="muted">At most 1 MiB here (the API takes 2 MiB). A package also needs its top file below. Meshes are not needed.</p>
<div><label for="content">Or paste the URDF</label><textarea id="content" name="content" rows="4"></textarea></div>
<div class="inline">
<div><label for="entry">Top file inside a package</label><input id="entry" name="entry" type="text" value="${v.entry ?? ''}" placeholder="urdf/robot.urdf.xacro"></div>
<div><label for="safety_factor">Safety factor</label><input id="safety_factor" name="safety_factor" type="number" min="1" max="10" step="0.1" value="${v.safety ?? '1.5'}"></div>
<div><label for="samples">Sampled poses</label><input id="samples" name="samples" type="number" min="0" max="4096" step="1" value="${v.samples ?? '256'}"></div>
<div><label for="pick">Prefer</label><select id="pick" name="pick">${picks.map((p) => html`<option value="${p}"${p === (v.pick ?? 'lightest') ? html` selected` : ''}>${p}</option>`)}</select></div>
</div>
<p><button type="submit">Size the actuators</button></p></form>`;
}

const INTRO = html`<h1>Size actuators from a robot description</h1>
<p>The static gravity torque each joint must hold (base fixed at the root link), the worst pose over sampled poses inside the joint limits, and catalogue actuators whose rated torque, read exactly, is at least the need × the safety factor. Accelerations, friction and ground contact are not included.</p>`;

export async function sizePage(_r: PageRequest): Promise<PageContent> {
  return { title: 'Actuator sizing', body: html`${INTRO}${form()}` };
}

const num = (v: unknown, field: string, lo: number, hi: number, int = false): number | undefined => {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < lo || n > hi || (int && !Number.isInteger(n))) throw invalidInput(field, `must be ${int ? 'a whole number' : 'a number'} from ${lo} to ${hi}`);
  return n;
};

export async function sizePost({ c, call }: PageRequest): Promise<PageContent> {
  const body = await c.req.parseBody();
  const file = body.file instanceof File && body.file.size > 0 ? body.file : null;
  const pasted = typeof body.content === 'string' ? body.content.trim() : '';
  const entry = typeof body.entry === 'string' ? body.entry.trim() : '';
  const opts = {
    safety_factor: num(body.safety_factor, 'safety_factor', 1, 10),
    samples: num(body.samples, 'samples', 0, 4096, true),
    pick: typeof body.pick === 'string' && ['lightest', 'cheapest', 'strongest'].includes(body.pick) ? body.pick : undefined,
  };
  let robot: Record<string, unknown>;
  let label: string;
  let archiveBytes: Uint8Array | undefined;
  if (file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const archive = ARCHIVE.test(file.name) || (bytes[0] === 0x50 && bytes[1] === 0x4b) || (bytes[0] === 0x1f && bytes[1] === 0x8b);
    if (archive) {
      if (!entry) throw invalidInput('entry', 'is required with a package archive: the path of the top file inside it, e.g. urdf/robot.urdf.xacro');
      // Unpacked in the worker pool with the tool's own REST upload rules, after the rate limit.
      robot = archiveUpload<Record<string, unknown>>().toInput({ entry: [entry] });
      archiveBytes = bytes;
    } else {
      // Decoded as lint and extract decode uploads: a declared encoding (ISO-8859-1 ...) is honoured;
      // UTF-16 (which ROS tools cannot read) and bytes that do not decode are refused, naming why.
      const decoded = decodeText(bytes);
      const bad = decoded.notes.find((n) => n.severity === 'error') ?? (decoded.replaced > 0 ? decoded.notes.find((n) => n.code === 'replacement_character') : undefined);
      if (bad) throw invalidInput('file', `is not readable text (URDF, xacro) nor a .zip / .tar.gz archive: ${bad.message}; ${bad.fix}`);
      robot = { content: decoded.text };
    }
    label = file.name;
  } else if (pasted) {
    robot = { content: pasted };
    label = 'pasted text';
  } else throw invalidInput('file', 'choose a URDF / xacro file or a package archive, or paste the URDF');
  const input = Object.fromEntries(Object.entries({ ...robot, ...opts }).filter(([, v]) => v !== undefined));
  const out = await call<SizeActuatorsOutput>('size_actuators', input, archiveBytes ? { archive: archiveBytes } : undefined);
  return { title: 'Actuator sizing', body: html`${INTRO}${result(out, label)}<h2>Size another robot</h2>${form({ entry, safety: String(out.method.safety_factor), pick: out.method.pick, samples: String(out.method.samples) })}` };
}

function fmt(n: number | null | undefined, unit = ''): string {
  if (n === null || n === undefined) return '';
  return `${Number(n.toPrecision(4))}${unit ? ` ${unit}` : ''}`;
}

function result(o: SizeActuatorsOutput, label: string): Html {
  const sized = o.joints.length - o.unsized.length;
  const lines = o.bom_items.map((b) => `${b.id} ${b.quantity}`).join('\n');
  return html`<section aria-labelledby="result"><h2 id="result">${o.robot_name ?? 'Robot'} (${label})</h2>
<p role="status"><strong>${sized} of ${o.joints.length} joint(s) sized</strong>, safety factor ${o.method.safety_factor}, ${o.method.given} given pose(s), the zero pose and ${o.method.samples} sampled pose(s); total mass ${fmt(o.total_mass_kg, 'kg')}.${o.unsized.length ? html` No catalogue part holds ${o.unsized.join(', ')}.` : ''}</p>
${chart(o)}
<div class="scroll"><table id="joints"><caption>Per joint: need and the part chosen for it (${o.method.pick} first)</caption>
<thead><tr><th scope="col">Joint</th><th scope="col">Required</th><th scope="col">× safety</th><th scope="col">Worst pose</th><th scope="col">Mass below (kg)</th><th scope="col">URDF effort</th><th scope="col">Chosen part</th><th scope="col">Rated</th><th scope="col">Margin</th><th scope="col">Candidates</th><th scope="col">Near misses</th></tr></thead>
<tbody>${o.joints.map((j) => {
    const unit = j.required_torque_nm !== null ? 'N·m' : 'N';
    const c = j.candidates[0];
    const rated = c ? (c.torque_rated_nm ?? c.force_rated_n) : null;
    return html`<tr><th scope="row">${j.joint_name}</th><td>${fmt(j.required_torque_nm ?? j.required_force_n, unit)}</td><td>${fmt(j.target, unit)}</td><td>${j.worst_pose.source}${j.worst_pose.index !== null ? ` ${j.worst_pose.index + 1}` : ''}</td><td>${fmt(j.subtree_mass_kg)}</td><td>${j.urdf_effort === null ? html`<span class="muted">not stated</span>` : fmt(j.urdf_effort)}</td><td>${c ? html`<a href="/parts/${encodeURIComponent(c.id)}">${c.id}</a> ${c.name}` : html`<span class="muted">none in the catalogue</span>`}</td><td>${fmt(rated, unit)}</td><td>${c && c.margin !== null ? `${c.margin}×` : ''}</td><td>${j.candidates_total}</td><td>${j.near_misses_total}</td></tr>`;
  })}</tbody></table></div>
${o.bom_items.length ? html`<h3>Parts for the BOM</h3><ul>${o.bom_items.map((b) => html`<li>${b.quantity} × <a href="/parts/${encodeURIComponent(b.id)}">${b.id}</a></li>`)}</ul>
<form action="/bom" method="post"><input type="hidden" name="lines" value="${lines}"><input type="hidden" name="action" value="check"><button type="submit">Check these parts on the BOM page</button></form>` : ''}
<details><summary>Method and what it leaves out</summary><p>${o.method.text}</p></details></section>`;
}

/** Horizontal bars per joint: required torque (dark) and the chosen part's rated torque (light, with a pattern-free outline), on one scale per unit. */
function chart(o: SizeActuatorsOutput): Html {
  const rows = o.joints.filter((j) => j.required_torque_nm !== null);
  if (rows.length === 0) return html``;
  const rated = (j: (typeof rows)[number]) => j.candidates[0]?.torque_rated_nm ?? null;
  const max = Math.max(...rows.map((j) => Math.max(j.required_torque_nm!, rated(j) ?? 0)), 1e-9);
  const rowH = 30;
  const left = 150;
  const width = 360;
  const h = rows.length * rowH + 30;
  const x = (v: number) => (v / max) * (width - left - 10);
  return html`<figure><svg viewBox="0 0 ${width} ${h}" width="100%" role="img" aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">Required torque and the chosen part's rated torque per joint, N·m (the table has the same values)</title>
${rows.map((j, i) => {
    const y = i * rowH + 4;
    const r = rated(j);
    return html`<g><text x="${left - 6}" y="${y + 14}" text-anchor="end" font-size="10" fill="#1a1a1a">${j.joint_name.length > 24 ? `${j.joint_name.slice(0, 23)}…` : j.joint_name}</text>
<rect x="${left}" y="${y}" width="${x(j.required_torque_nm!).toFixed(1)}" height="10" fill="#1f4e8c"><title>${j.joint_name}: required ${fmt(j.required_torque_nm, 'N·m')}</title></rect>
${r !== null ? html`<rect x="${left}" y="${y + 12}" width="${x(r).toFixed(1)}" height="10" fill="#9cc3e6" stroke="#1f4e8c" stroke-width="0.5"><title>${j.candidates[0]!.id}: rated ${fmt(r, 'N·m')}</title></rect>` : html`<text x="${left + 2}" y="${y + 21}" font-size="9" fill="#5a5a5a">no part</text>`}</g>`;
  })}
<g font-size="10" fill="#1a1a1a"><rect x="${left}" y="${h - 20}" width="10" height="10" fill="#1f4e8c"/><text x="${left + 14}" y="${h - 11}">required</text><rect x="${left + 80}" y="${h - 20}" width="10" height="10" fill="#9cc3e6" stroke="#1f4e8c" stroke-width="0.5"/><text x="${left + 94}" y="${h - 11}">chosen part, rated</text></g>
</svg><figcaption>Bars to scale; the longest is ${fmt(max, 'N·m')}.</figcaption></figure>`;
}
