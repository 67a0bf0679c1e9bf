/**
 * Adapter plate design between two registered ISO 9409-1 flanges (pure: numbers in, features out;
 * the mesh and the file bytes are made outside the domain, in src/geometry/).
 *
 * The plate is a disc. Face a (z = 0) bears on side a's part, face b (z = thickness) on side b's.
 * - Side a: socket-head cap screws pass through the plate into side a's part: a clearance hole
 *   (ISO 273 medium) with a counterbore cut from face b (DIN 974-2 diameter; ISO 4762 head height
 *   plus an allowance deep), so the heads sit below face b.
 * - Side b: side b's screws come through its part into the plate: tapped holes (ISO 2306 tap drill,
 *   through), or (option "nut") clearance holes with a hexagonal nut pocket (ISO 4032) in face a.
 * - Both patterns on their registry pitch circles (pcd_mm, bolt_count, thread of the registry row;
 *   the label is never read). Side a's first hole is on +x; side b's pattern is turned by the angle
 *   that leaves the most material between the two patterns (searched over one period). When no
 *   angle leaves the required web and the closest features are on opposite faces, the plate is made
 *   thicker until they are apart in depth (`grown`, said in the answer).
 * - Thickness and outer diameter from the stated rules (data/print.json adapter_plate and
 *   data/plate/fasteners.json rules), every term listed with its source.
 * - No centre bore or spigot: the registry records no centring dimension.
 */
import { DomainError } from '../shared/errors.js';
import { lookupFlange, ruleRegistered, type FlangeDesignation, type FlangeRegistry, type FlangeRulingRecord } from '../knowledge/flange.js';
import { threadDiameterMm, type PrintRules } from '../bom/print.js';
import { declaredFlanges } from '../compatibility/mechanical.js';
import { findPart, type PartsContext } from '../catalogue/parts.js';
import { FASTENER_FILE, type FastenerTable, type ThreadColumn, type ThreadRow } from './fasteners.js';
import { PLATE_MEDIA_TYPES, plateFileName, plateUri, plateUrl, type PlateKey } from './links.js';
import { PLATE_FORMATS, type PlateAnswer, type PlateDesign, type PlateFeature, type PlateHoleOption } from './schema.js';
import { platePageUrl } from '../shared/page-urls.js';

export interface PlateRules {
  flanges: FlangeRegistry;
  fasteners: FastenerTable;
  printRules: PrintRules;
}

export interface PlateRequest {
  a?: string | undefined;
  b?: string | undefined;
  part_a?: string | undefined;
  part_b?: string | undefined;
  b_holes: PlateHoleOption;
  thickness_mm?: number | undefined;
}

export interface PlateContext extends PlateRules {
  /** Catalogue access, for part ids. */
  parts: PartsContext;
  /** Public base URL for REST links; null when none is known (stdio). */
  baseUrl: string | null;
}

const REGISTRY_FILE = 'data/flange/designations.json';
const PRINT_FILE = 'data/print.json';
const r4 = (x: number) => Math.round(x * 1e4) / 1e4 + 0; // + 0: no -0 in the JSON
const ceilStep = (x: number, step: number) => r4(Math.ceil(x / step - 1e-9) * step);
const rad = (deg: number) => (deg * Math.PI) / 180;

export const NOT_LOAD_RATED =
  'Not load-rated: this plate is laid out from the two bolt patterns and rules of thumb; no strength analysis was done. ' +
  'Check it against the real loads (torque, moments, payload) before use. A printed plate needs threaded inserts rather than threads tapped in plastic; ' +
  'beyond the bearing-stress rule of data/print.json (adapter_plate.torque_rule, applied by check_bom and export_bom) machine it from aluminium or steel.';

export const CENTRE_BORE_NOTE =
  'No centre bore or spigot: the flange registry records no centring diameter for these designations, and a centring feature is cut only from a documented dimension. Align the parts on the bolts.';

// --------------------------------------------------------------------------------- inputs

function registeredForms(reg: FlangeRegistry) {
  return reg.designations.map((d) => ({ designation: d.designation, forms: [d.designation, ...(d.aliases ?? []).map((x) => x.form)] }));
}

