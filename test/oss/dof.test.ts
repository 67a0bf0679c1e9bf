/** Actuated DOF with mimic joints, floating and planar joints apart (synthetic fixture written for these tests). */
import { describe, expect, it } from 'vitest';
import { extract, type JointRecord } from '../../src/ingest/oss/index.js';
import { fixtureText } from './helpers.js';

describe('DOF convention on a fixture with mimic chains, a floating and a planar joint', () => {
  const text = fixtureText('mimic-floating.urdf');
  const r = extract(text);
  const joints = r.records as JointRecord[];
  const lineOf = (name: string) => text.slice(0, text.indexOf(`<joint name="${name}"`)).split('\n').length;

  it('actuated DOF = revolute + continuous + prismatic without <mimic>', () => {
    // Independent count over the fixture text: 1-DOF joint elements minus those containing <mimic.
    const blocks = [...text.matchAll(/<joint name="([^"]+)" type="(revolute|continuous|prismatic)">([\s\S]*?)<\/joint>/g)];
    const expected = blocks.filter((b) => !b[3].includes('<mimic')).length;
    expect(expected).toBe(4);
    expect(r.counts.dof).toBe(expected);
    expect(r.counts.joints_by_type).toEqual({ revolute: 4, continuous: 1, prismatic: 2, floating: 1, planar: 1 });
    expect(r.counts.dof_detail).toMatchObject({ actuated_dof: 4, one_dof_joints: 7 });
    expect(joints.filter((j) => j.actuated).map((j) => j.joint_name)).toEqual(['shoulder', 'wheel_spin', 'finger_left_joint', 'proximal_joint']);
  });

  it('lists each mimic joint with the joint it follows, multiplier and offset as written (a chain stays a chain)', () => {
    expect(r.counts.dof_detail!.mimic).toEqual([
      { joint: 'finger_right_joint', joint_type: 'prismatic', line: lineOf('finger_right_joint'), follows: 'finger_left_joint', follows_defined: true, multiplier: '-1', offset: null },
      { joint: 'middle_joint', joint_type: 'revolute', line: lineOf('middle_joint'), follows: 'proximal_joint', follows_defined: true, multiplier: '0.8', offset: '0.05' },
      { joint: 'distal_joint', joint_type: 'revolute', line: lineOf('distal_joint'), follows: 'middle_joint', follows_defined: true, multiplier: null, offset: '-0.1' },
    ]);
    expect(joints.find((j) => j.joint_name === 'distal_joint')!.mimic).toEqual({ joint: 'middle_joint', multiplier: null, offset: '-0.1' });
  });

  it('floating and planar apart, with the yourdfpy and MoveIt conventions', () => {
    const d = r.counts.dof_detail!;
    expect(d.floating).toEqual({ count: 1, yourdfpy_dof: 6, moveit_variables: 7 });
    expect(d.planar).toEqual({ count: 1, yourdfpy_dof: 2, moveit_variables: 3 });
    expect(d.yourdfpy_num_dofs).toBe(4 + 6 + 2);
    expect(d.convention).toMatch(/yourdfpy/);
    expect(d.convention).toMatch(/MoveIt/);
    expect(joints.find((j) => j.joint_type === 'floating')!.actuated).toBe(false);
  });

  it('a mimic target that is not defined is flagged in the summary', () => {
    const broken = text.replace('<mimic joint="finger_left_joint"', '<mimic joint="no_such_joint"');
    const m = extract(broken).counts.dof_detail!.mimic[0];
    expect(m).toMatchObject({ joint: 'finger_right_joint', follows: 'no_such_joint', follows_defined: false });
    expect(extract(broken).counts.dof).toBe(4);
  });
});
