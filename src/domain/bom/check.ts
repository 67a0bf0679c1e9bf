/**
 * BOM check: the problems across a set of parts, from the compatibility engine's pairwise
 * results (never re-derived here), the red-line screen and the records' own quarantine marks.
 *
 * Set-level rules (the spec is silent; decisions):
 * - Parts are checked once per distinct catalogue record; quantities do not change a verdict.
 * - Electrical, "voltage rails": each part's voltage range as the engine read it. In one dimension,
 *   ranges that pairwise overlap share a common voltage, so the smallest number of rails is found
 *   exactly by a greedy sweep. More than one rail -> finding voltage_rails (warning) with the rails
 *   and their parts. Parts whose voltage the engine could not read are listed as unknown.
 * - Communication, "no common bus or a missing bridge": parts linked by a compatible bus verdict
 *   form islands (connected groups). With one island nothing is reported. Every other island is
 *   compared with the largest one (ties: earliest line) and then with the rest:
 *   an adapter_required link -> bridge_required (warning, the bridge named);
 *   only incompatible verdicts -> no_common_bus (error);
 *   otherwise (some verdict unknown) -> listed as unknown, never counted as linked.
 *   A part does not need a bus to every other part (a camera need not talk to a motor), only to
 *   the set; this is why islands, not pairs, are reported.
 * - Mechanical: every pair of parts whose flanges the engine rules adapter_required, grouped by
 *   designation pair -> flange_adapter (warning). Parts without a registered designation are
 *   listed as unknown.
 * - Quarantined records -> quarantined (warning, upstream reason). Red-line marks -> red_line
 *   (warning, the screen's evidence). Ids not in the catalogue -> not_in_catalogue (warning).
 *   Records that are not physical components (protocol specs, models) -> not_applicable (info).
 * - Unknown dimensions -> unknown_dimension (info), one finding per dimension listing the parts.
 */
import { z } from 'zod';
import { isHostRole, pairDimensions, type PairDimensions, notApplicableReason, roleOf, ROLES, type CompatibilityDeps, type DeclaredRoles, type Role, type RoleReading } from '../compatibility/index.js';
import { RoleReadingSchema } from '../compatibility/types.js';
import { screenEntity, type ScreeningResult } from '../knowledge/redlines.js';
import type { CompatibilityResult, Evidence as PairEvidence } from '../compatibility/types.js';
import type { StoredEntity } from '../catalogue/entity.js';
import { DomainError } from '../shared/errors.js';
import { lookupFlange, type FlangeRegistry } from '../knowledge/flange.js';
import { declaredFlanges } from '../compatibility/mechanical.js';
import { BOM_MAX_ITEMS, zodToDomainError } from './schema.js';
import { CustomPart, customEntity, engineRole, oneOfIdOrCustom } from './custom.js';

// ------------------------------------------------------------------ request

export const BomCheckItem = z
  .object({
    id: z.string().trim().min(1).max(200).optional(),
    custom: CustomPart.optional(),
    quantity: z.number().int().min(1).max(1_000_000).default(1),
    role: z
      .enum(ROLES)
      .optional()
      .describe('Default: from the category'),
  })
  .superRefine((v, ctx) => {
    oneOfIdOrCustom(v, ctx);
    if (v.custom && v.role !== undefined) ctx.addIssue({ code: 'custom', path: ['role'], message: 'a custom part takes its role inside custom (custom.role)' });
  });
export type BomCheckItem = z.infer<typeof BomCheckItem>;

export const BomCheckRequest = z.object({
  items: z.array(BomCheckItem).min(1).describe(`Parts to check (≤${BOM_MAX_ITEMS})`),
  cursor: z.string().max(20).optional().describe('next_cursor of the last answer (same items)'),
});
export type BomCheckRequest = z.infer<typeof BomCheckRequest>;

export function parseBomCheckRequest(raw: unknown): BomCheckRequest {
  if (raw && typeof raw === 'object') {
    const items = (raw as { items?: unknown }).items;
    if (Array.isArray(items) && items.length > BOM_MAX_ITEMS) {
      throw new DomainError('payload_too_large', `items: at most ${BOM_MAX_ITEMS} items per request, got ${items.length}`, {
        field: 'items',
        limit: BOM_MAX_ITEMS,
        received: items.length,
      });
    }
  }
  const r = BomCheckRequest.safeParse(raw);
  if (!r.success) throw zodToDomainError(r.error);
  return r.data;
}

// ------------------------------------------------------------------ result

export const FINDING_KINDS = [
  'no_host',
  'no_common_bus',
  'bridge_required',
  'voltage_rails',
  'flange_adapter',
  'quarantined',
  'red_line',
  'not_in_catalogue',
  'not_applicable',
  'unknown_dimension',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const FINDING_DIMENSIONS = ['electrical', 'communication', 'mechanical', 'data_quality', 'red_lines', 'catalogue'] as const;
export type FindingDimension = (typeof FINDING_DIMENSIONS)[number];

export const FindingPart = z.object({ line: z.number().int(), id: z.string(), name: z.string().nullable() });
export type FindingPart = z.infer<typeof FindingPart>;

export const FindingEvidence = z.object({
  id: z.string(),
  field: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]),
});
export type FindingEvidence = z.infer<typeof FindingEvidence>;

