/**
 * URDF extractor: joint definitions (name, type, parent and child links, axis, <limit>
 * attributes) and link masses. Attribute order, quoting, line breaks inside tags (the
 * SolidWorks exporter's style), comments and stray whitespace inside values do not matter.
 *
 * A <joint> inside <transmission>, <gazebo> or <ros2_control> is a reference to a joint, not a
 * definition: it is counted in joint_references and produces no record. Pure: no I/O.
 */
import { excerpt, LineIndex, MAX_RECORDS, SkipLog } from './limits.js';
import { ACTUATED_JOINT_TYPES, DOF_CONVENTION, URDF_JOINT_TYPES, type DofSummary, type ExtractionResult, type JointRecord } from './types.js';
import { scanTags, type ScanProblem, type Tag } from './xml.js';

const REFERENCE_CONTAINERS = new Set(['transmission', 'gazebo', 'ros2_control']);
const LIMIT_ATTRS = ['lower', 'upper', 'effort', 'velocity'] as const;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

type Role = 'joint' | 'link' | 'inertial' | 'other';
interface Open {
  name: string;
  role: Role;
}

interface JointDraft {
  tag: Tag;
  line: number;
  parent: Tag | null;
  child: Tag | null;
  axis: Tag | null;
  limit: Tag | null;
  mimic: Tag | null;
}

