/**
 * size_actuators through the in-memory MCP client and POST /api/oss/size, over the shipped
 * catalogue. Expected candidates come from the import's spec layer file (data/catalogue/specs.json)
 * and the records (entities.json), not from the sizing code.
 */
import type { Client } from '@modelcontextprotocol/client';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';
import { call, errorBody, openSurfaces } from '../support/mcp.js';
import { MIMIC_TREE, ROTATED_CHAIN } from './chains.js';

const ROOT = path.resolve(__dirname, '../..');
const SO101 = fs.readFileSync(path.resolve(ROOT, '../shared/robots/urdf/so101_new_calib.urdf'), 'utf8');
const PACKAGE = path.resolve(ROOT, '../shared/robots/packages/robotiq_2f_85_gripper_visualization');

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
let url = '';
beforeAll(async () => {
  deps = realDeps();
  ({ client, url, close } = await openSurfaces(deps));
});
afterAll(async () => {
  await close();
});

interface Spec { field: string; value: number | null; min: number | null; qualifier: string | null }
const specs = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/catalogue/specs.json'), 'utf8')) as { entities: { id: string; specs: Spec[]; unread: { field: string }[] }[] };
const entities = (JSON.parse(fs.readFileSync(path.join(ROOT, 'data/catalogue/entities.json'), 'utf8')) as { entities: { id: string; category: string; quarantine: boolean }[] }).entities;
const actuators = entities.filter((e) => e.category === 'actuators' && !e.quarantine);
const specOf = new Map(specs.entities.map((e) => [e.id, e]));
/** Rated torque of an actuator as the import wrote it: the first unqualified torque_rated (its value, or a range's lower end). */
const rated = (id: string): number | null => {
  const s = specOf.get(id)?.specs.find((x) => x.field === 'torque_rated' && x.qualifier === null);
  return s ? (s.value ?? s.min) : null;
};

type Joint = { joint_name: string; required_torque_nm: number | null; required_force_n: number | null; target: number; candidates: { id: string; torque_rated_nm: number | null; mass_kg: number | null; margin: number | null }[]; candidates_total: number; near_misses: { id: string }[]; near_misses_total: number; undeclared: number; worst_pose: { source: string }; mimic_followers: string[] };
type Out = { joints: Joint[]; bom_items: { id: string; quantity: number }[]; groups: { joints: string[]; part: { id: string } | null; required: number }[]; pose_torques: { torques: Record<string, number> }[]; unsized: string[]; method: { text: string; safety_factor: number; samples: number } };

