/**
 * lint_urdf: the checks urdfdom's check_urdf performs when it builds the model, plus mimic and
 * transmission references. Each finding has its line, a severity and a fix hint. Pure; linear.
 *
 * urdfdom parity (errors where check_urdf refuses the model): well-formed XML; a <robot> with a
 * name and at least one link; unique link and joint names; every joint has a known type, a
 * parent and a child naming defined links; a link is the child of at most one joint; exactly one
 * root link; revolute and prismatic joints have a <limit> with effort and velocity; a <mimic>
 * names a joint; numeric attributes of joints parse as numbers. Warnings where check_urdf logs
 * an error but builds the model: numbers that do not parse inside a <link> (urdfdom drops that
 * <inertial>, <visual> or <collision>), a revolute <limit> without lower or upper, a mimic joint
 * following another mimic joint, a <transmission> naming an undefined joint.
 * Stricter than check_urdf on purpose (errors it does not report): links not reachable from the
 * root (a cycle off the tree), a mimic of an undefined joint or of itself.
 */
import { z } from 'zod';
import type { DecodeNote } from './decode.js';
import { parseXmlInput } from './limits.js';
import { URDF_JOINT_TYPES } from './types.js';
import { readUrdfModel, tidy } from './urdf-model.js';
import { childElements, walk, XmlError, parseXml, type XmlElement } from './xml.js';

export const LINT_CODES = [
  'xml_malformed',
  'no_robot',
  'robot_no_name',
  'links_none',
  'link_no_name',
  'link_duplicate',
  'joint_no_name',
  'joint_duplicate',
  'joint_type_invalid',
  'joint_parent_missing',
  'joint_child_missing',
  'joint_link_undefined',
  'link_multiple_parents',
  'root_none',
  'root_multiple',
  'link_unreachable',
  'limit_missing',
  'limit_effort_missing',
  'limit_velocity_missing',
  'limit_range_missing',
  'number_invalid',
  'mimic_target_missing',
  'mimic_target_undefined',
  'mimic_target_is_mimic',
  'mimic_self',
  'transmission_joint_undefined',
  'material_duplicate',
  'material_no_color',
  'material_undefined',
  'dtd_refused',
  'inertial_incomplete',
  'geometry_missing',
  'geometry_incomplete',
  'geometry_unknown',
  'replacement_character',
  'encoding',
] as const;
export type LintCode = (typeof LINT_CODES)[number];

/** What Debian's check_urdf (urdfdom) does with the same case: refuses the model, builds it but logs, or accepts it silently. */
export type CheckUrdfVerdict = 'refuses' | 'warns' | 'accepts';
const CHECK_URDF: Record<LintCode, CheckUrdfVerdict> = {
  xml_malformed: 'refuses',
  no_robot: 'refuses',
  robot_no_name: 'refuses',
  links_none: 'refuses',
  link_no_name: 'refuses',
  link_duplicate: 'refuses',
  joint_no_name: 'refuses',
  joint_duplicate: 'refuses',
  joint_type_invalid: 'refuses',
  joint_parent_missing: 'refuses',
  joint_child_missing: 'refuses',
  joint_link_undefined: 'refuses',
  link_multiple_parents: 'refuses',
  root_none: 'refuses',
  root_multiple: 'refuses',
  link_unreachable: 'accepts',
  limit_missing: 'refuses',
  limit_effort_missing: 'refuses',
  limit_velocity_missing: 'refuses',
  limit_range_missing: 'accepts',
  number_invalid: 'refuses',
  mimic_target_missing: 'refuses',
  mimic_target_undefined: 'accepts',
  mimic_target_is_mimic: 'accepts',
  mimic_self: 'accepts',
  transmission_joint_undefined: 'accepts',
  material_duplicate: 'refuses',
  material_no_color: 'warns',
  material_undefined: 'warns',
  dtd_refused: 'refuses',
  inertial_incomplete: 'warns',
  geometry_missing: 'warns',
  geometry_incomplete: 'warns',
  geometry_unknown: 'warns',
  replacement_character: 'accepts',
  encoding: 'refuses',
};
/** Malformed XML that TinyXML2 (urdfdom's parser) still reads: it stops after the first element and takes unquoted values. */
const TINYXML_READS = /^(text after the root element|a second top-level element|value of attribute .* is not quoted)/;