function designationOf(reg: FlangeRegistry, field: string, written: string): FlangeDesignation {
  const row = lookupFlange(reg, written);
  if (row) return row;
  const forms = registeredForms(reg);
  throw new DomainError(
    'invalid_input',
    `${field}: "${written.trim()}" is not a registered ISO 9409-1 designation (a plate is drawn only from a registered bolt pattern, never from a label). ` +
      `Registered: ${forms.map((f) => `${f.designation} (also written ${f.forms.slice(1).map((x) => `"${x}"`).join(', ')})`).join('; ')}.`,
    { field, registered_forms: forms },
  );
}

interface Resolved {
  ruling: FlangeRulingRecord;
  a: FlangeDesignation;
  b: FlangeDesignation;
  partA: string | null;
  partB: string | null;
  note: string | null;
}

async function resolve(ctx: PlateContext, req: PlateRequest): Promise<Resolved> {
  for (const [d, p] of [['a', 'part_a'], ['b', 'part_b']] as const) {
    const has = (v: string | undefined) => v !== undefined && v.trim() !== '';
    if (has(req[d]) === has(req[p])) {
      throw new DomainError('invalid_input', `${d}: give exactly one of ${d} (a registered ISO 9409-1 designation) and ${p} (a catalogue part id whose flange is declared)`, { field: d, alternatives: [d, p] });
    }
  }
  const reg = ctx.flanges;
  const side = async (d: 'a' | 'b', p: 'part_a' | 'part_b') => {
    if (req[d] !== undefined && req[d]!.trim() !== '') return { rows: [designationOf(reg, d, req[d]!)], part: null as string | null };
    let e;
    try {
      e = await findPart(ctx.parts, req[p]!);
    } catch (err) {
      if (err instanceof DomainError) throw new DomainError(err.code, `${p}: ${err.message}`, { ...err.details, field: p });
      throw err;
    }
    const declared = declaredFlanges(e);
    if (declared.length === 0) {
      throw new DomainError('not_applicable', `${p}: ${e.id} declares no flange designation (mechanical_interface.status: ${e.mechanical_interface.status}); give the designation as ${d} instead.`, { field: p, part: e.id });
    }
    const rows = declared.map((x) => lookupFlange(reg, x));
    const unregistered = declared.filter((_, i) => rows[i] === null);
    if (unregistered.length) {
      throw new DomainError('not_applicable', `${p}: ${e.id} declares ${unregistered.map((x) => `"${x}"`).join(', ')}, not a registered ISO 9409-1 designation.`, {
        field: p,
        part: e.id,
        registered_forms: registeredForms(reg),
      });
    }
    return { rows: rows as FlangeDesignation[], part: e.id };
  };
  const sa = await side('a', 'part_a');
  const sb = await side('b', 'part_b');
  const combos = sa.rows.flatMap((x) => sb.rows.map((y) => ({ x, y, ruling: ruleRegistered(x, y) })));
  const direct = combos.find((c) => c.ruling.verdict === 'identity') ?? combos.find((c) => c.ruling.verdict === 'direct');
  const chosen = direct ?? combos[0]!;
  const many = sa.rows.length > 1 || sb.rows.length > 1;
  return {
    ruling: chosen.ruling,
    a: chosen.x,
    b: chosen.y,
    partA: sa.part,
    partB: sb.part,
    note: many && !direct ? `The parts declare alternative flanges (a: ${sa.rows.map((r) => r.designation).join(', ')}; b: ${sb.rows.map((r) => r.designation).join(', ')}); none match, so the plate is drawn for the first pair.` : null,
  };
}

// --------------------------------------------------------------------------------- layout

interface Stack {
  /** Planar radius used for clearance (a hexagon's circumradius) and the depth range. */
  r: number;
  zMin: number;
  zMax: number;
}

interface SideLayout {
  d: FlangeDesignation;
  row: ThreadRow;
  nominal: number;
  /** Hole angles of the pattern without offset, degrees. */
  stacks: Stack[];
}

