/**
 * `/parts/{id}` (?with=<id> for a compatibility check): get_part (free fields, normalised specs
 * with their evidence, locked paid fields, TRL and momentum, where used), find_alternatives
 * (alternatives, and the same-product links of the part) and check_compatibility.
 */
import { html, HtmlPieces, htmlBytes, renderedOnce, type Html, type PageContent } from './html.js';
import { absent } from './html.js';
import { errorPage } from './error-page.js';
import type { CallTool, PageRequest } from './types.js';
import { DomainError } from '../../domain/shared/errors.js';
import { adapterMates } from '../../domain/compatibility/mechanical.js';
import type { FlangeRegistry } from '../../domain/knowledge/flange.js';
import { specValue } from './search.js';

type Spec = { field: string; unit: string | null; notation: string; level: string; value?: number; min?: number; max?: number; values?: string[]; rating?: string; qualifier?: string; source: string; evidence: string[] | null };

interface PartOut {
  entity: Record<string, unknown> & { id: string; name: string; category: string; declared: Record<string, string>; provenance?: Record<string, string[]>; source_urls: string[] };
  locked_fields: string[];
  quarantine_hint: string | null;
  used_in: { robots: { robot: string; sources: string[]; bom_lines: number; urdf_mentions: number }[]; matched_on: string[] } | null;
  specs: Spec[];
  unread_specs: { field: string; source: string; notation: string; reason: string }[];
  analytics: {
    trl: { trl: number | null; basis: string; status: string | null };
    momentum: { momentum: number | null; colour: string | null; reason: string; signals: { signal: string; measured: boolean; score: number | null; weight: number; effective_weight: number; contribution: number; note: string }[] };
  };
}

interface Alternatives {
  part: { same_as: { id: string; rule: string; evidence: string }[] };
  alternatives: { id: string; name: string; manufacturer: string | null; score: number; reasons: string[]; not_compared: string[] }[];
}

interface Compat {
  applicable: boolean;
  verdict: string | null;
  reason: string;
  dimensions: Record<string, { verdict: string; reason?: string; detail?: { ruling?: { pair?: [string, string] } | null } }> | null;
  warnings: string[];
}

const FREE_FIELDS = ['manufacturer', 'type', 'category', 'entity_kind', 'protocol', 'interface', 'voltage', 'weight', 'torque', 'ros_support', 'applications', 'price_range', 'standard', 'status', 'year', 'source_tier', 'source_robot', 'source_license', 'description'] as const;

function fieldValue(v: unknown): Html {
  if (Array.isArray(v)) return v.length ? html`${v.join(', ')}` : html`<span class="muted">none stated</span>`;
  if (typeof v === 'boolean') return html`${v ? 'yes' : 'no'}`;
  return absent(v);
}

const RULES: Record<string, string> = { duplicate_of: 'duplicate record', same_name: 'same name', brand_model: 'same model under another brand', version_mark: 'another version of the product' };

export async function partPage({ c, deps, call }: PageRequest): Promise<PageContent> {
  const id = c.req.param('id')!;
  let part: PartOut;
  try {
    part = await call<PartOut>('get_part', { id });
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'not_found') throw err;
    return missingPart(call, err, id);
  }
  const e = part.entity;
  const alts = await call<Alternatives>('find_alternatives', { id: e.id, limit: 5 }).catch(() => null);
  const withId = c.req.query('with')?.trim();
  let compat: Compat | null = null;
  let compatError: string | null = null;
  if (withId) {
    try {
      compat = await call<Compat>('check_compatibility', { a: e.id, b: withId });
    } catch (err) {
      compatError = (err as Error).message;
    }
  }
  // The HTML of each answer is made once per (frozen, remembered) answer; the form value and the compatibility check per request.
  const { head, tail } = renderedOnce(partOf, part, (p) => renderPart(p, deps.knowledge.flanges));
  return {
    title: `${e.id} ${e.name}`,
    current: '/search',
    status: compatError ? 400 : 200,
    scripts: PART_SCRIPTS,
    body: new HtmlPieces([
      head,
      alts ? alternativesOf(alts, e.id) : NO_ALTERNATIVES,
      tail,
      html`${withId ?? ''}" placeholder="e.g. ACT-018"></div><button type="submit">Check</button></form>
${compatError ? html`<div class="error" role="alert">${compatError}</div>` : ''}
${compat ? html`<p><strong>${compat.verdict ?? 'not applicable'}</strong>: ${compat.reason}</p>${compat.dimensions ? html`<dl class="kv">${Object.entries(compat.dimensions).map(([k, d]) => html`<dt>${k}</dt><dd>${d.verdict}${d.reason ? html`: ${d.reason}` : ''}${plateLink(d)}</dd>`)}</dl>` : ''}${compat.warnings.length ? html`<ul>${compat.warnings.map((w) => html`<li class="warning">${w}</li>`)}</ul>` : ''}` : ''}`.text,
    ]),
  };
}

/** A get_part answer's HTML: before the same-product section (`head`) and after it up to the value of the compatibility form's input (`tail`). */
const partOf = new WeakMap<PartOut, { head: Buffer; tail: Buffer }>();

