/**
 * `/robots` and `/robots/{id}`: the robots of the open-source layer (the oss-layer dataset, as
 * GET /api/oss_components.json serves it): sources and licences, the joint tree, actuated DOF as
 * the extractor counted it with the mimic joints, BOM lines with quantities and prices as
 * written, and a 3D view drawn in the browser from `/robots/{id}/kinematics.urdf`: a URDF
 * written from the kinematic structure the import read (joint frames, axes, limits, primitive
 * geometry; meshes are not shipped).
 */
import { robotSlug } from '../../domain/shared/page-urls.js';
import type { Deps } from '../../deps.js';
import { DomainError } from '../../domain/shared/errors.js';
import type { OssDocument, OssSource } from '../../ingest/oss/layer.js';
import type { Primitive, UrdfKinematics } from '../../ingest/oss/kinematics.js';
import { ossLayerDataset } from '../../resources/oss-layer.js';
import { robotsUsingEntity } from '../../domain/oss/where-used.js';
import { esc, html, type Html, type PageContent } from './html.js';
import type { PageRequest } from './types.js';

type Rec = OssDocument['data'][number];

interface Robot {
  id: string;
  name: string;
  sources: OssSource[];
  records: Rec[];
}

const slug = robotSlug;

/** The layer grouped by robot, read once per process (the dataset file does not change while it runs). */
const robotsByDeps = new WeakMap<object, Promise<Map<string, Robot>>>();
/** What the caches below are kept for: the live layer's document (a refresh replaces it), else the deps (the shipped file). */
const layerKey = (deps: Deps): object => deps.liveOssDocument() ?? deps;
function robots(deps: Deps): Promise<Map<string, Robot>> {
  const key = layerKey(deps);
  let p = robotsByDeps.get(key);
  if (!p) {
    p = ossLayerDataset.build(deps).then((raw) => {
      const doc = raw as unknown as OssDocument;
      const out = new Map<string, Robot>();
      for (const s of doc.meta.sources) {
        const id = slug(s.robot);
        const r = out.get(id) ?? { id, name: s.robot, sources: [], records: [] };
        r.sources.push(s);
        out.set(id, r);
      }
      const bySource = new Map(doc.meta.sources.map((s) => [s.id, slug(s.robot)]));
      for (const rec of doc.data) out.get(bySource.get(rec.source_id) ?? '')?.records.push(rec);
      return out;
    });
    p.catch(() => robotsByDeps.delete(key)); // an unreadable dataset is asked again next time
    robotsByDeps.set(key, p);
  }
  return p;
}

/**
 * Catalogue parts each robot uses: the inverse of get_part's used_in (robotsUsingEntity, the same
 * model-number match), over the non-quarantined catalogue, once per process.
 */
type Matched = { id: string; name: string; bom_lines: number; urdf_mentions: number; matched_on: string[] };
const matchesByDeps = new WeakMap<object, Promise<Map<string, Matched[]>>>();
function catalogueMatches(deps: Deps): Promise<Map<string, Matched[]>> {
  const key = layerKey(deps);
  let p = matchesByDeps.get(key);
  if (!p) {
    p = deps.catalogue.list({ includeQuarantine: false, offset: 0, limit: Number.MAX_SAFE_INTEGER }).then(({ items }) => {
      const out = new Map<string, Matched[]>();
      for (const e of items) {
        const used = robotsUsingEntity(deps.ossLayer, e);
        for (const r of used?.robots ?? []) out.set(r.robot, [...(out.get(r.robot) ?? []), { id: e.id, name: e.name, bom_lines: r.bom_lines, urdf_mentions: r.urdf_mentions, matched_on: used!.matched_on }]);
      }
      return out;
    });
    p.catch(() => matchesByDeps.delete(key));
    matchesByDeps.set(key, p);
  }
  return p;
}

async function robotOf(deps: Deps, id: string): Promise<Robot> {
  const all = await robots(deps);
  const r = all.get(id);
  if (!r) throw new DomainError('not_found', `No robot ${JSON.stringify(id)} in the open-source layer; see /robots`, { field: 'id', did_you_mean: [] });
  return r;
}

