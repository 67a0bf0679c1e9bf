/**
 * Robot description packages: files + entry + args on the domain entry functions, over MCP and
 * REST (JSON, .zip and .tar.gz bodies built by the system's zip and tar), includes across two
 * packages, args with defaults, xacro:if, load_yaml, quoted macro defaults, refusals naming what
 * is missing, path escapes; the shared Robotiq package (acceptance of issue 27).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/shared/errors.js';
import { extractRobotParts, lintRobotDescription, type JointRecord } from '../../src/ingest/oss/index.js';
import { testDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { ROBOTS, robotsPresent, ROOT, sharedPackageFiles } from './helpers.js';

const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
/** Two packages written for this test: arm/ (package.xml names it arm_description) and common_macros/ (no package.xml: found by its folder name). */
const PKG: Record<string, string> = {
  'arm/package.xml': '<?xml version="1.0"?>\n<package format="2"><name>arm_description</name><version>0.0.1</version></package>\n',
  'arm/urdf/arm.urdf.xacro': `<?xml version="1.0"?>
<robot name="arm" ${NS}>
  <xacro:arg name="prefix" default="left_"/>
  <xacro:arg name="with_gripper" default="false"/>
  <!-- <xacro:include filename="$(find not_a_package)/never.xacro"/> commented out: never read -->
  <xacro:property name="cfg" value="\${xacro.load_yaml('$(find arm_description)/config/limits.yaml')}"/>
  <xacro:include filename="$(find common_macros)/urdf/links.xacro"/>
  <xacro:include filename="parts/joint.xacro"/>
  <xacro:link_with_mass name="$(arg prefix)base" mass="2.0"/>
  <xacro:link_with_mass name="$(arg prefix)upper" mass="\${cfg['upper']['mass']}"/>
  <xacro:rev name="$(arg prefix)shoulder" parent="$(arg prefix)base" child="$(arg prefix)upper" effort="\${cfg.shoulder.effort}"/>
  <xacro:if value="$(arg with_gripper)">
    <xacro:link_with_mass name="$(arg prefix)gripper" mass="0.5"/>
    <joint name="$(arg prefix)gripper_joint" type="fixed"><parent link="$(arg prefix)upper"/><child link="$(arg prefix)gripper"/></joint>
  </xacro:if>
</robot>
`,
  'arm/urdf/parts/joint.xacro': `<?xml version="1.0"?>
<robot ${NS}>
  <xacro:macro name="rev" params="name parent child effort axis:='0 0 1'">
    <joint name="\${name}" type="revolute">
      <parent link="\${parent}"/><child link="\${child}"/>
      <axis xyz="\${axis}"/>
      <limit lower="-1" upper="1" effort="\${effort}" velocity="3"/>
    </joint>
  </xacro:macro>
</robot>
`,
  'arm/config/limits.yaml': 'upper:\n  mass: 1.25\nshoulder:\n  effort: 30\n',
  'common_macros/urdf/links.xacro': `<?xml version="1.0"?>
<robot ${NS}>
  <xacro:macro name="link_with_mass" params="name mass">
    <link name="\${name}">
      <inertial><mass value="\${mass}"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
      <visual><geometry><mesh filename="package://common_macros/meshes/\${name}.stl"/></geometry></visual>
    </link>
  </xacro:macro>
</robot>
`,
};
const files = (over: Record<string, string | null> = {}) =>
  Object.entries({ ...PKG, ...over })
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([p, content]) => ({ path: p, content }));
const ENTRY = 'arm/urdf/arm.urdf.xacro';
const joints = (r: { records: unknown[] }) => r.records as JointRecord[];
const refusal = (f: () => unknown): Record<string, unknown> => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e.toBody();
    throw e;
  }
  throw new Error('not refused');
};

