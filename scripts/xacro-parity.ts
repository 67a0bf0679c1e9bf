/**
 * npx tsx scripts/xacro-parity.ts [robots dir] [--json]
 *
 * Issue 44's xacro table, re-run as far as this machine allows. Two kinds of case:
 *   - every .xacro file of every package in the robots folder (default ../shared/robots/packages),
 *     as the entry, with all the package's files given (read from there at run time: nothing is
 *     copied into the repository);
 *   - cases written here, one per expression form or package rule the issue names, each with what
 *     real xacro does (worked out by hand from xacro's Python source: its lexer, eval of the
 *     expression with Python's builtins and math, PyYAML, the filestack for relative paths) and,
 *     where it expands, the value it writes.
 * Each expansion is serialised and run through Debian's check_urdf (/usr/bin/check_urdf) when it is
 * installed. No Debian package ships xacro itself (`apt-cache search xacro` finds none), so real
 * xacro's side of the written cases is the hand-worked expectation, and for the shared packages
 * the facts their README records from the reference xacro.
 * Prints one line per case (expanded / refused, agreement) and the counts; exit 1 on disagreement.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDescription } from '../src/ingest/oss/package.js';
import { decodeText } from '../src/ingest/oss/decode.js';
import type { XmlElement } from '../src/ingest/oss/xml.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHECK_URDF = '/usr/bin/check_urdf';
const X = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';

interface Case {
  name: string;
  origin: 'shared' | 'written';
  files: Record<string, string>;
  entry: string;
  args?: Record<string, string>;
  /** What real xacro does: expands (and the check on the output), or refuses. Null: not known here (a shared file without a recorded fact). */
  xacro: { expands: true; check?: (root: XmlElement) => string | null } | { expands: false; why: string } | null;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
function serialise(el: XmlElement): string {
  const attrs = [...el.attrs].map(([k, v]) => ` ${k}="${esc(v)}"`).join('');
  const kids = el.children.map((c) => (typeof c === 'string' ? esc(c) : serialise(c))).join('');
  return kids ? `<${el.name}${attrs}>${kids}</${el.name}>` : `<${el.name}${attrs}/>`;
}
function* elements(el: XmlElement): Generator<XmlElement> {
  yield el;
  for (const c of el.children) if (typeof c !== 'string') yield* elements(c);
}
const joints = (root: XmlElement) => [...elements(root)].filter((e) => e.name === 'joint' && e.attrs.has('type'));
const limitEffort = (root: XmlElement) => [...elements(root)].find((e) => e.name === 'limit')?.attrs.get('effort') ?? null;
/** A check: null when it holds, else what differs. */
const expect = (what: string, got: unknown, want: unknown) => (JSON.stringify(got) === JSON.stringify(want) ? null : `${what}: got ${JSON.stringify(got)}, xacro gives ${JSON.stringify(want)}`);

/**
 * A one-joint robot whose joint is named "v_" + the value of `expr` (a ${...} or $(...)), after the
 * properties (xacro evaluates an element's attributes before its children, so the root's own
 * attributes cannot use them): the value as xacro writes it into an attribute.
 */
const effortBot = (expr: string, props = '') =>
  `<robot name="t" ${X}>${props}<link name="a"/><link name="b"/><joint name="v_${esc(expr)}" type="revolute"><parent link="a"/><child link="b"/><limit effort="1" velocity="1" lower="0" upper="1"/></joint></robot>`;
const effortIs = (want: string) => (root: XmlElement) => expect('value', joints(root)[0]?.attrs.get('name')?.replace(/^v_/, '') ?? null, want);
const one = (name: string, expr: string, props: string, want: string | { refuses: string }): Case => ({
  name,
  origin: 'written',
  files: { 't.xacro': effortBot(expr, props) },
  entry: 't.xacro',
  xacro: typeof want === 'string' ? { expands: true, check: effortIs(want) } : { expands: false, why: want.refuses },
});
const PKG = (files: Record<string, string>) => ({ 'pkg/package.xml': '<package><name>pkg</name></package>', ...files });

