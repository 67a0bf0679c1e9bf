/**
 * size_actuators: the static gravity torque each joint of a robot must hold, and the catalogue
 * actuators that hold it × a safety factor. Two halves: computeTorques (parses the description:
 * the worker pool runs it) and chooseActuators (reads the spec layer: the calling thread).
 */
import { z } from 'zod';
import type { StoredEntity } from '../catalogue/entity.js';
import type { SpecIndex } from '../specs/index.js';
import { actuatorOffers, chooseFor, groupJoints, SAFETY_FACTOR_DEFAULT, type SizingPick } from './candidates.js';
import type { TorqueReport } from './torques.js';

export * from './candidates.js';
export * from './torques.js';
export { readSizingModel, type SizingModel } from './model.js';
export { gravityTorques, jointPositions } from './gravity.js';

export const METHOD =
  'Static gravity torque τ = g(q) = ∂U/∂q (recursive Newton–Euler at rest, composite-body form) from the URDF inertials (mass, centre of mass), joint origins and axes; ' +
  'fixed base at the root link, gravity −z of the root frame; fixed joints merged; floating and planar joints held at their origin; ' +
  'τ holds the pose (pinocchio computeGeneralizedGravity sign); a mimic joint moves with its driver and its torque × multiplier is part of the driver\'s; ' +
  'payloads are point masses at a link frame origin. Not included: accelerations (dynamics), friction, gear and motor losses, contact and ground forces of legged robots ' +
  '(a standing leg carries the body: size legs with their own margin). Worst pose = largest |τ| over the given poses, the zero pose and the seeded samples inside the joint limits.';

const Num = z.number();
const N = Num.nullable();
const Cand = z
  .object({
    id: z.string(),
    name: z.string(),
    torque_rated_nm: N,
    force_rated_n: N,
    mass_kg: N,
    speed: z.object({ part_rad_s: N, urdf_velocity: N, meets: z.boolean().nullable() }),
    voltage: z.string().nullable(),
    bus: z.array(z.string()),
    price_range: z.string().nullable().describe('Catalogue band, currency not stated'),
    margin: Num.describe('rated / required'),
    level: z.string(),
  })
  .strict();

export const SizeActuatorsOutput = z
  .object({
    robot_name: z.string().nullable(),
    root_link: z.string(),
    total_mass_kg: Num,
    joints: z.array(
      z
        .object({
          joint_name: z.string(),
          joint_type: z.string(),
          required_torque_nm: N,
          required_force_n: N.describe('prismatic joints'),
          target: Num.describe('required × safety_factor'),
          worst_pose: z.object({ source: z.enum(['pose', 'sample', 'zero']), index: z.number().int().nullable(), positions: z.record(z.string(), Num) }),
          subtree_mass_kg: Num,
          urdf_effort: N,
          urdf_velocity: N,
          mimic_followers: z.array(z.string()),
          candidates: z.array(Cand),
          candidates_total: z.number().int(),
          near_misses: z.array(z.object({ id: z.string(), name: z.string(), declared: z.string(), reason: z.string() }).strict()),
          near_misses_total: z.number().int(),
          undeclared: z.number().int().describe('actuators declaring no rating: not offered'),
        })
        .strict(),
    ),
    pose_torques: z.array(z.object({ torques: z.record(z.string(), Num) })),
    groups: z.array(z.object({ joints: z.array(z.string()), required: Num, unit: z.string(), part: z.object({ id: z.string(), name: z.string() }).nullable() }).strict()),
    bom_items: z.array(z.object({ id: z.string(), quantity: z.number().int() })).describe('For check_bom / export_bom'),
    unsized: z.array(z.string()).describe('joints no catalogue part holds'),
    method: z.object({
      text: z.string(),
      safety_factor: Num,
      gravity_m_s2: Num,
      pick: z.string(),
      evaluated: z.object({ given: z.number().int(), samples: z.number().int(), zero: z.boolean(), seed: z.number().int() }),
      held_joints: z.array(z.string()),
      links_without_mass: z.array(z.string()),
    }),
  })
  .strict();
export type SizeActuatorsOutput = z.infer<typeof SizeActuatorsOutput>;

/** Joins the torque report with the catalogue actuators (records of the actuators category). */
export function chooseActuators(
  report: TorqueReport,
  index: SpecIndex,
  actuators: readonly StoredEntity[],
  opts: { safety_factor?: number; pick?: SizingPick },
): SizeActuatorsOutput {
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
    groups,
    bom_items: [...bom].map(([id, quantity]) => ({ id, quantity })),
    unsized: groups.filter((g) => !g.part).flatMap((g) => g.joints),
    method: {
      text: METHOD,
      safety_factor: sf,
      gravity_m_s2: report.gravity_m_s2,
      pick,
      evaluated: report.evaluated,
      held_joints: report.held_joints,
      links_without_mass: report.links_without_mass,
    },
  };
}
