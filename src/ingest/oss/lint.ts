/**
 * lint_urdf: the checks urdfdom's check_urdf performs when it builds the model, plus mimic and
 * transmission references. Each finding has its line, a severity and a fix hint. Pure; linear.
 *
 * urdfdom parity: one root link; unique link and joint names; every joint has a known type,
 * a parent and a child naming defined links; a link is the child of at most one joint;
 * revolute and prismatic joints have a <limit> with effort and velocity; numeric attributes
 * parse as numbers (origin, axis, limit, mass, inertia, dynamics, safety_controller, calibration,
 * mimic, geometry sizes, colour). Beyond check_urdf: a mimic joint follows a joint that exists
 * and is not itself a mimic; joints named in <transmission> exist.
 */
import { z } from 'zod';
import { LineIndex } from './limits.js';
import { URDF_JOINT_TYPES } from './types.js';
import { scanTags, type ScanProblem, type Tag } from './xml.js';

export const LINT_CODES = [
  'xml_malformed',
  'no_robot',
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
] as const;

export const LintFinding = z
  .object({
    code: z.enum(LINT_CODES),
    severity: z.enum(['error', 'warning']).describe('error: check_urdf (urdfdom) would reject the model, or a reference is broken; warning: loads but likely wrong'),
    line: z.number().int().nullable(),
    message: z.string(),
    fix: z.string().describe('How to fix it'),
  })
  .strict();
export type LintFinding = z.infer<typeof LintFinding>;

export const LintSummary = z
  .object({
    ok: z.boolean().describe('true when no finding is an error'),
    errors: z.number().int(),
    warnings: z.number().int(),
    robot_name: z.string().nullable(),
    links: z.number().int(),
    joints: z.number().int(),
    root_links: z.array(z.string()).describe('Links that are no joint\'s child (exactly one expected)'),
    by_code: z.record(z.string(), z.number().int()),
  })
  .strict();
export type LintSummary = z.infer<typeof LintSummary>;

export const LintResult = z
  .object({ summary: LintSummary, findings: z.array(LintFinding).describe('In line order; at most 500 listed (summary counts all)') })
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

interface JointInfo {
  name: string | null;
  line: number;
  type: string | undefined;
  parent: Tag | null;
  child: Tag | null;
  limit: Tag | null;
  mimic: Tag | null;
}