function threadRow(t: FastenerTable, d: FlangeDesignation, side: 'a' | 'b'): ThreadRow {
  const row = t.threads[d.thread];
  if (!row) {
    throw new DomainError('not_applicable', `${side}: thread ${d.thread} of ${d.designation} is not in ${FASTENER_FILE}; no plate is drawn without its hole sizes.`, { field: side, thread: d.thread });
  }
  return row;
}

/** Least material between any feature of side a and any of side b with side b turned by phi. */
function minWeb(a: SideLayout, b: SideLayout, phiDeg: number, minWebMm: number): number {
  let least = Infinity;
  const ra = a.d.pcd_mm / 2;
  const rb = b.d.pcd_mm / 2;
  for (let i = 0; i < a.d.bolt_count; i++) {
    const ta = rad((360 * i) / a.d.bolt_count);
    for (let j = 0; j < b.d.bolt_count; j++) {
      const tb = rad(phiDeg + (360 * j) / b.d.bolt_count);
      const dist = Math.hypot(ra * Math.cos(ta) - rb * Math.cos(tb), ra * Math.sin(ta) - rb * Math.sin(tb));
      for (const fa of a.stacks) {
        for (const fb of b.stacks) {
          const zGap = Math.max(fa.zMin - fb.zMax, fb.zMin - fa.zMax);
          if (zGap >= minWebMm - 1e-9) continue;
          least = Math.min(least, dist - fa.r - fb.r);
        }
      }
    }
  }
  return least;
}

function bestAngle(a: SideLayout, b: SideLayout, step: number, minWebMm: number): { phi: number; web: number } {
  const span = 360 / b.d.bolt_count; // side b's pattern repeats every 360/n degrees
  let best = { phi: 0, web: -Infinity };
  for (let k = 0; k * step < span - 1e-9; k++) {
    const phi = r4(k * step);
    const web = minWeb(a, b, phi, minWebMm);
    if (web > best.web + 1e-9) best = { phi, web };
  }
  return best;
}

/** Least material between neighbouring features of one pattern (fixed by the registry). */
function ownWeb(s: SideLayout): number {
  if (s.d.bolt_count < 2) return Infinity;
  const chord = s.d.pcd_mm * Math.sin(Math.PI / s.d.bolt_count);
  return chord - 2 * Math.max(...s.stacks.map((x) => x.r));
}

// --------------------------------------------------------------------------------- design