export const LintFinding = z
  .object({
    code: z.enum(LINT_CODES),
    severity: z.enum(['error', 'warning']).describe('warning: builds but likely wrong'),
    check_urdf: z.enum(['refuses', 'warns', 'accepts']).describe('What check_urdf does here'),
    line: z.number().int().nullable(),
    column: z.number().int().optional(),
    file: z.string().optional(),
    message: z.string(),
    fix: z.string(),
  })
  .strict();
export type LintFinding = z.infer<typeof LintFinding>;

export const LintSummary = z
  .object({
    ok: z.boolean(),
    errors: z.number().int(),
    warnings: z.number().int(),
    robot_name: z.string().nullable(),
    links: z.number().int(),
    joints: z.number().int(),
    root_links: z.array(z.string()).describe('One expected'),
    by_code: z.record(z.string(), z.number().int()),
  })
  .strict();
export type LintSummary = z.infer<typeof LintSummary>;

export const LintResult = z
  .object({ summary: LintSummary, findings: z.array(LintFinding).describe('At most 500') })
  .strict();
export type LintResult = z.infer<typeof LintResult>;

const MAX_FINDINGS = 500;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?(?:inf|nan)$/i;

/** Numeric attributes by element, with how many numbers each holds. */
const NUMERIC: Record<string, Record<string, number>> = {
  origin: { xyz: 3, rpy: 3 },
  axis: { xyz: 3 },
  limit: { lower: 1, upper: 1, effort: 1, velocity: 1 },
  mass: { value: 1 },
  inertia: { ixx: 1, ixy: 1, ixz: 1, iyy: 1, iyz: 1, izz: 1 },
  dynamics: { damping: 1, friction: 1 },
  safety_controller: { soft_lower_limit: 1, soft_upper_limit: 1, k_position: 1, k_velocity: 1 },
  calibration: { rising: 1, falling: 1 },
  mimic: { multiplier: 1, offset: 1 },
  box: { size: 3 },
  cylinder: { radius: 1, length: 1 },
  sphere: { radius: 1 },
  mesh: { scale: 3 },
  color: { rgba: 4 },
};


/** Lints URDF text: malformed XML is an xml_malformed finding with line and column; an XML limit throws invalid_input. */
export function lintUrdf(text: string, field = 'content'): LintResult {
  let root: XmlElement;
  try {
    root = parseXml(text, { text: false });
  } catch (err) {
    if (!(err instanceof XmlError) || err.limit) return parseXmlInput(text, field, { text: false }) as never; // rethrows as invalid_input
    return malformedResult(err);
  }
  return lintUrdfDocument(root);
}

/** The lint result of a document that did not parse: one xml_malformed error with line and column. */
export function malformedResult(err: XmlError, file?: string): LintResult {
  return {
    summary: { ok: false, errors: 1, warnings: 0, robot_name: null, links: 0, joints: 0, root_links: [], by_code: { xml_malformed: 1 } },
    findings: [
      { code: 'xml_malformed', severity: 'error', check_urdf: TINYXML_READS.test(err.reason) ? 'accepts' : 'refuses', line: err.line, column: err.column, ...(file !== undefined ? { file } : {}), message: `not well-formed XML: ${err.reason}`, fix: 'fix the XML so every tag, comment and attribute value is closed and end tags match their start tags' },
    ],
  };
}

