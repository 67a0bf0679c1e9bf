/**
 * The kinematic structure of a URDF, for drawing it: each joint's frame (<origin xyz rpy>), axis,
 * parent and child links and position limits, and each link's primitive geometry (<box>,
 * <cylinder>, <sphere> inside <visual> or <collision>, with the element's <origin>). Values as
 * written (tidied whitespace); a mesh is not geometry here (meshes are not shipped). Joints inside
 * <transmission>, <gazebo> or <ros2_control> are references and are left out, as the extractor
 * does. Pure; linear in the input (the strict parser's tree).
 */
import { z } from 'zod';
import { childElements, parseXml, walk, type XmlElement } from './xml.js';

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

function tidy(v: string | undefined): string | null {
  if (v === undefined) return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

const origin = (el: XmlElement | undefined) => (el ? { xyz: tidy(el.attrs.get('xyz')), rpy: tidy(el.attrs.get('rpy')) } : null);
const first = (el: XmlElement, name: string): XmlElement | undefined => childElements(el, name)[0];

const SHAPES = new Set(['box', 'cylinder', 'sphere']);

/**
 * The kinematics of a URDF document (parsed by the strict parser; a malformed document throws its
 * XmlError). Joints and links are the <robot>'s own children: joints inside <transmission>,
 * <gazebo> or <ros2_control> are references, not definitions.
 */
export function urdfKinematics(text: string): UrdfKinematics {
  const root = parseXml(text, { text: false });
  const links: UrdfKinematics['links'] = [];
  const joints: UrdfKinematics['joints'] = [];
  for (const el of childElements(root)) {
    if (el.name === 'joint') {
      const name = tidy(el.attrs.get('name'));
      const type = tidy(el.attrs.get('type'));
      if (name === null || type === null) continue;
      const limit = first(el, 'limit');
      joints.push({
        name,
        type,
        parent: tidy(first(el, 'parent')?.attrs.get('link')),
        child: tidy(first(el, 'child')?.attrs.get('link')),
        origin: origin(first(el, 'origin')),
        axis: tidy(first(el, 'axis')?.attrs.get('xyz')),
        lower: tidy(limit?.attrs.get('lower')),
        upper: tidy(limit?.attrs.get('upper')),
        mimic: tidy(first(el, 'mimic')?.attrs.get('joint')),
      });
    } else if (el.name === 'link') {
      const name = tidy(el.attrs.get('name'));
      if (name === null) continue;
      const primitives: Primitive[] = [];
      for (const part of childElements(el)) {
        if (part.name !== 'visual' && part.name !== 'collision') continue;
        const at = origin(first(part, 'origin'));
        for (const { el: shape } of walk(part)) {
          if (!SHAPES.has(shape.name)) continue;
          const kind = shape.name as Primitive['shape'];
          primitives.push({
            element: part.name,
            shape: kind,
            size: kind === 'box' ? tidy(shape.attrs.get('size')) : null,
            radius: kind === 'box' ? null : tidy(shape.attrs.get('radius')),
            length: kind === 'cylinder' ? tidy(shape.attrs.get('length')) : null,
            origin: at,
          });
        }
      }
      links.push({ name, primitives });
    }
  }
  return { links, joints };
}