export function designPlate(rules: PlateRules, a: FlangeDesignation, b: FlangeDesignation, opts: { b_holes: PlateHoleOption; thickness_mm: number | null; from_part_a?: string | null; from_part_b?: string | null }): PlateDesign {
  const { fasteners: F, printRules } = rules;
  const ap = printRules.adapter_plate;
  const R = F.rules;
  const rowA = threadRow(F, a, 'a');
  const rowB = threadRow(F, b, 'b');
  // The registry schema admits only M<d> threads, so the nominal diameter always reads.
  const dA = threadDiameterMm(a.thread)!;
  const dB = threadDiameterMm(b.thread)!;
  const minWebMm = ap.min_web_mm;
  const reg = (d: FlangeDesignation, field: string) => `${REGISTRY_FILE} designations[designation=${d.designation}].${field}${d.source_url ? ` (recorded from ${d.source_url})` : ''}`;
  const fas = (thread: string, col: ThreadColumn) => `${FASTENER_FILE} threads.${thread}.${col} (${F.meta.columns[col]?.standard ?? 'standard not named'})`;
  const rule = (key: string) => `${FASTENER_FILE} rules.${key}`;
  const pr = (key: string) => `${PRINT_FILE} adapter_plate.${key}`;
  // Each source is listed once in design.sources; features, sides, terms and the outline hold its index.
  const sources: string[] = [];
  const sourceIndex = new Map<string, number>();
  const ids = (list: string[]) =>
    list.map((x) => {
      let i = sourceIndex.get(x);
      if (i === undefined) sourceIndex.set(x, (i = sources.push(x) - 1));
      return i;
    });

  const cbDepth = r4(rowA.head_height_max_mm + R.counterbore_depth_allowance_mm);
  const nutAf = r4(rowB.nut_width_across_flats_mm + R.nut_pocket_across_flats_allowance_mm);
  const nutDiag = r4((2 * nutAf) / Math.sqrt(3));
  const nutDepth = r4(rowB.nut_height_max_mm + R.nut_pocket_depth_allowance_mm);
  const underHead = Math.max(minWebMm, R.web_under_head_per_bolt_diameter * dA);

  // Thickness: every term of the rule, with where its numbers come from.
  const terms = [
    { name: 'floor', value_mm: ap.min_thickness_floor_mm, rule: 'Minimum plate thickness.', source_ids: ids([pr('min_thickness_floor_mm')]) },
    {
      name: 'bolt_diameter',
      value_mm: r4(ap.thickness_per_bolt_diameter * Math.max(dA, dB)),
      rule: `${ap.thickness_per_bolt_diameter} x the larger nominal bolt diameter (${Math.max(dA, dB)} mm).`,
      source_ids: ids([pr('thickness_per_bolt_diameter'), reg(a, 'thread'), reg(b, 'thread')]),
    },
    {
      name: 'counterbore_and_web_under_head',
      value_mm: r4(cbDepth + underHead),
      rule: `Counterbore depth ${cbDepth} mm (head height ${rowA.head_height_max_mm} + ${R.counterbore_depth_allowance_mm} mm) + ${underHead} mm under the head (max of ${R.web_under_head_per_bolt_diameter} x d and the minimum web).`,
      source_ids: ids([fas(a.thread, 'head_height_max_mm'), rule('counterbore_depth_allowance_mm'), rule('web_under_head_per_bolt_diameter'), pr('min_web_mm')]),
    },
    opts.b_holes === 'tapped'
      ? {
          name: 'thread_engagement',
          value_mm: r4(R.thread_engagement_per_bolt_diameter * dB),
          rule: `Tapped hole at least ${R.thread_engagement_per_bolt_diameter} x d (${dB} mm) long.`,
          source_ids: ids([rule('thread_engagement_per_bolt_diameter'), reg(b, 'thread')]),
        }
      : {
          name: 'nut_pocket_and_web',
          value_mm: r4(nutDepth + minWebMm),
          rule: `Nut pocket depth ${nutDepth} mm (nut height ${rowB.nut_height_max_mm} + ${R.nut_pocket_depth_allowance_mm} mm) + the minimum web ${minWebMm} mm.`,
          source_ids: ids([fas(b.thread, 'nut_height_max_mm'), rule('nut_pocket_depth_allowance_mm'), pr('min_web_mm')]),
        },
  ];
  const required = ceilStep(Math.max(...terms.map((t) => t.value_mm)), R.thickness_step_mm);
  const warnings: string[] = [];
  const deepest = opts.b_holes === 'nut' ? Math.max(cbDepth, nutDepth) : cbDepth;
  const geometricMin = r4(deepest + minWebMm);
  if (opts.thickness_mm !== null && opts.thickness_mm < geometricMin) {
    throw new DomainError(
      'invalid_input',
      `thickness_mm: ${opts.thickness_mm} mm leaves less than the minimum web (${minWebMm} mm) under the ${deepest === cbDepth ? 'counterbores' : 'nut pockets'} (${deepest} mm deep); give at least ${geometricMin} mm, or leave it out for the rule thickness (${required} mm).`,
      { field: 'thickness_mm', minimum_mm: geometricMin, rule_thickness_mm: required },
    );
  }
  let t = opts.thickness_mm ?? required;
  if (opts.thickness_mm !== null && opts.thickness_mm < required) {
    warnings.push(`Thickness override ${opts.thickness_mm} mm is below the rule thickness ${required} mm (${terms.filter((x) => x.value_mm > opts.thickness_mm!).map((x) => x.name).join(', ')}).`);
  }

  const layout = (thk: number) => {
    const A: SideLayout = {
      d: a,
      row: rowA,
      nominal: dA,
      stacks: [
        { r: rowA.clearance_medium_mm / 2, zMin: 0, zMax: thk },
        { r: rowA.counterbore_diameter_mm / 2, zMin: thk - cbDepth, zMax: thk },
      ],
    };
    const B: SideLayout = {
      d: b,
      row: rowB,
      nominal: dB,
      stacks:
        opts.b_holes === 'tapped'
          ? [{ r: rowB.tap_drill_mm / 2, zMin: 0, zMax: thk }]
          : [
              { r: rowB.clearance_medium_mm / 2, zMin: 0, zMax: thk },
              { r: nutDiag / 2, zMin: 0, zMax: nutDepth },
            ],
    };
    return { A, B };
  };

  let { A, B } = layout(t);
  let best = bestAngle(A, B, R.angle_step_deg, minWebMm);
  let grown: PlateDesign['grown'] = null;
  if (best.web < minWebMm - 1e-9 && opts.b_holes === 'nut' && opts.thickness_mm === null) {
    // Counterbores (face b) and nut pockets (face a) apart in depth by the minimum web.
    const deeper = ceilStep(cbDepth + nutDepth + minWebMm, R.thickness_step_mm);
    if (deeper > t) {
      const next = layout(deeper);
      const nb = bestAngle(next.A, next.B, R.angle_step_deg, minWebMm);
      if (nb.web > best.web + 1e-9) {
        grown = {
          from_thickness_mm: t,
          to_thickness_mm: deeper,
          reason: `At ${t} mm no angle leaves ${minWebMm} mm between side a's counterbores and side b's nut pockets; at ${deeper} mm (counterbore ${cbDepth} + nut pocket ${nutDepth} + web ${minWebMm} mm) they no longer overlap in depth.`,
        };
        t = deeper;
        ({ A, B } = next);
        best = nb;
      }
    }
  }
  if (best.web <= 0) {
    const other = opts.b_holes === 'tapped' ? 'nut' : 'tapped';
    throw new DomainError(
      'not_applicable',
      `No flat plate: at every angle a hole of ${a.designation} cuts into one of ${b.designation} (b_holes "${opts.b_holes}"). Try b_holes "${other}", swap a and b, or use a two-piece adapter.`,
      { field: 'b_holes', least_web_mm: r4(best.web) },
    );
  }
  if (best.web < minWebMm - 1e-9) {
    warnings.push(`No angle leaves the minimum web of ${minWebMm} mm between the two patterns: the thinnest wall is ${r4(best.web)} mm (at ${best.phi} degrees). Print or machine with care, or try the other b_holes option.`);
  }
  for (const s of [A, B]) {
    const w = ownWeb(s);
    if (w <= 0) throw new DomainError('not_applicable', `The features of ${s.d.designation}'s own pattern overlap (${r4(w)} mm): no flat plate.`, { field: s === A ? 'a' : 'b' });
    if (w < minWebMm) warnings.push(`Neighbouring features of ${s.d.designation} leave ${r4(w)} mm of material, less than the ${minWebMm} mm minimum web.`);
  }

  // Features, side a first (hole 1 on +x), then side b turned by the chosen angle.
  const features: PlateFeature[] = [];
  const place = (d: FlangeDesignation, i: number, phi: number) => {
    const ang = phi + (360 * i) / d.bolt_count;
    return { ang: r4(ang), x: r4((d.pcd_mm / 2) * Math.cos(rad(ang))), y: r4((d.pcd_mm / 2) * Math.sin(rad(ang))) };
  };
  const patternSrc = (d: FlangeDesignation) => [reg(d, 'pcd_mm'), reg(d, 'bolt_count')];
  for (let i = 0; i < a.bolt_count; i++) {
    const p = place(a, i, 0);
    const common = { side: 'a' as const, hole: i + 1, shape: 'circle' as const, across_flats_mm: null, rotation_deg: null, x_mm: p.x, y_mm: p.y, pitch_circle_diameter_mm: a.pcd_mm };
    features.push({
      ...common,
      id: `a${i + 1}.clearance_hole`,
      kind: 'clearance_hole',
      diameter_mm: rowA.clearance_medium_mm,
      depth_mm: t,
      from_face: 'b',
      z_min_mm: 0,
      z_max_mm: t,
      rule: `Clearance hole, medium series, for side a's ${a.thread} socket-head cap screws; through.`,
      source_ids: ids([...patternSrc(a), reg(a, 'thread'), fas(a.thread, 'clearance_medium_mm')]),
    });
    features.push({
      ...common,
      id: `a${i + 1}.counterbore`,
      kind: 'counterbore',
      diameter_mm: rowA.counterbore_diameter_mm,
      depth_mm: cbDepth,
      from_face: 'b',
      z_min_mm: r4(t - cbDepth),
      z_max_mm: t,
      rule: `Counterbore for the ${a.thread} ISO 4762 head (${rowA.head_diameter_max_mm} mm, ${rowA.head_height_max_mm} mm high): ${R.counterbore_depth_rule}`,
      source_ids: ids([...patternSrc(a), fas(a.thread, 'counterbore_diameter_mm'), fas(a.thread, 'head_diameter_max_mm'), fas(a.thread, 'head_height_max_mm'), rule('counterbore_depth_allowance_mm')]),
    });
  }
  for (let j = 0; j < b.bolt_count; j++) {
    const p = place(b, j, best.phi);
    const common = { side: 'b' as const, hole: j + 1, x_mm: p.x, y_mm: p.y, pitch_circle_diameter_mm: b.pcd_mm };
    if (opts.b_holes === 'tapped') {
      features.push({
        ...common,
        id: `b${j + 1}.tap_drill_hole`,
        kind: 'tap_drill_hole',
        shape: 'circle',
        diameter_mm: rowB.tap_drill_mm,
        across_flats_mm: null,
        rotation_deg: null,
        depth_mm: t,
        from_face: 'b',
        z_min_mm: 0,
        z_max_mm: t,
        rule: `Tap drill for ${b.thread} x ${rowB.pitch_mm} (tap after printing or drilling; in a printed plate prefer threaded inserts); through. ${R.thread_engagement_rule}`,
        source_ids: ids([...patternSrc(b), reg(b, 'thread'), fas(b.thread, 'tap_drill_mm'), fas(b.thread, 'pitch_mm')]),
      });
    } else {
      features.push({
        ...common,
        id: `b${j + 1}.clearance_hole`,
        kind: 'clearance_hole',
        shape: 'circle',
        diameter_mm: rowB.clearance_medium_mm,
        across_flats_mm: null,
        rotation_deg: null,
        depth_mm: t,
        from_face: 'a',
        z_min_mm: 0,
        z_max_mm: t,
        rule: `Clearance hole, medium series, for side b's ${b.thread} screws held by a nut in face a; through.`,
        source_ids: ids([...patternSrc(b), reg(b, 'thread'), fas(b.thread, 'clearance_medium_mm')]),
      });
      features.push({
        ...common,
        id: `b${j + 1}.nut_pocket`,
        kind: 'nut_pocket',
        shape: 'hexagon',
        diameter_mm: nutDiag,
        across_flats_mm: nutAf,
        rotation_deg: p.ang,
        depth_mm: nutDepth,
        from_face: 'a',
        z_min_mm: 0,
        z_max_mm: nutDepth,
        rule: R.nut_pocket_rule,
        source_ids: ids([...patternSrc(b), fas(b.thread, 'nut_width_across_flats_mm'), fas(b.thread, 'nut_height_max_mm'), rule('nut_pocket_across_flats_allowance_mm'), rule('nut_pocket_depth_allowance_mm')]),
      });
    }
  }

  // Outline: a disc around the larger pattern, each hole centre at least the edge distance inside.
  const edge = (s: SideLayout) => Math.max(ap.edge_distance_per_bolt_diameter * s.nominal, Math.max(...s.stacks.map((x) => x.r)) + minWebMm);
  const diameter = ceilStep(Math.max(a.pcd_mm + 2 * edge(A), b.pcd_mm + 2 * edge(B)), R.thickness_step_mm);

  // Analytic volume: disc minus each hole's stack (through feature plus the larger pocket over its depth).
  const area = (f: PlateFeature) => (f.shape === 'hexagon' ? (Math.sqrt(3) / 2) * f.across_flats_mm! ** 2 : (Math.PI * f.diameter_mm ** 2) / 4);
  let removed = 0;
  for (const f of features) {
    if (f.depth_mm === t) removed += area(f) * t;
    else {
      const through = features.find((g) => g.side === f.side && g.hole === f.hole && g.depth_mm === t)!;
      removed += (area(f) - area(through)) * f.depth_mm;
    }
  }
  const volume = (Math.PI * diameter ** 2 * t) / 4 - removed;

  const key: PlateKey = { a: a.designation, b: b.designation, b_holes: opts.b_holes, thickness_mm: opts.thickness_mm };
  const side = (d: FlangeDesignation, role: string, part: string | null | undefined) => ({
    designation: d.designation,
    pcd_mm: d.pcd_mm,
    bolt_count: d.bolt_count,
    thread: d.thread,
    role,
    from_part: part ?? null,
    source_ids: ids([reg(d, 'pcd_mm'), reg(d, 'bolt_count'), reg(d, 'thread')]),
  });
  return {
    id: plateFileName(key, 'json').replace(/\.json$/, ''),
    units: 'mm',
    b_holes: opts.b_holes,
    side_a: side(a, `Bolted to the plate with ${a.thread} socket-head cap screws from face b (counterbored) into side a's part.`, opts.from_part_a),
    side_b: side(
      b,
      opts.b_holes === 'tapped' ? `Side b's ${b.thread} screws go through its part into tapped holes of the plate.` : `Side b's ${b.thread} screws go through its part and the plate into nuts held in pockets of face a.`,
      opts.from_part_b,
    ),
    outline: {
      shape: 'disc',
      diameter_mm: diameter,
      thickness_mm: t,
      rule: `${ap.outline_rule} Edge distance per side = max(${ap.edge_distance_per_bolt_diameter} x d, largest feature radius + ${minWebMm} mm); diameter = the larger PCD + 2 x its edge distance, rounded up to ${R.thickness_step_mm} mm.`,
      source_ids: ids([pr('edge_distance_per_bolt_diameter'), pr('min_web_mm'), reg(a, 'pcd_mm'), reg(b, 'pcd_mm')]),
    },
    thickness: { value_mm: t, required_mm: required, override_mm: opts.thickness_mm, terms, rule: R.thickness_rule },
    angular_offset: { side_b_deg: best.phi, min_web_mm: r4(best.web), required_web_mm: minWebMm, rule: R.angle_rule },
    grown,
    centre_bore: null,
    centre_bore_note: CENTRE_BORE_NOTE,
    features,
    volume_mm3: r4(volume),
    warnings: grown ? [`The plate grew from ${grown.from_thickness_mm} to ${grown.to_thickness_mm} mm: ${grown.reason}`, ...warnings] : warnings,
    sources,
  };
}