function renderPart(part: PartOut, flanges: FlangeRegistry): { head: Buffer; tail: Buffer } {
  const e = part.entity;
  const { trl, momentum } = part.analytics;
  const head = html`<p class="muted"><a href="/search?category=${encodeURIComponent(e.category)}">${e.category}</a> › ${e.id}</p>
<h1>${e.name} <span class="muted">(${e.id})</span></h1>
<form class="add-bom" action="/bom" method="post"><input type="hidden" name="add" value="${e.id}"><button type="submit" name="action" value="add">Add to BOM</button></form>
${part.quarantine_hint ? html`<p class="error" role="note">Quarantined: ${part.quarantine_hint}</p>` : ''}
<h2>Normalised specs</h2>
${part.specs.length ? html`<div class="scroll" tabindex="0"><table id="specs"><caption class="visually-hidden">Normalised specs with evidence</caption><thead><tr><th scope="col">Field</th><th scope="col">Value (SI unit)</th><th scope="col">As written</th><th scope="col">Level</th><th scope="col">Evidence</th></tr></thead><tbody>${part.specs.map(
    (s) => html`<tr data-field="${s.field}"><th scope="row">${s.field}</th><td>${specValue(s)}${s.rating ? ` (${s.rating})` : ''}${s.qualifier ? ` (${s.qualifier})` : ''}</td><td>${s.notation}</td><td>${s.level}</td><td><code>${s.source}</code>${s.evidence ? html` from upstream <code>${s.evidence.join(', ')}</code>` : ''}</td></tr>`,
  )}</tbody></table></div><p class="muted">Level A/B compare across vendors, C within one vendor, D not at all.</p>` : html`<p>No spec of this record could be read into a normalised field.</p>`}
${part.unread_specs.length ? html`<h3>Declared but not read</h3><ul>${part.unread_specs.map((u) => html`<li><code>${u.source}</code> “${u.notation}”: ${u.reason}</li>`)}</ul>` : ''}
<h2>Declared values, verbatim</h2>
${Object.keys(e.declared).length ? html`<dl class="kv">${Object.entries(e.declared).map(([k, v]) => html`<dt>${k}</dt><dd>${v}${e.provenance?.[`declared.${k}`] ? html` <span class="muted">(upstream <code>${e.provenance[`declared.${k}`]!.join(', ')}</code>)</span>` : ''}</dd>`)}</dl>` : html`<p class="muted">None declared.</p>`}
<h2>Record</h2>
<dl class="kv">${FREE_FIELDS.map((f) => html`<dt>${f}</dt><dd>${fieldValue(e[f])}</dd>`)}
<dt>sources</dt><dd>${e.source_urls.length ? e.source_urls.map((u, i) => html`${i ? ', ' : ''}<a href="${u}" rel="noopener noreferrer">${u}</a>`) : html`<span class="muted">none stated</span>`}</dd>
<dt>paid fields (locked)</dt><dd>${part.locked_fields.length ? html`${part.locked_fields.join(', ')} <span class="muted">(hold data; list_parts with deep=true and an API key returns them)</span>` : html`<span class="muted">none hold data</span>`}</dd></dl>
<h2>Readiness and momentum</h2>
<dl class="kv"><dt>TRL</dt><dd>${trl.trl ?? html`<span class="muted">unknown</span>`}: ${trl.basis}</dd>
<dt>Momentum</dt><dd>${momentum.momentum ?? html`<span class="muted">unknown</span>`}${momentum.colour ? ` (${momentum.colour})` : ''}: ${momentum.reason}</dd></dl>
<div class="scroll" tabindex="0"><table><caption>Momentum signals</caption><thead><tr><th scope="col">Signal</th><th scope="col">Measured</th><th scope="col" class="num">Score</th><th scope="col" class="num">Weight used</th><th scope="col" class="num">Contribution</th><th scope="col">Note</th></tr></thead><tbody>${momentum.signals.map(
    (s) => html`<tr><th scope="row">${s.signal}</th><td>${s.measured ? 'yes' : 'no'}</td><td class="num">${s.score ?? '–'}</td><td class="num">${s.effective_weight}</td><td class="num">${s.contribution}</td><td>${s.note}</td></tr>`,
  )}</tbody></table></div>
<h2>Same product and other versions</h2>
`.text;
  const tail = html`
<h2>Used in open-source robots</h2>
${part.used_in ? html`<ul>${part.used_in.robots.map((r) => html`<li>${r.robot}: ${r.bom_lines} BOM line(s), ${r.urdf_mentions} URDF mention(s)</li>`)}</ul><p class="muted">Matched on ${part.used_in.matched_on.join(', ')}.</p>` : html`<p class="muted">No open-source robot of the layer names this part's model number.</p>`}
${flangeSection(part, flanges)}
<h2 id="compatibility">Compatibility with another part</h2>
<form class="inline" action="/parts/${encodeURIComponent(e.id)}#compatibility" method="get"><div><label for="with">Other part id</label><input id="with" name="with" type="text" value="`.text;
  return { head: htmlBytes(head), tail: htmlBytes(tail) };
}

