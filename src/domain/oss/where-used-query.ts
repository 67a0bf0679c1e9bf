/** find_where_used: the query side (id lookup through the catalogue), over where-used.ts. */
import { invalidInput } from '../shared/errors.js';
import { findPart, type PartsContext } from '../catalogue/parts.js';
import { entityMatcher, modelCodes, whereUsed, type WhereUsedLayer, type WhereUsedResult } from './where-used.js';
import { evidenceText, formsNote, nameMatcher, type Elsewhere } from '../catalogue/names.js';
import { layerCount, whereUsedElsewhere } from '../catalogue/elsewhere.js';
import { withRobotPages } from '../shared/page-urls.js';

type WhereUsedAnswer = WhereUsedResult & { entity: { id: string; name: string; manufacturer: string | null; oss: boolean } | null; elsewhere?: Elsewhere[] };

/** find_where_used: exactly one of q (name or model number) and id (catalogue or layer id); each robot with its page_url when the base URL is known. */
export async function findWhereUsed(parts: PartsContext, layer: WhereUsedLayer, input: { q?: string; id?: string }): Promise<WhereUsedAnswer> {
  const r = await whereUsedOf(parts, layer, input);
  const base = parts.baseUrl;
  if (base === null || r.robots.length === 0) return r;
  return { ...r, robots: withRobotPages(base, r.robots) };
}

async function whereUsedOf(parts: PartsContext, layer: WhereUsedLayer, input: { q?: string; id?: string }): Promise<WhereUsedAnswer> {
  const q = input.q?.trim() ?? '';
  const id = input.id?.trim() ?? '';
  if (q !== '' && id !== '') throw invalidInput('q', 'give either q (a part name or model number) or id (a part id), not both');
  if (q === '' && id === '') throw invalidInput('q', 'is required unless id is given: a part name or model number, e.g. "STS3215" or "DM 4340P"');
  if (q !== '') {
    const { matcher, named, forms } = nameMatcher(parts.specs.manufacturers, q);
    if (matcher.terms.length === 0) throw invalidInput('q', 'has no letters or digits to match');
    const r = whereUsed(layer, matcher, { q });
    if (named && forms.length) r.notes.unshift(`"${q}" names ${named.company}${named.via.evidence ? ` (${evidenceText(named.via.evidence)})` : ''}: lines naming ${forms.filter((f) => f.relation !== 'model').map((f) => `"${f.name}"`).join(', ') || 'its models'}${forms.some((f) => f.relation === 'model') && forms.some((f) => f.relation !== 'model') ? ' or its models' : ''} match too. ${formsNote(named, forms)}`);
    const out: WhereUsedResult & { entity: null; elsewhere?: Elsewhere[] } = { ...r, entity: null };
    if (r.counts.bom_lines + r.counts.urdf_mentions === 0) out.elsewhere = whereUsedElsewhere(parts, q);
    return out;
  }
  const e = await findPart(parts, id);
  const name = e.name_en && modelCodes(e.name_en).length > 0 ? e.name_en : e.name;
  const codes = modelCodes(name);
  const entity = { id: e.id, name, manufacturer: e.manufacturer, oss: e.oss === true };
  if (codes.length === 0) {
    const empty = whereUsed({ ...layer, bom: [], urdf: [] }, entityMatcher(name));
    const out: WhereUsedResult & { entity: typeof entity; elsewhere?: Elsewhere[] } = {
      ...empty,
      entity,
      notes: [`"${name}" holds no model number (letters and digits, 4 or more characters): where-used links a part id by model number only; try q with a name.`],
    };
    // Lines whose text names it all the same: counted and pointed to, never linked to the id.
    const byName = layerCount({ ...parts, layer }, name);
    if (byName.lines > 0) {
      out.elsewhere = [
        { where: 'open_source_layer', count: byName.lines, call: { tool: 'find_where_used', arguments: { q: name } }, note: `BOM lines and URDF parts of ${byName.robots} open-source robot(s) match the name as text; with no model number to match, check that each is this part` },
      ];
    }
    return out;
  }
  // A layer record (OSS-LIVE-...) is a BOM line of some robot: its manufacturer is what its own row says, so no filter.
  return { ...whereUsed(layer, entityMatcher(name), { manufacturer: e.oss ? null : e.manufacturer }), entity };
}
