/**
 * The rigid-body model of a URDF for static sizing: the tree of links from the one root link,
 * each joint's fixed transform (<origin xyz rpy>), axis and type, each link's mass and centre of
 * mass (<inertial><origin xyz>; its rpy turns only the inertia tensor, which static gravity does
 * not use), mimic couplings resolved to the joint that drives them. Read from the same parsed
 * model the extractor and the linter read (urdf-model.ts). Pure; the model's types are the domain's
 * (src/domain/sizing/model.ts).
 *
 * What cannot be read exactly is refused (invalid_input naming the element), never guessed: a
 * wrong origin would give a wrong torque. A link without <inertial><mass> weighs nothing here and
 * is listed, as the extractor lists it.
 */
import { DomainError } from '../../domain/shared/errors.js';
import { rpyMatrix, type Mat3, type Vec3 } from '../../domain/sizing/math.js';
import type { MovingType, SizingJoint, SizingLink, SizingModel } from '../../domain/sizing/model.js';
import { robotDescriptionRoot, type RobotInput } from './index.js';
import { computeTorques, type TorqueReport, type TorqueRequest } from '../../domain/sizing/torques.js';
import { readUrdfModel, tidy } from './urdf-model.js';
import { childElements, type XmlElement } from './xml.js';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const bad = (what: string, fix: string) => new DomainError('invalid_input', `content: ${what}; ${fix}`, { field: 'content' });

function numbers(raw: string | undefined, n: number, what: string): number[] | null {
  const t = tidy(raw);
  if (t === null) return null;
  const parts = t.split(' ');
  if (parts.length !== n || !parts.every((p) => NUMBER.test(p))) throw bad(`${what} is "${t.slice(0, 80)}", not ${n} number(s)`, 'write plain decimal numbers separated by spaces');
  return parts.map(Number);
}

function origin(el: XmlElement | undefined, what: string): { xyz: Vec3; rot: Mat3 } {
  const o = el ? childElements(el, 'origin')[0] : undefined;
  const xyz = (numbers(o?.attrs.get('xyz'), 3, `${what} <origin xyz>`) ?? [0, 0, 0]) as Vec3;
  const rpy = (numbers(o?.attrs.get('rpy'), 3, `${what} <origin rpy>`) ?? [0, 0, 0]) as Vec3;
  return { xyz, rot: rpyMatrix(rpy[0], rpy[1], rpy[2]) };
}

function scalar(el: XmlElement | undefined, attr: string, what: string): number | null {
  const v = numbers(el?.attrs.get(attr), 1, what);
  return v === null ? null : v[0]!;
}

/** A limit the sizing only reports (effort, velocity): the number as written, null when absent or not a number. */
function asWritten(el: XmlElement | undefined, attr: string): number | null {
  const t = tidy(el?.attrs.get(attr));
  return t !== null && NUMBER.test(t) ? Number(t) : null;
}

