/**
 * The kinematic structure of a URDF, for drawing it: each joint's frame (<origin xyz rpy>), axis,
 * parent and child links and position limits, and each link's primitive geometry (<box>,
 * <cylinder>, <sphere> inside <visual> or <collision>, with the element's <origin>). Values as
 * written (tidied whitespace); a mesh is not geometry here (meshes are not shipped). Joints inside
 * <transmission>, <gazebo> or <ros2_control> are references and are left out, as the extractor
 * does. Pure; linear in the input.
 */
import { z } from 'zod';
import { scanTags, type ScanProblem } from './xml.js';

const Origin = z
  .object({
    xyz: z.string().nullable().describe('<origin xyz> as written (m); null when absent (URDF default 0 0 0)'),
    rpy: z.string().nullable().describe('<origin rpy> as written (rad); null when absent (URDF default 0 0 0)'),
  })
  .strict();

export const KinematicJoint = z
  .object({
    name: z.string(),
    type: z.string(),
    parent: z.string().nullable(),
    child: z.string().nullable(),
    origin: Origin.nullable().describe('The joint\'s <origin>; null when the joint has none'),
    axis: z.string().nullable().describe('<axis xyz> as written'),
    lower: z.string().nullable(),
    upper: z.string().nullable(),
    mimic: z.string().nullable().describe('The joint a <mimic> element follows, as written'),
  })
  .strict();

export const Primitive = z
  .object({
    element: z.enum(['visual', 'collision']),
    shape: z.enum(['box', 'cylinder', 'sphere']),
    size: z.string().nullable().describe('<box size> as written (m)'),
    radius: z.string().nullable().describe('<cylinder radius> / <sphere radius> as written (m)'),
    length: z.string().nullable().describe('<cylinder length> as written (m)'),
    origin: Origin.nullable(),
  })
  .strict();
export type Primitive = z.infer<typeof Primitive>;

export const UrdfKinematics = z
  .object({
    links: z.array(z.object({ name: z.string(), primitives: z.array(Primitive) }).strict()).describe('Every <link> in file order with its primitive geometry (meshes left out)'),
    joints: z.array(KinematicJoint).describe('Every joint definition in file order'),
  })
  .strict()
  .describe('URDF sources: the kinematic structure (joint frames, axes, limits, primitive geometry) as written, for drawing it; null for BOM files');
export type UrdfKinematics = z.infer<typeof UrdfKinematics>;

const REFERENCE_CONTAINERS = new Set(['transmission', 'gazebo', 'ros2_control']);

function tidy(v: string | undefined): string | null {
  if (v === undefined) return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

const origin = (attrs: Map<string, string>) => ({ xyz: tidy(attrs.get('xyz')), rpy: tidy(attrs.get('rpy')) });

export function urdfKinematics(text: string): UrdfKinematics {
  const problems: ScanProblem[] = [];
  const links: UrdfKinematics['links'] = [];
  const joints: UrdfKinematics['joints'] = [];
  let reference = 0;
  let joint: UrdfKinematics['joints'][number] | null = null;
  let link: UrdfKinematics['links'][number] | null = null;
  let element: { kind: 'visual' | 'collision'; origin: Primitive['origin']; primitives: Primitive[] } | null = null;
  for (const tag of scanTags(text, problems)) {
    const start = tag.kind === 'start';
    if (REFERENCE_CONTAINERS.has(tag.name)) {
      if (start && !tag.selfClosing) reference += 1;
      else if (!start && reference > 0) reference -= 1;
      continue;
    }
    if (reference > 0) continue;
    if (tag.name === 'joint' && joint === null && link === null && start) {
      const name = tidy(tag.attrs.get('name'));
      const type = tidy(tag.attrs.get('type'));
      if (name === null || type === null) continue;
      joint = { name, type, parent: null, child: null, origin: null, axis: null, lower: null, upper: null, mimic: null };
      joints.push(joint);
      if (tag.selfClosing) joint = null;
      continue;
    }
    if (tag.name === 'joint' && !start) {
      joint = null;
      continue;
    }
    if (joint) {
      if (!start) continue;
      if (tag.name === 'parent') joint.parent ??= tidy(tag.attrs.get('link'));
      else if (tag.name === 'child') joint.child ??= tidy(tag.attrs.get('link'));
      else if (tag.name === 'origin') joint.origin ??= origin(tag.attrs);
      else if (tag.name === 'axis') joint.axis ??= tidy(tag.attrs.get('xyz'));
      else if (tag.name === 'limit') {
        joint.lower ??= tidy(tag.attrs.get('lower'));
        joint.upper ??= tidy(tag.attrs.get('upper'));
      } else if (tag.name === 'mimic') joint.mimic ??= tidy(tag.attrs.get('joint'));
      continue;
    }
    if (tag.name === 'link') {
      if (start) {
        const name = tidy(tag.attrs.get('name'));
        if (name === null) continue;
        link = { name, primitives: [] };
        links.push(link);
        if (tag.selfClosing) link = null;
      } else link = null;
      continue;
    }
    if (!link) continue;
    if (tag.name === 'visual' || tag.name === 'collision') {
      if (start && !tag.selfClosing) element = { kind: tag.name, origin: null, primitives: [] };
      else if (!start && element) {
        for (const p of element.primitives) link.primitives.push({ ...p, origin: element.origin });
        element = null;
      }
      continue;
    }
    if (!element || !start) continue;
    if (tag.name === 'origin') element.origin ??= origin(tag.attrs);
    else if (tag.name === 'box' || tag.name === 'cylinder' || tag.name === 'sphere') {
      element.primitives.push({
        element: element.kind,
        shape: tag.name,
        size: tag.name === 'box' ? tidy(tag.attrs.get('size')) : null,
        radius: tag.name === 'box' ? null : tidy(tag.attrs.get('radius')),
        length: tag.name === 'cylinder' ? tidy(tag.attrs.get('length')) : null,
        origin: null,
      });
    }
  }
  return { links, joints };
}
