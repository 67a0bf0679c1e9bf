/**
 * Where-used: which robots of the open-source layer use a part, how many, at what stated price.
 * Pure: the layer's BOM lines and URDF mentions come in as plain data (WhereUsedLayer).
 *
 * Matching is literal on names and model numbers: text is folded (NFKC, upper case) and split
 * into letter/digit tokens; a query matches when its compacted form ("DM 4340P" -> DM4340P)
 * starts a run of adjacent tokens of the line and ends on a token or letter/digit boundary
 * ("XL430" matches "XL430-W250", never "XL4300"), or when each query token matches so.
 * Fields searched: BOM item (as written), part numbers, manufacturer column, link labels and link
 * URLs (host and path); URDF mesh file and material names.
 *
 * Manufacturer: named only with evidence: the row's own manufacturer column, a known
 * manufacturer name (catalogue manufacturer names) written in the row's item text, or a vendor
 * link whose host is that name (robotis.us -> ROBOTIS). Marketplace hosts are never evidence.
 * "DM" alone names no one.
 */

export interface PriceLike {
  column: string;
  as_written: string;
  currency: string | null;
  amount: string | null;
  symbol: string | null;
  product_of: { amount: string; factor: string } | null;
  basis_evidence: string | null;
}

export interface LayerBomLine {
  record_id: string;
  source_id: string;
  robot: string;
  source_url: string;
  license: string;
  line: number;
  section: string | null;
  item: string;
  item_as_written: string | null;
  part_number: string | null;
  manufacturer: string | null;
  manufacturer_part: string | null;
  supplier_part: string | null;
  quantity: number | null;
  quantity_as_written: string | null;
  quantity_source: 'column' | 'item_prefix' | null;
  unit_prices: PriceLike[];
  line_totals: PriceLike[];
  links: { label: string | null; url: string }[];
}

export interface LayerUrdfSource {
  source_id: string;
  robot: string;
  source_url: string;
  license: string;
  mentions: { kind: 'mesh' | 'material'; name: string; links: string[] }[];
}

export interface KnownManufacturer {
  /** A written form (canonical name, alias or brand). */
  name: string;
  /** The company it names. */
  canonical: string;
  /** Where the form comes from (e.g. "catalogue manufacturer of ACT-001"). */
  source: string;
}

export interface WhereUsedLayer {
  bom: readonly LayerBomLine[];
  urdf: readonly LayerUrdfSource[];
  manufacturers: readonly KnownManufacturer[];
}

export interface ManufacturerEvidence {
  name: string;
  evidence: string;
}

export interface WhereUsedBomHit {
  record_id: string;
  source_id: string;
  source_url: string;
  license: string;
  line: number;
  section: string | null;
  item: string;
  item_as_written: string | null;
  quantity: number | null;
  quantity_as_written: string | null;
  quantity_source: 'column' | 'item_prefix' | null;
  unit_prices: PriceLike[];
  line_totals: PriceLike[];
  matched_fields: string[];
  manufacturer: ManufacturerEvidence | null;
}

export interface WhereUsedUrdfHit {
  source_id: string;
  source_url: string;
  license: string;
  kind: 'mesh' | 'material';
  name: string;
  links: string[];
}

export interface WhereUsedRobot {
  robot: string;
  /** The robot's HTML page (find_where_used, when the base URL is known). */
  page_url?: string;
  sources: string[];
  bom_lines: WhereUsedBomHit[];
  urdf_mentions: WhereUsedUrdfHit[];
}

export interface WhereUsedResult {
  query: { q: string | null; terms: string[]; model_codes: string[] };
  robots: WhereUsedRobot[];
  counts: { robots: number; bom_lines: number; urdf_mentions: number };
  manufacturers: { name: string; evidence: string[] }[];
  notes: string[];
}

