/**
 * The torque half of size_actuators (runs in the worker pool: it parses XML): the robot's sizing
 * model, every given pose evaluated exactly, `samples` more drawn inside the joint limits by a
 * seeded generator, and for each free joint the largest |τ| with the pose it occurs in. Pure.
 */
import { DomainError, invalidInput } from '../shared/errors.js';
import { gravityTorques, subtreeMasses, type PointMass, type Pose } from './gravity.js';
import type { SizingModel } from './model.js';

export const SAMPLES_DEFAULT = 256;
export const SAMPLES_MAX = 4096;
export const POSES_MAX = 20;
/** Free joints sized in one call (the answer lists a worst pose per joint). */
export const JOINTS_MAX = 40;
export const PAYLOADS_MAX = 50;
export const GRAVITY_DEFAULT = 9.80665;
/** The generator's fixed seed: the same input always samples the same poses. */
export const SAMPLE_SEED = 42;

export interface TorqueRequest {
  poses?: Record<string, number>[];
  samples?: number;
  payloads?: { link: string; mass_kg: number }[];
  gravity_m_s2?: number;
  joints?: string[];
}

export interface JointNeed {
  joint_name: string;
  joint_type: 'revolute' | 'continuous' | 'prismatic';
  unit: 'N·m' | 'N';
  /** Largest |τ| over every evaluated pose (rounded to 1e-6). */
  required: number;
  worst_pose: { source: 'pose' | 'sample' | 'zero'; index: number | null; positions: Record<string, number> };
  subtree_mass_kg: number;
  urdf_effort: number | null;
  urdf_velocity: number | null;
  lower: number | null;
  upper: number | null;
  mimic_followers: string[];
}

export interface TorqueReport {
  robot_name: string | null;
  root_link: string;
  pose_torques: { torques: Record<string, number> }[];
  needs: JointNeed[];
  evaluated: { given: number; samples: number; zero: boolean; seed: number };
  gravity_m_s2: number;
  held_joints: string[];
  links_without_mass: string[];
  total_mass_kg: number;
}

/** mulberry32: a small deterministic PRNG (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (x: number) => {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
};

/** The sampling range of a free joint: its limits; continuous (or a revolute without limits) ±π; a prismatic joint without limits stays at 0. */
export function sampleRange(j: { type: string; lower: number | null; upper: number | null }): [number, number] {
  if (j.type === 'continuous' || (j.type === 'revolute' && (j.lower === null || j.upper === null))) return [-Math.PI, Math.PI];
  if (j.lower === null || j.upper === null) return [0, 0];
  return [Math.min(j.lower, j.upper), Math.max(j.lower, j.upper)];
}

