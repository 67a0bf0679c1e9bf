/**
 * The check_urdf label of every lint finding, against Debian's check_urdf run on the same
 * test-written file: exit status 0 and nothing on stderr = accepts; status 0 with an
 * "Error"/"Warning" line logged = warns; any other status (refusal or crash) = refuses.
 * For each case, the strongest label among our findings must equal what check_urdf does, and
 * the finding for the case's own code must be present. Agreement counts are printed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/ingest/oss/decode.js';
import { lintUrdf, type LintFinding } from '../../src/ingest/oss/lint.js';
import { CHECK_URDF, checkUrdfOracle, checkUrdfPresent, RANK, type Verdict } from './check-urdf-oracle.js';

const present = checkUrdfPresent;
const { tmp, checkUrdf } = checkUrdfOracle('check-urdf-labels-');
const strongest = (fs_: LintFinding[]): Verdict | null => fs_.reduce<Verdict | null>((a, f) => (a === null || RANK[f.check_urdf] > RANK[a] ? f.check_urdf : a), null);

const L = '<link name="a"/><link name="b"/>';
const J = '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>';
const R = (body: string) => `<robot name="r">${body}</robot>`;
const link = (inner: string) => R(`<link name="a">${inner}</link>`);
const vis = (geom: string) => link(`<visual><geometry>${geom}</geometry></visual>`);
const rev = (extra = '') => `<joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit effort="1" velocity="1"/>${extra}</joint>`;
const RED = '<color rgba="1 0 0 1"/>';

/** name → [file text, the code the case is about (null: no finding expected)]. */
const CASES: Record<string, [string, string | null]> = {
  // 1. names and types exactly as written
  child_name_trailing_space: [R(`${L}<joint name="j" type="fixed"><parent link="a"/><child link="b "/></joint>`), 'joint_link_undefined'],
  parent_name_leading_space: [R(`${L}<joint name="j" type="fixed"><parent link=" a"/><child link="b"/></joint>`), 'joint_link_undefined'],
  type_leading_space: [R(`${L}<joint name="j" type=" revolute"><parent link="a"/><child link="b"/><limit effort="1" velocity="1"/></joint>`), 'joint_type_invalid'],
  type_trailing_space: [R(`${L}<joint name="j" type="fixed "><parent link="a"/><child link="b"/></joint>`), 'joint_type_invalid'],
  link_name_with_space_matched_exactly: [R(`<link name="a"/><link name="b "/><joint name="j" type="fixed"><parent link="a"/><child link="b "/></joint>`), null],
  link_names_differ_by_space: [R(`<link name="a"/><link name="a "/>`), 'root_multiple'],
  empty_link_name: [R('<link name=""/>'), null],
  joints_differ_by_space: [R(`${L}<link name="c"/>${J}<joint name="j " type="fixed"><parent link="b"/><child link="c"/></joint>`), null],
  // 2. labels of the existing rules
  two_roots: [R(`${L}<link name="c"/>${J}`), 'root_multiple'],
  cycle: [R(`${L}${J}<joint name="k" type="fixed"><parent link="b"/><child link="a"/></joint>`), 'root_none'],
  unquoted_attribute: [`<robot name=r>${L}${J}</robot>`, 'xml_malformed'],
  text_after_root: [`${R(L + J)}junk`, 'xml_malformed'],
  unclosed: [`<robot name="r">${L}`, 'xml_malformed'],
  empty_file: ['', 'xml_malformed'],
  mimic_undefined: [R(`${L}${rev('<mimic joint="zz"/>')}`), 'mimic_target_undefined'],
  mimic_self: [R(`${L}${rev('<mimic joint="j"/>')}`), 'mimic_self'],
  mimic_no_joint: [R(`${L}${rev('<mimic/>')}`), 'mimic_target_missing'],
  dollar_brace_in_joint: [R(`${L}<joint name="j" type="fixed"><parent link="a"/><child link="b"/><origin xyz="\${x} 0 0"/></joint>`), 'number_invalid'],
  link_number_invalid: [R(`<link name="a"><inertial><mass value="x"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>`), 'number_invalid'],
  limit_no_range: [R(`${L}${rev()}`), 'limit_range_missing'],
  revolute_no_limit: [R(`${L}<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>`), 'limit_missing'],
  // 3. materials and DTDs
  duplicate_material: [R(`<material name="m">${RED}</material><material name="m">${RED}</material>${L}${J}`), 'material_duplicate'],
  dtd_entity: [`<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY n "b">]>${R(`${L}<joint name="j" type="fixed"><parent link="a"/><child link="&n;"/></joint>`)}`, 'dtd_refused'],
  dtd_subset_unused: [`<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY n "b">]>${R(L + J)}`, 'dtd_refused'],
  doctype_without_subset: [`<?xml version="1.0"?><!DOCTYPE robot SYSTEM "robot.dtd">${R(L + J)}`, null],
  // 4. what check_urdf logs but builds
  inertial_no_mass: [link('<inertial><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'), 'inertial_incomplete'],
  inertial_no_inertia: [link('<inertial><mass value="1"/></inertial>'), 'inertial_incomplete'],
  inertia_no_izz: [link('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0"/></inertial>'), 'inertial_incomplete'],
  mass_no_value: [link('<inertial><mass/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'), 'inertial_incomplete'],
  visual_no_geometry: [link('<visual/>'), 'geometry_missing'],
  collision_no_geometry: [link('<collision/>'), 'geometry_missing'],
  geometry_empty: [link('<visual><geometry/></visual>'), 'geometry_missing'],
  mesh_no_filename: [vis('<mesh/>'), 'geometry_incomplete'],
  box_no_size: [vis('<box/>'), 'geometry_incomplete'],
  cylinder_no_length: [vis('<cylinder radius="1"/>'), 'geometry_incomplete'],
  sphere_no_radius: [vis('<sphere/>'), 'geometry_incomplete'],
  unknown_shape: [vis('<cone radius="1"/>'), 'geometry_unknown'],
  material_no_colour: [R('<material name="m"/><link name="a"/>'), 'material_no_color'],
  material_undefined: [link(`<visual><geometry><sphere radius="1"/></geometry><material name="zz"/></visual>`), 'material_undefined'],
  material_inline_colour: [link(`<visual><geometry><sphere radius="1"/></geometry><material name="zz">${RED}</material></visual>`), null],
  material_texture: [R('<material name="m"><texture filename="x.png"/></material><link name="a"/>'), null],
  clean: [R(`<material name="m">${RED}</material><link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial><visual><geometry><box size="1 1 1"/></geometry><material name="m"/></visual><collision><geometry><mesh filename="x.stl"/></geometry></collision></link><link name="b"/>${J}`), null],
};