const fold = (s: string) => s.normalize('NFKC').toUpperCase();
export const tokensOf = (s: string): string[] => fold(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const isDigit = (c: string) => c >= '0' && c <= '9';

/**
 * Whether `needle` (compacted, upper case) starts a run of adjacent tokens and ends on a token or
 * letter/digit boundary; `whole`: on a token's end only ("DM4340" is not in "DM 4340P").
 */
export function runMatch(tokens: readonly string[], needle: string, whole = false): boolean {
  if (needle === '') return false;
  for (let i = 0; i < tokens.length; i++) {
    let s = '';
    for (let j = i; j < tokens.length && s.length < needle.length; j++) {
      const before = s.length;
      s += tokens[j];
      if (!s.startsWith(needle.slice(0, Math.min(s.length, needle.length))) || !needle.startsWith(s.slice(0, Math.min(s.length, needle.length)))) break;
      if (s.length >= needle.length) {
        const end = needle.length - before; // position inside tokens[j] where the needle ends
        const t = tokens[j];
        if (end === t.length || (!whole && isDigit(t[end - 1]) !== isDigit(t[end]))) return true;
        break;
      }
    }
  }
  return false;
}

/** Model codes in a name: letter+digit tokens, hyphenated parts joined ("XM430-W350-T" -> XM430W350T). */
export function modelCodes(name: string): string[] {
  const out: string[] = [];
  for (const word of fold(name).split(/[\s,;/()（）]+/u)) {
    const compact = word.replace(/[^\p{L}\p{N}]+/gu, '');
    if (compact.length >= 4 && /\p{L}/u.test(compact) && /\p{N}/u.test(compact)) out.push(compact);
  }
  return [...new Set(out)];
}

const MARKETPLACES = new Set(['AMAZON', 'ALIBABA', 'ALIEXPRESS', 'TAOBAO', 'TMALL', 'JD', 'EBAY', 'YANGKEDUO', 'PDD', '1688', 'TB', 'A', 'MOUSER', 'DIGIKEY', 'LCSC', 'RS', 'RSDELIVERS', 'RS-ONLINE', 'CONRAD', 'MCMASTER', 'ADAFRUIT', 'SPARKFUN', 'ROBOTSHOP', 'GITHUB', 'YOUTU', 'YOUTUBE', 'GOOGLE']);

function urlParts(url: string): { host: string; hostLabel: string | null; pathTokens: string[] } {
  try {
    const u = new URL(url);
    const labels = u.hostname.toUpperCase().split('.');
    // Registrable label: the one before the public suffix (co.uk style suffixes: two labels).
    const n = labels.length;
    const twoPart = n >= 3 && labels[n - 2].length <= 3 && labels[n - 1].length === 2;
    const hostLabel = n >= 2 ? labels[n - (twoPart ? 3 : 2)] : null;
    let path = u.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      /* keep as written */
    }
    return { host: u.hostname, hostLabel, pathTokens: tokensOf(path) };
  } catch {
    return { host: '', hostLabel: null, pathTokens: tokensOf(url) };
  }
}

