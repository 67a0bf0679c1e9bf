/**
 * The parameter semantics registry (spec: "Parameter semantics registry"), computed from the
 * catalogue passed in. Every count is computed here from the entities' declared values; nothing
 * numeric is typed in. Texts are written for this project.
 *
 * Definitions (the spec is silent):
 * - A field is "declared" on an entity when declared[field] holds a value other than a
 *   not-declared placeholder ("N/A", "-", empty); otherwise it is absent.
 *   declared_count + absent_count = entities_scanned.
 * - A notation is the declared value's shape, normalised (NFKC, one dash / dot / tilde kind,
 *   single spaces) with every number replaced by "<n>": "4.1 Nm @ 12V" -> "<n> Nm @ <n>V",
 *   "0.11 sec/60°" -> "<n> sec/60°". Text without digits is its own notation ("varies").
 * - Actuator class: categories actuators, flexible_actuators and integrated_joints.
 * - A dialect is cross-vendor comparable when its notation alone can carry every condition its
 *   quantity needs (requiredConditions is empty): only data rates (speed.comm.bps).
 * - Observed comparability levels count declared values of the covered fields by the parser's
 *   single-value level.
 */
import type { DeclaredKey, StoredEntity } from '../catalogue/entity.js';
import {
  notationOf,
  parseParameter,
  requiredConditions,
  type Level,
  type ParameterHint,
  type ParsedParameter,
  type Quantity,
} from '../parameters/index.js';
import { RED_LINES } from './redlines.js';

export const REGISTRY_VERSION = '1.0.0';
export const FIELDS_COVERED = ['torque', 'speed', 'weight', 'voltage', 'position_resolution'] as const;
export type CoveredField = (typeof FIELDS_COVERED)[number];
export const ACTUATOR_CLASS_CATEGORIES = ['actuators', 'flexible_actuators', 'integrated_joints'] as const;
export const LICENSE = 'CC BY 4.0';
export const ATTRIBUTION = 'Data: RoboParts (https://roboparts.cc), CC BY 4.0';
const TOP_NOTATIONS = 6;
/** Quantities counted in observed_in_mechanical_values (not data rates, voltages, forces). */
const MECHANICAL: ReadonlySet<Quantity> = new Set<Quantity>(['torque', 'angular_speed', 'mass', 'position_resolution', 'backlash', 'accuracy']);

/** The dialects the spec names for the torque and speed breakdowns (always listed, even at 0). */
const SPEC_DIALECTS: Record<'torque' | 'speed', string[]> = {
  torque: ['absent', 'torque.qualitative', 'torque.nm.bare', 'torque.nm.at_voltage', 'unrecognized'],
  speed: ['absent', 'speed.comm.bps', 'speed.qualitative', 'speed.ang.rad_s', 'speed.servo.sec_deg', 'speed.ang.rpm', 'unrecognized'],
};

const DIALECT_NOTES: Record<string, string> = {
  absent: 'no value declared',
  unrecognized: 'has numbers but is not read exactly (extra words, no unit, several values); not comparable',
  'torque.qualitative': 'words only, no number; not a comparable parameter',
  'torque.nm.bare': 'a number in N·m with no rated/peak mark, voltage, temperature or measuring end; comparable within one vendor only',
  'torque.nm.at_voltage': 'N·m at a stated supply voltage; rated/peak, temperature and measuring end still missing',
  'torque.nm.rated': 'N·m marked rated or continuous; voltage, temperature and measuring end missing',
  'torque.nm.peak': 'N·m marked peak or maximum; duration and starting temperature missing',
  'torque.nm.range': 'a range of N·m (a product family or an adjustable limit), not one rating',
  'torque.kgf_cm': 'kilogram-force centimetre (servo notation); converts exactly: Nm = kgf_cm * 0.0980665',
  'torque.kgf_cm.at_voltage': 'kgf·cm at a stated supply voltage; converts exactly to N·m',
  'force.n': 'a force in newtons (e.g. gripping force) declared in the torque field: a different quantity',
  'speed.comm.bps': 'a communication data rate: a different physical quantity from a mechanical speed (KD-01)',
  'speed.qualitative': 'words only, no number',
  'speed.ang.rad_s': 'angular speed in rad/s; load and voltage conditions missing',
  'speed.ang.rpm': 'revolutions per minute; converts exactly: rad_s = rpm * pi / 30',
  'speed.ang.deg_s': 'degrees per second; converts exactly: rad_s = deg_s * pi / 180',
  'speed.servo.sec_deg': 'seconds per 60 degrees (servo notation): inverse of a speed, smaller is faster; rad_s = (pi/3) / t_sec',
};

