/**
 * One upstream record -> one StoredEntity (before the import-wide checks for id collisions and
 * duplicates, which need the whole set: see quarantine.ts).
 *
 * Facts only. Copied: ids, names, manufacturer, type, protocol / interfaces, declared parameter
 * strings (verbatim), enums and tags, URLs, numbers, licences, status, year, quarantine marks.
 * Never copied: description, description_en, features, pros/cons, notes, reasons, verification
 * notes, blurbs, mechanical `declared_note` / `gap`, `for_ai_assistants`, or any other upstream
 * sentence. `description` is generated from the copied facts (describe.ts).
 */
import type { DeepFields, StoredEntity } from '../../domain/catalogue/entity.js';
import { SOURCE_TIERS } from '../../domain/catalogue/entity.js';
import { specShapedFields } from '../../domain/parameters/index.js';
import { describe } from './describe.js';
import { readComm } from './comm.js';
import { extractDeclared, valueText, type DeclaredResult } from './declared.js';
import { flangeLabels } from './flange.js';
import { classifyUrl, isUrl, urlsInText, type UrlVerdict } from './urls.js';

export type Raw = Record<string, unknown>;

/** Upstream data_quality marks carried as quarantine reason codes. */
export const UPSTREAM_REASONS = ['placeholder_id', 'unverifiable_vendor', 'duplicate', 'non_entity'] as const;

/**
 * Quarantine reason codes (English, stable). Several may apply; they are joined with ", ".
 * - placeholder_id: upstream marks the id as a placeholder, not a real product id
 * - unverifiable_vendor: upstream could not verify the vendor
 * - duplicate: the same item is listed under another id (`duplicate_of`); upstream mark or our
 *   name + manufacturer check
 * - non_entity: upstream marks the record as not a catalogue entity (e.g. market news)
 * - upstream_flag: upstream sets quarantine without one of the marks above
 * - upstream_audit_reason: upstream recorded a quarantine reason but left the flag unset
 * - id_collision: our check; the upstream id collides case-insensitively with another record's
 *   id and this record was renamed to its upstream rp_id
 */
export const REASON_CODES = [...UPSTREAM_REASONS, 'upstream_flag', 'upstream_audit_reason', 'id_collision'] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

const MANUFACTURER_FIELDS = ['manufacturer', 'company', 'vendor', 'developer', 'organization'] as const;
/**
 * Values upstream writes where the manufacturer is unknown or not one company: a gap, not a name.
 * The second line ("several", "various", "community", "academic") is the placeholder list of
 * data/manufacturers.json (a test keeps the two equal).
 */
export const MANUFACTURER_PLACEHOLDERS = new Set(['', 'unknown', 'unspecified', 'n/a', 'na', 'none', '未明确', '未指定', '未知', '不详',
  '多家', 'various', 'community', 'academic', '学术', '开源社区 / 学术团队']);

const MECH_STATUS = ['declared', 'partial', 'not_declared', 'n_a'] as const;
type MechStatus = (typeof MECH_STATUS)[number];

/** What the report needs to know about one record's normalisation. */
export interface RecordNotes {
  index: number;
  upstream_id: string;
  rp_id: string | null;
  declared: DeclaredResult;
  /** Declared values not carried because the record is not a part (market intelligence, organisation). */
  declared_skipped_not_a_part: number;
  urls_dropped: Record<Exclude<UrlVerdict, 'source'>, number>;
  tier_from: string;
  tier_adjusted: boolean;
  manufacturer_from: (typeof MANUFACTURER_FIELDS)[number] | null;
  manufacturer_placeholder: boolean;
  year_from: 'year' | 'release_date' | null;
  year_unread: string | null;
  flange_not_registered: string[];
  /** specs values under an interface/protocol key left out because they read as a remark. */
  comm_rejected: { path: string; value: string }[];
  upstream_keys: string[];
}

export interface Normalised {
  entity: StoredEntity;
  reasons: ReasonCode[];
  notes: RecordNotes;
}

export class RecordError extends Error {
  constructor(
    readonly index: number,
    readonly upstreamId: string | null,
    readonly reason: string,
  ) {
    super(`record #${index}${upstreamId ? ` (${upstreamId})` : ''}: ${reason}`);
  }
}