const WRITTEN: Case[] = [
  // Python expressions (issue 44: Franka FER/FR3, multi_arm, hand, Baxter)
  one('conditional expression (Franka FER/FR3)', "${0.5 if arm_id == 'fr3' else 0.25}", '<xacro:property name="arm_id" value="fr3"/>', '0.5'),
  one('conditional, branch not taken never evaluated', "${1 if True else undefined_name}", '', '1'),
  one('list literal and index (Franka multi_arm)', '${[0.1, 0.2, 0.3][1]}', '', '0.2'),
  one('tuple literal, negative index', '${(4, 5)[-1]}', '', '5'),
  one('"in" over a string (Franka hand, cobot pump)', "${1 if 'hand' in arm_id else 0}", '<xacro:property name="arm_id" value="fr3_hand"/>', '1'),
  one('"not in" over a list', "${1 if 'x' not in ['y', 'z'] else 0}", '', '1'),
  one('string indexing (Baxter ${side[0]})', "${side[0]}", '<xacro:property name="side" value="left"/>', 'l'),
  one('string slicing', '${name[1:3]}', '<xacro:property name="name" value="baxter"/>', 'ax'),
  one('len, min, max, abs', '${len([1, 2]) + min(3, 1) + max([4, 9]) + abs(-1)}', '', '13'),
  one('int, float, round (half to even)', "${int('7') + float('0.5') + round(2.5)}", '', '9.5'),
  one('math names: pi, radians, sin', '${radians(180) - pi + sin(0)}', '', '0.0'),
  // Numbers as Python prints them (xacro writes str(result)): a whole-number float keeps ".0".
  one('a whole-number float literal', '${1.0}', '', '1.0'),
  one('a property value="1.0" (xacro _eval_literal: a float)', '${x}', '<xacro:property name="x" value="1.0"/>', '1.0'),
  one('int / int is a float, // an int', '${6/3}_${7//2}', '', '2.0_3'),
  one('scientific notation as Python repr', '${1e-5}_${1.5e16}', '', '1e-05_1.5e+16'),
  one('comparisons and boolean operators', '${1 if (1 < 2 and not 3 < 2) or False else 0}', '', '1'),
  one('string concatenation and str()', "${'a' + str(2)}", '', 'a2'),
  one('dict(k=v) and [key]', "${dict(a=1, b=2)['b']}", '', '2'),
  one('dict of pairs, .get with default', "${dict([('a', 4)]).get('z', 6)}", '', '6'),
  one('dotted access to a dict property', '${d.mass}', '<xacro:property name="d" value="${dict(mass=2.5)}"/>', '2.5'),
  one('len of dict keys (a view)', '${len(dict(a=1, b=2).keys())}', '', '2'),
  one('a dict literal inside ${}', "${{'a': 1}['a']}", '', { refuses: 'the lexer ends ${...} at the first "}": eval("{\'a\': 1") is a SyntaxError' }),
  one('a dict view subscripted', '${dict(a=1).items()[0]}', '', { refuses: "TypeError: 'dict_items' object is not subscriptable" }),
  one('an undefined name', '${nope + 1}', '', { refuses: "NameError: name 'nope' is not defined" }),
  one('a str method (Python)', "${'abc'.upper()}", '', 'ABC'),
  // Packages: YAML, paths, args
  {
    name: 'YAML with a key written twice: the last wins (UR physical_parameters, Franka inertials)',
    origin: 'written',
    files: PKG({ 'pkg/config/p.yaml': 'mass: 1.0\nmass: 2.5\n', 'pkg/urdf/r.xacro': effortBot("${p['mass']}", `<xacro:property name="p" value="\${xacro.load_yaml('$(find pkg)/config/p.yaml')}"/>`) }),
    entry: 'pkg/urdf/r.xacro',
    xacro: { expands: true, check: effortIs('2.5') },
  },
  {
    name: 'relative YAML path from a macro of an included file: resolved against the file being processed',
    origin: 'written',
    files: PKG({
      'pkg/urdf/inc/m.xacro': `<robot ${X}><xacro:macro name="arm"><xacro:property name="p" value="\${xacro.load_yaml('config/p.yaml')}"/><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit effort="\${p['e']}" velocity="1" lower="0" upper="1"/></joint></xacro:macro></robot>`,
      'pkg/urdf/config/p.yaml': 'e: 3\n',
      'pkg/urdf/r.xacro': `<robot name="t" ${X}><xacro:include filename="inc/m.xacro"/><xacro:arm/></robot>`,
    }),
    entry: 'pkg/urdf/r.xacro',
    xacro: { expands: true, check: (root) => expect('effort', limitEffort(root), '3') },
  },
  {
    name: '$(find pkg) inside an argument default',
    origin: 'written',
    files: PKG({ 'pkg/config/p.yaml': 'e: 4\n', 'pkg/urdf/r.xacro': effortBot("${xacro.load_yaml(cfg)['e']}", `<xacro:arg name="cfg_file" default="$(find pkg)/config/p.yaml"/><xacro:property name="cfg" value="$(arg cfg_file)"/>`) }),
    entry: 'pkg/urdf/r.xacro',
    xacro: { expands: true, check: effortIs('4') },
  },
  {
    name: '$(arg) inside another argument default',
    origin: 'written',
    files: { 'r.xacro': effortBot('$(arg b)', '<xacro:arg name="a" default="5"/><xacro:arg name="b" default="$(arg a)"/>') },
    entry: 'r.xacro',
    xacro: { expands: true, check: effortIs('5') },
  },
  {
    name: 'an include that is not in the package',
    origin: 'written',
    files: { 'r.xacro': `<robot name="t" ${X}><xacro:include filename="missing.xacro"/><link name="a"/></robot>` },
    entry: 'r.xacro',
    xacro: { expands: false, why: 'No such file or directory: missing.xacro' },
  },
  {
    name: 'macro with block parameter and ^| default',
    origin: 'written',
    files: { 'r.xacro': `<robot name="t" ${X}><xacro:property name="e" value="6"/><xacro:macro name="m" params="*blk e:=^|1"><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/><xacro:insert_block name="blk"/><limit effort="\${e}" velocity="1" lower="0" upper="1"/></joint></xacro:macro><xacro:m><axis xyz="0 0 1"/></xacro:m></robot>` },
    entry: 'r.xacro',
    xacro: { expands: true, check: (root) => expect('effort, axis', [limitEffort(root), [...elements(root)].some((e) => e.name === 'axis')], ['6', true]) },
  },
];