/** Lints a parsed (and, for xacro, expanded) document. `withFiles`: findings name the file of the element. */
export function lintUrdfDocument(root: XmlElement, withFiles = false): LintResult {
  const findings: LintFinding[] = [];
  const byCode: Record<string, number> = {};
  let errors = 0;
  let warnings = 0;
  const add = (code: LintCode, severity: LintFinding['severity'], at: XmlElement | null, message: string, fix: string, checkUrdf: CheckUrdfVerdict = CHECK_URDF[code]) => {
    byCode[code] = (byCode[code] ?? 0) + 1;
    if (severity === 'error') errors += 1;
    else warnings += 1;
    if (findings.length < MAX_FINDINGS) findings.push({ code, severity, check_urdf: checkUrdf, line: at ? at.line : null, ...(withFiles && at?.file !== undefined ? { file: at.file } : {}), message, fix });
  };

  const model = readUrdfModel(root);
  const robot = model.robot;
  if (!robot) {
    add('no_robot', 'error', root, `the root element is <${root.name}>, not <robot>`, 'wrap the links and joints in <robot name="...">…</robot>');
    return finish(findings, errors, warnings, byCode, null, 0, 0, []);
  }
  // Names, types and references are compared exactly as written, as urdfdom compares them ("b " is not "b").
  const robotName = robot.attrs.get('name') ?? null;
  if (robotName === null) add('robot_no_name', 'error', robot, '<robot> has no name attribute (check_urdf: "No name given for the robot")', 'add name="..." to <robot>');

  // Numbers that must parse: inside a joint urdfdom refuses the model; inside a link it drops that part.
  for (const { el, parents } of walk(robot)) {
    const spec = NUMERIC[el.name];
    if (!spec || parents.some((p) => REFERENCE_CONTAINERS_LINT.has(p.name))) continue;
    const inLink = parents.length >= 2 && parents[1].name === 'link';
    const inJoint = parents.length >= 2 && parents[1].name === 'joint';
    if (!inLink && !inJoint) continue;
    for (const [attr, n] of Object.entries(spec)) {
      const v = el.attrs.get(attr);
      if (v === undefined) continue;
      const parts = v.trim().split(/\s+/).filter(Boolean);
      if (parts.length !== n || !parts.every((p) => NUMBER.test(p))) {
        const what = `<${el.name} ${attr}="${v.length > 40 ? `${v.slice(0, 40)}…` : v}"> is not ${n === 1 ? 'a number' : `${n} numbers separated by spaces`}`;
        add(
          'number_invalid',
          inJoint ? 'error' : 'warning',
          el,
          inJoint ? what : `${what}; check_urdf logs it and drops this part of link "${tidy(parents[1].attrs.get('name')) ?? '?'}"`,
          `write ${attr} as ${n === 1 ? 'one decimal number, e.g. "0.5"' : `${n} decimal numbers, e.g. "${Array(n).fill('0').join(' ')}"`}`,
          inJoint ? 'refuses' : 'warns',
        );
      }
    }
  }

  if (root.dtdSubset) {
    add('dtd_refused', 'error', null, `a DOCTYPE with an internal subset ([ ... ], e.g. <!ENTITY>) at line ${root.dtdSubset.line}: urdfdom cannot read the document, and entities are not expanded here`, 'remove the DOCTYPE and write the values the entities stood for');
  }
  lintMaterialsAndLinks(robot, model, add);
  // Bytes that did not decode (e.g. ISO-8859-1 read as UTF-8) became U+FFFD: never silent.
  for (const { el } of walk(robot)) {
    const hit = [...el.attrs].find(([, v]) => v.includes('\uFFFD'));
    if (hit) add('replacement_character', 'warning', el, `<${el.name} ${hit[0]}="${hit[1].slice(0, 40)}"> holds U+FFFD: bytes that were not valid UTF-8 were replaced`, 'save the file as UTF-8 (names compare as the bytes urdfdom reads)');
  }

  const links = new Map<string, XmlElement>();
  for (const l of model.links) {
    const name = l.el.attrs.get('name');
    if (name === undefined) add('link_no_name', 'error', l.el, '<link> without a name attribute', 'give the link a unique name="..."');
    else if (links.has(name)) add('link_duplicate', 'error', l.el, `link "${name}" is defined more than once (first at line ${links.get(name)!.line})`, 'rename one of the links or remove the duplicate');
    else links.set(name, l.el);
  }
  if (model.links.length === 0) add('links_none', 'error', robot, 'the robot has no <link> (check_urdf: "No link elements found")', 'add at least one <link name="..."/>');

  const jointNames = new Map<string, (typeof model.joints)[number]>();
  const childOf = new Map<string, string>();
  const edges = new Map<string, string[]>();
  const jointName = (j: (typeof model.joints)[number]) => j.el.attrs.get('name');
  for (const j of model.joints) {
    const jn = jointName(j);
    const label = jn !== undefined ? `joint "${jn}"` : 'a joint';
    if (jn === undefined) add('joint_no_name', 'error', j.el, '<joint> without a name attribute', 'give the joint a unique name="..."');
    else if (jointNames.has(jn)) add('joint_duplicate', 'error', j.el, `joint "${jn}" is defined more than once (first at line ${jointNames.get(jn)!.el.line})`, 'rename one of the joints or remove the duplicate');
    else jointNames.set(jn, j);
    const type = j.type;
    if (type === undefined || !(URDF_JOINT_TYPES as readonly string[]).includes(type)) {
      const trimmed = type?.trim();
      add(
        'joint_type_invalid',
        'error',
        j.el,
        `${label} has type ${type !== undefined ? `"${type}"` : 'missing'}${trimmed && trimmed !== type && (URDF_JOINT_TYPES as readonly string[]).includes(trimmed) ? ' (spaces around the type: urdfdom compares it as written)' : ''}`,
        `set type to one of ${URDF_JOINT_TYPES.join(', ')}, without spaces`,
      );
    }
    const ends: ['parent' | 'child', XmlElement | undefined][] = [['parent', j.parts.parent], ['child', j.parts.child]];
    const named: Partial<Record<'parent' | 'child', string>> = {};
    for (const [end, t] of ends) {
      const link = t?.attrs.get('link');
      if (link === undefined) add(end === 'parent' ? 'joint_parent_missing' : 'joint_child_missing', 'error', t ?? j.el, `${label} has no <${end} link="...">`, `add <${end} link="name of a defined link"/> inside the joint`);
      else if (!links.has(link)) {
        const near = links.has(link.trim()) && link.trim() !== link ? ` (link "${link.trim()}" is: urdfdom compares names as written, spaces included)` : '';
        add('joint_link_undefined', 'error', t!, `${label}: ${end} link "${link}" is not defined${near}`, near ? `write link="${link.trim()}" without spaces` : `define <link name="${link}"> or name an existing link`);
      }
      else {
        named[end] = link;
        if (end === 'child') {
          if (childOf.has(link)) add('link_multiple_parents', 'error', t!, `link "${link}" is the child of ${label} and of joint "${childOf.get(link)}"`, 'a link has at most one parent joint: the model must be a tree');
          else childOf.set(link, jn ?? '?');
        }
      }
    }
    if (named.parent && named.child) edges.set(named.parent, [...(edges.get(named.parent) ?? []), named.child]);
    if (type === 'revolute' || type === 'prismatic') {
      const limit = j.parts.limit;
      if (!limit) add('limit_missing', 'error', j.el, `${label} is ${type} but has no <limit>`, 'add <limit lower="..." upper="..." effort="..." velocity="..."/> (urdfdom requires it for revolute and prismatic joints)');
      else {
        if (limit.attrs.get('effort') === undefined) add('limit_effort_missing', 'error', limit, `${label}: <limit> has no effort`, 'add effort="..." (N·m for revolute, N for prismatic)');
        if (type === 'revolute' && (limit.attrs.get('lower') === undefined || limit.attrs.get('upper') === undefined)) {
          add('limit_range_missing', 'warning', limit, `${label}: <limit> has no ${limit.attrs.get('lower') === undefined ? 'lower' : 'upper'}; urdfdom reads it as 0`, 'write lower="..." and upper="..." in radians (or use type="continuous" for an unbounded joint)');
        }
        if (limit.attrs.get('velocity') === undefined) add('limit_velocity_missing', 'error', limit, `${label}: <limit> has no velocity`, 'add velocity="..." (rad/s for revolute, m/s for prismatic)');
      }
    }
  }
  for (const j of model.joints) {
    const mimic = j.parts.mimic;
    if (!mimic) continue;
    const jn = jointName(j);
    const label = jn !== undefined ? `joint "${jn}"` : 'a joint';
    const target = mimic.attrs.get('joint');
    if (target === undefined) add('mimic_target_missing', 'error', mimic, `${label}: <mimic> has no joint attribute`, 'name the joint it follows: <mimic joint="..."/>');
    else if (target === jn) add('mimic_self', 'error', mimic, `${label} mimics itself`, 'name another joint in <mimic joint="...">');
    else if (!jointNames.has(target)) add('mimic_target_undefined', 'error', mimic, `${label} mimics "${target}", which is not defined`, `define joint "${target}" or name an existing joint`);
    else if (jointNames.get(target)!.parts.mimic) add('mimic_target_is_mimic', 'warning', mimic, `${label} mimics "${target}", which is itself a mimic joint`, `urdfdom builds it, but some tools (MoveIt) need every mimic to name an actuated joint: follow the joint "${target}" follows, with the multipliers and offsets composed`);
  }
  for (const t of model.references) {
    if (t.container !== 'transmission' || !t.name) continue;
    if (!jointNames.has(t.name)) add('transmission_joint_undefined', 'warning', t.el, `<transmission> names joint "${t.name}", which is not defined`, `rename it to a defined joint or define joint "${t.name}" (check_urdf ignores transmissions; ros_control refuses it)`);
  }
  const roots = [...links.keys()].filter((l) => !childOf.has(l));
  if (links.size > 0 && roots.length === 0) add('root_none', 'error', null, 'no root link: every link is some joint\'s child (a cycle)', 'break the cycle so one link is no joint\'s child');
  if (roots.length > 1) {
    add('root_multiple', 'error', null, `${roots.length} root links (${roots.slice(0, 5).join(', ')}${roots.length > 5 ? ', …' : ''}): urdfdom needs exactly one`, 'connect every other root to the tree with a joint (fixed if it does not move), or remove unused links');
  }
  if (roots.length === 1) {
    // Links off the tree: children of a cycle that the root never reaches (urdfdom builds the model and drops them).
    const reached = new Set<string>([roots[0]]);
    const queue = [roots[0]];
    while (queue.length > 0) for (const c of edges.get(queue.pop()!) ?? []) if (!reached.has(c)) (reached.add(c), queue.push(c));
    const off = [...links.keys()].filter((l) => !reached.has(l));
    if (off.length > 0) {
      add('link_unreachable', 'error', links.get(off[0])!, `${off.length} link(s) not reachable from the root link "${roots[0]}" (${off.slice(0, 5).join(', ')}${off.length > 5 ? ', …' : ''}): their joints form a cycle off the tree`, 'break the cycle and attach those links to the tree (check_urdf silently drops them)');
    }
  }
  return finish(findings, errors, warnings, byCode, robotName, links.size, model.joints.length, roots);
}

