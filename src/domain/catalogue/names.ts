/**
 * Name resolution, one layer for search_parts, get_part's did-you-mean, find_where_used and
 * find_alternatives: a name given as a whole ("宇树", "CubeMars", "Feetech") is read through
 * data/manufacturers.json to its company, with every other form the company is written as
 * (canonical name, aliases, brands) and the product families it sells under (DYNAMIXEL, STS),
 * each with its evidence. A name the table does not hold resolves to nothing: no alias is guessed.
 *
 * For a query that finds nothing, `elsewhere` says where else the name occurs and the call that
 * shows it: quarantined records, the company's other names, the open-source layer's BOM lines and
 * URDF parts, and close spellings of the catalogue's words.
 */
import { levenshteinWithin } from '../shared/distance.js';
import { foldName, type ManufacturerEvidence, type ManufacturerTable } from '../specs/manufacturers.js';
import { textMatcher, tokensOf, wholeMatcher, type Matcher } from '../oss/where-used.js';

export type NameRelation = 'canonical' | 'alias' | 'brand' | 'family' | 'model';

export interface NameForm {
  name: string;
  relation: NameRelation;
  evidence: ManufacturerEvidence | null;
  /** A model form: the maker's own code of the model it writes ("J4340P-2EC"); it matches as whole tokens only. */
  model?: string;
}

export interface NameReading {
  /** The company the name resolves to (canonical name). */
  company: string;
  /** How the name given relates to it. */
  via: NameForm;
  /** Every form of the company, the one given included (families last). */
  forms: NameForm[];
}

const readers = new WeakMap<ManufacturerTable, Map<string, NameReading>>();

function byFold(table: ManufacturerTable): Map<string, NameReading> {
  let m = readers.get(table);
  if (m) return m;
  m = new Map();
  for (const c of table.file.companies) {
    const forms: NameForm[] = [
      { name: c.canonical, relation: 'canonical', evidence: null },
      ...c.aliases.map((a) => ({ name: a.name, relation: 'alias' as const, evidence: a.evidence })),
      ...c.brands.map((b) => ({ name: b.name, relation: 'brand' as const, evidence: b.evidence })),
      ...c.families.map((f) => ({ name: f.name, relation: 'family' as const, evidence: f.evidence })),
    ];
    const models = (c.models ?? []).map((x) => ({ code: x.code, forms: [...new Set([x.code, ...x.forms])].map((name): NameForm => ({ name, relation: 'model', evidence: x.evidence, model: x.code })) }));
    // The company's name reaches every model's lines; a model's form reaches that model's lines only.
    const all = [...forms, ...models.flatMap((x) => x.forms)];
    for (const f of forms) {
      const k = foldName(f.name);
      if (k !== '' && !m.has(k)) m.set(k, { company: c.canonical, via: f, forms: all });
    }
    for (const x of models) {
      for (const f of x.forms) {
        const k = foldName(f.name);
        if (k !== '' && !m.has(k)) m.set(k, { company: c.canonical, via: f, forms: x.forms });
      }
    }
  }
  readers.set(table, m);
  return m;
}

/** The company a text names as a whole (case, width, spaces and punctuation folded), or null. */
export function readName(table: ManufacturerTable, text: string): NameReading | null {
  return byFold(table).get(foldName(text)) ?? null;
}

/** Where else a name occurs, and the call that shows it. */
export interface Elsewhere {
  where: 'quarantined' | 'other_name' | 'open_source_layer' | 'catalogue' | 'close_spelling';
  count: number;
  call: { tool: string; arguments: Record<string, unknown> };
  note: string;
}

/** Close spellings of `term` among `words` (edit distance 1 for words up to 5 characters, else 2), nearest first, at most `max`. */
export function closeSpellings(term: string, words: Iterable<string>, max = 3): string[] {
  if ([...term].length < 4) return [];
  const limit = term.length <= 5 ? 1 : 2;
  const tm = letterMask(term);
  const found: { w: string; d: number }[] = [];
  const consider = (w: string) => {
    const d = levenshteinWithin(term, w, limit);
    if (d <= limit) found.push({ w, d });
  };
  if (Array.isArray(words)) {
    // Only words within `limit` of the term's length, each first tested on its letters alone
    // (typed arrays: a word's text is read only when its letters could be close).
    const list = words as readonly string[];
    const { masks, byLength } = vocabulary(list);
    for (let len = Math.max(1, term.length - limit); len <= term.length + limit; len++) {
      for (const i of byLength[len] ?? []) {
        // Each edit takes at most one letter out of a word's set of letters and puts at most one in:
        // a word missing more than `limit` of the term's letters (or the other way) is not close.
        if (bitCount(tm & ~masks[i]!) > limit || bitCount(masks[i]! & ~tm) > limit) continue;
        const w = list[i]!;
        if (w !== term) consider(w);
      }
    }
  } else {
    for (const w of words) if (w !== term && Math.abs(w.length - term.length) <= limit) consider(w);
  }
  found.sort((a, b) => a.d - b.d || (a.w < b.w ? -1 : a.w > b.w ? 1 : 0));
  return found.slice(0, max).map((x) => x.w);
}

