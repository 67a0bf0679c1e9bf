/**
 * URDF extractor: joint definitions (name, type, parent and child links, axis, <limit>
 * attributes), link masses, the root link and the mass of the whole tree and of each joint's
 * subtree. Read from the parsed document (xml.ts), so attribute order, quoting, line breaks
 * inside tags (the SolidWorks exporter's style) and comments do not matter, and malformed XML is
 * refused with its line and column.
 *
 * A <joint> inside <transmission>, <gazebo> or <ros2_control> is a reference to a joint, not a
 * definition: it is counted in joint_references and produces no record. Pure: no I/O.
 */
import { excerpt, MAX_RECORDS, parseXmlInput, SkipLog } from './limits.js';
import { ACTUATED_JOINT_TYPES, DOF_CONVENTION, URDF_JOINT_TYPES, type DofSummary, type ExtractionResult, type JointRecord, type MassSummary } from './types.js';
import { readUrdfModel, tidy, type UrdfModel } from './urdf-model.js';
import type { XmlElement } from './xml.js';

const LIMIT_ATTRS = ['lower', 'upper', 'effort', 'velocity'] as const;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Links listed by name in mass.links_without_mass at most. */
const MAX_MASSLESS_LISTED = 50;

/** Extracts a URDF given as text; malformed XML throws invalid_input with line and column. */
export function extractUrdf(text: string, field = 'content'): ExtractionResult {
  return extractUrdfDocument(parseXmlInput(text, field, { text: false }));
}