describe('size_actuators over MCP', () => {
  let so: Out;
  it('SO-101: every joint sized, summary line first, candidates exactly those whose rated torque ≥ need × 1.5', async () => {
    const r = await call(client, 'size_actuators', { content: SO101 });
    expect(r.isError).toBeFalsy();
    so = r.structuredContent as Out;
    const text = (r.content as { text: string }[])[0]!.text;
    const [summary, json] = [text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)];
    expect(JSON.parse(json)).toEqual(so);
    expect(summary).toMatch(/^6 of 6 joint\(s\) sized \(largest need [\d.]+ N·m at shoulder_lift, safety factor 1\.5\); BOM: /);
    expect(so.method.safety_factor).toBe(1.5);
    expect(so.method.samples).toBe(256);
    expect(so.method.text).toMatch(/Not included: accelerations/);
    for (const j of so.joints) {
      const expected = actuators.filter((a) => (rated(a.id) ?? -1) >= j.target).map((a) => a.id);
      expect(j.candidates_total, j.joint_name).toBe(expected.length);
      for (const c of j.candidates) {
        expect(expected).toContain(c.id);
        expect(c.torque_rated_nm).toBe(rated(c.id));
        if (j.required_torque_nm! >= 1e-3) expect(c.margin!).toBeGreaterThanOrEqual(1.5 - 0.01);
        else expect(c.margin).toBeNull();
      }
      // Lightest first (undeclared masses last).
      const masses = j.candidates.map((c) => c.mass_kg ?? Infinity);
      expect(masses).toEqual([...masses].sort((a, b) => a - b));
      // Unread torques are near misses, never candidates.
      const unread = actuators.filter((a) => rated(a.id) === null && specOf.get(a.id)?.unread.some((u) => u.field === 'torque_rated'));
      for (const n of j.near_misses) expect(unread.map((u) => u.id)).toContain(n.id);
      expect(j.candidates.some((c) => unread.some((u) => u.id === c.id))).toBe(false);
    }
    // One BOM line per group, quantities covering every joint.
    expect(so.bom_items.reduce((s, b) => s + b.quantity, 0)).toBe(6);
  });

  it('the chosen parts go to check_bom as they are', async () => {
    const r = await call(client, 'check_bom', { items: so.bom_items });
    expect(r.isError).toBeFalsy();
    const parts = (r.structuredContent as { parts: { id: string; found: boolean }[] }).parts;
    expect(parts.every((p) => p.found)).toBe(true);
  });

  it('given poses are evaluated exactly and in order; the worst pose can be a given one', async () => {
    const r = await call(client, 'size_actuators', { content: SO101, poses: [{ shoulder_lift: 0 }, { shoulder_lift: 1.2, elbow_flex: -1 }], samples: 0 });
    const o = r.structuredContent as Out;
    expect(o.pose_torques).toHaveLength(2);
    expect(Object.keys(o.pose_torques[0]!.torques)).toEqual(o.joints.map((j) => j.joint_name));
    const lift = o.joints.find((j) => j.joint_name === 'shoulder_lift')!;
    expect(lift.required_torque_nm).toBe(Math.max(...o.pose_torques.map((p) => Math.abs(p.torques.shoulder_lift!)), lift.required_torque_nm!));
    expect(o.method.samples).toBe(0);
  });

  it('a mimic joint is sized through its driver; a prismatic joint needs a force; payloads add to the need', async () => {
    const m = (await call(client, 'size_actuators', { content: MIMIC_TREE, samples: 16 })).structuredContent as Out;
    expect(m.joints.map((j) => j.joint_name).sort()).toEqual(['finger_a_joint', 'shoulder', 'side_joint', 'wrist']);
    expect(m.joints.find((j) => j.joint_name === 'finger_a_joint')!.mimic_followers.sort()).toEqual(['finger_b_joint', 'tip_b_joint']);
    const base = (await call(client, 'size_actuators', { content: ROTATED_CHAIN, poses: [{}], samples: 0 })).structuredContent as Out;
    const loaded = (await call(client, 'size_actuators', { content: ROTATED_CHAIN, poses: [{}], samples: 0, payloads: [{ link: 'wrist', mass_kg: 2 }] })).structuredContent as Out;
    const lift = (o: Out) => o.joints.find((j) => j.joint_name === 'lift')!;
    expect(lift(base).required_torque_nm).toBeNull();
    expect(lift(base).required_force_n).toBeGreaterThan(0);
    expect(lift(loaded).required_force_n!).toBeGreaterThan(lift(base).required_force_n!);
  });

  it('a description package (xacro with includes and mimic joints) is sized like extract_robot_parts reads it', async () => {
    const files: { path: string; content: string }[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(xacro|urdf|xml)$/.test(e.name)) files.push({ path: path.relative(PACKAGE, p), content: fs.readFileSync(p, 'utf8') });
      }
    };
    walk(PACKAGE);
    const r = await call(client, 'size_actuators', { files, entry: 'urdf/robotiq_arg2f_85_model.xacro', samples: 8 });
    expect(r.isError, JSON.stringify(r.structuredContent).slice(0, 300)).toBeFalsy();
    const o = r.structuredContent as Out;
    expect(o.joints).toHaveLength(1);
    expect(o.joints[0]!.mimic_followers).toHaveLength(5);
  });

  it('bad input names the field and the fix', async () => {
    expect(errorBody(await call(client, 'size_actuators', {}))).toMatchObject({ code: 'invalid_input', field: 'content' });
    expect(errorBody(await call(client, 'size_actuators', { content: '| a | b |\n|---|---|\n| 1 | 2 |\n' }))).toMatchObject({ code: 'invalid_input', field: 'content' });
    expect(errorBody(await call(client, 'size_actuators', { content: SO101, poses: [{ nope: 1 }] }))).toMatchObject({ code: 'invalid_input', field: 'poses.0.nope' });
    expect(errorBody(await call(client, 'size_actuators', { content: MIMIC_TREE, poses: [{ finger_b_joint: 1 }] }))).toMatchObject({ code: 'invalid_input', field: 'poses.0.finger_b_joint' });
    expect(errorBody(await call(client, 'size_actuators', { content: SO101, payloads: [{ link: 'moon', mass_kg: 1 }] }))).toMatchObject({ code: 'invalid_input', field: 'payloads.0.link' });
    expect(errorBody(await call(client, 'size_actuators', { content: SO101, joints: ['gripperr'] }))).toMatchObject({ code: 'invalid_input', field: 'joints.0' });
    expect(errorBody(await call(client, 'size_actuators', { content: SO101, samples: 100_000 }))).toMatchObject({ code: 'invalid_input', field: 'samples' });
    expect(errorBody(await call(client, 'size_actuators', { content: SO101, safety_factor: 0.5 }))).toMatchObject({ code: 'invalid_input', field: 'safety_factor' });
    expect(errorBody(await call(client, 'size_actuators', { content: SO101, host: 'NOPE-1' }))).toMatchObject({ code: 'not_found', field: 'host' });
    const bad = errorBody(await call(client, 'size_actuators', { content: ROTATED_CHAIN.replace('xyz="0 0 0.1" rpy="0.1 0.2 0.3"', 'xyz="0 0 x" rpy="0.1 0.2 0.3"') }));
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'content' });
    expect(String(bad.error)).toContain('joint j1 <origin xyz>');
    const twoRoots = errorBody(await call(client, 'size_actuators', { content: '<robot name="r"><link name="a"/><link name="b"/><link name="c"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"/></joint></robot>' }));
    expect(String(twoRoots.error)).toContain('2 root links');
  });

  it('every actuated joint of the largest shipped humanoid, every candidate listed: the answer stays within budget', async () => {
    const r = await call(client, 'size_actuators', { content: fs.readFileSync(path.resolve(ROOT, '../shared/robots/urdf/berkeley_humanoid_lite.urdf'), 'utf8'), safety_factor: 1, samples: 4096, poses: Array.from({ length: 20 }, () => ({})) });
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.structuredContent).length).toBeLessThan(200_000);
    // The largest valid sizing: a chain of JOINTS_MAX (40) joints, each pose's torques listed for all, every worst pose naming 40 positions.
    const name = (i: number) => `a_rather_long_joint_name_number_${String(i).padStart(3, '0')}`;
    const links = Array.from({ length: 41 }, (_, i) => `<link name="l${i}"><inertial><origin xyz="0.1 0 0"/><mass value="0.5"/></inertial></link>`).join('');
    const joints = Array.from({ length: 40 }, (_, i) => `<joint name="${name(i)}" type="revolute"><parent link="l${i}"/><child link="l${i + 1}"/><origin xyz="0.2 0 0" rpy="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>`).join('');
    const big = await call(client, 'size_actuators', { content: `<robot name="chain">${links}${joints}</robot>`, safety_factor: 1, samples: 4096, poses: Array.from({ length: 20 }, (_, k) => ({ [name(k)]: 0.1 * k })) });
    expect(big.isError, JSON.stringify(big.structuredContent).slice(0, 300)).toBeFalsy();
    const chars = JSON.stringify(big.structuredContent).length;
    console.log(`size_actuators: largest valid answer ${chars} characters of JSON`);
    expect(chars).toBeLessThan(200_000);
  });
});

describe('POST /api/oss/size', () => {
  it('JSON body and a .tar.gz package upload', async () => {
    const j = await fetch(`${url}/api/oss/size`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: SO101, samples: 8 }) });
    expect(j.status).toBe(200);
    expect(((await j.json()) as Out).joints).toHaveLength(6);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-size-'));
    const tgz = path.join(tmp, 'pkg.tar.gz');
    execFileSync('tar', ['-czf', tgz, '-C', path.dirname(PACKAGE), path.basename(PACKAGE)]);
    const up = await fetch(`${url}/api/oss/size?entry=urdf/robotiq_arg2f_85_model.xacro`, { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: fs.readFileSync(tgz) });
    expect(up.status).toBe(200);
    expect(((await up.json()) as Out).joints[0]!.mimic_followers).toHaveLength(5);
    fs.rmSync(tmp, { recursive: true, force: true });
    const bad = await fetch(`${url}/api/oss/size`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: SO101, pick: 'prettiest' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_input', field: 'pick' });
  });
});