/** The letters a word holds, as bits: a-z one each, any other character on one of 6 shared bits. */
function letterMask(w: string): number {
  let m = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    m |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return m;
}

/** A word list's letterMasks and its words' positions by length (UTF-16 units): once per (immutable) list, the index's sorted vocabulary. */
interface Vocabulary {
  masks: Int32Array;
  byLength: Int32Array[];
}

const vocabularies = new WeakMap<readonly string[], Vocabulary>();

function vocabulary(words: readonly string[]): Vocabulary {
  let v = vocabularies.get(words);
  if (v === undefined) {
    const masks = Int32Array.from(words, letterMask);
    const positions: number[][] = [];
    words.forEach((w, i) => (positions[w.length] ??= []).push(i));
    v = { masks, byLength: Array.from(positions, (p) => Int32Array.from(p ?? [])) };
    if (Object.isFrozen(words)) vocabularies.set(words, v);
  }
  return v;
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A short note on how a form names the company, with its evidence. */
export function formNote(r: NameReading, f: NameForm): string {
  const what =
    f.relation === 'canonical'
      ? `the name of ${r.company}`
      : f.relation === 'family'
        ? `a product family of ${r.company}`
        : f.relation === 'model'
          ? `how ${r.company}'s model ${f.model} is written`
          : `${f.relation === 'alias' ? 'another name' : 'a brand'} of ${r.company}`;
  const ev = f.evidence ? `: ${evidenceText(f.evidence)}` : '';
  return `"${f.name}" is ${what}${ev} (data/manufacturers.json)`;
}

/** An evidence's note with the record it cites or the public pages it names. */
export function evidenceText(e: ManufacturerEvidence): string {
  const where = [...(e.id ? [e.id] : []), ...(e.source_urls ?? [])];
  return `${e.note}${where.length ? ` (${where.join(', ')})` : ''}`;
}

/**
 * What a where-used answer says of the other forms a name query matched: one clause per form, and
 * one per model (its forms together), each with its evidence.
 */
export function formsNote(r: NameReading, forms: readonly NameForm[]): string {
  const parts: string[] = [];
  const models = new Map<string, NameForm[]>();
  for (const f of forms) {
    if (f.relation !== 'model') parts.push(formNote(r, f));
    else models.set(f.model!, [...(models.get(f.model!) ?? []), f]);
  }
  for (const [code, fs] of models) {
    parts.push(`${r.company} model ${code}, written ${fs.map((f) => `"${f.name}"`).join(', ')} (whole words only): ${evidenceText(fs[0]!.evidence!)} (data/manufacturers.json)`);
  }
  return parts.join('; ');
}

/**
 * The where-used matcher of a free-text query: the query itself, and when it names a company as a
 * whole, any of the company's other names and product families too ("Feetech" reaches "STS3215").
 * The query's own terms and model codes are the ones reported.
 */
export function nameMatcher(table: ManufacturerTable, q: string): { matcher: Matcher; named: NameReading | null; forms: NameForm[] } {
  const named = readName(table, q);
  // A known model's form is matched as whole tokens, the query too ("DM 4340" is not "DM 4340P").
  const first = named?.via.relation === 'model' ? wholeMatcher(q) : textMatcher(q);
  const forms = named ? named.forms.filter((f) => f !== named.via && tokensOf(f.name).length > 0) : [];
  if (forms.length === 0) return { matcher: first, named, forms };
  const all = [first, ...forms.map((f) => (f.relation === 'model' ? wholeMatcher(f.name) : textMatcher(f.name)))];
  const matcher: Matcher = {
    terms: first.terms,
    model_codes: first.model_codes,
    // A match is one of the forms' matches: it holds one of their groups of needles (when each has some).
    needles: all.every((m) => m.needles !== undefined) ? all.flatMap((m) => m.needles!) : undefined,
    match(hay) {
      let fields: Set<string> | null = null;
      for (const m of all) {
        const f = m.match(hay);
        if (!f) continue;
        fields ??= new Set();
        for (const x of f) fields.add(x);
      }
      return fields ? [...fields] : null;
    },
  };
  return { matcher, named, forms };
}
