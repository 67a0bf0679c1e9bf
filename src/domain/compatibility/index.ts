/**
 * Four-dimension compatibility of two catalogue records: mechanical, electrical, communication,
 * software. Pure domain code: the caller resolves ids (and raises not_found) before calling.
 *
 * - Only free fields are read; `deep` (paid fields, including deep.compatibility) is never read.
 * - Applicability: both records must be physical components: entity_kind "component" and a category
 *   that is not one of NON_PHYSICAL_CATEGORIES. Otherwise applicable is false, with the reason, and
 *   no dimension is judged (verdict null).
 * - Overall verdict, most severe first: incompatible if any dimension is incompatible; else unknown
 *   if any is unknown (an unknown dimension is never counted as compatible, and an adapter cannot
 *   be promised when a dimension is undetermined); else adapter_required if any needs an adapter;
 *   else compatible (all four known and compatible).
 * - Verdicts rest on vendor-declared values, not on tests; quarantined records add a warning.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import type { FlangeRegistry } from '../knowledge/flange.js';
import type { BusTable } from './buses.js';
import { communicationDimension } from './communication.js';
import { roleOf, type Role } from './roles.js';
import { electricalDimension } from './electrical.js';
import { mechanicalDimension } from './mechanical.js';
import { softwareDimension } from './software.js';
import { DIMENSIONS, type CompatibilityResult, type Dimension, type SideSummary, type Verdict } from './types.js';

export * from './types.js';
export { parseBusTable, readComm, splitPieces, foldForm, type BusTable, type CommReading } from './buses.js';
export { ROLES, inferRole, roleOf, isHostRole, type Role, type RoleReading } from './roles.js';

/** Categories whose records are not physical parts, whatever their entity_kind says. */
export const NON_PHYSICAL_CATEGORIES = ['protocols', 'llms', 'robot_ai_models'] as const;

export interface CompatibilityDeps {
  flanges: FlangeRegistry;
  /** Bus facts (data/buses.json, loaded by the caller). */
  buses: BusTable;
  /** Public base URL for REST links (the adapter plate's); absent or null: links carry the MCP URI only. */
  baseUrl?: string | null;
}

export const COMPATIBILITY_BASIS =
  'Judged from vendor-declared free fields only (no tests, no paid fields). Unknown means the data cannot settle the question; it is never counted as compatible. Roles (host, device) are inferred from the category unless declared and are used only for bridges and host-only links; addressing, current and power are not checked.';

/** Why a record is not a physical component, or null when it is one. */
export function notApplicableReason(e: StoredEntity): string | null {
  if ((NON_PHYSICAL_CATEGORIES as readonly string[]).includes(e.category)) {
    return `${e.id} is in category "${e.category}", which holds ${e.category === 'protocols' ? 'protocol specifications' : 'models'}, not physical parts.`;
  }
  if (e.entity_kind !== 'component') {
    return `${e.id} is a ${e.entity_kind} record (entity_kind "${e.entity_kind}"), not a physical component.`;
  }
  return null;
}

function sideSummary(e: StoredEntity): SideSummary {
  const why = notApplicableReason(e);
  return {
    id: e.id,
    name: e.name_en || e.name,
    manufacturer: e.manufacturer,
    category: e.category,
    entity_kind: e.entity_kind,
    quarantine: e.quarantine,
    applicable: why === null,
    not_applicable_reason: why,
  };
}

const SEVERITY: readonly Verdict[] = ['incompatible', 'unknown', 'adapter_required', 'compatible'];

/** Overall verdict over dimension verdicts (see module doc). */
export function overallVerdict(verdicts: readonly Verdict[]): Verdict {
  for (const v of SEVERITY) if (verdicts.includes(v)) return v;
  return 'unknown';
}

/** Roles declared by the caller for the two sides (check_bom); an absent one is inferred from the record. */
export interface DeclaredRoles {
  a?: Role | null;
  b?: Role | null;
}

/** The three physical dimensions of one pair as a set check reads them. */
export type PairDimensions = Pick<NonNullable<CompatibilityResult['dimensions']>, 'mechanical' | 'electrical' | 'communication'>;

/**
 * The same dimension rulings checkCompatibility gives for two physical components, each computed
 * on first read (a BOM check reads one or two dimensions of most pairs, never software) and kept.
 */
export function pairDimensions(a: StoredEntity, b: StoredEntity, deps: CompatibilityDeps, declared: DeclaredRoles = {}): PairDimensions {
  let mechanical: PairDimensions['mechanical'] | undefined;
  let electrical: PairDimensions['electrical'] | undefined;
  let communication: PairDimensions['communication'] | undefined;
  return {
    get mechanical() {
      return (mechanical ??= mechanicalDimension(a, b, deps.flanges, deps.baseUrl ?? null));
    },
    get electrical() {
      return (electrical ??= electricalDimension(a, b));
    },
    get communication() {
      return (communication ??= communicationDimension(a, b, deps.buses, { a: roleOf(a, declared.a), b: roleOf(b, declared.b) }));
    },
  };
}

export function checkCompatibility(a: StoredEntity, b: StoredEntity, deps: CompatibilityDeps, declared: DeclaredRoles = {}): CompatibilityResult {
  const sa = sideSummary(a);
  const sb = sideSummary(b);
  const warnings: string[] = [];
  for (const s of [sa, sb]) {
    if (s.quarantine) warnings.push(`${s.id} is quarantined upstream; its declared values are suspect.`);
  }
  if (!sa.applicable || !sb.applicable) {
    return {
      applicable: false,
      verdict: null,
      reason: `Compatibility applies to physical components only. ${[sa.not_applicable_reason, sb.not_applicable_reason].filter((x) => x !== null).join(' ')}`,
      a: sa,
      b: sb,
      dimensions: null,
      summary: null,
      warnings,
      basis: COMPATIBILITY_BASIS,
    };
  }
  const buses = deps.buses;
  const dimensions = {
    mechanical: mechanicalDimension(a, b, deps.flanges, deps.baseUrl ?? null),
    electrical: electricalDimension(a, b),
    communication: communicationDimension(a, b, buses, { a: roleOf(a, declared.a), b: roleOf(b, declared.b) }),
    software: softwareDimension(a, b, buses),
  };
  const summary = { compatible: [] as Dimension[], adapter_required: [] as Dimension[], incompatible: [] as Dimension[], unknown: [] as Dimension[] };
  for (const d of DIMENSIONS) summary[dimensions[d].verdict].push(d);
  const verdict = overallVerdict(DIMENSIONS.map((d) => dimensions[d].verdict));
  const list = (ds: Dimension[]) => ds.join(', ');
  const reason =
    verdict === 'incompatible'
      ? `Incompatible on ${list(summary.incompatible)}.`
      : verdict === 'unknown'
        ? `Not determinable: ${list(summary.unknown)} ${summary.unknown.length === 1 ? 'is' : 'are'} unknown from the declared data${summary.adapter_required.length > 0 ? `; ${list(summary.adapter_required)} would need an adapter` : ''}.`
        : verdict === 'adapter_required'
          ? `Compatible with adapters on ${list(summary.adapter_required)}.`
          : 'Compatible on all four dimensions as declared.';
  return { applicable: true, verdict, reason, a: sa, b: sb, dimensions, summary, warnings, basis: COMPATIBILITY_BASIS };
}