describe('a package of two packages', () => {
  it('includes across packages ($(find) by package.xml name and by folder name), a relative include, load_yaml, arg defaults, xacro:if off', () => {
    const r = extractRobotParts({ files: files(), entry: ENTRY });
    expect(joints(r).map((j) => [j.joint_name, j.joint_type, j.axis, j.limits.effort, j.file])).toEqual([['left_shoulder', 'revolute', '0 0 1', '30', 'arm/urdf/parts/joint.xacro']]);
    expect(r.package).toMatchObject({
      name: 'arm_description',
      entry: ENTRY,
      // The YAML is read when the property is first used (properties are lazy, as in xacro).
      files_read: [ENTRY, 'common_macros/urdf/links.xacro', 'arm/urdf/parts/joint.xacro', 'arm/config/limits.yaml'],
      files_unused: 1,
    });
    expect(r.package!.packages).toEqual([{ name: 'arm_description', folder: 'arm' }]);
    expect(r.package!.referenced_files).toEqual([
      { uri: 'package://common_macros/meshes/left_base.stl', path: 'common_macros/meshes/left_base.stl', present: false },
      { uri: 'package://common_macros/meshes/left_upper.stl', path: 'common_macros/meshes/left_upper.stl', present: false },
    ]);
    expect(r.xacro).toMatchObject({ includes: 2, args: [{ name: 'prefix', value: 'left_', source: 'default' }, { name: 'with_gripper', value: 'false', source: 'default' }] });
    // Hand sum: base 2.0 + upper 1.25 (from the YAML).
    expect(r.mass).toMatchObject({ root_link: 'left_base', total: 3.25 });
    expect(r.lint).toMatchObject({ ok: true, joints: 1 });
  });

  it('args passed override the defaults; xacro:if on adds the gripper', () => {
    const r = extractRobotParts({ files: files(), entry: ENTRY, args: { prefix: 'r_', with_gripper: 'true' } });
    expect(joints(r).map((j) => j.joint_name)).toEqual(['r_shoulder', 'r_gripper_joint']);
    expect(r.xacro!.args).toEqual([
      { name: 'prefix', value: 'r_', source: 'passed' },
      { name: 'with_gripper', value: 'true', source: 'passed' },
    ]);
    expect(r.mass!.total).toBe(3.75); // 2.0 + 1.25 + 0.5
    expect(lintRobotDescription({ files: files(), entry: ENTRY, args: { with_gripper: 'true' } }).summary).toMatchObject({ ok: true, joints: 2, links: 3 });
  });

  it('what is missing is named: an included file, a package, a YAML file, an argument', () => {
    expect(refusal(() => extractRobotParts({ files: files({ 'arm/urdf/parts/joint.xacro': null }), entry: ENTRY }))).toMatchObject({
      code: 'invalid_input',
      missing: [`included file arm/urdf/parts/joint.xacro (included from ${ENTRY} line 8)`, 'macro rev'],
    });
    expect(refusal(() => extractRobotParts({ files: files({ 'common_macros/urdf/links.xacro': null }), entry: ENTRY }))).toMatchObject({ missing: ['ROS package common_macros ($(find common_macros))'] });
    expect(refusal(() => extractRobotParts({ files: files({ 'arm/config/limits.yaml': null }), entry: ENTRY }))).toMatchObject({ missing: ['YAML file arm/config/limits.yaml'] });
    const noDefault = files({ [ENTRY]: PKG[ENTRY].replace(' default="left_"', '') });
    expect(refusal(() => lintRobotDescription({ files: noDefault, entry: ENTRY }))).toMatchObject({ code: 'invalid_input', missing: ['argument prefix'] });
  });

  it('paths may not escape the upload: "..", absolute paths, an include that climbs out', () => {
    expect(refusal(() => extractRobotParts({ files: [...files(), { path: '../evil.xacro', content: '<robot/>' }], entry: ENTRY }))).toMatchObject({ code: 'invalid_input', field: 'files[5].path' });
    expect(refusal(() => extractRobotParts({ files: [...files(), { path: '/etc/robot.urdf', content: '<robot/>' }], entry: ENTRY }))).toMatchObject({ code: 'invalid_input' });
    const climbing = files({ [ENTRY]: PKG[ENTRY].replace('parts/joint.xacro', '../../../../etc/passwd') });
    expect(String(refusal(() => extractRobotParts({ files: climbing, entry: ENTRY })).error)).toContain('outside the upload');
    expect(refusal(() => extractRobotParts({ files: files(), entry: 'arm/urdf/none.xacro' }))).toMatchObject({ field: 'entry' });
    expect(refusal(() => extractRobotParts({ files: files(), entry: ENTRY, content: '<robot/>' }))).toMatchObject({ field: 'content' });
  });

  it('the same size limit as content: 2 MiB of text across all files', () => {
    const big = 'x'.repeat(1024 * 1024);
    expect(refusal(() => extractRobotParts({ files: [...files(), { path: 'a.yaml', content: big }, { path: 'b.yaml', content: big }], entry: ENTRY }))).toMatchObject({ code: 'payload_too_large', field: 'files', limit_bytes: 2 * 1024 * 1024 });
  });
});