/** Forms of a catalogue manufacturer string worth matching: the whole string and its first segment ("T-Motor (X-TEAM)" -> "T-Motor"). */
export function manufacturerForms(written: string): string[] {
  const first = written.split(/\s*[(（/,，]\s*/u)[0].trim();
  return [...new Set([written.trim(), first].filter((f) => tokensOf(f).join('').length >= 3))];
}

interface Hay {
  field: string;
  tokens: string[];
  /** The tokens joined: a needle that is not inside it cannot match (a quick test before runMatch). */
  joined: string;
}

const hay = (field: string, tokens: string[]): Hay => ({ field, tokens, joined: tokens.join('') });

/** runMatch, after the quick test: a needle absent from the joined tokens matches no run of them. */
const hayMatch = (h: Hay, needle: string): boolean => h.joined.includes(needle) && runMatch(h.tokens, needle);

/**
 * The haystacks of a BOM line or URDF mention, once per frozen line (the layer is frozen when
 * built: src/ingest/oss/where-used-layer.ts). Every query over the layer matches against them, so
 * folding and splitting every field, and parsing every link URL, is not repeated per query (a
 * search that finds nothing asks the whole layer where else its words occur).
 */
const hayOf = new WeakMap<object, readonly Hay[]>();

function memoHay<T extends object>(x: T, make: (x: T) => Hay[]): readonly Hay[] {
  let h = hayOf.get(x);
  if (h === undefined) {
    h = make(x);
    if (Object.isFrozen(x)) hayOf.set(x, Object.freeze(h));
  }
  return h;
}

const bomHay = (l: LayerBomLine): readonly Hay[] => memoHay(l, makeBomHay);

function makeBomHay(l: LayerBomLine): Hay[] {
  const h: Hay[] = [hay('item', tokensOf(l.item_as_written ?? l.item))];
  if (l.part_number) h.push(hay('part_number', tokensOf(l.part_number)));
  if (l.manufacturer) h.push(hay('manufacturer', tokensOf(l.manufacturer)));
  if (l.manufacturer_part) h.push(hay('manufacturer_part', tokensOf(l.manufacturer_part)));
  if (l.supplier_part) h.push(hay('supplier_part', tokensOf(l.supplier_part)));
  for (const k of l.links) {
    if (k.label) h.push(hay('link_label', tokensOf(k.label)));
    const u = urlParts(k.url);
    h.push(hay('link_url', [...(u.hostLabel ? [u.hostLabel] : []), ...u.pathTokens]));
  }
  return h;
}

export interface Matcher {
  terms: string[];
  model_codes: string[];
  /** Fields of the haystack that match, or null when the whole does not match. */
  match(hay: readonly Hay[]): string[] | null;
  /**
   * What every match holds: for one of these groups, each of its texts inside the joined tokens of
   * one of the line's haystacks (hayMatch tests that first). whereUsed then reads only the lines
   * and mentions that hold a whole group (layerCandidates); absent, it asks `match` of every line.
   */
  needles?: readonly (readonly string[])[];
}

/** The groups, when no text is empty (an empty text would not narrow anything down). */
const narrowing = (groups: readonly (readonly string[])[]): readonly (readonly string[])[] | undefined =>
  groups.length > 0 && groups.every((g) => g.length > 0 && g.every((n) => n !== '')) ? groups : undefined;

/** Free-text query: the compacted query, or every term, matches (see runMatch). */
export function textMatcher(q: string): Matcher {
  const terms = tokensOf(q);
  const compact = terms.join('');
  return {
    terms,
    model_codes: modelCodes(q),
    // A match holds the compacted query, or (every term matching) every term.
    needles: narrowing(terms.length > 1 ? [[compact], terms] : terms.length === 1 ? [terms] : []),
    match(hay) {
      // Loops, not filter/map: every query runs this over every line of the layer, and most lines do not match.
      let whole: string[] | null = null;
      for (const h of hay) if (hayMatch(h, compact)) (whole ??= []).push(h.field);
      if (whole !== null) return [...new Set(whole)];
      if (terms.length === 1) return null; // its one term is the compacted query, tried above
      const fields = new Set<string>();
      for (const t of terms) {
        let found = false;
        for (const h of hay) {
          if (!hayMatch(h, t)) continue;
          fields.add(h.field);
          found = true;
        }
        if (!found) return null;
      }
      return [...fields];
    },
  };
}

/** A model's written form: its compacted tokens match a run of whole tokens of a line ("DM 4340P" matches "DM 4340P (48V)" and "DM4340P", never "DM 4340PX"). */
export function wholeMatcher(form: string): Matcher {
  const terms = tokensOf(form);
  const compact = terms.join('');
  return {
    terms,
    model_codes: modelCodes(form),
    needles: narrowing(compact === '' ? [] : [[compact]]),
    match(hay) {
      let fields: string[] | null = null;
      for (const h of hay) if (h.joined.includes(compact) && runMatch(h.tokens, compact, true)) (fields ??= []).push(h.field);
      return fields === null ? null : [...new Set(fields)];
    },
  };
}

/** Catalogue entity: one of its model codes must match (a name without a model code matches as a whole). */
export function entityMatcher(name: string): Matcher {
  const codes = modelCodes(name);
  const terms = tokensOf(name);
  const needles = codes.length > 0 ? codes : [terms.join('')];
  return {
    terms,
    model_codes: codes,
    needles: narrowing(needles.map((n) => [n])),
    match(hay) {
      const f = hay.filter((h) => needles.some((n) => hayMatch(h, n))).map((h) => h.field);
      return f.length > 0 ? [...new Set(f)] : null;
    },
  };
}

/** A known manufacturer's name, read once per list: its tokens, compacted, and the test an acronym needs. */
interface KnownForm {
  m: KnownManufacturer;
  tokens: string[];
  compact: string;
  /** Short all-capital names (MIT, FIRST, DJI) count only in their own capitals: "first stage" is not FIRST. */
  acronym: RegExp | null;
}

const formsOf = new WeakMap<readonly KnownManufacturer[], readonly KnownForm[]>();

function knownForms(known: readonly KnownManufacturer[]): readonly KnownForm[] {
  let f = formsOf.get(known);
  if (f === undefined) {
    f = known.map((m) => {
      const tokens = tokensOf(m.name);
      const name = m.name.trim();
      const acronym = /^[A-Z0-9-]{1,5}$/.test(name) ? new RegExp(`(^|[^A-Za-z0-9])${name.replace(/[-]/g, '\\-')}([^A-Za-z0-9]|$)`) : null;
      return { m, tokens, compact: tokens.join(''), acronym };
    });
    if (Object.isFrozen(known)) formsOf.set(known, f);
  }
  return f;
}

/** A frozen line's manufacturer, per list of known names (the layer has one). */
const makerOf = new WeakMap<LayerBomLine, { known: readonly KnownManufacturer[]; maker: ManufacturerEvidence | null }>();

/** The manufacturer a BOM line names, with its evidence; null when nothing in the row names one. */
export function lineManufacturer(l: LayerBomLine, known: readonly KnownManufacturer[]): ManufacturerEvidence | null {
  const kept = makerOf.get(l);
  if (kept !== undefined && kept.known === known) return kept.maker;
  const maker = readLineManufacturer(l, known);
  if (Object.isFrozen(l) && Object.isFrozen(known)) makerOf.set(l, { known, maker: maker && Object.freeze(maker) });
  return maker;
}

function readLineManufacturer(l: LayerBomLine, known: readonly KnownManufacturer[]): ManufacturerEvidence | null {
  if (l.manufacturer) return { name: l.manufacturer, evidence: `the row's manufacturer column says "${l.manufacturer}"` };
  const itemTokens = tokensOf(l.item_as_written ?? l.item);
  const itemRaw = (l.item_as_written ?? l.item).normalize('NFKC');
  const forms = knownForms(known);
  for (const f of forms) {
    if (f.acronym && !f.acronym.test(itemRaw)) continue;
    if (wholeRun(itemTokens, f.tokens)) return { name: f.m.canonical, evidence: `the row's item text "${l.item_as_written ?? l.item}" names ${f.m.name} (${f.m.source})` };
  }
  for (const k of l.links) {
    const u = urlParts(k.url);
    if (!u.hostLabel || MARKETPLACES.has(u.hostLabel)) continue;
    const host = u.hostLabel.replace(/[^\p{L}\p{N}]+/gu, '');
    const f = forms.find((x) => x.compact === host);
    if (f) return { name: f.m.canonical, evidence: `the row's vendor link ${k.url.split('?')[0]} is on ${u.host}, the site of ${f.m.name} (${f.m.source})` };
  }
  return null;
}

/** Whether the token sequence `ts` occurs whole (token-aligned) in `tokens`. */
function wholeRun(tokens: readonly string[], ts: readonly string[]): boolean {
  if (ts.length === 0) return false;
  for (let i = 0; i + ts.length <= tokens.length; i++) if (ts.every((t, k) => tokens[i + k] === t)) return true;
  return false;
}

const urdfHay = (m: LayerUrdfSource['mentions'][number]): readonly Hay[] => memoHay(m, makeUrdfHay);

function makeUrdfHay(m: LayerUrdfSource['mentions'][number]): Hay[] {
  const base = m.kind === 'mesh' ? m.name.replace(/\.[A-Za-z0-9]{2,4}$/, '') : m.name;
  return [hay(m.kind === 'mesh' ? 'urdf_mesh' : 'urdf_material', tokensOf(base))];
}

/**
 * The layer's items (its BOM lines, then its URDF mentions, in order), each as its haystacks'
 * joined tokens separated by U+0000, with the items holding each two-character sequence (as bits):
 * a text can be inside an item only if the item holds every pair of characters of the text. So the
 * few items a query can match are found without reading the others. null when a haystack holds
 * U+0000 itself (tokens never do).
 */
interface LayerItems {
  items: string[];
  /** Two characters -> the items holding them (bit j of word j >> 5). */
  pairs: Map<string, Uint32Array>;
}

const layerItemsOf = new WeakMap<WhereUsedLayer, LayerItems | null>();

function layerItems(layer: WhereUsedLayer): LayerItems | null {
  if (layerItemsOf.has(layer)) return layerItemsOf.get(layer)!;
  const hays = [...layer.bom.map(bomHay), ...layer.urdf.flatMap((s) => s.mentions.map(urdfHay))];
  const words = (hays.length + 31) >> 5;
  const pairs = new Map<string, Uint32Array>();
  let built: LayerItems | null = { items: [], pairs };
  hays.forEach((h, j) => {
    if (h.some((x) => x.joined.includes('\u0000'))) built = null;
    const text = h.map((x) => x.joined).join('\u0000');
    built?.items.push(text);
    for (let i = 0; i + 1 < text.length; i++) {
      const pair = text.slice(i, i + 2);
      let bits = pairs.get(pair);
      if (bits === undefined) pairs.set(pair, (bits = new Uint32Array(words)));
      bits[j >> 5]! |= 1 << (j & 31);
    }
  });
  // The layer is frozen when built (src/ingest/oss/where-used-layer.ts): its items are read once.
  if (Object.isFrozen(layer.bom) && Object.isFrozen(layer.urdf)) layerItemsOf.set(layer, built);
  return built;
}

/**
 * Which items (BOM lines, then URDF mentions, in the layer's order) hold every text of one of the
 * groups: 1 for those, 0 for the rest. Every match does (Matcher.needles), so only those need
 * asking. null: the layer's items could not be read so (every item is asked).
 */
function layerCandidates(layer: WhereUsedLayer, groups: readonly (readonly string[])[]): Uint8Array | null {
  const li = layerItems(layer);
  if (li === null || groups.some((g) => g.some((n) => n.includes('\u0000')))) return null;
  const { items, pairs } = li;
  const marks = new Uint8Array(items.length);
  for (const group of groups) {
    // The items holding every pair of characters of every text of the group (null: all items).
    let maybe: Uint32Array | null = null;
    for (const n of group) {
      for (let i = 0; i + 1 < n.length; i++) {
        const bits = pairs.get(n.slice(i, i + 2));
        if (bits === undefined) maybe = new Uint32Array((items.length + 31) >> 5);
        else if (maybe === null) maybe = bits.slice();
        else for (let w = 0; w < maybe.length; w++) maybe[w]! &= bits[w]!;
      }
    }
    for (let j = 0; j < items.length; j++) {
      if (marks[j] === 1 || (maybe !== null && (maybe[j >> 5]! & (1 << (j & 31))) === 0)) continue;
      const text = items[j]!;
      if (group.every((n) => text.includes(n))) marks[j] = 1;
    }
  }
  return marks;
}

/**
 * The robots whose BOM lines or URDF parts match. `manufacturer`: when given (a catalogue
 * entity's manufacturer), lines whose own evidence names another company are left out, and said so.
 */
export function whereUsed(layer: WhereUsedLayer, matcher: Matcher, opts: { q?: string | null; manufacturer?: string | null } = {}): WhereUsedResult {
  const robots = new Map<string, WhereUsedRobot>();
  const robot = (name: string) => {
    let r = robots.get(name);
    if (!r) robots.set(name, (r = { robot: name, sources: [], bom_lines: [], urdf_mentions: [] }));
    return r;
  };
  const notes: string[] = [];
  const makers = new Map<string, Set<string>>();
  const wanted = opts.manufacturer ? new Set(manufacturerForms(opts.manufacturer).map((f) => tokensOf(f).join(''))) : null;
  // Only the lines and mentions that hold one of the matcher's groups of needles can match (null: all).
  const candidate = matcher.needles ? layerCandidates(layer, matcher.needles) : null;
  for (let i = 0; i < layer.bom.length; i++) {
    if (candidate !== null && candidate[i] === 0) continue;
    const l = layer.bom[i]!;
    const fields = matcher.match(bomHay(l));
    if (!fields) continue;
    const maker = lineManufacturer(l, layer.manufacturers);
    if (wanted && maker && !manufacturerForms(maker.name).some((f) => wanted.has(tokensOf(f).join('')))) {
      notes.push(`${l.source_id} line ${l.line} ("${l.item}") matches by name but its own evidence names ${maker.name}, not ${opts.manufacturer}: left out`);
      continue;
    }
    if (maker) {
      const s = makers.get(maker.name) ?? new Set<string>();
      s.add(`${l.source_id} line ${l.line}: ${maker.evidence}`);
      makers.set(maker.name, s);
    }
    const r = robot(l.robot);
    if (!r.sources.includes(l.source_id)) r.sources.push(l.source_id);
    r.bom_lines.push({
      record_id: l.record_id,
      source_id: l.source_id,
      source_url: l.source_url,
      license: l.license,
      line: l.line,
      section: l.section,
      item: l.item,
      item_as_written: l.item_as_written,
      quantity: l.quantity,
      quantity_as_written: l.quantity_as_written,
      quantity_source: l.quantity_source,
      unit_prices: l.unit_prices,
      line_totals: l.line_totals,
      matched_fields: fields,
      manufacturer: maker,
    });
  }
  let item = layer.bom.length;
  for (const s of layer.urdf) {
    for (const m of s.mentions) {
      if (candidate !== null && candidate[item++] === 0) continue;
      if (!matcher.match(urdfHay(m))) continue;
      const r = robot(s.robot);
      if (!r.sources.includes(s.source_id)) r.sources.push(s.source_id);
      r.urdf_mentions.push({ source_id: s.source_id, source_url: s.source_url, license: s.license, kind: m.kind, name: m.name, links: m.links });
    }
  }
  const list = [...robots.values()].sort((a, b) => (a.robot < b.robot ? -1 : a.robot > b.robot ? 1 : 0));
  // A line that names the model before an accessory word ("XL430 Idler Wheel") is a part for the
  // model, not the model: listed after the model's own lines, and said so.
  const accessories: string[] = [];
  for (const r of list) {
    const of = (b: WhereUsedBomHit) => accessoryOf(b.item_as_written ?? b.item, matcher.model_codes);
    const kept = r.bom_lines.filter((b) => of(b) === null);
    const acc = r.bom_lines.filter((b) => of(b) !== null);
    r.bom_lines = [...kept, ...acc];
    for (const b of acc) accessories.push(`${b.source_id} line ${b.line} ("${b.item}") is an accessory for the model ("${of(b)}"), not the model`);
  }
  if (accessories.length > 0) notes.push(`Accessories: ${accessories.join('; ')}; listed last.`);
  const bomLines = list.reduce((n, r) => n + r.bom_lines.length, 0);
  const urdfMentions = list.reduce((n, r) => n + r.urdf_mentions.length, 0);
  if (bomLines > 0) {
    notes.push(
      'Quantities and prices are per BOM line, as written; lines of one file are not added up (its tables can be alternatives, e.g. a 12 V and a 5 V build). A price without a currency had no header label or symbol that names exactly one.',
    );
  }
  if (urdfMentions > 0) notes.push('URDF mentions are mesh files or materials drawn by the listed links: evidence that the model shows the part, not a stated quantity.');
  const unnamed = list.flatMap((r) => r.bom_lines).filter((b) => b.manufacturer === null).length;
  if (unnamed > 0) notes.push(`${unnamed} matching BOM line(s) name no manufacturer: neither a manufacturer column, nor a known manufacturer name in the item text, nor a vendor link on a manufacturer's own site; none is guessed.`);
  return {
    query: { q: opts.q ?? null, terms: matcher.terms, model_codes: matcher.model_codes },
    robots: list,
    counts: { robots: list.length, bom_lines: bomLines, urdf_mentions: urdfMentions },
    manufacturers: [...makers.entries()].map(([name, ev]) => ({ name, evidence: [...ev] })),
    notes,
  };
}

/** Words that, after a model code, make the line a part for the model ("XL430 Idler Wheel"), not the model. */
const ACCESSORY_WORDS = new Set(['IDLER', 'WHEEL', 'HORN', 'BRACKET', 'MOUNT', 'HOLDER', 'CASE', 'CABLE', 'ADAPTER', 'COVER', 'SPACER', 'HUB', 'PULLEY', 'COUPLER', 'COUPLING', 'CLAMP', 'SHIM']);

/** The accessory an item names after one of the model codes ("idler wheel"), or null when it names the model itself. */
export function accessoryOf(item: string, codes: readonly string[]): string | null {
  if (codes.length === 0) return null;
  const tokens = tokensOf(item);
  for (let i = 0; i < tokens.length; i++) {
    let s = '';
    for (let j = i; j < tokens.length && s.length < 64; j++) {
      s += tokens[j];
      if (!codes.some((c) => c.startsWith(s))) break;
      if (!codes.includes(s)) continue;
      const after = tokens.slice(j + 1);
      // The words up to the last accessory word of the next four ("idler wheel").
      const near = after.slice(0, 4);
      let last = -1;
      near.forEach((t, k) => {
        if (ACCESSORY_WORDS.has(t)) last = k;
      });
      return last >= 0 ? near.slice(0, last + 1).join(' ').toLowerCase() : null;
    }
  }
  return null;
}

/** Compact "robots that use catalogue entity X" (get_part used_in; analytics): null when no line or mention links. */
export interface UsedInSummary {
  /** page_url: the robot's page, added by get_part when the base URL is known (src/domain/shared/page-urls.ts). */
  robots: { robot: string; page_url?: string; sources: string[]; bom_lines: number; quantities: { source_id: string; line: number; quantity: number | null; quantity_as_written: string | null }[]; urdf_mentions: number }[];
  matched_on: string[];
}

export function robotsUsingEntity(layer: WhereUsedLayer, entity: { name: string; name_en?: string | null; manufacturer: string | null }): UsedInSummary | null {
  const name = entity.name_en && modelCodes(entity.name_en).length > 0 ? entity.name_en : entity.name;
  const matcher = entityMatcher(name);
  // A name with no model code would match on generic words: no link then.
  if (matcher.model_codes.length === 0) return null;
  const r = whereUsed(layer, matcher, { manufacturer: entity.manufacturer });
  // The model's own lines: an accessory for it ("XL430 Idler Wheel") is not a use of it.
  for (const x of r.robots) x.bom_lines = x.bom_lines.filter((b) => accessoryOf(b.item_as_written ?? b.item, matcher.model_codes) === null);
  r.robots = r.robots.filter((x) => x.bom_lines.length + x.urdf_mentions.length > 0);
  if (r.robots.length === 0) return null;
  return {
    robots: r.robots.map((x) => ({
      robot: x.robot,
      sources: x.sources,
      bom_lines: x.bom_lines.length,
      quantities: x.bom_lines.map((b) => ({ source_id: b.source_id, line: b.line, quantity: b.quantity, quantity_as_written: b.quantity_as_written })),
      urdf_mentions: x.urdf_mentions.length,
    })),
    matched_on: matcher.model_codes,
  };
}