export const Finding = z.object({
  kind: z.enum(FINDING_KINDS),
  severity: z.enum(SEVERITIES),
  dimension: z.enum(FINDING_DIMENSIONS),
  parts: z.array(FindingPart),
  message: z.string(),
  remedy: z.string().nullable(),
  evidence: z.array(FindingEvidence),
  detail: z.record(z.string(), z.unknown()),
});
export type Finding = z.infer<typeof Finding>;

const Rail = z.object({ min_v: z.number(), max_v: z.number(), parts: z.array(z.string()) });

export const BomCheckResult = z.object({
  parts: z.array(
    z.object({
      line: z.number().int(),
      id: z.string(),
      quantity: z.number().int(),
      found: z.boolean(),
      source: z.enum(['catalogue', 'user', 'not_found']),
      catalogue_id: z.string().nullable(),
      name: z.string().nullable(),
      category: z.string().nullable(),
      role: RoleReadingSchema.nullable().describe('Declared, else inferred'),
    }),
  ),
  findings: z.array(Finding),
  summary: z.object({
    errors: z.number().int(),
    warnings: z.number().int(),
    infos: z.number().int(),
    by_kind: z.record(z.string(), z.number().int()),
    pairs_checked: z.number().int(),
  }),
  connections: z
    .object({
      statement: z.string(),
      hosts: z
        .array(
          z.object({
            host: z.string(),
            devices: z.array(z.object({ id: z.string(), buses: z.array(z.string()).describe('Buses shared with the host'), via: z.string().nullable() })),
          }),
        ),
      groups: z.array(z.object({ parts: z.array(z.string()), buses: z.array(z.string()) })),
      rails: z.array(Rail),
    })
    .describe('What works: links and rails'),
  basis: z.string(),
});
export type BomCheckResult = z.infer<typeof BomCheckResult>;

export const BOM_CHECK_BASIS =
  'Findings come from the compatibility engine (pairwise, on vendor-declared free fields), the red-line screen and upstream quarantine marks; ' +
  'nothing is measured. Unknown is listed as unknown and never counted as compatible. Communication is judged for the set: with a host or bus master in the set, ' +
  'each device (actuator, sensor, part without a role) must reach one of them over some bus (directly or through a listed bridge); without one, every part must reach the rest of the set. ' +
  'Power and passive parts get no bus findings; passive parts are left out of the supply-rail check and power parts out of the flange check.';

// ------------------------------------------------------------------ engines

export interface BomCheckEngines {
  /** The pair's physical dimensions as checkCompatibility rules them, bound to its registries (pairDimensions). */
  compatibility: (a: StoredEntity, b: StoredEntity, roles?: DeclaredRoles) => { dimensions: PairDimensions };
  /** The red-line screen (screenEntity). */
  screen: (e: StoredEntity) => ScreeningResult;
  flanges: FlangeRegistry;
}

/** The engines as shipped: the dimension rulings of checkCompatibility over the flange registry and bus table, screenEntity. */
export function bomCheckEngines(deps: CompatibilityDeps): BomCheckEngines {
  return { compatibility: (a, b, roles) => ({ dimensions: pairDimensions(a, b, deps, roles) }), screen: screenEntity, flanges: deps.flanges };
}

export interface BomCheckPart {
  line: number;
  id: string;
  quantity: number;
  record: StoredEntity | null;
  /** The role declared on the line, if any. */
  role?: Role;
  /** True for a user-declared (custom) part: its record is the declaration (src/domain/bom/custom.ts). */
  user?: boolean;
}

/** An item as check_bom and export_bom take it: a catalogue id or a user-declared part. */
export interface CheckableItem {
  id?: string;
  custom?: CustomPart;
  quantity: number;
  role?: Role;
}

/**
 * Request items -> parts with their records (lookup: e.g. recordLookup(await catalogue.getMany(ids))).
 * A custom item's record is its declaration, its role the declared one (custom.ts engineRole).
 */
export function toCheckParts(items: readonly CheckableItem[], lookup: (id: string) => StoredEntity | null | undefined): BomCheckPart[] {
  return items.map((it, i) => {
    if (it.custom) {
      const record = customEntity(it.custom);
      const role = engineRole(it.custom.role);
      return { line: i + 1, id: record.id, quantity: it.quantity, record, user: true, ...(role ? { role } : {}) };
    }
    const id = it.id ?? '';
    return { line: i + 1, id, quantity: it.quantity, record: lookup(id) ?? null, ...(it.role ? { role: it.role } : {}) };
  });
}

/** The catalogue ids among the items (for the caller's catalogue lookup). */
export const catalogueIds = (items: readonly { id?: string; custom?: unknown }[]): string[] =>
  [...new Set(items.flatMap((i) => (i.custom === undefined && i.id !== undefined ? [i.id] : [])))];

// ------------------------------------------------------------------ helpers

interface Node {
  idx: number;
  line: number;
  record: StoredEntity;
  /** Declared on the record's first line, else inferred from its category. */
  role: RoleReading;
}

const partOf = (n: { line: number; record: StoredEntity }): FindingPart => ({ line: n.line, id: n.record.id, name: n.record.name_en || n.record.name });

const fmtV = (r: { min: number; max: number }) => (r.min === r.max ? `${r.min} V` : `${r.min}–${r.max} V`);

function pairEvidence(ev: PairEvidence[], a: StoredEntity, b: StoredEntity): FindingEvidence[] {
  return ev.map((e) => ({ id: e.side === 'a' ? a.id : b.id, field: e.field, value: e.value }));
}