/** The answer of design_adapter_plate: the ruling, and the plate with its files when one is needed. */
export async function designAdapterPlate(ctx: PlateContext, req: PlateRequest): Promise<PlateAnswer> {
  const r = await resolve(ctx, req);
  const m = ctx.printRules.material;
  const base = {
    ruling: r.ruling,
    not_load_rated: NOT_LOAD_RATED,
    material: { ...m, source: `${PRINT_FILE} material` },
  };
  if (r.ruling.verdict !== 'adapter_required') {
    return {
      plate_needed: false,
      reason: `No adapter plate is needed: ${r.ruling.reason}`,
      design: null,
      files: [],
      ...base,
    };
  }
  const thickness = req.thickness_mm ?? null;
  const design = designPlate(ctx, r.a, r.b, { b_holes: req.b_holes, thickness_mm: thickness, from_part_a: r.partA, from_part_b: r.partB });
  if (r.note) design.warnings.unshift(r.note);
  const key: PlateKey = { a: r.a.designation, b: r.b.designation, b_holes: req.b_holes, thickness_mm: thickness };
  return {
    plate_needed: true,
    reason: r.ruling.reason,
    ...(ctx.baseUrl === null ? {} : { page_url: platePageUrl(ctx.baseUrl, key.a, key.b, key.b_holes) }),
    design,
    files: PLATE_FORMATS.map((format) => ({ format, name: plateFileName(key, format), media_type: PLATE_MEDIA_TYPES[format], uri: plateUri(key, format), url: plateUrl(ctx.baseUrl, key, format) })),
    ...base,
  };
}