type Add = (code: LintCode, severity: LintFinding['severity'], at: XmlElement | null, message: string, fix: string, checkUrdf?: CheckUrdfVerdict) => void;
const INERTIA = ['ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'];
/** Each shape urdfdom reads and the attributes it requires. */
const SHAPES: Record<string, string[]> = { sphere: ['radius'], box: ['size'], cylinder: ['radius', 'length'], mesh: ['filename'] };

/** Top-level materials (unique names, a colour or texture) and the link parts check_urdf logs and drops while building the model. */
function lintMaterialsAndLinks(robot: XmlElement, model: ReturnType<typeof readUrdfModel>, add: Add): void {
  const materials = new Map<string, XmlElement>();
  const hasColour = (m: XmlElement) => childElements(m, 'color').some((c) => c.attrs.has('rgba')) || childElements(m, 'texture').some((t) => t.attrs.has('filename'));
  for (const m of childElements(robot, 'material')) {
    const name = m.attrs.get('name');
    if (name === undefined) continue;
    if (materials.has(name)) add('material_duplicate', 'error', m, `material "${name}" is defined more than once at the top level (first at line ${materials.get(name)!.line}); check_urdf: "material is not unique"`, 'rename one of the materials or remove the duplicate');
    else materials.set(name, m);
    if (!hasColour(m)) add('material_no_color', 'warning', m, `material "${name}" has no <color rgba> and no <texture filename>; check_urdf logs it and drops the material`, 'add <color rgba="r g b a"/> (0 to 1 each)');
  }
  for (const l of model.links) {
    const ln = l.el.attrs.get('name') ?? '?';
    for (const inertial of childElements(l.el, 'inertial')) {
      const mass = childElements(inertial, 'mass')[0];
      const inertia = childElements(inertial, 'inertia')[0];
      const lacks = !mass ? 'no <mass>' : !mass.attrs.has('value') ? '<mass> without value' : !inertia ? 'no <inertia>' : INERTIA.filter((k) => !inertia.attrs.has(k)).map((k) => `no ${k}`).join(', ');
      if (lacks) add('inertial_incomplete', 'warning', inertial, `link "${ln}": <inertial> has ${lacks}; check_urdf logs it and drops the inertial (mass and inertia absent)`, 'write <mass value="..."/> and <inertia ixx="..." ixy="..." ixz="..." iyy="..." iyz="..." izz="..."/>');
    }
    for (const part of [...childElements(l.el, 'visual'), ...childElements(l.el, 'collision')]) {
      const where = `link "${ln}": <${part.name}>`;
      const geometry = childElements(part, 'geometry')[0];
      const shape = geometry ? childElements(geometry)[0] : undefined;
      if (!shape) add('geometry_missing', 'warning', geometry ?? part, `${where} has ${geometry ? 'an empty <geometry>' : 'no <geometry>'}; check_urdf logs it and drops the ${part.name}`, 'add <geometry> with one <box>, <cylinder>, <sphere> or <mesh>');
      else if (!SHAPES[shape.name]) add('geometry_unknown', 'warning', shape, `${where}: urdfdom knows no <${shape.name}> shape; check_urdf logs it and drops the ${part.name}`, 'use <box size>, <cylinder radius length>, <sphere radius> or <mesh filename>');
      else {
        const missing = SHAPES[shape.name].filter((k) => !shape.attrs.has(k));
        if (missing.length > 0) add('geometry_incomplete', 'warning', shape, `${where}: <${shape.name}> has no ${missing.join(' or ')}; check_urdf logs it and drops the ${part.name}`, `write ${missing.map((k) => `${k}="..."`).join(' ')} on <${shape.name}>`);
      }
      if (part.name !== 'visual') continue;
      const mat = childElements(part, 'material')[0];
      const mn = mat?.attrs.get('name');
      if (mat && mn !== undefined && !(materials.has(mn) && hasColour(materials.get(mn)!)) && !hasColour(mat)) {
        add('material_undefined', 'warning', mat, `${where} uses material "${mn}", which no top-level <material> defines with a colour; check_urdf warns and the visual has no colour`, `define <material name="${mn}"><color rgba="..."/></material> under <robot> or give this material a <color>`);
      }
    }
  }
}

