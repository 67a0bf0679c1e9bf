/**
 * The URDF model as urdfdom reads it, from a parsed document: the <robot> root, its <link> and
 * <joint> children (urdfdom reads only direct children of <robot>), and the <joint> references
 * inside <transmission>, <gazebo> and <ros2_control>. Shared by the extractor and the linter so
 * they read the same things. Pure.
 */
import { childElements, type XmlElement } from './xml.js';

export const REFERENCE_CONTAINERS = new Set(['transmission', 'gazebo', 'ros2_control']);

export interface UrdfLink {
  el: XmlElement;
  name: string | null;
  /** <inertial><mass value> of the link, as written; undefined when the link has none. */
  mass: { el: XmlElement; value: string | undefined } | undefined;
}

export type JointPart = 'parent' | 'child' | 'axis' | 'limit' | 'mimic';
const JOINT_PARTS: readonly JointPart[] = ['parent', 'child', 'axis', 'limit', 'mimic'];

export interface UrdfJoint {
  el: XmlElement;
  name: string | null;
  type: string | undefined;
  parts: Partial<Record<JointPart, XmlElement>>;
  /** Second and later <parent>, <child>, <axis>, <limit> or <mimic> of the joint. */
  repeated: XmlElement[];
}

export interface UrdfModel {
  /** The <robot> element: the document root when it is one, else null. */
  robot: XmlElement | null;
  links: UrdfLink[];
  joints: UrdfJoint[];
  /** <joint name> references inside <transmission>, <gazebo> and <ros2_control>. */
  references: { el: XmlElement; container: string; name: string | null }[];
}

/** Trimmed, inner whitespace runs collapsed to one space: the same value, written tidily. */
export function tidy(v: string | undefined): string | null {
  if (v === undefined) return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

export function readUrdfModel(root: XmlElement): UrdfModel {
  const model: UrdfModel = { robot: root.name === 'robot' ? root : null, links: [], joints: [], references: [] };
  if (!model.robot) return model;
  for (const el of childElements(root)) {
    if (el.name === 'link') {
      const inertial = childElements(el, 'inertial')[0];
      const massEl = inertial ? childElements(inertial, 'mass')[0] : undefined;
      model.links.push({ el, name: tidy(el.attrs.get('name')), mass: massEl ? { el: massEl, value: massEl.attrs.get('value') } : undefined });
    } else if (el.name === 'joint') {
      const j: UrdfJoint = { el, name: tidy(el.attrs.get('name')), type: el.attrs.get('type'), parts: {}, repeated: [] };
      for (const c of childElements(el)) {
        if (!(JOINT_PARTS as readonly string[]).includes(c.name)) continue;
        const k = c.name as JointPart;
        if (j.parts[k]) j.repeated.push(c);
        else j.parts[k] = c;
      }
      model.joints.push(j);
    } else if (REFERENCE_CONTAINERS.has(el.name)) {
      collectReferences(el, el.name, model.references);
    }
  }
  return model;
}

function collectReferences(el: XmlElement, container: string, out: UrdfModel['references']): void {
  const stack = [el];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const kids = childElements(e);
    for (let k = kids.length - 1; k >= 0; k--) {
      const c = kids[k];
      if (c.name === 'joint') out.push({ el: c, container, name: tidy(c.attrs.get('name')) });
      stack.push(c);
    }
  }
}