export function computeTorques(model: SizingModel, req: TorqueRequest): TorqueReport {
  const g = req.gravity_m_s2 ?? GRAVITY_DEFAULT;
  const free = model.joints.filter((j) => j.type !== 'fixed' && !j.mimic);
  const freeNames = new Set(free.map((j) => j.name));
  const mimicOf = new Map(model.joints.filter((j) => j.mimic).map((j) => [j.name, j.mimic!.driver]));
  const linkIndex = new Map(model.links.map((l, i) => [l.name, i]));
  const inTree = new Set([model.rootLink, ...model.joints.map((j) => model.links[j.child]!.name)]);
  const payloads: PointMass[] = (req.payloads ?? []).map((p, i) => {
    if (!inTree.has(p.link)) throw invalidInput(`payloads.${i}.link`, `"${p.link}" is not a link of the robot's tree; links: ${[...inTree].slice(0, 10).join(', ')}${inTree.size > 10 ? ', …' : ''}`);
    return { link: linkIndex.get(p.link)!, mass: p.mass_kg };
  });
  const poses = (req.poses ?? []).map((p, i) => {
    for (const [name, v] of Object.entries(p)) {
      if (mimicOf.has(name)) throw invalidInput(`poses.${i}.${name}`, `is a mimic joint following ${mimicOf.get(name)}: give the position of ${mimicOf.get(name)} instead`);
      if (!freeNames.has(name)) throw invalidInput(`poses.${i}.${name}`, `is not a moving joint of the robot; free joints: ${[...freeNames].slice(0, 10).join(', ')}${freeNames.size > 10 ? ', …' : ''}`);
      if (!Number.isFinite(v)) throw invalidInput(`poses.${i}.${name}`, 'must be a finite number (rad, or m for a prismatic joint)');
    }
    return p;
  });
  const selected = req.joints ?? [...freeNames];
  for (const [i, name] of selected.entries()) {
    if (mimicOf.has(name)) throw invalidInput(`joints.${i}`, `"${name}" is a mimic joint following ${mimicOf.get(name)}: it is sized through ${mimicOf.get(name)}`);
    if (!freeNames.has(name)) throw invalidInput(`joints.${i}`, `"${name}" is not a moving joint of the robot; free joints: ${[...freeNames].slice(0, 10).join(', ')}`);
  }
  if (freeNames.size === 0) throw new DomainError('not_applicable', 'content: the robot has no moving joint (revolute, continuous or prismatic) to size', { field: 'content' });
  if (selected.length > JOINTS_MAX) throw invalidInput(req.joints ? 'joints' : 'content', `${selected.length} free joints to size; at most ${JOINTS_MAX} per call: pass joints (a subset) and size the rest in another call`);
  const samples = req.samples ?? (poses.length > 0 ? 0 : SAMPLES_DEFAULT);
  const worst = new Map<string, { v: number; source: 'pose' | 'sample' | 'zero'; index: number | null; pose: Pose }>();
  const consider = (pose: Pose, source: 'pose' | 'sample' | 'zero', index: number | null) => {
    const t = gravityTorques(model, pose, payloads, g);
    for (const name of selected) {
      const v = Math.abs(t.get(name)!);
      const w = worst.get(name);
      if (!w || v > w.v) worst.set(name, { v, source, index, pose });
    }
    return t;
  };
  const pose_torques = poses.map((p, i) => {
    const t = consider(p, 'pose', i);
    return { torques: Object.fromEntries(selected.map((n) => [n, round(t.get(n)!)])) };
  });
  consider({}, 'zero', null);
  const rnd = seededRandom(SAMPLE_SEED);
  for (let s = 0; s < samples; s++) {
    const pose: Record<string, number> = {};
    for (const j of free) {
      const [lo, hi] = sampleRange(j);
      pose[j.name] = lo + (hi - lo) * rnd();
    }
    consider(pose, 'sample', s);
  }
  const sub = subtreeMasses(model, payloads);
  const jointOfChild = new Map(model.joints.map((j) => [j.child, j]));
  const ancestors = (name: string): Set<string> => {
    const out = new Set<string>();
    let j = model.joints.find((x) => x.name === name);
    while (j) {
      out.add(j.mimic ? j.mimic.driver : j.name);
      j = jointOfChild.get(j.parent);
    }
    return out;
  };
  const anc = new Map(free.map((f) => [f.name, ancestors(f.name)]));
  // f matters to joint n when f is on n's path to the root, or n is on f's (f below n); a mimic joint counts as its driver.
  const relevant = (n: string, f: string) => anc.get(n)!.has(f) || anc.get(f)!.has(n) || model.joints.some((m) => m.mimic?.driver === f && (ancestors(m.name).has(n)));
  const byName = new Map(free.map((j) => [j.name, j]));
  const needs: JointNeed[] = selected.map((name) => {
    const j = byName.get(name)!;
    const w = worst.get(name)!;
    // The joints that change this joint's torque: those on its path from the root and those below it.
    const positions: Record<string, number> = {};
    for (const f of free) if (relevant(name, f.name)) positions[f.name] = round(w.pose[f.name] ?? 0);
    return {
      joint_name: name,
      joint_type: j.type as JointNeed['joint_type'],
      unit: j.type === 'prismatic' ? 'N' : 'N·m',
      required: round(w.v),
      worst_pose: { source: w.source, index: w.index, positions },
      subtree_mass_kg: round(sub.get(name)!),
      urdf_effort: j.effort,
      urdf_velocity: j.velocity,
      lower: j.lower,
      upper: j.upper,
      mimic_followers: model.joints.filter((m) => m.mimic?.driver === name).map((m) => m.name),
    };
  });
  const total = model.links.reduce((s, l) => s + (inTree.has(l.name) ? l.mass : 0), 0) + payloads.reduce((s, p) => s + p.mass, 0);
  return {
    robot_name: model.robotName,
    root_link: model.rootLink,
    pose_torques,
    needs,
    evaluated: { given: poses.length, samples, zero: true, seed: SAMPLE_SEED },
    gravity_m_s2: g,
    held_joints: model.held,
    links_without_mass: model.massless.slice(0, 50),
    total_mass_kg: round(total),
  };
}
