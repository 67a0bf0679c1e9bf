/**
 * Issue 44, xacro: numbers print as real xacro prints them. xacro evaluates ${...} with Python and
 * writes str(result), so int and float differ (`${1.0}` is "1.0", `${7/2}` "3.5", `${6/3}` "2.0",
 * `${7//2}` "3") and floats print as Python's repr (1e-05, 1.5e+16, inf).
 *
 * The oracle is Python itself (python3, as the sizing tests use it): test/oss/xacro-python-oracle.py
 * evaluates every expression below, which is also valid Python, and prints str() of it; property
 * texts go through _eval_literal written there from xacro's rule. Nothing is computed by the
 * expander under test. A few values are also written out by hand (worked from Python's rules) so a
 * broken oracle cannot pass silently.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandXacroDocument, XacroError } from '../../src/ingest/oss/index.js';
import { parseXml, type XmlElement } from '../../src/ingest/oss/xml.js';

const X = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
const PY = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const ORACLE = path.join(__dirname, 'xacro-python-oracle.py');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

type Oracle = { str: string } | { error: string };
function python(cases: string[], props: [string, string][] = [], params: [string, string][] = []): Oracle[] {
  const out = execFileSync(PY, [ORACLE], { input: JSON.stringify({ cases, props, params }) });
  return JSON.parse(out.toString()) as Oracle[];
}

/** What the expander writes for each attribute text, after the properties (and, if given, inside a macro with those parameters). */
function ours(cases: string[], props: [string, string][] = [], params: [string, string][] = []): string[] {
  const links = cases.map((c, i) => `<link name="l${i}" v="${esc(c)}"/>`).join('');
  const defs = props.map(([n, v]) => `<xacro:property name="${n}" value="${esc(v)}"/>`).join('');
  const body = params.length === 0 ? links : `<xacro:macro name="m" params="${params.map(([n]) => n).join(' ')}">${links}</xacro:macro><xacro:m ${params.map(([n, v]) => `${n}="${esc(v)}"`).join(' ')}/>`;
  const root = expandXacroDocument(parseXml(`<robot name="t" ${X}>${defs}${body}</robot>`)).root;
  return root.children.filter((c): c is XmlElement => typeof c !== 'string').map((c) => c.attrs.get('v')!);
}

/** Each case's text, expanded here and printed by Python, side by side. */
function compare(cases: string[], props: [string, string][] = [], params: [string, string][] = []) {
  const py = python(cases, props, params);
  for (const r of py) expect(r, `the oracle evaluates every case: ${JSON.stringify(r)}`).toHaveProperty('str');
  const want = py.map((r) => ('str' in r ? r.str : `<${r.error}>`));
  expect(cases.map((c, i) => [c, ours(cases, props, params)[i]])).toEqual(cases.map((c, i) => [c, want[i]]));
}