export function lintUrdf(text: string): LintResult {
  const lines = new LineIndex(text);
  const findings: LintFinding[] = [];
  let total = 0;
  const byCode: Record<string, number> = {};
  let errors = 0;
  let warnings = 0;
  const add = (code: LintFinding['code'], severity: LintFinding['severity'], offset: number | null, message: string, fix: string) => {
    total += 1;
    byCode[code] = (byCode[code] ?? 0) + 1;
    if (severity === 'error') errors += 1;
    else warnings += 1;
    if (findings.length < MAX_FINDINGS) findings.push({ code, severity, line: offset === null ? null : lines.line(offset), message, fix });
  };

  const problems: ScanProblem[] = [];
  const stack: string[] = [];
  const links = new Map<string, number>();
  const joints: JointInfo[] = [];
  const transmissionJoints: { name: string; offset: number }[] = [];
  let robotName: string | null = null;
  let sawRobot = false;
  let joint: JointInfo | null = null;
  let jointDepth = -1;

  for (const tag of scanTags(text, problems)) {
    if (tag.kind === 'end') {
      const i = stack.lastIndexOf(tag.name);
      if (i < 0) continue;
      stack.length = i;
      if (joint && stack.length <= jointDepth) {
        joints.push(joint);
        joint = null;
        jointDepth = -1;
      }
      continue;
    }
    const parent = stack[stack.length - 1];
    const inTransmission = stack.includes('transmission');
    const inOther = stack.includes('gazebo') || stack.includes('ros2_control');
    if (tag.name === 'robot' && !sawRobot) {
      sawRobot = true;
      robotName = tag.attrs.get('name')?.trim() || null;
    } else if (tag.name === 'link' && parent === 'robot') {
      const name = tag.attrs.get('name')?.trim();
      if (!name) add('link_no_name', 'error', tag.offset, '<link> without a name attribute', 'give the link a unique name="..."');
      else if (links.has(name)) add('link_duplicate', 'error', tag.offset, `link "${name}" is defined more than once (first at line ${links.get(name)})`, 'rename one of the links or remove the duplicate');
      else links.set(name, lines.line(tag.offset));
    } else if (tag.name === 'joint' && inTransmission) {
      const name = tag.attrs.get('name')?.trim();
      if (name) transmissionJoints.push({ name, offset: tag.offset });
    } else if (tag.name === 'joint' && parent === 'robot' && !inOther) {
      joint = { name: tag.attrs.get('name')?.trim() || null, line: tag.offset, type: tag.attrs.get('type'), parent: null, child: null, limit: null, mimic: null };
      if (tag.selfClosing) {
        joints.push(joint);
        joint = null;
      } else jointDepth = stack.length;
    } else if (joint && parent === 'joint' && (tag.name === 'parent' || tag.name === 'child' || tag.name === 'limit' || tag.name === 'mimic')) {
      if (joint[tag.name] === null) joint[tag.name] = tag;
    }
    // Numbers that must parse, wherever the element is (links, joints, geometry, materials).
    const spec = NUMERIC[tag.name];
    if (spec && !inOther) {
      for (const [attr, n] of Object.entries(spec)) {
        const v = tag.attrs.get(attr);
        if (v === undefined) continue;
        const parts = v.trim().split(/\s+/).filter(Boolean);
        if (parts.length !== n || !parts.every((p) => NUMBER.test(p))) {
          add('number_invalid', 'error', tag.offset, `<${tag.name} ${attr}="${v.length > 40 ? `${v.slice(0, 40)}…` : v}"> is not ${n === 1 ? 'a number' : `${n} numbers separated by spaces`}`, `write ${attr} as ${n === 1 ? 'one decimal number, e.g. "0.5"' : `${n} decimal numbers, e.g. "${Array(n).fill('0').join(' ')}"`}`);
        }
      }
    }
    if (!tag.selfClosing) stack.push(tag.name);
  }
  if (joint) joints.push(joint);
  for (const p of problems) add('xml_malformed', 'error', p.offset, p.message, 'fix the XML so every tag and comment is closed');
  if (!sawRobot) add('no_robot', 'error', null, 'no <robot> element', 'wrap the links and joints in <robot name="...">…</robot>');

  const jointNames = new Map<string, JointInfo>();
  const childOf = new Map<string, string>();
  for (const j of joints) {
    const label = j.name ? `joint "${j.name}"` : 'a joint';
    if (!j.name) add('joint_no_name', 'error', j.line, '<joint> without a name attribute', 'give the joint a unique name="..."');
    else if (jointNames.has(j.name)) add('joint_duplicate', 'error', j.line, `joint "${j.name}" is defined more than once (first at line ${lines.line(jointNames.get(j.name)!.line)})`, 'rename one of the joints or remove the duplicate');
    else jointNames.set(j.name, j);
    const type = j.type?.trim();
    if (!type || !(URDF_JOINT_TYPES as readonly string[]).includes(type)) {
      add('joint_type_invalid', 'error', j.line, `${label} has type ${type ? `"${type}"` : 'missing'}`, `set type to one of ${URDF_JOINT_TYPES.join(', ')}`);
    }
    const ends: ['parent' | 'child', Tag | null][] = [['parent', j.parent], ['child', j.child]];
    for (const [end, t] of ends) {
      const link = t?.attrs.get('link')?.trim();
      if (!link) add(end === 'parent' ? 'joint_parent_missing' : 'joint_child_missing', 'error', t?.offset ?? j.line, `${label} has no <${end} link="...">`, `add <${end} link="name of a defined link"/> inside the joint`);
      else if (!links.has(link)) add('joint_link_undefined', 'error', t!.offset, `${label}: ${end} link "${link}" is not defined`, `define <link name="${link}"> or name an existing link`);
      else if (end === 'child') {
        if (childOf.has(link)) add('link_multiple_parents', 'error', t!.offset, `link "${link}" is the child of ${label} and of joint "${childOf.get(link)}"`, 'a link has at most one parent joint: the model must be a tree');
        else childOf.set(link, j.name ?? '?');
      }
    }
    if (type === 'revolute' || type === 'prismatic') {
      if (!j.limit) add('limit_missing', 'error', j.line, `${label} is ${type} but has no <limit>`, 'add <limit lower="..." upper="..." effort="..." velocity="..."/> (urdfdom requires it for revolute and prismatic joints)');
      else {
        if (j.limit.attrs.get('effort') === undefined) add('limit_effort_missing', 'error', j.limit.offset, `${label}: <limit> has no effort`, 'add effort="..." (N·m for revolute, N for prismatic)');
        if (type === 'revolute' && (j.limit.attrs.get('lower') === undefined || j.limit.attrs.get('upper') === undefined)) {
          add('limit_range_missing', 'warning', j.limit.offset, `${label}: <limit> has no ${j.limit.attrs.get('lower') === undefined ? 'lower' : 'upper'}; urdfdom reads it as 0`, 'write lower="..." and upper="..." in radians (or use type="continuous" for an unbounded joint)');
        }
        if (j.limit.attrs.get('velocity') === undefined) add('limit_velocity_missing', 'error', j.limit.offset, `${label}: <limit> has no velocity`, 'add velocity="..." (rad/s for revolute, m/s for prismatic)');
      }
    }
  }
  for (const j of joints) {
    if (!j.mimic) continue;
    const label = j.name ? `joint "${j.name}"` : 'a joint';
    const target = j.mimic.attrs.get('joint')?.trim();
    if (!target) add('mimic_target_missing', 'error', j.mimic.offset, `${label}: <mimic> has no joint attribute`, 'name the joint it follows: <mimic joint="..."/>');
    else if (target === j.name) add('mimic_self', 'error', j.mimic.offset, `${label} mimics itself`, 'name another joint in <mimic joint="...">');
    else if (!jointNames.has(target)) add('mimic_target_undefined', 'error', j.mimic.offset, `${label} mimics "${target}", which is not defined`, `define joint "${target}" or name an existing joint`);
    else if (jointNames.get(target)!.mimic) add('mimic_target_is_mimic', 'error', j.mimic.offset, `${label} mimics "${target}", which is itself a mimic joint`, `follow the joint "${target}" follows (with the multipliers and offsets composed) so every mimic names an actuated joint`);
  }
  for (const t of transmissionJoints) {
    if (!jointNames.has(t.name)) add('transmission_joint_undefined', 'error', t.offset, `<transmission> names joint "${t.name}", which is not defined`, `rename it to a defined joint or define joint "${t.name}"`);
  }
  const roots = [...links.keys()].filter((l) => !childOf.has(l));
  if (links.size > 0 && roots.length === 0) add('root_none', 'error', null, 'no root link: every link is some joint\'s child (a cycle)', 'break the cycle so one link is no joint\'s child');
  if (roots.length > 1) {
    add('root_multiple', 'error', null, `${roots.length} root links (${roots.slice(0, 5).join(', ')}${roots.length > 5 ? ', …' : ''}): urdfdom needs exactly one`, 'connect every other root to the tree with a joint (fixed if it does not move), or remove unused links');
  }
  findings.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  void total;
  return {
    summary: { ok: errors === 0, errors, warnings, robot_name: robotName, links: links.size, joints: joints.length, root_links: roots.slice(0, 20), by_code: byCode },
    findings,
  };
}