class UnionFind {
  private p: number[];
  constructor(n: number) {
    this.p = Array.from({ length: n }, (_, i) => i);
  }
  find(x: number): number {
    while (this.p[x] !== x) {
      this.p[x] = this.p[this.p[x]];
      x = this.p[x];
    }
    return x;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.p[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

// ------------------------------------------------------------------ check

export function checkBom(items: BomCheckPart[], engines: BomCheckEngines): BomCheckResult {
  const findings: Finding[] = [];
  // A record's role: the first role declared on any of its lines, else inferred from its category.
  const declaredRole = new Map<string, Role>();
  for (const p of items) if (p.record && p.role && !declaredRole.has(p.record.id.toLowerCase())) declaredRole.set(p.record.id.toLowerCase(), p.role);
  const roleOfRecord = (r: StoredEntity): RoleReading => roleOf(r, declaredRole.get(r.id.toLowerCase()));
  const parts = items.map((p) => ({
    line: p.line,
    id: p.id,
    quantity: p.quantity,
    found: p.record !== null,
    source: p.user ? ('user' as const) : p.record ? ('catalogue' as const) : ('not_found' as const),
    catalogue_id: p.user ? null : (p.record?.id ?? null),
    name: p.record ? p.record.name_en || p.record.name : null,
    category: p.record?.category ?? null,
    role: p.record ? roleOfRecord(p.record) : null,
  }));

  // Distinct records, first line of each.
  const nodes: Node[] = [];
  const seen = new Set<string>();
  for (const p of items) {
    if (!p.record) {
      findings.push({
        kind: 'not_in_catalogue',
        severity: 'warning',
        dimension: 'catalogue',
        parts: [{ line: p.line, id: p.id, name: null }],
        message: `${p.id} is not in the catalogue: nothing about it can be checked.`,
        remedy: 'Check the id (get_part suggests neighbours), or review this part by hand.',
        evidence: [{ id: p.id, field: 'id', value: p.id }],
        detail: {},
      });
      continue;
    }
    const key = p.record.id.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    nodes.push({ idx: nodes.length, line: p.line, record: p.record, role: roleOfRecord(p.record) });
  }

  // Per-record findings.
  for (const n of nodes) {
    const r = n.record;
    if (r.quarantine) {
      findings.push({
        kind: 'quarantined',
        severity: 'warning',
        dimension: 'data_quality',
        parts: [partOf(n)],
        message: `${r.id} is quarantined upstream${r.quarantine_reason ? ` (${r.quarantine_reason})` : ''}: its declared values are suspect.`,
        remedy: r.duplicate_of ? `Use the canonical record ${r.duplicate_of}.` : 'Confirm the part and its values with the vendor before buying.',
        evidence: [
          { id: r.id, field: 'quarantine', value: true },
          { id: r.id, field: 'quarantine_reason', value: r.quarantine_reason },
          { id: r.id, field: 'duplicate_of', value: r.duplicate_of },
        ],
        detail: {},
      });
    }
    const marks = engines.screen(r).red_lines.filter((m) => m.status === 'fires');
    if (marks.length > 0) {
      findings.push({
        kind: 'red_line',
        severity: 'warning',
        dimension: 'red_lines',
        parts: [partOf(n)],
        message: `${r.id} is marked by ${marks.map((m) => `${m.id} (${m.name}${m.severity ? `, ${m.severity.replace(/_/g, ' ')}` : ''})`).join(', ')}: screening heuristics that call for manual review, not compliance judgments.`,
        remedy: marks.flatMap((m) => m.ask_vendor).join(' '),
        evidence: marks.flatMap((m) => m.inputs.map((i) => ({ id: r.id, field: `declared.${i.field}`, value: i.declared }))),
        detail: { marks: marks.map((m) => ({ id: m.id, name: m.name, severity: m.severity, threshold: m.threshold, numbers: m.numbers, reason: m.reason })) },
      });
    }
  }

  // Physical components only (the engine's own applicability rule).
  const physical: Node[] = [];
  const notApplicable: Node[] = [];
  const reasons: string[] = [];
  for (const n of nodes) {
    const why = notApplicableReason(n.record);
    if (why) {
      notApplicable.push(n);
      reasons.push(why);
    } else physical.push(n);
  }
  if (notApplicable.length > 0) {
    findings.push({
      kind: 'not_applicable',
      severity: 'info',
      dimension: 'catalogue',
      parts: notApplicable.map(partOf),
      message: `Not physical components, left out of the electrical, communication and mechanical checks: ${notApplicable.map((n) => n.record.id).join(', ')}.`,
      remedy: null,
      evidence: notApplicable.flatMap((n) => [
        { id: n.record.id, field: 'category', value: n.record.category },
        { id: n.record.id, field: 'entity_kind', value: n.record.entity_kind },
      ]),
      detail: { reasons },
    });
  }
  // Engine results are computed on demand and cached per unordered pair: a set check needs far
  // fewer than all n(n-1)/2 pairs (see the dimension functions below).
  const pair = new Map<string, { dimensions: PairDimensions }>();
  let pairsChecked = 0;
  const res = (a: Node, b: Node): Link => {
    const [A, B] = a.idx < b.idx ? [a, b] : [b, a];
    const k = `${A.idx}|${B.idx}`;
    let r = pair.get(k);
    if (!r) {
      const declared = (n: Node) => (n.role.source === 'declared' ? n.role.role : null);
      r = engines.compatibility(A.record, B.record, { a: declared(A), b: declared(B) });
      pair.set(k, r);
      pairsChecked++;
    }
    return { r, A, B };
  };

  // What takes part in which check (roles): passive parts have no supply, power and passive parts
  // no bus, power parts no flange to bolt.
  const has = (n: Node, ...roles: Role[]) => n.role.role !== null && roles.includes(n.role.role);
  const supplied = physical.filter((n) => !has(n, 'passive'));
  const onBus = physical.filter((n) => !has(n, 'passive', 'power'));
  const bolted = physical.filter((n) => !has(n, 'power'));
  const connections: Connections = { hosts: [], groups: [], rails: [] };
  if (supplied.length >= 2) connections.rails = electrical(supplied, res, findings);
  const hosts = onBus.filter((n) => isHostRole(n.role.role));
  if (hosts.length === 0 && onBus.length > 0) findings.push(noHost(onBus));
  if (hosts.length > 0 && onBus.length > hosts.length) connections.hosts = communicationToHosts(onBus, hosts, res, findings);
  else if (onBus.length >= 2) connections.groups = communication(onBus, res, findings);
  if (bolted.length >= 2) mechanical(bolted, res, engines.flanges, findings);

  // Errors first, then warnings, then infos; order of discovery within a severity.
  findings.sort((x, y) => SEVERITIES.indexOf(x.severity) - SEVERITIES.indexOf(y.severity));
  const by_kind: Record<string, number> = {};
  for (const f of findings) by_kind[f.kind] = (by_kind[f.kind] ?? 0) + 1;
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  return {
    parts,
    findings,
    summary: {
      errors,
      warnings,
      infos: findings.filter((f) => f.severity === 'info').length,
      by_kind,
      pairs_checked: pairsChecked,
    },
    connections: { statement: connectionStatement(connections, errors, warnings, findings.length - errors - warnings), ...connections },
    basis: BOM_CHECK_BASIS,
  };
}

/**
 * No host or bus master in the set (decision, issue 42): the bus check can only compare the
 * devices with each other, and nothing says which computer runs them, so the set is not called
 * problem-free. A warning naming the devices the check would have tied to a host.
 */
function noHost(devices: Node[]): Finding {
  return {
    kind: 'no_host',
    severity: 'warning',
    dimension: 'communication',
    parts: devices.map(partOf),
    message: 'No computer in the set: nothing checks how the devices are reached.',
    remedy: 'Add the computer that runs them: a catalogue id (role host), or your own, e.g. {"custom": {"name": "Laptop", "role": "host", "buses": ["USB"]}, "quantity": 1}.',
    evidence: devices.map((n) => ({ id: n.record.id, field: 'role', value: n.role.role })),
    detail: { roles: Object.fromEntries(devices.map((n) => [n.record.id, roleNote(n)])) },
  };
}

const commEvidence = (e: StoredEntity): FindingEvidence[] => [
  { id: e.id, field: 'protocol', value: e.protocol },
  { id: e.id, field: 'interface', value: e.interface },
  { id: e.id, field: 'interfaces', value: e.interfaces },
];

/** The engine's reason with the ids its sides "a" and "b" stand for. */
const engineReason = (x: Link, dim: 'communication' | 'mechanical' | 'electrical') => ({ a: x.A.record.id, b: x.B.record.id, reason: x.r.dimensions![dim].reason });

type Rail = z.infer<typeof Rail>;

/** What the checks found working, filled by the dimension functions. */
interface Connections {
  hosts: { host: string; devices: { id: string; buses: string[]; via: string | null }[] }[];
  groups: { parts: string[]; buses: string[] }[];
  rails: Rail[];
}

/** The buses over which a compatible engine result links its two sides. */
const compatibleBuses = (x: Link): string[] => [...new Set(x.r.dimensions!.communication.detail.links.filter((l) => l.verdict === 'compatible').map((l) => l.bus_a))];

/** An engine result with its sides: A is the engine's side a. */
interface Link {
  r: { dimensions: PairDimensions };
  A: Node;
  B: Node;
}
type PairLookup = (a: Node, b: Node) => Link;

// ------------------------------------------------------------------ electrical

function electrical(nodes: Node[], res: PairLookup, findings: Finding[]): Rail[] {
  const ranges = new Map<number, { min: number; max: number } | null>();
  // Each part's range as the engine read it: one engine call per two parts suffices.
  for (let i = 0; i < nodes.length; i += 2) {
    const n = nodes[i];
    const peer = i + 1 < nodes.length ? nodes[i + 1] : nodes[0];
    const { r, A, B } = res(n, peer);
    const d = r.dimensions!.electrical.detail;
    ranges.set(A.idx, d.range_a);
    ranges.set(B.idx, d.range_b);
  }
  const known = nodes.filter((n) => ranges.get(n.idx));
  const unknown = nodes.filter((n) => !ranges.get(n.idx));
  if (unknown.length > 0) {
    findings.push({
      kind: 'unknown_dimension',
      severity: 'info',
      dimension: 'electrical',
      parts: unknown.map(partOf),
      message: `Supply voltage unknown for ${unknown.map((n) => n.record.id).join(', ')}: no exactly readable declared voltage, so the rails check leaves them out.`,
      remedy: 'Get the supply voltage range from the vendor datasheet.',
      evidence: unknown.flatMap((n) => [
        { id: n.record.id, field: 'voltage', value: n.record.voltage },
        { id: n.record.id, field: 'declared.voltage', value: n.record.declared.voltage ?? null },
      ]),
      detail: {},
    });
  }
  if (known.length < 2) return known.map((n) => ({ min_v: ranges.get(n.idx)!.min, max_v: ranges.get(n.idx)!.max, parts: [n.record.id] }));
  // Fewest rails: sweep by upper bound; each rail sits at the lowest uncovered upper bound.
  const sorted = [...known].sort((x, y) => ranges.get(x.idx)!.max - ranges.get(y.idx)!.max || x.line - y.line);
  const rails: { min: number; max: number; members: Node[] }[] = [];
  const covered = new Set<number>();
  for (const n of sorted) {
    if (covered.has(n.idx)) continue;
    const point = ranges.get(n.idx)!.max;
    const members = sorted.filter((m) => !covered.has(m.idx) && ranges.get(m.idx)!.min <= point && ranges.get(m.idx)!.max >= point);
    for (const m of members) covered.add(m.idx);
    rails.push({ min: Math.max(...members.map((m) => ranges.get(m.idx)!.min)), max: point, members: members.sort((x, y) => x.line - y.line) });
  }
  const railList = rails.map((r) => ({ min_v: r.min, max_v: r.max, parts: r.members.map((m) => m.record.id) }));
  if (rails.length <= 1) return railList;
  findings.push({
    kind: 'voltage_rails',
    severity: 'warning',
    dimension: 'electrical',
    parts: known.map(partOf),
    message: `No single supply voltage covers every part: at least ${rails.length} rails are needed (${rails
      .map((r) => `${fmtV(r)}: ${r.members.map((m) => m.record.id).join(', ')}`)
      .join('; ')}).`,
    remedy: 'Plan one supply rail (or DC-DC converter) per group, or choose parts with overlapping voltage ranges.',
    evidence: known.map((n) => ({ id: n.record.id, field: 'voltage', value: n.record.voltage })),
    detail: {
      rails: railList,
      ranges: Object.fromEntries(known.map((n) => [n.record.id, ranges.get(n.idx)])),
    },
  });
  return railList;
}

// ------------------------------------------------------------------ communication

function communication(nodes: Node[], res: PairLookup, findings: Finding[]): Connections['groups'] {
  // Units: parts with the same communication fields and manufacturer (the engine reads vendor
  // framing per manufacturer) relate to every other part alike, so one of them stands for all.
  const units: Node[][] = [];
  const bySig = new Map<string, Node[]>();
  for (const n of nodes) {
    const e = n.record;
    const sig = JSON.stringify([e.protocol, e.interface, e.interfaces, e.manufacturer]);
    const u = bySig.get(sig);
    if (u) u.push(n);
    else {
      const fresh = [n];
      bySig.set(sig, fresh);
      units.push(fresh);
    }
  }
  const busless = new Set<number>();
  const called = new Set<number>();
  const comm = (i: number, j: number): Link => {
    const x = res(units[i][0], units[j][0]);
    const [ai, bi] = x.A === units[i][0] ? [i, j] : [j, i];
    const d = x.r.dimensions!.communication.detail;
    if (d.buses_a.length === 0) busless.add(ai);
    if (d.buses_b.length === 0) busless.add(bi);
    called.add(i);
    called.add(j);
    return x;
  };
  const verdict = (x: Link) => x.r.dimensions!.communication.verdict;

  // Islands: units joined by a compatible bus verdict. Pairs already in one island are skipped.
  const uf = new UnionFind(units.length);
  const linkBuses: { i: number; buses: string[] }[] = [];
  for (let i = 0; i < units.length; i++) {
    for (let j = i + 1; j < units.length; j++) {
      if (busless.has(i)) break;
      if (busless.has(j) || uf.find(i) === uf.find(j)) continue;
      const x = comm(i, j);
      if (verdict(x) === 'compatible') {
        uf.union(i, j);
        linkBuses.push({ i, buses: compatibleBuses(x) });
      }
    }
  }
  if (units.length === 1 && units[0].length > 1) comm(0, 0);
  for (let i = 0; i < units.length; i++) if (!called.has(i) && units.length > 1) comm(i, i === 0 ? 1 : 0);

  const groups = new Map<number, number[]>();
  units.forEach((_, i) => groups.set(uf.find(i), [...(groups.get(uf.find(i)) ?? []), i]));
  const size = (g: number[]) => g.reduce((acc, i) => acc + units[i].length, 0);
  const first = (g: number[]) => Math.min(...g.map((i) => units[i][0].line));
  const silent = (g: number[]) => (g.every((i) => busless.has(i)) ? 1 : 0);
  const islands = [...groups.values()].sort((x, y) => silent(x) - silent(y) || size(y) - size(x) || first(x) - first(y));
  const members = (g: number[]) => g.flatMap((i) => units[i]).sort((x, y) => x.line - y.line);

  const unknown: { node: Node; reason: ReturnType<typeof engineReason> }[] = [];
  const listUnknown = (g: number[], x: Link) => {
    for (const n of members(g)) unknown.push({ node: n, reason: engineReason(x, 'communication') });
  };

  const linked: Connections['groups'] = [];
  if (units.length === 1) {
    // Every part declares the same interfaces: linked unless they declare no bus at all.
    const x = comm(0, 0);
    if (busless.has(0)) listUnknown([0], x);
    else if (verdict(x) === 'compatible') linked.push({ parts: members([0]).map((n) => n.record.id), buses: compatibleBuses(x) });
  } else {
    for (const island of islands) {
      const mine = new Set(island);
      const buses = [...new Set(linkBuses.filter((l) => mine.has(l.i)).flatMap((l) => l.buses))];
      if (buses.length > 0) linked.push({ parts: members(island).map((n) => n.record.id), buses });
    }
    const main = islands[0];
    for (const island of islands.slice(1)) {
      if (island.every((i) => busless.has(i))) {
        const i = island[0];
        listUnknown(island, comm(i, i === 0 ? 1 : 0));
        continue;
      }
      let bridge = null as Link | null;
      let someUnknown = null as Link | null;
      const incompatible: Link[] = [];
      for (const outsiders of [main, ...islands.slice(1).filter((g) => g !== island)]) {
        for (const m of island) {
          for (const o of outsiders) {
            if (busless.has(o) || busless.has(m)) continue;
            const x = comm(m, o);
            const v = verdict(x);
            if (v === 'adapter_required') {
              bridge = x;
              break;
            }
            if (v === 'unknown') someUnknown ??= x;
            else if (v === 'incompatible') incompatible.push(x);
          }
          if (bridge) break;
        }
        if (bridge) break;
      }
      const mine = members(island);
      const ids = mine.map((n) => n.record.id).join(', ');
      const s = mine.length === 1 ? 's' : '';
      if (bridge) {
        const c = bridge.r.dimensions!.communication;
        const inIsland = mine.includes(bridge.A) ? bridge.A : bridge.B;
        const peer = inIsland === bridge.A ? bridge.B : bridge.A;
        findings.push({
          kind: 'bridge_required',
          severity: 'warning',
          dimension: 'communication',
          parts: [...mine.map(partOf), partOf(peer)],
          message: `${ids} share${s} no bus with the rest of the set; ${inIsland.record.id} can reach ${peer.record.id} only through ${c.adapters[0] ?? 'a bridge'}.`,
          remedy: `Add ${c.adapters[0] ?? 'a bridge'} to the BOM.`,
          evidence: [...commEvidence(inIsland.record), ...commEvidence(peer.record)],
          detail: { island: mine.map((n) => n.record.id), links: c.detail.links, adapters: c.adapters, engine: engineReason(bridge, 'communication') },
        });
      } else if (someUnknown) {
        listUnknown(island, someUnknown);
      } else {
        const rest = members(main);
        findings.push({
          kind: 'no_common_bus',
          severity: 'error',
          dimension: 'communication',
          parts: [...mine.map(partOf), ...rest.map(partOf)],
          message: `${ids} share${s} no bus with the rest of the set (${rest.map((n) => n.record.id).join(', ')}) and no off-the-shelf bridge is known.`,
          remedy: 'Choose a part with a bus the rest of the set has, or add an interface that provides one.',
          evidence: [...mine, ...rest].flatMap((n) => commEvidence(n.record)),
          detail: {
            island: mine.map((n) => n.record.id),
            rest: rest.map((n) => n.record.id),
            engine: incompatible.slice(0, 10).map((x) => engineReason(x, 'communication')),
          },
        });
      }
    }
  }
  if (unknown.length > 0) {
    findings.push(
      commUnknown(
        unknown.map((u) => u.node),
        `Bus link to the rest of the set unknown for ${unknown.map((u) => u.node.record.id).join(', ')}.`,
        'Get the communication interfaces from the vendor datasheet.',
        { reasons: Object.fromEntries(unknown.map((u) => [u.node.record.id, u.reason])) },
      ),
    );
  }
  return linked;
}

/** A node's role as findings state it. */
const roleNote = (n: Node) => ({ role: n.role.role, source: n.role.source });

/**
 * Buses with hosts in the set: each device (every part on the bus check that is not a host or bus
 * master) must reach one of the hosts; devices are not compared with each other. Per device the
 * best verdict over the hosts counts: compatible (reached) > adapter_required (bridge_required,
 * grouped by host and bridge) > unknown (listed) > incompatible with every host (no_common_bus).
 * Hosts are not checked against each other.
 */
function communicationToHosts(nodes: Node[], hosts: Node[], res: PairLookup, findings: Finding[]): Connections['hosts'] {
  const devices = nodes.filter((n) => !hosts.includes(n));
  const verdict = (x: Link) => x.r.dimensions!.communication.verdict;
  const rank = { compatible: 0, adapter_required: 1, unknown: 2, incompatible: 3 } as const;
  const bridged = new Map<string, { host: Node; link: Link; devices: Node[] }>();
  const unknown: { node: Node; reasons: ReturnType<typeof groupReasons> }[] = [];
  const unreachable: { node: Node; links: Link[] }[] = [];
  const reached = new Map<Node, Connections['hosts'][number]['devices']>(hosts.map((h) => [h, []]));
  for (const d of devices) {
    const links = hosts.map((h) => res(d, h));
    const best = links.reduce((x, y) => (rank[verdict(y)] < rank[verdict(x)] ? y : x));
    const v = verdict(best);
    if (v === 'compatible') {
      reached.get(best.A === d ? best.B : best.A)!.push({ id: d.record.id, buses: compatibleBuses(best), via: null });
      continue;
    }
    if (v === 'adapter_required') {
      const host = best.A === d ? best.B : best.A;
      const via = best.r.dimensions!.communication.adapters[0] ?? 'a bridge';
      const k = `${host.idx}|${via}`;
      const g = bridged.get(k) ?? { host, link: best, devices: [] };
      g.devices.push(d);
      bridged.set(k, g);
      reached.get(host)!.push({ id: d.record.id, buses: [], via });
    } else if (v === 'unknown') {
      unknown.push({ node: d, reasons: groupReasons(d, links.filter((x) => verdict(x) === 'unknown')) });
    } else {
      unreachable.push({ node: d, links });
    }
  }
  for (const g of bridged.values()) {
    const c = g.link.r.dimensions!.communication;
    const ids = g.devices.map((n) => n.record.id).join(', ');
    const via = c.adapters[0] ?? 'a bridge';
    findings.push({
      kind: 'bridge_required',
      severity: 'warning',
      dimension: 'communication',
      parts: [...g.devices.map(partOf), partOf(g.host)],
      message:
        c.detail.shared_buses.length > 0
          ? `${ids} and the host ${g.host.record.id} share a bus but name different protocols on it; ${g.devices.length === 1 ? 'it needs' : 'they need'} ${via}.`
          : `${ids} share${g.devices.length === 1 ? 's' : ''} no bus with the host ${g.host.record.id}; ${g.devices.length === 1 ? 'it reaches' : 'they reach'} it through ${via}.`,
      remedy: `Add ${via} to the BOM.`,
      evidence: [...g.devices.flatMap((n) => commEvidence(n.record)), ...commEvidence(g.host.record)],
      detail: {
        host: g.host.record.id,
        devices: g.devices.map((n) => n.record.id),
        island: g.devices.map((n) => n.record.id),
        links: c.detail.links,
        adapters: c.adapters,
        roles: Object.fromEntries([...g.devices, g.host].map((n) => [n.record.id, roleNote(n)])),
        engine: engineReason(g.link, 'communication'),
      },
    });
  }
  if (unreachable.length > 0) {
    const ids = unreachable.map((u) => u.node.record.id).join(', ');
    findings.push({
      kind: 'no_common_bus',
      severity: 'error',
      dimension: 'communication',
      parts: [...unreachable.map((u) => partOf(u.node)), ...hosts.map(partOf)],
      message: `${ids} share${unreachable.length === 1 ? 's' : ''} no bus with the host${hosts.length > 1 ? 's' : ''} ${hosts.map((h) => h.record.id).join(', ')}, and on-board links have no off-the-shelf bridge.`,
      remedy: 'Choose a part with a bus a host has, or add an interface that provides one.',
      evidence: [...unreachable.map((u) => u.node), ...hosts].flatMap((n) => commEvidence(n.record)),
      detail: {
        hosts: hosts.map((h) => h.record.id),
        devices: unreachable.map((u) => u.node.record.id),
        roles: Object.fromEntries([...unreachable.map((u) => u.node), ...hosts].map((n) => [n.record.id, roleNote(n)])),
        engine: unreachable.flatMap((u) => u.links.slice(0, 3).map((x) => engineReason(x, 'communication'))).slice(0, 10),
      },
    });
  }
  if (unknown.length > 0) {
    findings.push(
      commUnknown(
        unknown.map((u) => u.node),
        `Bus link to the host${hosts.length > 1 ? 's' : ''} (${hosts.map((h) => h.record.id).join(', ')}) unknown for ${unknown.map((u) => u.node.record.id).join(', ')}.`,
        'Get the communication interfaces from the vendor datasheet, or declare the roles of the parts.',
        {
          reasons: Object.fromEntries(unknown.map((u) => [u.node.record.id, u.reasons.length === 1 && u.reasons[0]!.hosts === 1 ? u.reasons[0]!.first : u.reasons])),
          roles: Object.fromEntries([...unknown.map((u) => u.node), ...hosts].map((n) => [n.record.id, roleNote(n)])),
        },
      ),
    );
  }
  return [...reached].map(([h, devices]) => ({ host: h.record.id, devices }));
}

/** How many host examples a grouped reason names. */
export const REASON_EXAMPLES = 3;

/**
 * One device's unknown links to the hosts, grouped by the engine's reason text (one entry per
 * distinct reason, not one per host: a device that declares no bus gives the same reason for every
 * host): the count of hosts, the first pair as the engine stated it, the first host ids.
 */
function groupReasons(d: Node, links: Link[]): { reason: string; hosts: number; first: ReturnType<typeof engineReason>; examples: string[] }[] {
  const groups = new Map<string, { reason: string; hosts: number; first: ReturnType<typeof engineReason>; examples: string[] }>();
  for (const x of links) {
    const e = engineReason(x, 'communication');
    const side = x.A === d ? 'a' : 'b';
    const key = `${side}|${e.reason}`;
    const host = (x.A === d ? x.B : x.A).record.id;
    const g = groups.get(key);
    if (g) {
      g.hosts++;
      if (g.examples.length < REASON_EXAMPLES) g.examples.push(host);
    } else groups.set(key, { reason: e.reason, hosts: 1, first: e, examples: [host] });
  }
  return [...groups.values()];
}

/** The communication unknown_dimension finding for the given parts. */
function commUnknown(nodes: Node[], message: string, remedy: string, detail: Record<string, unknown>): Finding {
  return {
    kind: 'unknown_dimension',
    severity: 'info',
    dimension: 'communication',
    parts: nodes.map(partOf),
    message,
    remedy,
    evidence: nodes.flatMap((n) => commEvidence(n.record)),
    detail,
  };
}

// ------------------------------------------------------------------ the positive statement

const fmtRail = (r: Rail) => fmtV({ min: r.min_v, max: r.max_v });

function connectionStatement(c: Connections, errors: number, warnings: number, infos: number): string {
  const out: string[] = [];
  for (const h of c.hosts) {
    if (h.devices.length === 0) {
      out.push(`No device of the set is known to reach the host ${h.host}.`);
      continue;
    }
    const byWay = new Map<string, string[]>();
    for (const d of h.devices) {
      const way = d.via ? `through ${d.via}` : `over ${d.buses.join(' or ')}`;
      byWay.set(way, [...(byWay.get(way) ?? []), d.id]);
    }
    out.push(`Host ${h.host} reaches ${[...byWay].map(([way, ids]) => `${ids.join(', ')} ${way}`).join('; ')}.`);
  }
  for (const g of c.groups) out.push(`${g.parts.join(', ')} share ${g.buses.join(', ')} (no host in the set).`);
  if (c.rails.length === 1 && c.rails[0].parts.length > 1) out.push(`One ${fmtRail(c.rails[0])} supply rail covers ${c.rails[0].parts.join(', ')}.`);
  else if (c.rails.length > 1) out.push(`Supply rails: ${c.rails.map((r) => `${fmtRail(r)} for ${r.parts.join(', ')}`).join('; ')}.`);
  const problems = errors + warnings;
  out.unshift(
    problems === 0
      ? `No problem found${infos > 0 ? ` (${infos} note${infos === 1 ? '' : 's'} on what the data cannot settle)` : ''}.`
      : `${errors} error${errors === 1 ? '' : 's'} and ${warnings} warning${warnings === 1 ? '' : 's'} in findings.`,
  );
  return out.join(' ');
}

// ------------------------------------------------------------------ mechanical

/** The flange field a finding rests on: the list when the record has one, else the single field. */
function flangeEvidence(e: StoredEntity): FindingEvidence {
  const mi = e.mechanical_interface;
  return mi.flanges !== undefined
    ? { id: e.id, field: 'mechanical_interface.flanges', value: mi.flanges }
    : { id: e.id, field: 'mechanical_interface.flange', value: mi.flange };
}

function mechanical(nodes: Node[], res: PairLookup, flanges: FlangeRegistry, findings: Finding[]): void {
  const registered = nodes.filter((n) => {
    const fs = declaredFlanges(n.record);
    return fs.length > 0 && fs.every((f) => lookupFlange(flanges, f) !== null);
  });
  const unknown = nodes.filter((n) => !registered.includes(n));
  const groups = new Map<string, { ruling: NonNullable<CompatibilityResult['dimensions']>['mechanical']; a: Node[]; b: Node[]; pair: [string, string] }>();
  for (let i = 0; i < registered.length; i++) {
    for (let j = i + 1; j < registered.length; j++) {
      const x = res(registered[i], registered[j]);
      const m = x.r.dimensions!.mechanical;
      if (m.verdict !== 'adapter_required' || !m.detail.ruling) continue;
      const [pa, pb] = m.detail.ruling.pair;
      const flip = pa > pb;
      const k = flip ? `${pb}|${pa}` : `${pa}|${pb}`;
      const g = groups.get(k) ?? { ruling: m, a: [], b: [], pair: (flip ? [pb, pa] : [pa, pb]) as [string, string] };
      const [sa, sb] = flip ? [x.B, x.A] : [x.A, x.B];
      if (!g.a.includes(sa)) g.a.push(sa);
      if (!g.b.includes(sb)) g.b.push(sb);
      groups.set(k, g);
    }
  }
  for (const g of groups.values()) {
    const all = [...g.a, ...g.b].sort((x, y) => x.line - y.line);
    findings.push({
      kind: 'flange_adapter',
      severity: 'warning',
      dimension: 'mechanical',
      parts: all.map(partOf),
      message: `${g.pair[0]} (${g.a.map((n) => n.record.id).join(', ')}) and ${g.pair[1]} (${g.b.map((n) => n.record.id).join(', ')}) do not bolt together: ${g.ruling.reason}`,
      remedy: `${g.ruling.adapters[0] ?? 'An adapter plate'} (export_bom adds a printable adapter plate suggestion with a load check).`,
      evidence: all.map((n) => flangeEvidence(n.record)),
      detail: { pair: g.pair, ruling: g.ruling.detail.ruling, adapter_plate: g.ruling.detail.adapter_plate },
    });
  }
  if (unknown.length > 0) {
    findings.push({
      kind: 'unknown_dimension',
      severity: 'info',
      dimension: 'mechanical',
      parts: unknown.map(partOf),
      message: `Mechanical fit unknown for ${unknown.map((n) => n.record.id).join(', ')}: no registered flange designation declared.`,
      remedy: 'Compare the mounting drawings of the parts that bolt together.',
      evidence: unknown.flatMap((n) => [
        flangeEvidence(n.record),
        { id: n.record.id, field: 'mechanical_interface.status', value: n.record.mechanical_interface.status },
      ]),
      detail: {},
    });
  }
}
