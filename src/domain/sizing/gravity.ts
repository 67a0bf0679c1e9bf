/**
 * Static gravity torques τ = g(q) = ∂U/∂q of a fixed-base tree (U = Σ m g z of every centre of
 * mass, z up in the root link's frame): the torque (N·m) or force (N) each joint must apply to
 * hold the pose, the sign convention of pinocchio's computeGeneralizedGravity.
 *
 * One forward pass places every link (joint origin, then the joint's motion about or along its
 * axis); one backward pass sums each joint's subtree mass M and first moment S = Σ m c. For a
 * revolute joint at o with world axis a: τ = a · ((S − M o) × ĝ) with ĝ = (0, 0, g); for a
 * prismatic joint τ = a · (0, 0, M g). This is
 * recursive Newton–Euler with zero velocity and acceleration, in its composite-body form.
 *
 * A mimic joint moves with its driver (q = k q_d + c): its own torque, times k, is part of the
 * driver's generalised torque τ_d = ∂U/∂q_d (the coupling transmits it), so the driver is sized
 * for both and the mimic joint gets no actuator of its own. Pure.
 */
import { add, apply, axisAngle, cross, dot, IDENTITY, mul, type Mat3, type Vec3 } from './math.js';
import type { SizingModel } from './model.js';

export interface PointMass {
  link: number;
  mass: number;
}

/** Positions of the free (non-mimic, moving) joints by name; missing ones are 0. */
export type Pose = Readonly<Record<string, number>>;

export interface GravityResult {
  /** Generalised torque of each free joint (N·m revolute/continuous, N prismatic). */
  torques: Map<string, number>;
}

/** The position of every moving joint in a pose (mimic joints from their driver). */
export function jointPositions(model: SizingModel, pose: Pose): Map<string, number> {
  const q = new Map<string, number>();
  for (const j of model.joints) {
    if (j.type === 'fixed') continue;
    q.set(j.name, j.mimic ? j.mimic.multiplier * (pose[j.mimic.driver] ?? 0) + j.mimic.offset : (pose[j.name] ?? 0));
  }
  return q;
}

export function gravityTorques(model: SizingModel, pose: Pose, payloads: readonly PointMass[], g: number): Map<string, number> {
  const n = model.links.length;
  const rot: Mat3[] = new Array(n);
  const pos: Vec3[] = new Array(n);
  const root = model.links.findIndex((l) => l.name === model.rootLink);
  rot[root] = IDENTITY;
  pos[root] = [0, 0, 0];
  const q = jointPositions(model, pose);
  // Joint frame (world) of each joint: origin point and axis.
  const jo: Vec3[] = new Array(model.joints.length);
  const ja: Vec3[] = new Array(model.joints.length);
  model.joints.forEach((j, k) => {
    const R = mul(rot[j.parent]!, j.rot);
    const o = add(pos[j.parent]!, apply(rot[j.parent]!, j.xyz));
    jo[k] = o;
    ja[k] = apply(R, j.axis);
    const v = q.get(j.name) ?? 0;
    if (j.type === 'revolute' || j.type === 'continuous') {
      rot[j.child] = mul(R, axisAngle(j.axis, v));
      pos[j.child] = o;
    } else if (j.type === 'prismatic') {
      rot[j.child] = R;
      pos[j.child] = add(o, apply(R, [j.axis[0] * v, j.axis[1] * v, j.axis[2] * v]));
    } else {
      rot[j.child] = R;
      pos[j.child] = o;
    }
  });
  // Mass and first moment of each link's subtree (links in the tree only).
  const M = new Float64Array(n);
  const S: Vec3[] = Array.from({ length: n }, () => [0, 0, 0] as Vec3);
  for (let i = 0; i < n; i++) {
    if (!rot[i]) continue;
    const l = model.links[i]!;
    if (l.mass > 0) {
      const c = add(pos[i]!, apply(rot[i]!, l.com));
      M[i] += l.mass;
      S[i] = add(S[i]!, [l.mass * c[0], l.mass * c[1], l.mass * c[2]]);
    }
  }
  for (const p of payloads) {
    M[p.link] += p.mass;
    S[p.link] = add(S[p.link]!, [p.mass * pos[p.link]![0], p.mass * pos[p.link]![1], p.mass * pos[p.link]![2]]);
  }
  const own = new Map<string, number>();
  const ghat: Vec3 = [0, 0, g];
  for (let k = model.joints.length - 1; k >= 0; k--) {
    const j = model.joints[k]!;
    const m = M[j.child]!;
    const s = S[j.child]!;
    if (j.type === 'revolute' || j.type === 'continuous') {
      const o = jo[k]!;
      own.set(j.name, dot(ja[k]!, cross([s[0] - m * o[0], s[1] - m * o[1], s[2] - m * o[2]], ghat)));
    } else if (j.type === 'prismatic') {
      own.set(j.name, dot(ja[k]!, [0, 0, m * g]));
    }
    M[j.parent] += m;
    S[j.parent] = add(S[j.parent]!, s);
  }
  const out = new Map<string, number>();
  for (const j of model.joints) if (j.type !== 'fixed' && !j.mimic) out.set(j.name, own.get(j.name)!);
  for (const j of model.joints) if (j.mimic) out.set(j.mimic.driver, out.get(j.mimic.driver)! + j.mimic.multiplier * own.get(j.name)!);
  return out;
}

/** Subtree mass below each joint (its child link and everything under it, payloads included). */
export function subtreeMasses(model: SizingModel, payloads: readonly PointMass[]): Map<string, number> {
  const M = new Float64Array(model.links.length);
  model.links.forEach((l, i) => (M[i] = l.mass));
  for (const p of payloads) M[p.link] += p.mass;
  const out = new Map<string, number>();
  for (let k = model.joints.length - 1; k >= 0; k--) {
    const j = model.joints[k]!;
    out.set(j.name, M[j.child]!);
    M[j.parent] += M[j.child]!;
  }
  return out;
}