const agreement = { cases: 0, agree: 0, stricter: 0 };
describe.skipIf(!present && !process.env.CI)('check_urdf labels on findings, against check_urdf on the same file', () => {
  it.each(Object.entries(CASES))('%s', (name, [text, code]) => {
    const res = lintUrdf(text);
    const theirs = checkUrdf(text, name);
    const ours = strongest(res.findings) ?? 'accepts';
    if (code === null) expect(res.findings.map((f) => f.code)).toEqual([]);
    else expect(res.findings.map((f) => f.code)).toContain(code);
    agreement.cases += 1;
    if (ours === theirs) agreement.agree += 1;
    // Our verdict (ok or not) equals check_urdf's whenever the label says check_urdf does not simply accept.
    const ourVerdictMatches = res.summary.ok === (theirs !== 'refuses');
    if (!ourVerdictMatches) agreement.stricter += 1;
    expect({ label: ours, verdictMatchesOrLabelled: ourVerdictMatches || ours === 'accepts' }).toEqual({ label: theirs, verdictMatchesOrLabelled: true });
  });

  it('a declared ISO-8859-1 file is decoded as declared (no replacement), check_urdf accepts it (test/oss/encodings.test.ts has the other encodings)', () => {
    const bytes = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><robot name="r'), Buffer.from([0xe9]), Buffer.from('"><link name="a"/></robot>')]);
    const file = path.join(tmp, 'latin1.urdf');
    fs.writeFileSync(file, bytes);
    const r = spawnSync(CHECK_URDF, [file], { encoding: 'utf8' });
    const theirs: Verdict = r.status !== 0 ? 'refuses' : /\b(Error|Warning)\b/.test(r.stderr) ? 'warns' : 'accepts';
    const res = lintUrdf(decodeText(bytes).text);
    expect(theirs).toBe('accepts');
    expect(res.findings).toEqual([]);
    expect(res.summary).toMatchObject({ ok: true, robot_name: 'r\u00e9' });
  });

  it('reports the agreement counts', () => {
    console.log(`check_urdf labels: ${agreement.agree} of ${agreement.cases} cases agree; ${agreement.stricter} stricter verdicts, each labelled accepts`);
    expect(agreement.agree).toBe(agreement.cases);
  });
});

describe('exact names, without check_urdf', () => {
  it('a child link written "b " is not link "b", and the message says why', () => {
    const f = lintUrdf(CASES.child_name_trailing_space[0]).findings.find((x) => x.code === 'joint_link_undefined')!;
    expect(f.message).toContain('"b "');
    expect(f.fix).toContain('link="b"');
    expect(f.check_urdf).toBe('refuses');
  });
  it('type=" revolute" is refused and named as written', () => {
    const f = lintUrdf(CASES.type_leading_space[0]).findings.find((x) => x.code === 'joint_type_invalid')!;
    expect(f.message).toContain('" revolute"');
    expect(f.message).toContain('spaces');
  });
  it('every finding carries a check_urdf label', () => {
    for (const [text] of Object.values(CASES)) for (const f of lintUrdf(text).findings) expect(['refuses', 'warns', 'accepts']).toContain(f.check_urdf);
  });
});