const DIALECT_QUANTITY: [RegExp, Quantity | 'none' | 'unknown'][] = [
  [/^absent$/, 'none'],
  [/\.qualitative$|^qualitative$/, 'none'],
  [/^unrecognized$/, 'unknown'],
  [/^torque\./, 'torque'],
  [/^speed\.comm\./, 'data_rate'],
  [/^speed\./, 'angular_speed'],
  [/^force\./, 'force'],
  [/^weight\./, 'mass'],
  [/^voltage\./, 'voltage'],
  [/^position_resolution\./, 'position_resolution'],
  [/^backlash\./, 'backlash'],
  [/^accuracy\./, 'accuracy'],
  [/^angle\./, 'angle'],
  [/^length\./, 'length'],
];

function dialectQuantity(dialect: string): Quantity | 'none' | 'unknown' {
  for (const [re, q] of DIALECT_QUANTITY) if (re.test(dialect)) return q;
  return 'unknown';
}

function crossVendorComparable(dialect: string): boolean {
  const q = dialectQuantity(dialect);
  if (q === 'none' || q === 'unknown') return false;
  return requiredConditions(q, false).length === 0;
}

const HINT: Record<CoveredField, ParameterHint> = {
  torque: 'torque',
  speed: 'speed',
  weight: 'weight',
  voltage: 'voltage',
  position_resolution: 'position_resolution',
};

interface FieldScan {
  field: CoveredField;
  parsed: ParsedParameter[]; // declared values only
  absent: number;
}

function scanField(entities: readonly StoredEntity[], field: CoveredField): FieldScan {
  const parsed: ParsedParameter[] = [];
  let absent = 0;
  for (const e of entities) {
    const raw = e.declared[field as DeclaredKey];
    const p = parseParameter(raw, HINT[field]);
    if (p.dialect === 'absent') absent++;
    else parsed.push(p);
  }
  return { field, parsed, absent };
}

function countBy<T>(items: readonly T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const it of items) m.set(key(it), (m.get(key(it)) ?? 0) + 1);
  return m;
}