function str(raw: Raw, key: string): string | null {
  const v = raw[key];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

function strList(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter((x) => x !== '');
}

function splitTags(text: string, sep: RegExp): string[] {
  return text.split(sep).map((x) => x.trim()).filter((x) => x !== '');
}

function unique(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

function asMap(v: unknown): Raw | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : null;
}

function readManufacturer(raw: Raw): { value: string | null; from: RecordNotes['manufacturer_from']; placeholder: boolean } {
  let placeholder = false;
  for (const f of MANUFACTURER_FIELDS) {
    const v = str(raw, f);
    if (v === null) continue;
    if (MANUFACTURER_PLACEHOLDERS.has(v.trim().toLowerCase())) {
      placeholder = true;
      continue;
    }
    return { value: v.trim(), from: f, placeholder };
  }
  return { value: null, from: null, placeholder };
}

const YEAR = /^\d{4}$/;
const DATE_PREFIX = /^(\d{4})(?:-\d{2}(?:-\d{2})?)?$/;

function readYear(raw: Raw): { value: number | null; from: RecordNotes['year_from']; unread: string | null } {
  const y = raw.year;
  if (typeof y === 'number' && Number.isInteger(y)) return { value: y, from: 'year', unread: null };
  if (typeof y === 'string') {
    if (YEAR.test(y.trim())) return { value: Number(y.trim()), from: 'year', unread: null };
    return { value: null, from: null, unread: y };
  }
  const rd = str(raw, 'release_date');
  const m = rd ? DATE_PREFIX.exec(rd.trim()) : null;
  if (m) return { value: Number(m[1]), from: 'release_date', unread: null };
  return { value: null, from: null, unread: rd };
}

/** Source URLs from source_url, URL-shaped `sources`, URLs inside `source`, mechanical evidence. */
function readSourceUrls(raw: Raw): { urls: string[]; dropped: RecordNotes['urls_dropped'] } {
  const candidates: string[] = [];
  const su = str(raw, 'source_url');
  if (su) candidates.push(...urlsInText(su));
  const sources = Array.isArray(raw.sources) ? raw.sources : [];
  for (const s of sources) {
    if (typeof s === 'string' && isUrl(s)) candidates.push(s.trim());
    const m = asMap(s);
    if (m) for (const k of ['url', 'article_url']) if (typeof m[k] === 'string' && isUrl(m[k] as string)) candidates.push((m[k] as string).trim());
  }
  const src = str(raw, 'source');
  if (src) candidates.push(...urlsInText(src));
  const mi = asMap(raw.mechanical_interface);
  if (mi && typeof mi.source_url === 'string') candidates.push(...urlsInText(mi.source_url));

  const dropped: RecordNotes['urls_dropped'] = { search_engine: 0, self_link: 0, invalid: 0 };
  const urls: string[] = [];
  for (const u of unique(candidates)) {
    const verdict = classifyUrl(u);
    if (verdict === 'source') urls.push(u);
    else dropped[verdict]++;
  }
  return { urls, dropped };
}

/**
 * Source tier: upstream's own, except where upstream raised a record to tier A on the strength
 * of an auto-back-filled search-engine link (source_tier_basis "deep_link:<search engine>").
 * That link is not a source (urls.ts), so the record goes back to the tier upstream had given it
 * before (source_tier_prev). Without a previous tier, upstream's tier stands.
 */
function readTier(raw: Raw, notes: Pick<RecordNotes, 'index'>, id: string): { tier: StoredEntity['source_tier']; adjusted: boolean } {
  const t = raw.source_tier;
  if (typeof t !== 'string' || !(SOURCE_TIERS as readonly string[]).includes(t)) {
    throw new RecordError(notes.index, id, `source_tier ${JSON.stringify(t)} is not one of ${SOURCE_TIERS.join(', ')}`);
  }
  const tier = t as StoredEntity['source_tier'];
  const basis = str(raw, 'source_tier_basis') ?? '';
  const prev = raw.source_tier_prev;
  const searchBacked = basis.startsWith('deep_link:') && classifyUrl(`https://${basis.slice('deep_link:'.length)}`) === 'search_engine';
  if (tier === 'A' && searchBacked && typeof prev === 'string' && (SOURCE_TIERS as readonly string[]).includes(prev) && prev !== 'A') {
    return { tier: prev as StoredEntity['source_tier'], adjusted: true };
  }
  return { tier, adjusted: false };
}

function readMechanical(
  raw: Raw,
  ctx: NormaliseContext,
  id: string,
): { value: StoredEntity['mechanical_interface']; notRegistered: string[]; paths: string[] } {
  const mi = asMap(raw.mechanical_interface) ?? {};
  const status: MechStatus = (MECH_STATUS as readonly string[]).includes(mi.status as string) ? (mi.status as MechStatus) : 'not_declared';
  const mount = typeof mi.mount_type === 'string' && mi.mount_type.trim() !== '' && mi.mount_type !== 'unknown' ? mi.mount_type : null;
  const labelled: { label: string; path: string }[] = [
    ...flangeLabels(mi.flange).map((label) => ({ label, path: 'mechanical_interface.flange' })),
    ...flangeLabels(mi.standard).map((label) => ({ label, path: 'mechanical_interface.standard' })),
    ...flangeLabels(raw.flange).map((label) => ({ label, path: 'flange' })),
    ...(ctx.flangeTokensOf?.(id) ?? []),
  ];
  const registered: string[] = [];
  const paths: string[] = [];
  const notRegistered: string[] = [];
  for (const { label, path } of labelled) {
    const d = ctx.registeredFlange(label);
    if (d === null) {
      if (/9409/.test(label)) notRegistered.push(label);
      continue;
    }
    if (!registered.includes(d)) registered.push(d);
    if (!paths.includes(path)) paths.push(path);
  }
  const order = ctx.flangeOrder ?? [];
  registered.sort((x, y) => order.indexOf(x) - order.indexOf(y));
  return {
    // `flange` holds the designation only when there is exactly one; `flanges` lists them all
    // (a vendor listing alternative couplings declares several).
    value: { status, mount_type: mount, flange: registered.length === 1 ? registered[0]! : null, ...(registered.length > 0 ? { flanges: registered } : {}) },
    notRegistered,
    paths,
  };
}

function readCompatibility(v: unknown): string[] {
  if (typeof v === 'string') return unique(splitTags(v, /,/));
  if (Array.isArray(v)) return unique(strList(v));
  const m = asMap(v);
  if (m) {
    // {"mounts_to": [...], "connects_to": [...], ...} -> "mounts_to:ID" entries, relation kept.
    const out: string[] = [];
    for (const rel of Object.keys(m).sort()) for (const id of strList(m[rel])) out.push(`${rel}:${id}`);
    return unique(out);
  }
  return [];
}

function readDeep(raw: Raw): DeepFields {
  const sources = (Array.isArray(raw.sources) ? raw.sources : []).flatMap((s): DeepFields['sources'] => {
    if (typeof s === 'string') return isUrl(s) ? [{ source_type: null, credibility: null, url: s.trim(), collected_at: null }] : [];
    const m = asMap(s);
    if (!m) return [];
    const url = typeof m.url === 'string' ? m.url : typeof m.article_url === 'string' ? m.article_url : null;
    return [
      {
        source_type: typeof m.source_type === 'string' ? m.source_type : null,
        credibility: typeof m.source_credibility === 'string' ? m.source_credibility : typeof m.credibility === 'string' ? m.credibility : null,
        url: url !== null && isUrl(url) ? url.trim() : null,
        collected_at: typeof m.collected_at === 'string' ? m.collected_at : null,
      },
    ];
  });
  const compliance: Record<string, string> = {};
  const sc = asMap(raw.standard_compliance);
  if (sc) for (const k of Object.keys(sc).sort()) {
    const t = valueText(sc[k]);
    if (t !== null) compliance[k] = t;
  }
  const conf = raw.confidence;
  return {
    price: valueText(raw.price),
    compatibility: readCompatibility(raw.compatibility),
    confidence: typeof conf === 'number' && conf >= 0 && conf <= 1 ? conf : null,
    sources,
    compliance,
    localization_ratio: valueText(raw.domestic_rate),
  };
}

function upstreamReasons(raw: Raw): ReasonCode[] {
  const dq = raw.data_quality;
  if (raw.quarantine === true) {
    return (UPSTREAM_REASONS as readonly unknown[]).includes(dq) ? [dq as ReasonCode] : ['upstream_flag'];
  }
  if (str(raw, 'quarantine_reason') !== null) return ['upstream_audit_reason'];
  return [];
}

export interface NormaliseContext {
  categoryName(slug: string): string | undefined;
  /** The registered flange designation a label finds (flange registry join rule), or null. */
  registeredFlange(label: string): string | null;
  /** Registered designations in registry order (for a stable `flanges` order). */
  flangeOrder?: readonly string[];
  /** Flange tokens the source's designations_in_use lists for this record id, with their path. */
  flangeTokensOf?(id: string): { label: string; path: string }[];
}

export function normaliseRecord(rawIn: unknown, index: number, ctx: NormaliseContext): Normalised {
  const raw = asMap(rawIn);
  if (!raw) throw new RecordError(index, null, 'not a JSON object');
  const id = str(raw, 'id')?.trim() ?? null;
  if (id === null) throw new RecordError(index, null, 'no id');
  const name = str(raw, 'name');
  if (name === null) throw new RecordError(index, id, 'no name');
  const category = str(raw, 'category');
  if (category === null) throw new RecordError(index, id, 'no category');
  const categoryName = ctx.categoryName(category);
  if (categoryName === undefined) throw new RecordError(index, id, `unknown category "${category}"`);

  const kind = str(raw, 'entity_kind') ?? 'component';
  const notAPart = kind === 'market_intelligence' || kind === 'organization';
  const extracted = extractDeclared(raw);
  const declaredSkipped = notAPart ? Object.keys(extracted.declared).length : 0;
  const declaredResult: DeclaredResult = notAPart ? { declared: {}, origin: {}, paths: {}, conflicts: [], rejected: [] } : extracted;
  const declared = declaredResult.declared;

  const manufacturer = readManufacturer(raw);
  const year = readYear(raw);
  const { urls, dropped } = readSourceUrls(raw);
  const tier = readTier(raw, { index }, id);
  const mech = readMechanical(raw, ctx, id);

  const comm = readComm(raw);
  const { protocol, interfaces } = comm;
  const iface = comm.interface;

  const apps = Array.isArray(raw.applications)
    ? unique(strList(raw.applications))
    : unique(splitTags(str(raw, 'applications') ?? str(raw, 'application') ?? '', /,/));

  const type = str(raw, 'type');
  const status = str(raw, 'status');
  const shaped = specShapedFields({ voltage: declared.voltage, weight: declared.weight, torque: declared.torque });
  const reasons = upstreamReasons(raw);
  const provenance: Record<string, string[]> = { ...comm.provenance };
  for (const k of Object.keys(declared) as (keyof typeof declared)[]) {
    const at = declaredResult.paths[k];
    if (at !== undefined) provenance[`declared.${k}`] = [at];
  }
  if (mech.paths.length > 0) provenance['mechanical_interface.flanges'] = mech.paths;
  for (const k of ['voltage', 'weight', 'torque'] as const) {
    const at = declaredResult.paths[k];
    if (at !== undefined && shaped[k] !== 'N/A' && shaped[k] !== '') provenance[k] = [at];
  }

  const entity: StoredEntity = {
    id,
    name,
    name_en: str(raw, 'name_en') ?? name,
    category,
    entity_kind: kind,
    manufacturer: manufacturer.value,
    type,
    protocol,
    interface: iface,
    interfaces,
    voltage: shaped.voltage,
    weight: shaped.weight,
    torque: shaped.torque,
    ros_support: typeof raw.ros_support === 'boolean' ? raw.ros_support : null,
    applications: apps,
    price_range: valueText(raw.price_range),
    standard: valueText(raw.standard),
    status,
    year: year.value,
    source_urls: urls,
    source_tier: tier.tier,
    source_robot: null,
    source_license: str(raw, 'license'),
    oss: raw.oss === true || raw.open_source === true,
    mechanical_interface: mech.value,
    declared,
    provenance: Object.fromEntries(Object.keys(provenance).sort().map((k) => [k, provenance[k]!])),
    description: describe({
      type,
      type_en: str(raw, 'type_en'),
      category_name: categoryName,
      manufacturer: manufacturer.value,
      protocol,
      interface: iface,
      status,
      year: year.value,
      voltage: declared.voltage,
      torque: declared.torque,
    }),
    quarantine: reasons.length > 0,
    quarantine_reason: reasons.length > 0 ? reasons.join(', ') : null,
    duplicate_of: str(raw, 'duplicate_of'),
    deep: readDeep(raw),
  };

  return {
    entity,
    reasons,
    notes: {
      index,
      upstream_id: id,
      rp_id: str(raw, 'rp_id'),
      declared: declaredResult,
      declared_skipped_not_a_part: declaredSkipped,
      urls_dropped: dropped,
      tier_from: raw.source_tier as string,
      tier_adjusted: tier.adjusted,
      manufacturer_from: manufacturer.from,
      manufacturer_placeholder: manufacturer.placeholder,
      year_from: year.from,
      year_unread: year.unread,
      flange_not_registered: mech.notRegistered,
      comm_rejected: comm.rejected,
      upstream_keys: Object.keys(raw),
    },
  };
}