/** What the shared packages' README records from the reference xacro (joint counts), by entry. */
const RECORDED: Record<string, { joints: number; revolute: number; fixed: number; mimic: number }> = {
  'robotiq_2f_85_gripper_visualization/urdf/robotiq_arg2f_85_model.xacro': { joints: 10, revolute: 6, fixed: 4, mimic: 5 },
};

function sharedCases(dir: string): Case[] {
  if (!fs.existsSync(dir)) return [];
  const out: Case[] = [];
  for (const pkg of fs.readdirSync(dir).sort()) {
    const root = path.join(dir, pkg);
    if (!fs.statSync(root).isDirectory()) continue;
    const files: Record<string, string> = {};
    const walkDir = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) walkDir(full);
        else if (/\.(xacro|urdf|xml|yaml|yml)$/i.test(e.name)) files[path.relative(dir, full).split(path.sep).join('/')] = decodeText(fs.readFileSync(full)).text;
      }
    };
    walkDir(root);
    for (const entry of Object.keys(files).filter((f) => f.endsWith('.xacro')).sort()) {
      const rec = RECORDED[entry];
      out.push({
        name: `${entry} (shared package, as entry)`,
        origin: 'shared',
        files,
        entry,
        xacro: rec
          ? {
              expands: true,
              check: (r) => {
                const js = joints(r);
                return expect('joints (all, revolute, fixed, mimic)', [js.length, js.filter((j) => j.attrs.get('type') === 'revolute').length, js.filter((j) => j.attrs.get('type') === 'fixed').length, js.filter((j) => j.children.some((c) => typeof c !== 'string' && c.name === 'mimic')).length], [rec.joints, rec.revolute, rec.fixed, rec.mimic]);
              },
            }
          : null,
      });
    }
  }
  return out;
}