describe('comments, CDATA and processing instructions are never content', () => {
  const plain = `<?xml version="1.0"?>
<robot name="plain">
  <!-- <xacro:include filename="$(find go1_description)/xacro/const.xacro"/> -->
  <!-- <mesh filename="$(find go1_description)/meshes/trunk.dae"/> \${not_an_expression} -->
  <?processing instruction with $(find x) ?>
  <link name="base"><visual><geometry><box size="1 1 1"/></geometry></visual></link>
  <link name="leg"/>
  <joint name="hip" type="continuous"><parent link="base"/><child link="leg"/></joint>
  <gazebo><plugin><![CDATA[ <xacro:include filename="$(find x)/y.xacro"/> ]]></plugin></gazebo>
</robot>
`;
  it('a plain URDF with commented-out xacro is read as URDF, not refused', () => {
    const r = extractRobotParts({ content: plain });
    expect(r.xacro).toBeUndefined();
    expect(r.counts.joints_by_type).toEqual({ continuous: 1 });
    expect(lintRobotDescription({ content: plain }).summary.ok).toBe(true);
  });
});

describe('quoted macro defaults with spaces', () => {
  it(`params="n axis:='0 0 1'" gives axis "0 0 1" when not passed`, () => {
    const t = `<robot name="q" ${NS}><xacro:macro name="j" params="n axis:='0 0 1' lim:=&quot;-1 1&quot;"><link name="\${n}_c"/><joint name="\${n}" type="continuous"><parent link="b"/><child link="\${n}_c"/><axis xyz="\${axis}"/></joint></xacro:macro><link name="b"/><xacro:j n="a"/><xacro:j n="c" axis="1 0 0"/></robot>`;
    expect(joints(extractRobotParts({ content: t })).map((j) => [j.joint_name, j.axis])).toEqual([['a', '0 0 1'], ['c', '1 0 0']]);
  });
});