/** Trimmed, inner whitespace runs collapsed to one space: the same value, written tidily. */
function tidy(v: string | undefined): string | null {
  if (v === undefined) return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

export function extractUrdf(text: string): ExtractionResult {
  const skipped = new SkipLog();
  const lines = new LineIndex(text);
  const problems: ScanProblem[] = [];
  const stack: Open[] = [];
  const drafts: JointDraft[] = [];
  const linkMass = new Map<string, string | null>();
  let robotName: string | null = null;
  let references = 0;
  let links = 0;
  let joint: JointDraft | null = null;
  let link: { name: string | null; line: number } | null = null;

  // Open-element counts by name keep every step O(1) amortised, however deep the nesting.
  const openCount = new Map<string, number>();
  let referenceDepth = 0;
  const inReference = () => referenceDepth > 0;
  const push = (o: Open) => {
    stack.push(o);
    openCount.set(o.name, (openCount.get(o.name) ?? 0) + 1);
    if (REFERENCE_CONTAINERS.has(o.name)) referenceDepth += 1;
  };
  const pop = (): Open => {
    const o = stack.pop()!;
    openCount.set(o.name, openCount.get(o.name)! - 1);
    if (REFERENCE_CONTAINERS.has(o.name)) referenceDepth -= 1;
    return o;
  };

  const closeJoint = () => {
    if (joint) drafts.push(joint);
    joint = null;
  };

  for (const tag of scanTags(text, problems)) {
    if (tag.kind === 'end') {
      if (!openCount.get(tag.name)) continue; // stray end tag
      for (;;) {
        const o = pop();
        if (o.role === 'joint') closeJoint();
        if (o.role === 'link') link = null;
        if (o.name === tag.name) break;
      }
      continue;
    }
    const top = stack[stack.length - 1];
    let role: Role = 'other';
    if (tag.name === 'robot' && robotName === null) robotName = tidy(tag.attrs.get('name'));
    if (tag.name === 'joint') {
      if (inReference()) references += 1;
      else if (joint === null) {
        joint = { tag, line: lines.line(tag.offset), parent: null, child: null, axis: null, limit: null, mimic: null };
        role = 'joint';
      }
    } else if (tag.name === 'link' && !inReference() && joint === null) {
      links += 1;
      const name = tidy(tag.attrs.get('name'));
      link = { name, line: lines.line(tag.offset) };
      if (name !== null && !linkMass.has(name)) linkMass.set(name, null);
      role = 'link';
    } else if (joint && top?.role === 'joint' && (tag.name === 'parent' || tag.name === 'child' || tag.name === 'axis' || tag.name === 'limit' || tag.name === 'mimic')) {
      const key = tag.name as 'parent' | 'child' | 'axis' | 'limit' | 'mimic';
      if (joint[key] === null) joint[key] = tag;
      else skipped.add('element_repeated', 'value', lines.line(tag.offset), `<${tag.name}> repeated inside joint ${excerpt(joint.tag.attrs.get('name') ?? '')}; the first one is kept`);
    } else if (link && tag.name === 'inertial' && top?.role === 'link') {
      role = 'inertial';
    } else if (link && tag.name === 'mass' && top?.role === 'inertial' && link.name !== null) {
      const v = tidy(tag.attrs.get('value'));
      if (v !== null && NUMBER.test(v)) {
        if (linkMass.get(link.name) === null) linkMass.set(link.name, v);
      } else skipped.add('value_not_numeric', 'value', lines.line(tag.offset), `mass of link ${excerpt(link.name)} is not a number: ${excerpt(v ?? '')}`);
    }
    if (tag.selfClosing) {
      if (role === 'joint') closeJoint();
      if (role === 'link') link = null;
    } else push({ name: tag.name, role });
  }
  closeJoint(); // a joint left open at the end of the input

  for (const p of problems) skipped.add(p.code, 'input', lines.line(p.offset), p.message);

  const records: JointRecord[] = [];
  const byType = new Map<string, number>();
  const seen = new Set<string>();
  for (const d of drafts) {
    const name = tidy(d.tag.attrs.get('name'));
    const rawType = d.tag.attrs.get('type');
    if (name === null) {
      skipped.add('joint_no_name', 'joint', d.line, 'joint without a name attribute');
      continue;
    }
    if (rawType === undefined) {
      skipped.add('joint_no_type', 'joint', d.line, `joint ${excerpt(name)} has no type attribute`);
      continue;
    }
    const type = rawType.trim();
    if (!(URDF_JOINT_TYPES as readonly string[]).includes(type)) {
      skipped.add('joint_unknown_type', 'joint', d.line, `joint ${excerpt(name)} has type ${excerpt(rawType)}, not one of ${URDF_JOINT_TYPES.join(', ')}`);
      continue;
    }
    if (records.length >= MAX_RECORDS) {
      skipped.add('record_limit', 'joint', d.line, `record limit ${MAX_RECORDS} reached`);
      continue;
    }
    let confidence: JointRecord['confidence'] = 'high';
    if (seen.has(name)) {
      confidence = 'medium';
      skipped.add('joint_duplicate_name', 'value', d.line, `joint name ${excerpt(name)} is defined more than once; each definition is kept`);
    }
    seen.add(name);
    const limits: JointRecord['limits'] = {};
    for (const a of LIMIT_ATTRS) {
      const v = d.limit?.attrs.get(a);
      if (v === undefined) continue;
      const t = v.trim();
      if (NUMBER.test(t)) limits[a] = t;
      else {
        confidence = 'medium';
        skipped.add('value_not_numeric', 'value', lines.line(d.limit!.offset), `limit ${a} of joint ${excerpt(name)} is not a number: ${excerpt(v)}`);
      }
    }
    let mimic: JointRecord['mimic'] = null;
    if (d.mimic) {
      const num = (a: 'multiplier' | 'offset'): string | null => {
        const v = d.mimic!.attrs.get(a);
        if (v === undefined) return null;
        const t = v.trim();
        if (NUMBER.test(t)) return t;
        confidence = 'medium';
        skipped.add('value_not_numeric', 'value', lines.line(d.mimic!.offset), `mimic ${a} of joint ${excerpt(name)} is not a number: ${excerpt(v)}`);
        return null;
      };
      mimic = { joint: tidy(d.mimic.attrs.get('joint')), multiplier: num('multiplier'), offset: num('offset') };
      if (mimic.joint === null) confidence = 'medium';
    }
    const parent = tidy(d.parent?.attrs.get('link'));
    const child = tidy(d.child?.attrs.get('link'));
    if (parent === null || child === null) confidence = 'medium';
    records.push({
      record_type: 'urdf_joint',
      extractor: 'urdf',
      confidence,
      line: d.line,
      joint_name: name,
      joint_type: type as JointRecord['joint_type'],
      parent_link: parent,
      child_link: child,
      axis: tidy(d.axis?.attrs.get('xyz')),
      limits,
      child_link_mass: child === null ? null : (linkMass.get(child) ?? null),
      mimic,
      actuated: (ACTUATED_JOINT_TYPES as readonly string[]).includes(type) && mimic === null,
    });
    byType.set(type, (byType.get(type) ?? 0) + 1);
  }

  const joints_by_type: Record<string, number> = {};
  for (const t of URDF_JOINT_TYPES) if (byType.has(t)) joints_by_type[t] = byType.get(t)!;
  const dof_detail = dofSummary(records);
  return {
    kind: 'urdf',
    robot_name: robotName,
    records,
    counts: { records: records.length, skipped: skipped.total, joints_by_type, dof: dof_detail.actuated_dof, dof_detail, joint_references: references, links },
    skipped: skipped.listed,
  };
}

/** The DOF of a set of joint records under DOF_CONVENTION: actuated, mimic, floating and planar apart. */
export function dofSummary(joints: readonly Pick<JointRecord, 'joint_name' | 'joint_type' | 'line' | 'mimic'>[]): DofSummary {
  const names = new Set(joints.map((j) => j.joint_name));
  const oneDof = joints.filter((j) => (ACTUATED_JOINT_TYPES as readonly string[]).includes(j.joint_type));
  const count = (t: string, mimic: boolean | null) => joints.filter((j) => j.joint_type === t && (mimic === null || (j.mimic !== null) === mimic)).length;
  const actuated = oneDof.filter((j) => j.mimic === null).length;
  const floating = count('floating', null);
  const planar = count('planar', null);
  const floatingFree = count('floating', false);
  const planarFree = count('planar', false);
  return {
    actuated_dof: actuated,
    convention: DOF_CONVENTION,
    one_dof_joints: oneDof.length,
    mimic: joints
      .filter((j) => j.mimic !== null)
      .map((j) => ({
        joint: j.joint_name,
        joint_type: j.joint_type,
        line: j.line,
        follows: j.mimic!.joint,
        follows_defined: j.mimic!.joint !== null && names.has(j.mimic!.joint),
        multiplier: j.mimic!.multiplier,
        offset: j.mimic!.offset,
      })),
    floating: { count: floating, yourdfpy_dof: 6 * floatingFree, moveit_variables: 7 * floating },
    planar: { count: planar, yourdfpy_dof: 2 * planarFree, moveit_variables: 3 * planar },
    yourdfpy_num_dofs: actuated + 6 * floatingFree + 2 * planarFree,
  };
}
