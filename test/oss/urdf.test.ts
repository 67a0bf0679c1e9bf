/** The urdf extractor on the real URDF files (counts from shared/robots/README.md) and on a synthetic exporter-style fixture. */
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../src/domain/shared/errors.js';
import { extract, extractUrdf, ExtractionResult, type JointRecord } from '../../src/ingest/oss/index.js';
import { fixtureText, robotsPresent, robotText } from './helpers.js';

const joints = (r: ExtractionResult) => r.records as JointRecord[];

describe.skipIf(!robotsPresent)('real URDF files', () => {
  it('Unitree Go2: 12 revolute + 29 fixed joints, dof 12, hip limits as written', () => {
    const r = extract(robotText('urdf/unitree_go2_description.urdf'));
    expect(r.kind).toBe('urdf');
    expect(r.robot_name).toBe('go2_description');
    expect(r.counts.joints_by_type).toEqual({ revolute: 12, fixed: 29 });
    expect(r.counts.dof).toBe(12);
    expect(r.records).toHaveLength(41);
    expect(r.skipped).toEqual([]);
    const hip = joints(r).find((j) => j.joint_name === 'FL_hip_joint')!;
    expect(hip).toMatchObject({
      joint_type: 'revolute',
      parent_link: 'base',
      child_link: 'FL_hip',
      axis: '1 0 0',
      limits: { lower: '-1.0472', upper: '1.0472', effort: '23.7', velocity: '30.1' },
      confidence: 'high',
      line: 79,
    });
    // Attributes after type (dont_collapse) do not matter.
    expect(joints(r).find((j) => j.joint_name === 'Head_upper_joint')!.joint_type).toBe('fixed');
    expect(ExtractionResult.parse(r)).toBeTruthy();
  });

  it('roboto_origin Atom01 (SolidWorks exporter, attributes split across lines): 23 revolute, padded values trimmed', () => {
    const r = extract(robotText('urdf/roboto_origin_atom01.urdf'));
    expect(r.kind).toBe('urdf');
    expect(r.robot_name).toBe('atom01urdf');
    expect(r.counts.joints_by_type).toEqual({ revolute: 23 });
    expect(r.counts.dof).toBe(23);
    expect(r.skipped).toEqual([]);
    const j = joints(r)[0];
    expect(j).toMatchObject({
      joint_name: 'left_thigh_yaw_joint',
      joint_type: 'revolute',
      parent_link: 'base_link',
      child_link: 'left_thigh_yaw_link',
      axis: '0.5 0 0.86603',
      limits: { lower: '-0.2', upper: '1', effort: '80', velocity: '10.47' },
      child_link_mass: '1.70245957',
      line: 87,
    });
    expect(joints(r).every((x) => x.confidence === 'high')).toBe(true);
  });

  it('SO-101: 6 revolute (5 arm + gripper) and 1 fixed joint definition; the 6 <joint> inside <transmission> are references', () => {
    // shared/robots/README.md says "7 fixed": the file has 13 <joint> elements, of which 6 revolute,
    // 1 fixed (gripper_frame_joint) and 6 untyped references inside <transmission>. We count the file.
    const r = extract(robotText('urdf/so101_new_calib.urdf'));
    expect(r.counts.joints_by_type).toEqual({ revolute: 6, fixed: 1 });
    expect(r.counts.joint_references).toBe(6);
    expect(r.counts.dof).toBe(6);
    expect(joints(r).filter((j) => j.joint_type === 'revolute').map((j) => j.joint_name)).toEqual(['gripper', 'wrist_roll', 'wrist_flex', 'elbow_flex', 'shoulder_lift', 'shoulder_pan']);
    expect(joints(r).find((j) => j.joint_name === 'gripper')!.limits).toEqual({ effort: '10', velocity: '10', lower: '-0.174533', upper: '1.74533' });
  });
});

describe('synthetic exporter-style fixture', () => {
  const r = extractUrdf(fixtureText('exporter-style.urdf'));

  it('counts joint definitions by type, whatever the attribute order, quoting or line breaks', () => {
    expect(r.robot_name).toBe('fixture_bot');
    expect(r.counts).toEqual({
      records: 5,
      skipped: 3,
      joints_by_type: { revolute: 2, continuous: 1, prismatic: 1, fixed: 1 },
      dof: 4,
      dof_detail: expect.objectContaining({ actuated_dof: 4, one_dof_joints: 4, mimic: [], yourdfpy_num_dofs: 4 }),
      joint_references: 1,
      links: 5,
    });
    expect(joints(r).map((j) => j.joint_name)).toEqual(['hip_joint', 'knee_joint', 'slider_joint', 'imu_joint', 'a&b_joint']);
  });

  it('reads split tags, padded values and the child link mass; ignores commented-out joints', () => {
    expect(joints(r)[0]).toEqual({
      record_type: 'urdf_joint',
      extractor: 'urdf',
      confidence: 'high',
      line: 26,
      joint_name: 'hip_joint',
      joint_type: 'revolute',
      parent_link: 'base_link',
      child_link: 'hip_link',
      axis: '0.5 0 0.86603',
      limits: { lower: '-0.2', upper: '1', effort: '80', velocity: '10.47' },
      child_link_mass: '0.75',
      mimic: null,
      actuated: true,
    });
    expect(joints(r).some((j) => j.joint_name === 'commented_joint')).toBe(false);
  });

  it('skips what does not read exactly, with reasons: no type, a type outside URDF, a non-numeric limit', () => {
    expect(r.skipped.map((s) => [s.code, s.scope, s.line])).toEqual([
      ['value_not_numeric', 'value', 48],
      ['joint_no_type', 'joint', 61],
      ['joint_unknown_type', 'joint', 65],
    ]);
    const knee = joints(r).find((j) => j.joint_name === 'knee_joint')!;
    expect(knee.limits).toEqual({ effort: '12.5' });
    expect(knee.confidence).toBe('medium');
  });

  it('malformed XML (a broken tag, an unclosed comment) is refused with its line and column, never read in part', () => {
    const refused = (t: string) => {
      try {
        extractUrdf(t);
      } catch (e) {
        return (e as DomainError).toBody();
      }
      throw new Error('not refused');
    };
    expect(refused('<robot name="x"><link name="a"/><joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint><joint name="k" type="revolute" <!-- never closed')).toMatchObject({ code: 'invalid_input', field: 'content', line: 1, column: 137 });
    expect(refused('<robot name="x">\n<link name="a"/>\n<!-- open')).toMatchObject({ code: 'invalid_input', line: 3, column: 1 });
  });

  it('the root link, the total mass and the mass of each subtree (hand-summed from the fixture: 2.5 + 0.75 + 0.001)', () => {
    expect(r.mass).toMatchObject({ root_link: 'base_link', root_link_mass: '2.5', total: 3.251, links_with_mass: 3, links_without_mass: ['knee_link', 'imu_link'] });
    // hip_link is also named as child by a&b_joint: a second parent is not part of the tree (lint reports it), so it is counted once.
    expect(r.mass!.subtrees).toEqual([
      { joint: 'hip_joint', child_link: 'hip_link', mass: 0.75 },
      { joint: 'knee_joint', child_link: 'knee_link', mass: 0 },
      { joint: 'slider_joint', child_link: 'slider_link', mass: 0.001 },
      { joint: 'imu_joint', child_link: 'imu_link', mass: 0 },
    ]);
  });
});