describe('surfaces: MCP files, REST JSON, .zip and .tar.gz', () => {
  let client: Client;
  let url: string;
  let close: () => Promise<void>;
  let dir: string;
  beforeAll(async () => {
    ({ client, url, close } = await openSurfaces(testDeps(undefined, { dataDir: path.join(ROOT, 'data') })));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pkg-'));
    for (const [p, c] of Object.entries(PKG)) {
      fs.mkdirSync(path.join(dir, 'src', path.dirname(p)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', p), c);
    }
    fs.mkdirSync(path.join(dir, 'src/common_macros/meshes'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/common_macros/meshes/left_base.stl'), Buffer.alloc(4096, 1)); // a binary mesh: counted, not read
    execFileSync('zip', ['-qr', path.join(dir, 'pkg.zip'), '.'], { cwd: path.join(dir, 'src') });
    execFileSync('tar', ['-czf', path.join(dir, 'pkg.tar.gz'), 'arm', 'common_macros'], { cwd: path.join(dir, 'src') });
  });
  afterAll(async () => {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const expected = () => extractRobotParts({ files: files(), entry: ENTRY, args: { prefix: 'z_' } });
  const upload = (route: string, file: string, type: string, query = `entry=${encodeURIComponent(ENTRY)}&arg.prefix=z_`) =>
    fetch(`${url}${route}?${query}`, { method: 'POST', headers: { 'content-type': type }, body: fs.readFileSync(path.join(dir, file)) });

  it('MCP: extract_robot_parts and lint_urdf take files, entry and args', async () => {
    const r = await call(client, 'extract_robot_parts', { files: files(), entry: ENTRY, args: { prefix: 'z_' } });
    expect(r.isError).toBeFalsy();
    // One page (a small package): the whole extraction, with next_cursor null (the tool pages large records lists).
    expect(r.structuredContent).toEqual({ ...JSON.parse(JSON.stringify(expected())), next_cursor: null });
    expect((r.content as { text: string }[])[0].text).toContain('Package arm_description, entry arm/urdf/arm.urdf.xacro');
    const l = await call(client, 'lint_urdf', { files: files(), entry: ENTRY });
    expect((l.structuredContent as { summary: { ok: boolean } }).summary.ok).toBe(true);
    expect(errorBody(await call(client, 'lint_urdf', { files: files({ 'arm/config/limits.yaml': null }), entry: ENTRY }))).toMatchObject({ code: 'invalid_input', missing: ['YAML file arm/config/limits.yaml'] });
  });

  it('REST: a .zip (zip -r) and a .tar.gz (tar -czf) give what the JSON files give; the mesh is only counted', async () => {
    const want = JSON.parse(JSON.stringify(expected()));
    const z = await upload('/api/oss/extract', 'pkg.zip', 'application/zip');
    expect(z.status).toBe(200);
    const zo = await z.json();
    expect(zo.records).toEqual(want.records);
    expect(zo.package.files_read).toEqual(want.package.files_read);
    const t = await upload('/api/oss/extract', 'pkg.tar.gz', 'application/gzip');
    expect(t.status).toBe(200);
    const to = await t.json();
    expect(to.records).toEqual(want.records);
    expect(to.package.referenced_files[0]).toEqual({ uri: 'package://common_macros/meshes/z_base.stl', path: 'common_macros/meshes/z_base.stl', present: false });
    const lint = await upload('/api/oss/lint', 'pkg.tar.gz', 'application/gzip');
    expect((await lint.json()).summary.ok).toBe(true);
    const json = await fetch(`${url}/api/oss/extract`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ files: files(), entry: ENTRY, args: { prefix: 'z_' } }) });
    expect((await json.json()).records).toEqual(want.records);
  });

  it('REST: an archive without entry, a body that is no archive, a zip entry escaping the upload are refused', async () => {
    const noEntry = await upload('/api/oss/extract', 'pkg.zip', 'application/zip', '');
    expect(noEntry.status).toBe(400);
    expect(await noEntry.json()).toMatchObject({ code: 'invalid_input', field: 'entry' });
    fs.writeFileSync(path.join(dir, 'junk.bin'), 'not an archive');
    const junk = await upload('/api/oss/extract', 'junk.bin', 'application/octet-stream');
    expect(junk.status).toBe(400);
    fs.writeFileSync(path.join(dir, 'evil.zip'), zipSync({ 'arm/urdf/arm.urdf.xacro': strToU8(PKG[ENTRY]), '../../escape.xacro': strToU8('<robot/>') }));
    const evil = await upload('/api/oss/extract', 'evil.zip', 'application/zip');
    expect(evil.status).toBe(400);
    expect(String((await evil.json()).error)).toContain('escapes the upload');
  });

  it.skipIf(!robotsPresent)('the shared Robotiq 2F-85 package as a .tar.gz: 10 joints, 5 mimic, 1 actuated DOF, lint ok', async () => {
    execFileSync('tar', ['-czf', path.join(dir, 'robotiq.tar.gz'), 'robotiq_2f_85_gripper_visualization'], { cwd: path.join(ROBOTS, 'packages') });
    const r = await upload('/api/oss/extract', 'robotiq.tar.gz', 'application/gzip', `entry=${encodeURIComponent('urdf/robotiq_arg2f_85_model.xacro')}`);
    expect(r.status).toBe(200);
    const o = await r.json();
    expect(o.counts).toMatchObject({ records: 10, joints_by_type: { revolute: 6, fixed: 4 }, dof: 1 });
    expect(o.counts.dof_detail.mimic).toHaveLength(5);
    expect(o.lint.ok).toBe(true);
    expect(o.package).toMatchObject({ name: 'robotiq_2f_85_gripper_visualization', entry: 'robotiq_2f_85_gripper_visualization/urdf/robotiq_arg2f_85_model.xacro' });
  });
});

const robotiqFiles = () => sharedPackageFiles('robotiq_2f_85_gripper_visualization');
const ROBOTIQ_ENTRY = 'robotiq_2f_85_gripper_visualization/urdf/robotiq_arg2f_85_model.xacro';

describe.skipIf(!robotsPresent)('the shared Robotiq 2F-85 package (shared/robots/README.md: 10 joints, 6 revolute of which 5 mimic, 4 fixed, 1 actuated DOF)', () => {
  it('extracts as a package and lints ok; each joint names its source file', () => {
    const r = extractRobotParts({ files: robotiqFiles(), entry: ROBOTIQ_ENTRY });
    expect(r.counts.joints_by_type).toEqual({ revolute: 6, fixed: 4 });
    expect(r.counts.dof).toBe(1);
    expect(r.counts.dof_detail!.mimic).toHaveLength(5);
    expect(r.lint!.ok).toBe(true);
    expect(new Set(joints(r).map((j) => j.file))).toEqual(new Set(['robotiq_2f_85_gripper_visualization/urdf/robotiq_arg2f_85_model_macro.xacro']));
    expect(lintRobotDescription({ files: robotiqFiles(), entry: ROBOTIQ_ENTRY }).summary).toMatchObject({ ok: true, joints: 10 });
  });

  it('with one include removed it is refused, naming it', () => {
    const less = robotiqFiles().filter((f) => !f.path.endsWith('/robotiq_arg2f.xacro'));
    const e = refusal(() => extractRobotParts({ files: less, entry: ROBOTIQ_ENTRY }));
    expect(e.code).toBe('invalid_input');
    expect((e.missing as string[])[0]).toMatch(/^included file robotiq_2f_85_gripper_visualization\/urdf\/robotiq_arg2f\.xacro \(included from /);
  });
});
