/**
 * The kinematic structure read from real URDF files (joint frames and link primitives), checked
 * against counts and values taken from the files with plain regular expressions.
 */
import { describe, expect, it } from 'vitest';
import { urdfKinematics } from '../../src/ingest/oss/kinematics.js';
import { robotsPresent, robotText } from './helpers.js';

describe.skipIf(!robotsPresent)('urdfKinematics on real files', () => {
  it('Go2: every joint and link, each joint origin as written, the primitives of the links', () => {
    const text = robotText('urdf/unitree_go2_description.urdf');
    const k = urdfKinematics(text);
    expect(k.joints.length).toBe(41); // shared/robots/README.md: 12 revolute, 29 fixed
    expect(k.joints.filter((j) => j.type === 'revolute').length).toBe(12);
    expect(k.links.length).toBe((text.match(/<link\s/g) ?? []).length);
    const primitives = (text.match(/<(box|cylinder|sphere)\s/g) ?? []).length;
    expect(k.links.reduce((n, l) => n + l.primitives.length, 0)).toBe(primitives);
    const m = /<joint name="FL_hip_joint" type="revolute">\s*<origin xyz="([^"]+)" rpy="([^"]+)"/.exec(text)!;
    const fl = k.joints.find((j) => j.name === 'FL_hip_joint')!;
    expect(fl).toMatchObject({ parent: 'base', child: 'FL_hip', axis: '1 0 0', origin: { xyz: m[1], rpy: m[2] } });
  });

  it('SO-101: transmission joint references are not joints; meshes are not primitives', () => {
    const k = urdfKinematics(robotText('urdf/so101_new_calib.urdf'));
    expect(k.joints.length).toBe(7); // 6 revolute + 1 fixed definition (data/oss/README.md)
    expect(k.links.every((l) => l.primitives.length === 0)).toBe(true);
  });
});

describe('urdfKinematics on synthetic text', () => {
  it('keeps the element origin on each primitive and a joint without origin as null', () => {
    const k = urdfKinematics(
      '<robot name="r"><link name="a"><collision><origin xyz="0 0 .1"/><geometry><cylinder radius="0.02" length="0.3"/></geometry></collision></link>' +
        '<link name="b"/><joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint></robot>',
    );
    expect(k.links[0]!.primitives).toEqual([{ element: 'collision', shape: 'cylinder', size: null, radius: '0.02', length: '0.3', origin: { xyz: '0 0 .1', rpy: null } }]);
    expect(k.joints[0]).toMatchObject({ name: 'j', origin: null, parent: 'a', child: 'b' });
  });
});
