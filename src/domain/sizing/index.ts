/**
 * size_actuators: the static gravity torque each joint of a robot must hold, and the catalogue
 * actuators that hold it × a safety factor. Two halves: the torques (src/ingest/oss/sizing-model.ts parses the
 * description and computes them: the worker pool runs it) and chooseActuators (reads the spec layer: the calling thread).
 */
import { z } from 'zod';
import type { StoredEntity } from '../catalogue/entity.js';
import type { SpecIndex } from '../specs/index.js';
import { actuatorOffers, chooseFor, groupJoints, SAFETY_FACTOR_DEFAULT, type SizingPick } from './candidates.js';
import type { TorqueReport } from './torques.js';

export * from './candidates.js';
export * from './torques.js';
export type { SizingModel } from './model.js';
export { gravityTorques, jointPositions } from './gravity.js';

export const METHOD =
  'Static gravity torque τ = g(q) = ∂U/∂q (recursive Newton–Euler at rest, composite-body form) from the URDF inertials (mass, centre of mass), joint origins and axes; ' +
  'fixed base at the root link, gravity −z of the root frame; fixed joints merged; floating and planar joints held at their origin; ' +
  'τ holds the pose (pinocchio computeGeneralizedGravity sign); a mimic joint moves with its driver and its torque × multiplier is part of the driver\'s; ' +
  'payloads are point masses at a link frame origin. Not included: accelerations (dynamics), friction, gear and motor losses, contact and ground forces of legged robots ' +
  '(a standing leg carries the body: size legs with their own margin). Worst pose = largest |τ| over the given poses, the zero pose and the seeded samples inside the joint limits.';

const Num = z.number();
const N = Num.nullable();
const S = z.string();
const Int = z.number().int();
/** Typed where a client acts on it (joints, needs, candidate ids, bom_items); each entry's other fields are in the README (tools/list budget). */
export const SizeActuatorsOutput = z
  .looseObject({
    joints: z.array(z.looseObject({ joint_name: S, required_torque_nm: N, required_force_n: N, candidates: z.array(z.looseObject({ id: S, margin: N })) })),
    pose_torques: z.array(z.object({ torques: z.record(S, Num) })),
    groups: z.array(z.looseObject({ joints: z.array(S) })),
    bom_items: z.array(z.object({ id: S, quantity: Int })),
    unsized: z.array(S),
    method: z.looseObject({ text: S }),
  });
export type SizeActuatorsOutput = ReturnType<typeof chooseActuators>;

/** Joins the torque report with the catalogue actuators (records of the actuators category). */
export function chooseActuators(
  report: TorqueReport,
  index: SpecIndex,
  actuators: readonly StoredEntity[],
  opts: { safety_factor?: number; pick?: SizingPick },
) {
  const sf = opts.safety_factor ?? SAFETY_FACTOR_DEFAULT;
  const pick = opts.pick ?? 'lightest';
  const rotary = actuatorOffers(index, actuators, 'torque_rated');
  const linear = report.needs.some((n) => n.unit === 'N') ? actuatorOffers(index, actuators, 'load_force') : [];
  const choices = new Map(report.needs.map((n) => [n.joint_name, chooseFor(n, n.unit === 'N' ? linear : rotary, sf, pick)]));
  const joints = report.needs.map((n) => {
    const c = choices.get(n.joint_name)!;
    return {
      joint_name: n.joint_name,
      joint_type: n.joint_type,
      required_torque_nm: n.unit === 'N·m' ? n.required : null,
      required_force_n: n.unit === 'N' ? n.required : null,
      target: Number((n.required * sf).toFixed(6)),
      worst_pose: n.worst_pose,
      subtree_mass_kg: n.subtree_mass_kg,
      urdf_effort: n.urdf_effort,
      urdf_velocity: n.urdf_velocity,
      mimic_followers: n.mimic_followers,
      ...c,
    };
  });
  const groups = groupJoints(report.needs, (n) => choices.get(n.joint_name)!);
  const bom = new Map<string, number>();
  for (const g of groups) if (g.part) bom.set(g.part.id, (bom.get(g.part.id) ?? 0) + g.joints.length);
  return {
    robot_name: report.robot_name,
    root_link: report.root_link,
    total_mass_kg: report.total_mass_kg,
    joints,
    pose_torques: report.pose_torques,
    groups: groups.map((g) => ({ joints: g.joints, required: g.required, part_id: g.part?.id ?? null })),
    bom_items: [...bom].map(([id, quantity]) => ({ id, quantity })),
    unsized: groups.filter((g) => !g.part).flatMap((g) => g.joints),
    method: {
      text: METHOD,
      safety_factor: sf,
      gravity_m_s2: report.gravity_m_s2,
      pick,
      given: report.evaluated.given,
      samples: report.evaluated.samples,
      seed: report.evaluated.seed,
      held_joints: report.held_joints,
      links_without_mass: report.links_without_mass,
    },
  };
}
