/** lint_urdf: each finding on synthetic input (lines located in the fixture text), real files clean, MCP and REST, extract's lint summary. */
import type { Client } from '@modelcontextprotocol/client';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { lintUrdf } from '../../src/ingest/oss/lint.js';
import { testDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { fixtureText, robotsPresent, robotText, ROOT } from './helpers.js';

const text = fixtureText('lint-findings.urdf');
/** 1-based line of the first occurrence of `s` in the fixture. */
const lineOf = (s: string, from = 0) => text.slice(0, text.indexOf(s, from)).split('\n').length;

describe('each finding, with its line, severity and a fix', () => {
  const r = lintUrdf(text);
  const find = (code: string) => r.findings.filter((f) => f.code === code);

  it.each([
    ['link_duplicate', () => lineOf('<link name="arm"/>', text.indexOf('<link name="arm"/>') + 1)],
    ['link_no_name', () => lineOf('<link/>')],
    ['joint_duplicate', () => lineOf('<joint name="shoulder" type="fixed">')],
    ['joint_type_invalid', () => lineOf('type="hinge"')],
    ['link_multiple_parents', () => lineOf('<child link="hand"/>', text.indexOf('name="wrist"'))],
    ['joint_link_undefined', () => lineOf('<child link="ghost"/>')],
    ['joint_parent_missing', () => lineOf('<joint name="knuckle"')],
    ['joint_child_missing', () => lineOf('<joint name="knuckle_mimic"')],
    ['limit_missing', () => lineOf('<joint name="shoulder" type="revolute">')],
    ['limit_effort_missing', () => lineOf('<limit lower="0" upper="1"/>')],
    ['limit_velocity_missing', () => lineOf('<limit lower="0" upper="1"/>')],
    ['mimic_target_is_mimic', () => lineOf('<mimic joint="knuckle_mimic"/>'), 'warning'],
    ['mimic_target_undefined', () => lineOf('<mimic joint="ghost_joint"/>')],
    ['transmission_joint_undefined', () => lineOf('<joint name="no_such_joint">'), 'warning'],
  ])('%s', (code, line, severity = 'error') => {
    const f = find(code);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity, line: line() });
    expect(f[0].fix.length).toBeGreaterThan(10);
  });

  it('numbers that do not parse: a word, too few numbers; inside a link a warning (check_urdf drops that part and builds the model), inside a joint an error', () => {
    expect(find('number_invalid').map((f) => [f.line, f.severity])).toEqual([
      [lineOf('value="heavy"'), 'warning'],
      [lineOf('size="1 1"'), 'warning'],
      [lineOf('rpy="0 0 zero"'), 'error'],
    ]);
  });

  it('a revolute limit without lower is a warning (urdfdom reads 0)', () => {
    expect(find('limit_range_missing')).toMatchObject([{ severity: 'warning', line: lineOf('<limit effort="1" velocity="1"/>') }]);
  });

  it('more than one root link', () => {
    expect(find('root_multiple')).toHaveLength(1);
    expect(r.summary.root_links).toEqual(['base', 'stray']);
    // Warnings: the revolute limit without lower, two numbers inside links, the mimic of a mimic, the transmission's undefined joint.
    expect(r.summary).toMatchObject({ ok: false, warnings: 5, robot_name: 'lint_bot' });
    expect(r.summary.errors).toBe(r.findings.filter((f) => f.severity === 'error').length);
  });

  it('no root (a cycle), a mimic without a target or of itself, malformed XML, no <robot>', () => {
    const cycle = lintUrdf('<robot name="c"><link name="a"/><link name="b"/><joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint><joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint></robot>');
    expect(cycle.findings.map((f) => f.code)).toContain('root_none');
    const mimic = lintUrdf('<robot name="m"><link name="a"/><link name="b"/><link name="c"/><joint name="j1" type="continuous"><parent link="a"/><child link="b"/><mimic/></joint><joint name="j2" type="continuous"><parent link="b"/><child link="c"/><mimic joint="j2"/></joint></robot>');
    expect(mimic.findings.map((f) => f.code)).toEqual(['mimic_target_missing', 'mimic_self']);
    expect(lintUrdf('<robot name="x"><link name="a"/><!-- open').findings.map((f) => [f.code, f.line, f.column])).toEqual([['xml_malformed', 1, 33]]);
    expect(lintUrdf('<link name="a"/>').findings.map((f) => f.code)).toContain('no_robot');
  });

  it('the mimic-chain fixture: its only finding is the chain (distal follows middle, itself a mimic), a warning: urdfdom builds it', () => {
    const chain = lintUrdf(fixtureText('mimic-floating.urdf'));
    expect(chain.findings.map((f) => [f.code, f.severity, f.message])).toEqual([['mimic_target_is_mimic', 'warning', 'joint "distal_joint" mimics "middle_joint", which is itself a mimic joint']]);
    expect(chain.summary).toMatchObject({ ok: true, errors: 0, warnings: 1, root_links: ['world'] });
  });
});

describe.skipIf(!robotsPresent)('real URDF files', () => {
  it.each(['unitree_go2_description', 'roboto_origin_atom01', 'so101_new_calib', 'berkeley_humanoid_lite', 'tienkung_lite_humanoid_publish', 'open_duck_mini_v2_robot'])('%s lints clean with one root', (f) => {
    const r = lintUrdf(robotText(`urdf/${f}.urdf`));
    expect(r.findings).toEqual([]);
    expect(r.summary.root_links).toHaveLength(1);
  });
});

describe('surfaces', () => {
  let deps: Deps;
  let client: Client;
  let close: () => Promise<void>;
  const srv = { url: '' };
  beforeAll(async () => {
    deps = testDeps(undefined, { dataDir: path.join(ROOT, 'data') });
    ({ client, url: srv.url, close } = await openSurfaces(deps));
  });
  afterAll(async () => {
    await close();
  });

  it('lint_urdf over MCP and POST /api/oss/lint give the same findings', async () => {
    const r = await call(client, 'lint_urdf', { content: text });
    expect(r.isError).toBeFalsy();
    const mcp = r.structuredContent as ReturnType<typeof lintUrdf>;
    expect(mcp).toEqual(lintUrdf(text));
    const rest = await fetch(`${srv.url}/api/oss/lint`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: text }) });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual(mcp);
    expect(errorBody(await call(client, 'lint_urdf', {}))).toMatchObject({ code: 'invalid_input', field: 'content' });
  });

  it('extract_robot_parts carries the lint summary for URDF, null for a BOM', async () => {
    const u = (await call(client, 'extract_robot_parts', { content: text })).structuredContent as { lint: { errors: number; ok: boolean } };
    expect(u.lint).toEqual(lintUrdf(text).summary);
    const b = (await call(client, 'extract_robot_parts', { content: '| Item | Qty |\n|---|---|\n| Motor | 2 |\n' })).structuredContent as { lint: unknown };
    expect(b.lint).toBeNull();
  });
});