describe('numbers print as Python prints them (oracle: python3)', () => {
  it('literal floats: a whole-number float keeps ".0", in a whole attribute and in mixed text', () => {
    compare(['${1.0}', 'j_${1.0}', '${2.50}', '${1e3}', '${0.1 + 0.2}', '${3 * 1.0}', '${-0.0}', '${1/3}', '${2.0 ** 0.5}', '${7}', '${-7}', '${10 ** 20}', '${2 ** 64}', '${-2 ** 2}', '${2 ** -1}', '${(-2) ** 2}']);
  });

  it('a float to a whole power is rounded once, as C\'s pow rounds it (JavaScript\'s ** is off by one digit here)', () => {
    compare(['${2.5 ** -4}', '${(3.14159 / 1e-5 - False) ** 3}', '${1.1 ** 3}', '${pow(2.5, -4)}', '${2 ** -4}', '${0.5 ** 1074}']);
  });

  it('property floats: value="1.0" is a float, "1" an int, "fr3_hand" and "1_000" texts, "true" a bool; a ${} value keeps its type', () => {
    const props: [string, string][] = [
      ['x', '1.0'],
      ['n', '1'],
      ['h', '0.5'],
      ['k', '1e3'],
      ['s', 'fr3_hand'],
      ['u', '1_000'],
      ['t', 'true'],
      ['q', "'1.5'"],
      ['w', '${2 * 3.0}'],
      ['z', '${n + 1}'],
    ];
    compare(['${x}', 'j_${x}', '${n}', '${x + n}', '${n + n}', '${n / 2}', '${h * 2}', '${k}', '${s}', '${u}', '${t}', '${q}', '${q * 2}', '${w}', '${z}', '${x}_${n}_${t}'], props);
  });

  it('macro parameters: eval_text then _eval_literal, once (a quoted value stays a text)', () => {
    compare(['${a}', '${b}', '${c}', '${a + b}', '${c * 2}'], [], [
      ['a', '1.0'],
      ['b', '${2 * 1}'],
      ['c', "'1.5'"],
    ]);
  });

  it('int/int division is a float; floor division and modulo follow the floor, int for ints', () => {
    compare(['${7/2}', '${6/3}', '${-7/2}', '${1/4}', '${7//2}', '${-7//2}', '${7.0//2}', '${-7.5//2}', '${7//-2.0}', '${-7 % 3}', '${7 % -3}', '${-7.5 % 2}', '${5.0 % -3}', '${6 % 3}']);
  });

  it('round, int, float, abs, min, max and the math functions keep or set the type as Python does', () => {
    compare([
      '${round(2.5)}', '${round(3.5)}', '${round(-2.5)}', '${round(0.5)}', '${round(2.675, 2)}', '${round(0.125, 2)}', '${round(1.005, 2)}', '${round(7, 1)}', '${round(1234.5, -2)}', '${round(1250, -2)}', '${round(1350, -2)}', '${round(2.5, 0)}',
      '${int(3.9)}', '${int(-3.9)}', "${int(' 42 ')}", '${int(True)}', '${float(3)}', "${float('1e-5')}", "${float('inf')}", '${float(True)}',
      '${abs(-3)}', '${abs(-3.0)}', '${min(1, 1.0)}', '${max(2, 3.5)}', '${max(1.0, 1)}', '${min([3, 2.0, 2])}',
      '${floor(2.5)}', '${ceil(2.1)}', '${trunc(-2.7)}', '${pow(2, 3)}', '${sqrt(16)}', '${fabs(-2)}', '${exp(0)}', '${log(e)}', '${atan2(1, 1)}', '${hypot(3, 4)}',
    ]);
  });

  it('pi and radians are floats', () => {
    compare(['${pi}', '${radians(90)}', '${radians(180)}', '${degrees(pi)}', '${pi/2}', '${-pi/2}', '${2*pi}', '${radians(180) == pi}', '${cos(pi)}', '${sin(pi)}', '${e}', '${tau}', '${radians(45) * 2}']);
  });

  it('scientific notation below 1e-4 and from 1e16, with a signed two-digit exponent; inf and nan', () => {
    compare(['${1e-5}', '${0.0001}', '${0.00012345}', '${-1e-7}', '${1.5e-10}', '${1.5e16}', '${1e16}', '${9999999999999998.0}', '${1e15}', '${123456789012345680.0}', '${1e100}', '${2.5e-300}', '${5e-324}', '${1.7976931348623157e308}', '${1e300 * 1e10}', '${-1e300 * 1e10}', "${float('nan')}", '${0.1 * 3}', '${1e22}', '${1e21}']);
  });

  it('bools print True/False, and count as ints in arithmetic', () => {
    compare(['${True}', '${False}', '${1 < 2}', '${not 0}', "${'a' in 'cat'}", '${3 in [1, 2]}', '${True + 1}', '${True / 2}', '${True * 1.5}', '${-True}', '${bool(0.0)}', '${bool([])}', '${bool(0.1)}', '${1 == 1.0}', "${1 == '1'}", '${True == 1}', '${1.0 != 1}', '${2 > 1.5}', '${0.1 + 0.2 == 0.3}']);
  });

  it('mixed text joins str() of each part; lists, tuples and dicts print as Python prints them', () => {
    compare(['x${1}y${2.0}z${True}', '${1.0} ${2} ${0.5}', '${0.5}${0.5}', 'a${1e-5}b', '${[1, 2.0, True]}', '${(1,)}', '${(1, 2.5)}', '${()}', '${dict(a=1.0)}', "${['a', \"b'c\"]}", "${'ab' * 2}", "${str(1.0) + 'x'}", '${len([1, 2]) / 2}', '${[1, 2][1] * 1.0}']);
  });

  it('written out by hand from the same rules (so a broken oracle cannot pass unseen)', () => {
    const cases = ['j_${1.0}', '${1e-5}', '${1.5e16}', '${7/2}', '${6/3}', '${7//2}', '${-7//2}', '${True}', '${round(2.5)}', '${pi}', 'x${1}y${2.0}'];
    const hand = ['j_1.0', '1e-05', '1.5e+16', '3.5', '2.0', '3', '-4', 'True', '2', '3.141592653589793', 'x1y2.0'];
    expect(ours(cases)).toEqual(hand);
    expect(python(cases).map((r) => ('str' in r ? r.str : r.error))).toEqual(hand);
  });
});