const REFERENCE_CONTAINERS_LINT = new Set(['gazebo', 'ros2_control', 'transmission']);

function finish(findings: LintFinding[], errors: number, warnings: number, byCode: Record<string, number>, robotName: string | null, links: number, joints: number, roots: string[]): LintResult {
  findings.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return {
    summary: { ok: errors === 0, errors, warnings, robot_name: robotName, links, joints, root_links: roots.slice(0, 20), by_code: byCode },
    findings,
  };
}

/** A lint result with the encoding notes of its files (src/ingest/oss/decode.ts) as findings, first. */
export function withDecodeNotes(res: LintResult, notes: readonly { file?: string; note: DecodeNote }[]): LintResult {
  if (notes.length === 0) return res;
  const byCode = { ...res.summary.by_code };
  let { errors, warnings } = res.summary;
  // Bytes replaced while decoding a file: that note (with check_urdf's verdict on the bytes) stands
  // for the U+FFFD lint found in the same file's attribute values.
  const replacedIn = new Set(notes.filter((n) => n.note.code === 'replacement_character').map((n) => n.file));
  const kept = res.findings.filter((f) => {
    if (f.code !== 'replacement_character' || !(replacedIn.has(f.file) || (f.file === undefined && replacedIn.size > 0))) return true;
    byCode[f.code] = (byCode[f.code] ?? 1) - 1;
    if (byCode[f.code] === 0) delete byCode[f.code];
    if (f.severity === 'error') errors -= 1;
    else warnings -= 1;
    return false;
  });
  const found: LintFinding[] = notes.map(({ file, note }) => {
    byCode[note.code] = (byCode[note.code] ?? 0) + 1;
    if (note.severity === 'error') errors += 1;
    else warnings += 1;
    return { code: note.code, severity: note.severity, check_urdf: note.check_urdf, line: note.line, ...(file !== undefined ? { file } : {}), message: note.message, fix: note.fix };
  });
  return { summary: { ...res.summary, ok: errors === 0, errors, warnings, by_code: byCode }, findings: [...found, ...kept].slice(0, MAX_FINDINGS) };
}