const urdfSource = (r: Robot) => r.sources.find((s) => s.kinematics);

interface WhereUsed {
  robots: { robot: string; bom_lines: { record_id: string; line: number | null; item: string; quantity: number | null; source_url: string }[]; urdf_mentions: unknown[] }[];
}

export async function robotsPage({ c, deps, call }: PageRequest): Promise<PageContent> {
  const all = [...(await robots(deps)).values()];
  const q = c.req.query('q')?.trim();
  // ?q=: the robots whose BOM lines name it (find_where_used), as a search's `elsewhere` pointer links here.
  const used = q ? await call<WhereUsed>('find_where_used', { q }) : null;
  return {
    title: q ? `Open-source robots naming ${q}` : 'Open-source robots',
    current: '/robots',
    body: html`<h1>Open-source robots</h1>
${used ? html`<section id="where-used" aria-labelledby="where-used-h"><h2 id="where-used-h">Robots whose files name “${q}”</h2>${used.robots.length ? html`<ul>${used.robots.map(
      (r) => html`<li><a href="/robots/${slug(r.robot)}">${r.robot}</a>: ${r.bom_lines.length} BOM line(s), ${r.urdf_mentions.length} URDF mention(s)<ul>${r.bom_lines.slice(0, 50).map((b) => html`<li>${b.item}${b.quantity !== null ? ` × ${b.quantity}` : ''} <span class="muted">(<a href="${b.source_url}" rel="noopener noreferrer">line ${b.line ?? '?'}</a>)</span></li>`)}</ul></li>`,
    )}</ul>` : html`<p>No open-source robot of the layer names it.</p>`}</section>` : ''}
<p>Robots whose URDF or bill of materials this project reads from their public repositories, at a pinned commit. Values are shown as written there.</p>
<div class="scroll" tabindex="0"><table><caption class="visually-hidden">Robots</caption><thead><tr><th scope="col">Robot</th><th scope="col">Type</th><th scope="col" class="num">Actuated DOF</th><th scope="col">Sources</th><th scope="col">Licence</th></tr></thead><tbody>${all.map(
      (r) => html`<tr><td><a href="/robots/${r.id}">${r.name}</a></td><td>${r.sources[0]?.type ?? html`<span class="muted">not stated</span>`}</td><td class="num">${urdfSource(r)?.dof ?? html`<span class="muted">no URDF</span>`}</td><td>${r.sources.map((s) => s.extractor).join(', ')}</td><td>${[...new Set(r.sources.map((s) => s.license))].join(', ')}</td></tr>`,
    )}</tbody></table></div>`,
  };
}

function jointTree(joints: Rec[]): Html {
  const ex = (r: Rec) => r.extracted as { parent_link?: string | null; child_link?: string | null; joint_type?: string; axis?: string | null; limits?: Record<string, string>; mimic?: { joint: string | null } | null; actuated?: boolean };
  const byParent = new Map<string, Rec[]>();
  const children = new Set<string>();
  for (const j of joints) {
    const p = ex(j).parent_link ?? '';
    byParent.set(p, [...(byParent.get(p) ?? []), j]);
    if (ex(j).child_link) children.add(ex(j).child_link!);
  }
  const roots = [...byParent.keys()].filter((p) => !children.has(p));
  const seen = new Set<string>();
  const node = (link: string, depth: number): Html => {
    if (seen.has(link) || depth > 64) return html``;
    seen.add(link);
    const js = byParent.get(link) ?? [];
    return html`<li><code>${link || '(no parent)'}</code>${js.length ? html`<ul>${js.map((j) => {
      const x = ex(j);
      return html`<li>joint <strong>${j.joint_name ?? ''}</strong> (${x.joint_type}${x.actuated ? ', actuated' : ''}${x.mimic ? `, mimics ${x.mimic.joint ?? '?'}` : ''}${x.axis ? `, axis ${x.axis}` : ''}${x.limits?.lower !== undefined ? `, ${x.limits.lower} to ${x.limits.upper}` : ''}) →<ul>${node(x.child_link ?? '', depth + 1)}</ul></li>`;
    })}</ul>` : ''}</li>`;
  };
  // Deep trees scroll inside their own box (each level indented a little), so names keep their width on a phone.
  return html`<div class="tree" id="joint-tree" tabindex="0" role="region" aria-label="Joint tree"><ul>${roots.map((r) => node(r, 0))}</ul></div>`;
}