/** A find_alternatives answer's HTML (same product, alternatives), for the part it was asked about. */
const alternativesFor = new WeakMap<Alternatives, { id: string; bytes: Buffer }>();

function alternativesOf(alts: Alternatives, id: string): Buffer {
  const kept = renderedOnce(alternativesFor, alts, (a) => ({ id, bytes: renderAlternatives(a, id) }));
  return kept.id === id ? kept.bytes : renderAlternatives(alts, id);
}

function renderAlternatives(alts: Alternatives | null, id: string): Buffer {
  return htmlBytes(
    html`${alts?.part.same_as.length ? html`<ul>${alts.part.same_as.map((l) => html`<li><a href="/parts/${encodeURIComponent(l.id)}">${l.id}</a>: ${RULES[l.rule] ?? l.rule}. <span class="muted">${l.evidence}</span></li>`)}</ul>` : html`<p class="muted">No other record is linked as the same product.</p>`}
<h2>Alternatives</h2>
${alts?.alternatives.length ? html`<ol>${alts.alternatives.map((a) => html`<li><a href="/parts/${encodeURIComponent(a.id)}">${a.id} ${a.name}</a> (score ${a.score})<br><span class="muted">${a.reasons.join('; ')}${a.not_compared.length ? `; not compared: ${a.not_compared.join(', ')}` : ''}</span></li>`)}</ol><p><a href="/compare?ids=${encodeURIComponent([id, ...alts.alternatives.slice(0, 3).map((a) => a.id)].join(','))}">Compare with the first three</a></p>` : html`<p class="muted">No alternative found.</p>`}`.text,
  );
}

const NO_ALTERNATIVES = renderAlternatives(null, '');

/**
 * The 404 page of a part id the catalogue does not hold: the ids it may have meant (get_part's
 * did_you_mean) with their names (one compare_parts call), and the parts whose name matches the
 * id's words (search_parts).
 */
async function missingPart(call: CallTool, err: DomainError, id: string): Promise<PageContent> {
  const did = Array.isArray(err.details.did_you_mean) ? (err.details.did_you_mean as string[]).slice(0, 10) : [];
  const names = new Map<string, string>();
  try {
    if (did.length >= 2) {
      const cmp = await call<{ parts: { id: string; name: string }[] }>('compare_parts', { ids: did });
      for (const p of cmp.parts) names.set(p.id, p.name);
    } else if (did.length === 1) {
      const one = await call<PartOut>('get_part', { id: did[0] });
      names.set(one.entity.id, one.entity.name);
    }
  } catch {
    // names are a help: the ids alone still link
  }
  const query = id.replace(/[-_.]+/g, ' ').trim().slice(0, 100);
  let byName: { id: string; name?: string }[] = [];
  if (query) {
    try {
      const found = await call<{ data: { id: string; name?: string }[] }>('search_parts', { q: query, limit: 5, fields: ['name'] });
      byName = found.data.filter((h) => !did.includes(h.id));
    } catch {
      byName = [];
    }
  }
  return errorPage(err, { names, byName, query });
}

const PART_SCRIPTS = ['/assets/bom-cart.js'];

/**
 * A part declaring a registered ISO 9409-1 flange: the plate page with that side chosen (the form
 * then asks for the other), and a plate link for each registered flange it mates only through one.
 */
function flangeSection(part: PartOut, flanges: FlangeRegistry): Html | '' {
  const mi = part.entity.mechanical_interface as { flange: string | null; flanges?: string[] } | undefined;
  const mates = mi ? adapterMates(flanges, mi) : [];
  if (mates.length === 0) return '';
  const own = mates[0]!.a;
  return html`<h2 id="flange">Mounting flange and adapter plates</h2>
<p>Declares ${own}${mi!.flanges && mi!.flanges.length > 1 ? html` <span class="muted">(also ${mi!.flanges.filter((f) => f !== own).join(', ')})</span>` : ''}. <a class="plate-link" href="/plates?a=${encodeURIComponent(own)}">Design an adapter plate from ${own}</a> <span class="muted">(choose the other flange there)</span>.</p>
<p>Registered flanges that need an adapter plate to mount on it:</p>
<ul class="plate-mates">${mates.map((m) => html`<li><a class="plate-link" href="/plates?a=${encodeURIComponent(m.a)}&amp;b=${encodeURIComponent(m.b)}">${m.a} to ${m.b}</a></li>`)}</ul>`;
}

/** The adapter plate page of an adapter_required flange ruling. */
export function plateLink(d: { verdict: string; detail?: { ruling?: { pair?: [string, string] } | null } }): Html | '' {
  const pair = d.verdict === 'adapter_required' ? d.detail?.ruling?.pair : undefined;
  return pair ? html` <a class="plate-link" href="/plates?a=${encodeURIComponent(pair[0])}&amp;b=${encodeURIComponent(pair[1])}">Adapter plate ${pair[0]} to ${pair[1]}</a>` : '';
}