/** Sorted by count descending, then by key (deterministic). */
function ranked(m: Map<string, number>): [string, number][] {
  return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function entropyBits(counts: number[]): number {
  const n = counts.reduce((s, c) => s + c, 0);
  if (n === 0) return 0;
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log2(c / n);
  return Math.round(h * 100) / 100;
}

export interface FieldEvidence {
  declared_count: number;
  absent_count: number;
  recognized_count: number;
  distinct_notations: number;
  notation_entropy_bits: number;
  notation_entropy_note: string;
  top_notations: { notation: string; count: number }[];
}

export interface DialectRow {
  dialect: string;
  count: number;
  quantity: string;
  cross_vendor_comparable: boolean;
  note: string;
}

function fieldEvidence(scan: FieldScan): FieldEvidence {
  const notations = countBy(scan.parsed, (p) => p.notation);
  const rankedN = ranked(notations);
  const declared = scan.parsed.length;
  const entropy = entropyBits(rankedN.map(([, c]) => c));
  return {
    declared_count: declared,
    absent_count: scan.absent,
    recognized_count: scan.parsed.filter((p) => p.recognized).length,
    distinct_notations: notations.size,
    notation_entropy_bits: entropy,
    notation_entropy_note:
      declared === 0
        ? `no ${scan.field} values declared`
        : `${declared} declared ${scan.field} values use ${notations.size} distinct notations (Shannon entropy ${entropy} bits over notations; 0 would mean one shared notation)`,
    top_notations: rankedN.slice(0, TOP_NOTATIONS).map(([notation, count]) => ({ notation, count })),
  };
}

function dialectBreakdown(scan: FieldScan, field: 'torque' | 'speed'): DialectRow[] {
  const counts = countBy(scan.parsed, (p) => p.dialect);
  counts.set('absent', scan.absent);
  for (const d of SPEC_DIALECTS[field]) if (!counts.has(d)) counts.set(d, 0);
  return ranked(counts).map(([dialect, count]) => ({
    dialect,
    count,
    quantity: dialectQuantity(dialect),
    cross_vendor_comparable: crossVendorComparable(dialect),
    note: DIALECT_NOTES[dialect] ?? 'a notation read exactly by the parser',
  }));
}

const LEVEL_TEXT: Record<Level, { label: string; criteria: string; note: string }> = {
  A: {
    label: 'directly comparable',
    criteria:
      'same physical quantity, same load / temperature / voltage condition, same measuring end (output), rated or peak declared',
    note: 'counted per declared value of the covered fields; data rates and explicit voltage ranges need no further condition and can reach A; observed_in_mechanical_values counts torque, speed, mass and resolution values only',
  },
  B: {
    label: 'comparable after conversion',
    criteria: 'same quantity, different unit with an exact conversion, consistent conditions',
    note: 'use unit_conversions; the conversion is exact, the conditions must still match',
  },
  C: {
    label: 'comparable within one vendor only',
    criteria: 'value present but conditions missing',
    note: 'most declared parameters fall here: a vendor is usually consistent with itself',
  },
  D: {
    label: 'not comparable',
    criteria: 'qualitative, missing, or a different physical quantity',
    note: 'includes values the parser does not read exactly',
  },
};

export interface ParameterSemanticsOptions {
  generatedAt: string;
}

export type ParameterSemantics = ReturnType<typeof buildParameterSemantics>;

/** Builds the registry from the entities passed in (the catalogue the server loaded). */
export function buildParameterSemantics(entities: readonly StoredEntity[], opts: ParameterSemanticsOptions) {
  const scans = Object.fromEntries(FIELDS_COVERED.map((f) => [f, scanField(entities, f)])) as Record<CoveredField, FieldScan>;
  const actuatorClass = entities.filter((e) => (ACTUATOR_CLASS_CATEGORIES as readonly string[]).includes(e.category)).length;

  const allDeclared = FIELDS_COVERED.flatMap((f) => scans[f].parsed);
  const levelCounts = countBy(allDeclared, (p) => p.comparability.level);
  const mechanical = allDeclared.filter((p) => p.quantity !== null && MECHANICAL.has(p.quantity));
  const levelMechanical = countBy(mechanical, (p) => p.comparability.level);
  const levelByField = (level: Level) =>
    Object.fromEntries(FIELDS_COVERED.map((f) => [f, scans[f].parsed.filter((p) => p.comparability.level === level).length]));

  const by_field = Object.fromEntries(FIELDS_COVERED.map((f) => [f, fieldEvidence(scans[f])])) as Record<CoveredField, FieldEvidence>;

  const speedParsed = scans.speed.parsed;
  const speedDataRate = speedParsed.filter((p) => p.quantity === 'data_rate').length;
  const speedAngular = speedParsed.filter((p) => p.quantity === 'angular_speed').length;
  const torqueEv = by_field.torque;
  const torqueExact = scans.torque.parsed.filter((p) => p.quantity === 'torque').length;

  return {
    meta: {
      name: 'Robot Parts Parameter Semantics Registry',
      description:
        'How vendor-declared actuator parameters in this catalogue are written, which of them can be compared across vendors, the exact unit conversions between their notations, and screening red lines for implausible declarations. Computed from the catalogue this server loaded.',
      version: REGISTRY_VERSION,
      generated_at: opts.generatedAt,
      neutrality_statement:
        'This service does not make, sell or broker any component and has no sales or commission relation with any listed vendor. Definitions of parameter conditions published by sellers tend to favour what the seller builds; this registry states the conditions a value needs without reference to any product.',
      epistemic_status:
        'Red lines are order-of-magnitude screening heuristics that mark a declaration for manual review; they are not compliance judgements or a standard. Unit conversions are exact mathematical identities. Evidence counts describe how values are written in this catalogue; the values themselves are vendor declarations, not measurements reproduced by this service.',
      self_disclosure: `This catalogue has the defect it describes: its speed field mixes communication data rates (${speedDataRate} values) with mechanical angular speeds (${speedAngular} values), and torque is declared for ${torqueEv.declared_count} of ${entities.length} entities in ${torqueEv.distinct_notations} notations. See known_defects.`,
      access: {
        free: true,
        api_key_required: false,
        rest: 'GET /api/parameter_semantics.json',
        mcp_resource: 'robotparts://datasets/parameter-semantics',
        related_tools: ['convert_parameter', 'screen_part'],
      },
      license: LICENSE,
      attribution: ATTRIBUTION,
    },
    scope: {
      entities_scanned: entities.length,
      actuator_class_entities: actuatorClass,
      actuator_class_categories: [...ACTUATOR_CLASS_CATEGORIES],
      quarantined_in_scan: entities.filter((e) => e.quarantine).length,
      fields_covered: [...FIELDS_COVERED],
    },
    comparability_levels: (['A', 'B', 'C', 'D'] as const).map((level) => ({
      level,
      label: LEVEL_TEXT[level].label,
      criteria: LEVEL_TEXT[level].criteria,
      observed_in_catalogue: levelCounts.get(level) ?? 0,
      observed_by_field: levelByField(level),
      observed_in_mechanical_values: levelMechanical.get(level) ?? 0,
      note: LEVEL_TEXT[level].note,
    })),
    unit_conversions: [
      { from: 'rpm', to: 'rad/s', formula: 'rad_s = rpm * pi / 30', exact: true },
      {
        from: 'sec/60deg',
        to: 'rad/s',
        formula: 'rad_s = (pi/3) / t_sec',
        exact: true,
        warning:
          'inverse quantities: fewer seconds per 60 degrees is faster, while more rad/s is faster; sorting by the raw numbers gives the opposite order',
      },
      { from: 'kgf·cm', to: 'Nm', formula: 'Nm = kgf_cm * 0.0980665', exact: true },
      { from: 'arcmin', to: 'deg', formula: 'deg = arcmin / 60', exact: true },
      {
        from: 'bit (single-turn encoder)',
        to: 'deg step',
        formula: 'deg_step = 360 / 2**bits',
        exact: true,
        warning: 'a quantisation lower bound, not positioning accuracy',
      },
    ],
    red_lines: RED_LINES.map((r) => ({ ...r })),
    industry_evidence: {
      summary: `Counts over the declared values of ${entities.length} catalogue entities, by how each value is written.`,
      notation_definition:
        'a notation is the value with every number replaced by <n>, after normalising spaces, dashes and full-width characters: "4.1 Nm @ 12V" -> "<n> Nm @ <n>V"',
      by_field,
      dialect_breakdown: {
        torque: dialectBreakdown(scans.torque, 'torque'),
        speed: dialectBreakdown(scans.speed, 'speed'),
      },
    },
    known_defects: [
      {
        id: 'KD-01',
        field: 'speed',
        problem: `one field holds two physical quantities: communication data rates (${speedDataRate} values, e.g. Mbps / Gbps) and mechanical angular speeds (${speedAngular} values, rad/s, rpm, sec/60°)`,
        impact: 'any sort or aggregate over the speed field is meaningless',
        status: 'acknowledged',
        mitigation:
          'the parser separates the two by quantity (dialect_breakdown here, convert_parameter for one value); splitting the field into a data rate and an angular speed is scheduled',
      },
      {
        id: 'KD-02',
        field: 'torque',
        problem: `torque is declared for ${torqueEv.declared_count} of ${entities.length} entities, in ${torqueEv.distinct_notations} notations; ${torqueExact} of them are read exactly as a torque`,
        impact: 'torque cannot drive a catalogue-wide filter or ranking',
        status: 'acknowledged',
        mitigation:
          'no speculative filling: the spec-shaped torque field is filled only where the declared value converts exactly, and the verbatim declaration is kept beside it',
      },
    ],
    buyer_checklist: [
      'With a rated torque, ask for the supply voltage, ambient temperature, how long it can be held continuously, and whether it is measured at the motor or at the output.',
      'With a peak torque, ask how many seconds it lasts, from what starting temperature, and at what duty cycle it can be repeated.',
      'With a backlash figure, ask for the torque it was measured under and whether it covers the reducer alone or the whole joint.',
      'With an accuracy figure, ask whether it is repeatability or absolute accuracy, under which standard, load and speed, and ask for the other one.',
      'With a mass, ask whether it is the complete module as shipped (housing, encoder, brake, driver, cables) and how it was weighed.',
      'With an IP rating, ask which enclosure was tested, with which connectors fitted, and for the test report.',
      'Write every answer, with its conditions, into the technical agreement and the acceptance test.',
    ],
    citation: {
      recommended_form: `Robot Parts Parameter Semantics Registry v${REGISTRY_VERSION} (generated ${opts.generatedAt}), robot-parts-mcp; ${ATTRIBUTION}`,
      license: LICENSE,
      attribution: ATTRIBUTION,
    },
  };
}