describe('YAML numbers keep their YAML type (PyYAML: 1.0 a float, 2 an int)', () => {
  it('a float from YAML prints 1.0; an int from YAML stays an int in arithmetic', () => {
    // Worked by hand, checked with python3 and PyYAML: yaml.safe_load('mass: 1.0\nn: 2\nk: 2.50\n') gives
    // str(d['mass']) '1.0', str(d['n'] / 2) '1.0', str(d['n'] * 3) '6', str(d['k']) '2.5', str(d) "{'mass': 1.0, 'n': 2, 'k': 2.5}".
    // (The oracle above does not load YAML: CI's python3 need not have PyYAML.)
    const files = new Map([
      ['r.xacro', `<robot name="t" ${X}><xacro:property name="d" value="\${xacro.load_yaml('p.yaml')}"/><link name="a" m="\${d['mass']}" h="\${d['n'] / 2}" t="\${d['n'] * 3}" k="\${d.k}" all="\${d}"/></robot>`],
      ['p.yaml', 'mass: 1.0\nn: 2\nk: 2.50\n'],
    ]);
    const { root } = expandXacroDocument(parseXml(files.get('r.xacro')!), { file: 'r.xacro', files });
    const link = root.children.find((c): c is XmlElement => typeof c !== 'string')!;
    expect(Object.fromEntries(link.attrs)).toEqual({ name: 'a', m: '1.0', h: '1.0', t: '6', k: '2.5', all: "{'mass': 1.0, 'n': 2, 'k': 2.5}" });
  });
});

describe('what Python refuses is refused, naming the Python error', () => {
  it('zero division, a type error, a math domain error: the same error class the oracle raises', () => {
    const cases = ['${1/0}', '${1 // 0}', '${1.0 % 0}', "${1 + 'a'}", "${'a' < 1}", '${sqrt(-1)}', '${0.0 ** -1}', "${int('1.5')}", "${float('x')}"];
    const py = python(cases);
    for (const [i, c] of cases.entries()) {
      const want = py[i]!;
      expect(want, c).toHaveProperty('error');
      expect(() => ours([c]), c).toThrow(XacroError);
      expect(() => ours([c]), c).toThrow(new RegExp(`${(want as { error: string }).error}|math domain error`));
    }
  });

  it('an integer over 4300 digits is refused by name (Python refuses to print it too)', () => {
    expect(python(['${2 ** 20000}'])[0]).toEqual({ error: 'ValueError' });
    expect(() => ours(['${2 ** 20000}'])).toThrow(/over 4300 digits/);
    expect(ours(['${2 ** 1000}'])).toEqual(python(['${2 ** 1000}']).map((r) => ('str' in r ? r.str : r.error)));
  });
});
