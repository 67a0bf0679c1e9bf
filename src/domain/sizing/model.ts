/**
 * The rigid-body model static sizing works on (a URDF read by src/ingest/oss/sizing-model.ts):
 * the tree of links from the one root link, each joint's fixed transform, axis and type, each
 * link's mass and centre of mass, mimic couplings resolved to the joint that drives them. Types only.
 */
import type { Mat3, Vec3 } from './math.js';

export type MovingType = 'revolute' | 'continuous' | 'prismatic';

export interface SizingJoint {
  name: string;
  /** fixed for fixed, floating and planar joints (held at their origin; listed in `held`). */
  type: MovingType | 'fixed';
  parent: number;
  child: number;
  /** Parent-link frame to joint frame (<origin>). */
  xyz: Vec3;
  rot: Mat3;
  /** Unit axis in the joint frame. */
  axis: Vec3;
  lower: number | null;
  upper: number | null;
  effort: number | null;
  velocity: number | null;
  /** Set on a mimic joint: q = multiplier × q(driver) + offset, driver a free joint (chains resolved). */
  mimic: { driver: string; multiplier: number; offset: number } | null;
}

export interface SizingLink {
  name: string;
  /** kg; 0 when the link declares no mass. */
  mass: number;
  declaresMass: boolean;
  /** Centre of mass in the link frame. */
  com: Vec3;
}

export interface SizingModel {
  robotName: string | null;
  rootLink: string;
  links: SizingLink[];
  /** Tree joints in parent-before-child order. */
  joints: SizingJoint[];
  /** Joints held at their origin: floating and planar (their own DOF are not sized). */
  held: string[];
  /** Links without <inertial><mass>. */
  massless: string[];
}