function price(p: { as_written: string; currency: string | null; currency_label: string | null } | undefined): Html {
  if (!p) return html`<span class="muted">not stated</span>`;
  return html`${p.as_written}${p.currency ? ` ${p.currency}` : p.currency_label ? html` <span class="muted">(${p.currency_label}, currency not determined)</span>` : ''}`;
}

export async function robotPage({ c, deps }: PageRequest): Promise<PageContent> {
  const r = await robotOf(deps, c.req.param('id')!);
  const urdf = urdfSource(r);
  const joints = r.records.filter((x) => x.category === 'urdf_joints');
  const bom = r.records.filter((x) => x.category === 'bom_items');
  type Line = { section?: string | null; item?: string; quantity?: number | null; quantity_as_written?: string | null; unit_prices?: { as_written: string; currency: string | null; currency_label: string | null }[]; line_totals?: { as_written: string; currency: string | null; currency_label: string | null }[]; part_number?: string | null; manufacturer_part?: string | null };
  const detail = urdf?.dof_detail;
  const matched = (await catalogueMatches(deps)).get(r.name) ?? [];
  return {
    title: r.name,
    current: '/robots',
    scripts: urdf ? ['/assets/robot-view.js'] : [],
    body: html`<p class="muted"><a href="/robots">Robots</a> › ${r.name}</p><h1>${r.name}</h1>
<h2>Sources</h2><ul>${r.sources.map(
      (s) => html`<li><a href="${s.url}" rel="noopener noreferrer">${s.name}</a>: ${s.extractor}, licence ${s.license}${s.license_note ? ` (${s.license_note})` : ''}, commit <code>${s.commit.slice(0, 7)}</code>, ${s.records} records${s.skipped ? `, ${s.skipped} skipped` : ''}</li>`,
    )}</ul>
${urdf && detail ? html`<h2>Degrees of freedom</h2>
<p id="dof"><strong>${detail.actuated_dof}</strong> actuated DOF</p>
<p class="muted">${detail.convention}</p>
${detail.mimic.length ? html`<p>Mimic joints (not actuators):</p><ul>${detail.mimic.map((m) => html`<li>${m.joint} follows ${m.follows ?? '?'}${m.multiplier ? `, multiplier ${m.multiplier}` : ''}${m.offset ? `, offset ${m.offset}` : ''}</li>`)}</ul>` : html`<p>No mimic joints.</p>`}
<h2>3D view of the kinematic structure</h2>
<canvas id="robot-canvas" data-urdf="/robots/${r.id}/kinematics.urdf" role="img" aria-label="3D view of the ${r.name} kinematic structure: joints as a skeleton and primitive shapes; drag to rotate, scroll to zoom" tabindex="0"></canvas>
<p id="robot-status" role="status" class="muted">The 3D view needs JavaScript and WebGL; the joint tree below has the same structure as text.</p>
<p class="muted">Drawn from the URDF's joint frames and its primitive geometry (${urdf.kinematics!.links.reduce((n, l) => n + l.primitives.length, 0)} box, cylinder and sphere shapes); the meshes it references are not shipped. <a href="/robots/${r.id}/kinematics.urdf">The URDF drawn</a>.</p>
<h2>Joint tree</h2><p>${Object.entries(urdf.joints_by_type ?? {}).map(([t, n]) => `${n} ${t}`).join(', ')}</p>${jointTree(joints)}` : html`<p>No URDF of this robot is in the layer: no joint tree or 3D view.</p>`}
${bom.length ? html`<h2>Bill of materials</h2><div class="scroll" tabindex="0"><table id="bom-lines" data-live-filter><caption class="visually-hidden">BOM lines as written</caption><thead><tr><th scope="col">Item</th><th scope="col">Section</th><th scope="col" class="num">Quantity</th><th scope="col">Unit price</th><th scope="col">Line total</th><th scope="col">Record</th></tr></thead><tbody>${bom.map((b) => {
      const l = b.extracted as Line;
      return html`<tr><td>${l.item ?? b.name}${l.manufacturer_part ? html`<br><span class="muted">${l.manufacturer_part}</span>` : ''}</td><td>${l.section ?? ''}</td><td class="num">${l.quantity ?? html`<span class="muted">${l.quantity_as_written ?? 'not stated'}</span>`}</td><td>${price(l.unit_prices?.[0])}</td><td>${price(l.line_totals?.[0])}</td><td><a href="/parts/${encodeURIComponent(b.id)}">${b.id}</a></td></tr>`;
    })}</tbody></table></div><p class="muted">Prices are never converted between currencies.</p>` : ''}
<h2>Catalogue parts matched</h2>
${matched.length ? html`<ul>${matched.map((m) => html`<li><a href="/parts/${encodeURIComponent(m.id)}">${m.id} ${m.name}</a>: ${m.bom_lines} BOM line(s), ${m.urdf_mentions} URDF mention(s), matched on ${m.matched_on.join(', ')}</li>`)}</ul>` : html`<p class="muted">No catalogue part's model number appears in this robot's files.</p>`}`,
  };
}