function checkUrdf(xml: string, tmp: string, i: number): string {
  if (!fs.existsSync(CHECK_URDF)) return 'check_urdf not installed';
  const f = path.join(tmp, `case-${i}.urdf`);
  fs.writeFileSync(f, `<?xml version="1.0"?>\n${xml}\n`);
  const r = spawnSync(CHECK_URDF, [f], { encoding: 'utf8' });
  return r.status !== 0 ? 'refuses' : /\b(Error|Warning)\b/.test(r.stderr) ? 'warns' : 'accepts';
}

function main(argv: string[]): number {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const robots = path.resolve(REPO_ROOT, positional[0] ?? '../shared/robots');
  const cases = [...sharedCases(path.join(robots, 'packages')), ...WRITTEN];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xacro-parity-'));
  const rows: { name: string; origin: string; ours: string; xacro: string; check_urdf: string | null; agree: boolean | null; detail: string }[] = [];
  try {
    cases.forEach((c, i) => {
      let root: XmlElement | null = null;
      let reason = '';
      try {
        root = loadDescription({ files: Object.entries(c.files).map(([p, content]) => ({ path: p, content })), entry: c.entry, ...(c.args ? { args: c.args } : {}) }, 'files').root;
      } catch (e) {
        reason = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 220);
      }
      const ours = root ? 'expanded' : 'refused';
      const hasRobot = root !== null && root.name === 'robot' && joints(root).length + [...elements(root)].filter((e) => e.name === 'link').length > 0;
      const cu = root && hasRobot ? checkUrdf(serialise(root), tmp, i) : null;
      let agree: boolean | null = null;
      let detail = root ? `${joints(root).length} joint(s)` : reason;
      if (c.xacro !== null) {
        if (c.xacro.expands) {
          const diff = root && c.xacro.check ? c.xacro.check(root) : null;
          agree = root !== null && diff === null;
          if (diff) detail += `; ${diff}`;
        } else {
          agree = root === null;
          detail += ` | xacro: ${c.xacro.why}`;
        }
      }
      rows.push({ name: c.name, origin: c.origin, ours, xacro: c.xacro === null ? 'not recorded' : c.xacro.expands ? 'expands' : 'refuses', check_urdf: cu, agree, detail });
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const r of rows) process.stdout.write(`${r.agree === null ? '  ?' : r.agree ? ' ok' : ' NO'} [${r.origin}] ${r.name}: ${r.ours} (xacro ${r.xacro}${r.check_urdf ? `; check_urdf on our output: ${r.check_urdf}` : ''}) ${r.detail}\n`);
  }
  const expanded = rows.filter((r) => r.ours === 'expanded').length;
  const known = rows.filter((r) => r.agree !== null);
  const agree = known.filter((r) => r.agree).length;
  const cu = rows.filter((r) => r.check_urdf === 'accepts' || r.check_urdf === 'warns').length;
  process.stdout.write(
    `\n${rows.length} cases (${rows.filter((r) => r.origin === 'shared').length} shared entries, ${rows.filter((r) => r.origin === 'written').length} written): ${expanded} expanded, ${rows.length - expanded} refused; ` +
      `${agree} of ${known.length} with a known xacro result agree; check_urdf builds ${cu} of ${rows.filter((r) => r.check_urdf !== null).length} expanded robots\n`,
  );
  return agree === known.length ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
