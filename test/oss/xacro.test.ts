/** xacro: a single-file xacro is expanded then extracted; one that needs anything outside the input is refused naming it. */
import type { Client } from '@modelcontextprotocol/client';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/shared/errors.js';
import { expandXacroDocument, extract, isXacroDocument, type JointRecord } from '../../src/ingest/oss/index.js';
import { parseXml } from '../../src/ingest/oss/xml.js';

const isXacro = (t: string) => isXacroDocument(parseXml(t));
import { testDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { fixtureText, ROOT } from './helpers.js';

const xacro = fixtureText('leg.urdf.xacro');
const refusal = (text: string): DomainError => {
  try {
    extract(text);
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('not refused');
};

describe('detection', () => {
  it('by namespace, xacro: element or ${...}; a plain URDF is not xacro', () => {
    expect(isXacro(xacro)).toBe(true);
    expect(isXacro('<robot name="r"><link name="${a}"/></robot>')).toBe(true);
    expect(isXacro('<robot name="r"><xacro:foo/></robot>')).toBe(true);
    expect(isXacro(fixtureText('mimic-floating.urdf'))).toBe(false);
  });
});

describe('a single-file xacro expands', () => {
  const r = extract(xacro);
  const joints = r.records as JointRecord[];

  it('the macro called twice gives both legs; names and values are expanded, never an expression', () => {
    expect(r.kind).toBe('urdf');
    expect(joints.map((j) => j.joint_name)).toEqual(['left_hip', 'left_ankle', 'right_hip', 'right_ankle']);
    expect(joints.every((j) => !j.joint_name.includes('$') && j.confidence === 'high')).toBe(true);
    const hip = joints[0];
    // Values computed here from the fixture's own definitions: effort 24, half_range = pi/2;
    // ${effort / 2} is Python's true division, a float: str(24 / 2) is '12.0' (and str(24 / 4) '6.0').
    expect(hip.limits).toEqual({ lower: String(-Math.PI / 2), upper: String(Math.PI / 2), effort: '24', velocity: '12.0' });
    expect(hip.child_link_mass).toBe('1.5');
    expect(joints[1].limits.effort).toBe('6.0');
    expect(r.counts.dof).toBe(4);
    expect(r.xacro).toMatchObject({ expanded: true, macros: 1, macro_calls: 2, properties: 2, args: [{ name: 'with_foot', value: 'true' }] });
    expect(r.xacro!.note).toContain('expanded');
  });

  it('xacro:unless / if follow the argument default', () => {
    const off = extract(xacro.replace('default="true"', 'default="false"'));
    expect((off.records as JointRecord[]).map((j) => j.joint_name)).toEqual(['left_hip', 'right_hip']);
    const names = expandXacroDocument(parseXml(xacro.replace('default="true"', 'default="false"'))).root.children.flatMap((c) => (typeof c === 'string' ? [] : [c.attrs.get('name')]));
    expect(names).toContain('left_stub');
  });

  it('a macro never called gives no joint', () => {
    const never = xacro.replace('<xacro:leg side="left"/>', '').replace('<xacro:leg side="right" reflect="-1"/>', '');
    expect(extract(never).records).toEqual([]);
  });
});

describe('refused, naming what is missing', () => {
  it.each([
    ['an include through $(find)', xacro.replace('<link name="base"/>', '<xacro:include filename="$(find leg_description)/urdf/common.xacro"/><link name="base"/>'), ['ROS package leg_description ($(find leg_description))']],
    ['a relative include', xacro.replace('<link name="base"/>', '<xacro:include filename="common.xacro"/><link name="base"/>'), ['included file common.xacro']],
    ['an argument without a default', xacro.replace(' default="true"', ''), ['argument with_foot']],
    ['an undefined property', xacro.replace('<xacro:property name="effort" value="24"/>', ''), ['property effort']],
    ['an undefined macro', xacro.replace('<xacro:leg side="left"/>', '<xacro:arm side="left"/>'), ['macro arm']],
    ['a macro parameter not given', xacro.replace('<xacro:leg side="left"/>', '<xacro:leg/>'), ['parameter side of macro leg']],
  ])('%s', (_n, text, missing) => {
    const e = refusal(text);
    expect(e).toBeInstanceOf(DomainError);
    expect(e.code).toBe('invalid_input');
    expect(e.details).toMatchObject({ field: 'content', missing });
    expect(e.message).toContain('xacro not expanded');
  });
});

it('a mesh named through $(find) is not needed: the expansion goes on, the file is named by package:// (meshes are listed, never read)', () => {
  const r = extract(xacro.replace('<link name="base"/>', '<link name="base"><visual><geometry><mesh filename="$(find leg_description)/meshes/base.stl"/></geometry></visual></link>'));
  expect(r.counts.dof).toBe(4);
});

describe('surfaces', () => {
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, close } = await openSurfaces(testDeps(undefined, { dataDir: path.join(ROOT, 'data') })));
  });
  afterAll(async () => {
    await close();
  });

  it('extract_robot_parts says it expanded; lint_urdf lints the expansion; a refusal names what is missing', async () => {
    const r = await call(client, 'extract_robot_parts', { content: xacro });
    const o = r.structuredContent as { xacro: { expanded: boolean }; lint: { ok: boolean; joints: number } };
    expect(o.xacro.expanded).toBe(true);
    expect(o.lint).toMatchObject({ ok: true, joints: 4 });
    expect((r.content as { text: string }[])[0].text).toContain('expanded from xacro');
    const lint = await call(client, 'lint_urdf', { content: xacro });
    expect((lint.structuredContent as { summary: { ok: boolean } }).summary.ok).toBe(true);
    const bad = errorBody(await call(client, 'extract_robot_parts', { content: xacro.replace(' default="true"', '') }));
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'content', missing: ['argument with_foot'] });
  });
});