/** The sizing model of a parsed (and, for xacro, expanded) URDF document. */
export function readSizingModel(root: XmlElement): SizingModel {
  const model = readUrdfModel(root);
  if (!model.robot) throw bad('the root element is not <robot>', 'send a URDF (or xacro) description');
  const links: SizingLink[] = [];
  const linkIndex = new Map<string, number>();
  const massless: string[] = [];
  for (const l of model.links) {
    if (l.name === null || linkIndex.has(l.name)) continue;
    const inertial = childElements(l.el, 'inertial')[0];
    const mass = l.mass ? scalar(l.mass.el, 'value', `link ${l.name} <mass value>`) : null;
    if (mass !== null && mass < 0) throw bad(`link ${l.name} has a negative mass (${mass})`, 'masses are kg, at least 0');
    const { xyz } = origin(inertial, `link ${l.name} <inertial>`);
    if (mass === null) massless.push(l.name);
    linkIndex.set(l.name, links.length);
    links.push({ name: l.name, mass: mass ?? 0, declaresMass: mass !== null, com: xyz });
  }
  // Joint definitions by child link (a link has one parent: a later joint naming the same child is left out, as the extractor does).
  type Raw = { el: XmlElement; name: string; type: string; parent: number; child: number };
  const byChild = new Map<number, Raw>();
  const children = new Map<number, Raw[]>();
  for (const j of model.joints) {
    const p = tidy(j.parts.parent?.attrs.get('link'));
    const c = tidy(j.parts.child?.attrs.get('link'));
    const type = j.type?.trim();
    if (j.name === null || !type || p === null || c === null) continue;
    const pi = linkIndex.get(p);
    const ci = linkIndex.get(c);
    if (pi === undefined || ci === undefined) throw bad(`joint ${j.name} names link ${pi === undefined ? p : c}, which is not defined`, 'define the link or fix the joint\'s <parent>/<child>');
    if (byChild.has(ci)) continue;
    const raw = { el: j.el, name: j.name, type, parent: pi, child: ci };
    byChild.set(ci, raw);
    children.set(pi, [...(children.get(pi) ?? []), raw]);
  }
  const roots = links.map((_, i) => i).filter((i) => !byChild.has(i));
  if (roots.length !== 1) {
    throw bad(
      roots.length === 0 ? 'no root link (every link is some joint\'s child: a cycle)' : `${roots.length} root links (${roots.slice(0, 5).map((i) => links[i]!.name).join(', ')}): a fixed base needs one tree`,
      'connect every link to one root link with joints',
    );
  }
  const rootIndex = roots[0]!;
  const ordered: Raw[] = [];
  const stack = [rootIndex];
  const seen = new Set<number>([rootIndex]);
  while (stack.length > 0) {
    const l = stack.pop()!;
    for (const r of children.get(l) ?? []) {
      if (seen.has(r.child)) continue;
      seen.add(r.child);
      ordered.push(r);
      stack.push(r.child);
    }
  }
  const held: string[] = [];
  const joints: SizingJoint[] = ordered.map((r) => {
    const what = `joint ${r.name}`;
    const { xyz, rot } = origin(r.el, what);
    const moving = r.type === 'revolute' || r.type === 'continuous' || r.type === 'prismatic';
    if (!moving && r.type !== 'fixed') held.push(r.name);
    const axisEl = childElements(r.el, 'axis')[0];
    const a = (numbers(axisEl?.attrs.get('xyz'), 3, `${what} <axis xyz>`) ?? [1, 0, 0]) as Vec3;
    const n = Math.hypot(a[0], a[1], a[2]);
    if (moving && n === 0) throw bad(`${what} has a zero <axis xyz>`, 'give the axis direction, e.g. "0 0 1"');
    const limit = childElements(r.el, 'limit')[0];
    const mimicEl = childElements(r.el, 'mimic')[0];
    const lower = r.type === 'continuous' ? null : scalar(limit, 'lower', `${what} <limit lower>`);
    const upper = r.type === 'continuous' ? null : scalar(limit, 'upper', `${what} <limit upper>`);
    return {
      name: r.name,
      type: moving ? (r.type as MovingType) : 'fixed',
      parent: r.parent,
      child: r.child,
      xyz,
      rot,
      axis: n === 0 ? [1, 0, 0] : [a[0] / n, a[1] / n, a[2] / n],
      lower,
      upper,
      effort: asWritten(limit, 'effort'),
      velocity: asWritten(limit, 'velocity'),
      mimic:
        moving && mimicEl
          ? {
              driver: tidy(mimicEl.attrs.get('joint')) ?? '',
              multiplier: scalar(mimicEl, 'multiplier', `${what} <mimic multiplier>`) ?? 1,
              offset: scalar(mimicEl, 'offset', `${what} <mimic offset>`) ?? 0,
            }
          : null,
    };
  });
  resolveMimics(joints);
  return { robotName: tidy(model.robot.attrs.get('name')), rootLink: links[rootIndex]!.name, links, joints, held, massless: massless.filter((m) => seen.has(linkIndex.get(m)!)) };
}

/** A mimic of a mimic follows the first free joint up the chain (multipliers and offsets composed); a missing or cyclic driver is refused. */
function resolveMimics(joints: SizingJoint[]): void {
  const byName = new Map(joints.map((j) => [j.name, j]));
  for (const j of joints) {
    if (!j.mimic) continue;
    let m = j.mimic.multiplier;
    let o = j.mimic.offset;
    let d = byName.get(j.mimic.driver);
    const visited = new Set([j.name]);
    while (d && d.mimic) {
      if (visited.has(d.name)) throw bad(`mimic joints ${[...visited].join(', ')} follow each other in a cycle`, 'make one of them a free joint');
      visited.add(d.name);
      o = m * d.mimic.offset + o;
      m = m * d.mimic.multiplier;
      d = byName.get(d.mimic.driver);
    }
    if (!d || d.type === 'fixed') throw bad(`mimic joint ${j.name} follows "${j.mimic.driver}", which is not a moving joint of the tree`, 'name an existing revolute, continuous or prismatic joint in <mimic joint>');
    j.mimic = { driver: d.name, multiplier: m, offset: o };
  }
}

/** size_actuators' worker half: the description parsed (xacro expanded) and its torques computed. */
export function sizingTorques(input: RobotInput & TorqueRequest): TorqueReport {
  return computeTorques(readSizingModel(robotDescriptionRoot(input)), input);
}