/** Extracts from a parsed (and, for xacro, expanded) document. `withFiles`: records name the file each joint is written in. */
export function extractUrdfDocument(root: XmlElement, withFiles = false): ExtractionResult {
  const model = readUrdfModel(root);
  const skipped = new SkipLog();
  const linkMass = new Map<string, string | null>();
  for (const l of model.links) {
    if (l.name === null) continue;
    if (!linkMass.has(l.name)) linkMass.set(l.name, null);
    if (!l.mass) continue;
    const v = tidy(l.mass.value);
    if (v !== null && NUMBER.test(v)) {
      if (linkMass.get(l.name) === null) linkMass.set(l.name, v);
    } else skipped.add('value_not_numeric', 'value', l.mass.el.line, `mass of link ${excerpt(l.name)} is not a number: ${excerpt(v ?? '')}`);
  }

  const records: JointRecord[] = [];
  const byType = new Map<string, number>();
  const seen = new Set<string>();
  for (const j of model.joints) {
    const line = j.el.line;
    for (const r of j.repeated) skipped.add('element_repeated', 'value', r.line, `<${r.name}> repeated inside joint ${excerpt(j.name ?? '')}; the first one is kept`);
    const name = j.name;
    if (name === null) {
      skipped.add('joint_no_name', 'joint', line, 'joint without a name attribute');
      continue;
    }
    if (j.type === undefined) {
      skipped.add('joint_no_type', 'joint', line, `joint ${excerpt(name)} has no type attribute`);
      continue;
    }
    const type = j.type.trim();
    if (!(URDF_JOINT_TYPES as readonly string[]).includes(type)) {
      skipped.add('joint_unknown_type', 'joint', line, `joint ${excerpt(name)} has type ${excerpt(j.type)}, not one of ${URDF_JOINT_TYPES.join(', ')}`);
      continue;
    }
    if (records.length >= MAX_RECORDS) {
      skipped.add('record_limit', 'joint', line, `record limit ${MAX_RECORDS} reached`);
      continue;
    }
    let confidence: JointRecord['confidence'] = 'high';
    if (seen.has(name)) {
      confidence = 'medium';
      skipped.add('joint_duplicate_name', 'value', line, `joint name ${excerpt(name)} is defined more than once; each definition is kept`);
    }
    seen.add(name);
    const limits: JointRecord['limits'] = {};
    const limit = j.parts.limit;
    for (const a of LIMIT_ATTRS) {
      const v = limit?.attrs.get(a);
      if (v === undefined) continue;
      const t = v.trim();
      if (NUMBER.test(t)) limits[a] = t;
      else {
        confidence = 'medium';
        skipped.add('value_not_numeric', 'value', limit!.line, `limit ${a} of joint ${excerpt(name)} is not a number: ${excerpt(v)}`);
      }
    }
    let mimic: JointRecord['mimic'] = null;
    const mimicEl = j.parts.mimic;
    if (mimicEl) {
      const num = (a: 'multiplier' | 'offset'): string | null => {
        const v = mimicEl.attrs.get(a);
        if (v === undefined) return null;
        const t = v.trim();
        if (NUMBER.test(t)) return t;
        confidence = 'medium';
        skipped.add('value_not_numeric', 'value', mimicEl.line, `mimic ${a} of joint ${excerpt(name)} is not a number: ${excerpt(v)}`);
        return null;
      };
      mimic = { joint: tidy(mimicEl.attrs.get('joint')), multiplier: num('multiplier'), offset: num('offset') };
      if (mimic.joint === null) confidence = 'medium';
    }
    const parent = tidy(j.parts.parent?.attrs.get('link'));
    const child = tidy(j.parts.child?.attrs.get('link'));
    if (parent === null || child === null) confidence = 'medium';
    records.push({
      record_type: 'urdf_joint',
      extractor: 'urdf',
      confidence,
      line,
      ...(withFiles && j.el.file !== undefined ? { file: j.el.file } : {}),
      joint_name: name,
      joint_type: type as JointRecord['joint_type'],
      parent_link: parent,
      child_link: child,
      axis: tidy(j.parts.axis?.attrs.get('xyz')),
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
    robot_name: model.robot ? tidy(model.robot.attrs.get('name')) : null,
    records,
    counts: {
      records: records.length,
      skipped: skipped.total,
      joints_by_type,
      dof: dof_detail.actuated_dof,
      dof_detail,
      joint_references: model.references.length,
      links: model.links.length,
    },
    mass: massSummary(model, linkMass),
    skipped: skipped.listed,
  };
}

/** A sum of decimal masses without binary noise (15 significant digits). */
const clean = (x: number) => Number(x.toPrecision(15));

/**
 * The root link (the one link no joint has as child, when there is exactly one), the total
 * mass of the links reachable from it, and the mass of each joint's subtree (its child link
 * and everything below). Masses as written in <inertial><mass value>, in kg.
 */
export function massSummary(model: UrdfModel, linkMass: ReadonlyMap<string, string | null>): MassSummary {
  const children = new Map<string, { joint: string; child: string }[]>();
  const edges: { joint: string; child: string }[] = [];
  const isChild = new Set<string>();
  for (const j of model.joints) {
    const p = tidy(j.parts.parent?.attrs.get('link'));
    const c = tidy(j.parts.child?.attrs.get('link'));
    // A link has one parent: a later joint naming the same child is not part of the tree (lint reports it).
    if (p === null || c === null || j.name === null || !linkMass.has(p) || !linkMass.has(c) || isChild.has(c)) continue;
    isChild.add(c);
    const list = children.get(p) ?? [];
    list.push({ joint: j.name, child: c });
    edges.push({ joint: j.name, child: c });
    children.set(p, list);
  }
  const roots = [...linkMass.keys()].filter((l) => !isChild.has(l));
  const root = roots.length === 1 ? roots[0] : null;
  const own = (l: string) => {
    const m = linkMass.get(l);
    return m === null || m === undefined ? 0 : Number(m);
  };
  // Post-order over the tree from each root (iterative; a link is visited once, so a cycle cannot loop).
  const subtree = new Map<string, number>();
  const visited = new Set<string>();
  for (const r of roots) {
    const stack: { link: string; expanded: boolean }[] = [{ link: r, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop()!;
      if (top.expanded) {
        let sum = own(top.link);
        for (const k of children.get(top.link) ?? []) sum += subtree.get(k.child) ?? 0;
        subtree.set(top.link, sum);
        continue;
      }
      if (visited.has(top.link)) continue;
      visited.add(top.link);
      stack.push({ link: top.link, expanded: true });
      for (const k of children.get(top.link) ?? []) if (!visited.has(k.child)) stack.push({ link: k.child, expanded: false });
    }
  }
  const counted = root === null ? [...linkMass.keys()] : [...linkMass.keys()].filter((l) => visited.has(l));
  const withMass = counted.filter((l) => linkMass.get(l) !== null);
  const without = counted.filter((l) => linkMass.get(l) === null);
  const subtrees: MassSummary['subtrees'] = [];
  for (const k of edges) if (subtree.has(k.child)) subtrees.push({ joint: k.joint, child_link: k.child, mass: clean(subtree.get(k.child)!) });
  return {
    root_link: root,
    root_link_mass: root === null ? null : (linkMass.get(root) ?? null),
    total: withMass.length === 0 ? null : clean(root === null ? withMass.reduce((s, l) => s + own(l), 0) : subtree.get(root)!),
    links_with_mass: withMass.length,
    links_without_mass: without.slice(0, MAX_MASSLESS_LISTED),
    subtrees,
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