const f = (v: string | null | undefined, d = '0 0 0') => esc(v ?? d);

function origin(o: { xyz: string | null; rpy: string | null } | null): string {
  return o ? `<origin xyz="${f(o.xyz)}" rpy="${f(o.rpy)}"/>` : '';
}

function geometry(p: Primitive): string {
  if (p.shape === 'box') return `<box size="${f(p.size, '0 0 0')}"/>`;
  if (p.shape === 'sphere') return `<sphere radius="${f(p.radius, '0')}"/>`;
  return `<cylinder radius="${f(p.radius, '0')}" length="${f(p.length, '0')}"/>`;
}

/** A URDF with the robot's structure as the import read it: links with primitive geometry, joints with frames, axes and limits. */
export function kinematicsUrdf(name: string, k: UrdfKinematics): string {
  const links = k.links.map((l) => `  <link name="${esc(l.name)}">${l.primitives.map((p) => `<${p.element}>${origin(p.origin)}<geometry>${geometry(p)}</geometry></${p.element}>`).join('')}</link>`);
  const joints = k.joints
    .filter((j) => j.parent && j.child)
    .map(
      (j) =>
        `  <joint name="${esc(j.name)}" type="${esc(j.type)}">${origin(j.origin)}<parent link="${esc(j.parent!)}"/><child link="${esc(j.child!)}"/>${j.axis ? `<axis xyz="${esc(j.axis)}"/>` : ''}` +
        `${j.lower !== null || j.upper !== null ? `<limit lower="${f(j.lower, '0')}" upper="${f(j.upper, '0')}" effort="0" velocity="0"/>` : ''}${j.mimic ? `<mimic joint="${esc(j.mimic)}"/>` : ''}</joint>`,
    );
  return `<?xml version="1.0"?>\n<!-- Kinematic structure of ${esc(name)} as read by robot-parts-mcp (frames, axes, limits, primitive geometry); meshes not included. -->\n<robot name="${esc(name)}">\n${[...links, ...joints].join('\n')}\n</robot>\n`;
}

export async function robotUrdf({ c, deps }: PageRequest): Promise<string> {
  const r = await robotOf(deps, c.req.param('id')!);
  const s = urdfSource(r);
  if (!s?.kinematics) throw new DomainError('not_found', `${r.name} has no URDF in the open-source layer`, { field: 'id' });
  return kinematicsUrdf(s.robot_name ?? r.name, s.kinematics);
}
