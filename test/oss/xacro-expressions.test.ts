/**
 * Issue 44, xacro: the expression forms real xacro evaluates (Python), YAML duplicate keys, the
 * relative-path rule of xacro.load_yaml, $(find)/$(arg) inside argument values, errors that name
 * the line where a value is written. Test-written files; expected values worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { expandXacroDocument, extractRobotParts, XacroError } from '../../src/ingest/oss/index.js';
import { parseXml, type XmlElement } from '../../src/ingest/oss/xml.js';

const X = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
/** The value each ${...} expression gives, as the text xacro writes into an attribute. */
function values(exprs: string[], props = ''): string[] {
  const doc = `<robot name="t" ${X}>${props}${exprs.map((e, i) => `<link name="l${i}" v="\${${e.replace(/"/g, '&quot;').replace(/</g, '&lt;')}}"/>`).join('')}</robot>`;
  const root = expandXacroDocument(parseXml(doc)).root;
  return root.children.filter((c): c is XmlElement => typeof c !== 'string').map((c) => c.attrs.get('v')!);
}

describe('expressions as Python evaluates them', () => {
  it('conditional expressions, the branch not taken never evaluated', () => {
    expect(values(["'left' if side == 'l' else 'right'", '1 if 0 else 2', "undefined_name if False else 'ok'", "1 if True else undefined_name"], `<xacro:property name="side" value="l"/>`)).toEqual(['left', '2', 'ok', '1']);
  });

  it('in / not in over strings, lists, tuples and dicts', () => {
    expect(values(["'a' in 'cat'", "3 in [1, 2, 3]", "'x' not in ('y', 'z')", "'hand' in arm_id"], `<xacro:property name="arm_id" value="fr3_hand"/>`)).toEqual(['True', 'True', 'True', 'True']);
  });

  it('list, tuple and dict literals; indexing and slicing of strings and lists', () => {
    // (A dict literal cannot be written inside \${...}: xacro's lexer, like this one, ends the expression at the first "}".)
    expect(values(["[1, 2, 3][1]", "(4, 5)[-1]", "side[0]", "side[-1]", "side[1:3]", "[10, 20, 30, 40][1:]", "name[:2]"], `<xacro:property name="side" value="left"/><xacro:property name="name" value="baxter"/>`)).toEqual(['2', '5', 'l', 't', 'ef', '[20, 30, 40]', 'ba']);
  });

  it('len, min, max, abs, int, float, str, round, bool; math names; comparisons, boolean operators, string concatenation', () => {
    expect(values(['len([1, 2, 3])', "len('abc')", 'min(3, 1, 2)', 'max([4, 9, 2])', 'abs(-2.5)', "int('7')", 'int(3.9)', "float('0.5')", 'str(2) + "x"', 'round(2.5)', 'round(0.125, 2)', 'bool(0)', 'radians(180) == pi', 'sin(0)', '1 < 2 and not 3 < 2', '0 or 5', "'a' + 'b'"])).toEqual(['3', '3', '1', '9', '2.5', '7', '3', '0.5', '2x', '2', '0.12', 'False', 'True', '0.0', 'True', '5', 'ab']);
  });

  it('dicts as xacro builds them: dict(k=v), dict of pairs, of a dict; access by [key] and .key; get, keys, values, items (views, as in Python 3)', () => {
    const props = `<xacro:property name="d" value="\${dict(mass=2.5, name='hip')}"/>`;
    expect(
      values(
        ["dict(a=1, b=2)['b']", "dict([('a', 4), ('b', 5)])['a']", "dict(d, extra=1)['extra']", "d['mass']", 'd.name', "d.get('mass')", "d.get('none', 7)", "d.get('none')", 'len(d.keys())', "'mass' in d.keys()", 'max(dict(x=3, y=9).values())', "list(d.items())[1][1]", "list(d)[0]", "len(dict())"],
        props,
      ),
    ).toEqual(['2', '4', '1', '2.5', 'hip', '2.5', '7', 'None', '2', 'True', '9', 'hip', 'mass', '0']);
  });

  it("a string's methods as Python gives them: upper, lower, strip, startswith, endswith, replace, split, join", () => {
    expect(values(["'abc'.upper()", "'ABC'.lower()", "'  x '.strip()", "'xxhixx'.strip('x')", "'  x'.lstrip() + '|'", "side.startswith('le')", "side.endswith('x')", "'a_b'.replace('_', '-')", "'a b  c'.split()[2]", "'1,2'.split(',')[1]", "'-'.join(['a', 'b'])", "len(' a b '.split(' '))"], '<xacro:property name="side" value="left"/>')).toEqual(['ABC', 'abc', 'x', 'hi', 'x|', 'True', 'False', 'a-b', 'c', '2', 'a-b', '4']);
  });

  it('a dict literal inside ${...} is refused as xacro refuses it (its lexer ends the expression at the first "}"), naming what works', () => {
    expect(() => values(["{'a': 1}['a']"])).toThrow(/a dict literal \{\.\.\.\} cannot be written inside \$\{\.\.\.\}: xacro ends the expression at the first "\}" .*dict\(key=value/);
    // A brace inside a string literal is only text.
    expect(values(["'{' + 'x'"])).toEqual(['{x']);
    // Python 3's views are not subscriptable; a method outside the supported set is refused by name.
    expect(() => values(['dict(a=1).items()[0]'])).toThrow(/'dict_items' object is not subscriptable/);
    expect(() => values(["'a'.title()"])).toThrow(/the method \.title\(\) of a string is not supported/);
    expect(() => values(['dict(1)'])).toThrow(/dict\(\) of 1/);
  });

  it('an unsupported form is refused by name, never guessed', () => {
    expect(() => values(['sorted([2, 1])'])).toThrow(/sorted\(\) is not supported/);
    expect(() => values(["'%d' % 3"])).toThrow(XacroError);
    expect(() => values(["int('x')"])).toThrow(/int\('x'\): invalid literal/);
  });
});

describe('packages: YAML, paths, args, lines', () => {
  const run = (files: Record<string, string>, entry: string, args?: Record<string, string>) =>
    extractRobotParts({ files: Object.entries(files).map(([path, content]) => ({ path, content })), entry, ...(args ? { args } : {}) });

  it('a YAML key written twice: the last value wins (as PyYAML reads it) and the answer names the key and both lines', () => {
    const r = run(
      {
        'pkg/package.xml': '<package><name>pkg</name></package>',
        'pkg/config/p.yaml': 'mass: 1.0\nlength: 0.3\nmass: 2.5\n',
        'pkg/urdf/r.xacro': `<robot name="r" ${X}><xacro:property name="p" value="\${xacro.load_yaml('$(find pkg)/config/p.yaml')}"/><link name="a"><inertial><mass value="\${p['mass']}"/></inertial></link></robot>`,
      },
      'pkg/urdf/r.xacro',
    );
    expect(r.mass?.total).toBe(2.5);
    expect(r.xacro!.note).toContain('key "mass" at line 3 repeats line 1; the last value is used');
  });

  it('a relative YAML path is read from the file being processed (the entry), not the included macro\'s folder, as xacro\'s filestack does', () => {
    const files = {
      'pkg/package.xml': '<package><name>pkg</name></package>',
      'pkg/urdf/r.xacro': `<robot name="r" ${X}><xacro:include filename="$(find pkg)/urdf/macros/m.xacro"/><xacro:m/></robot>`,
      'pkg/urdf/macros/m.xacro': `<robot ${X}><xacro:macro name="m"><xacro:property name="c" value="\${xacro.load_yaml('c.yaml')}"/><link name="\${c['name']}"/></xacro:macro></robot>`,
      // Next to the entry: the one xacro reads. A file of the same name beside the macro is not read.
      'pkg/urdf/c.yaml': 'name: from_entry_folder\n',
      'pkg/urdf/macros/c.yaml': 'name: from_macro_folder\n',
    };
    const r = run(files, 'pkg/urdf/r.xacro');
    expect(r.counts.links).toBe(1);
    expect(JSON.stringify(r)).not.toContain('from_macro_folder');
    const { 'pkg/urdf/c.yaml': _gone, ...without } = files;
    expect(() => run(without, 'pkg/urdf/r.xacro')).toThrow(/looked for pkg\/urdf\/c\.yaml/);
  });

  it('$(find pkg) and $(arg other) inside an argument value are resolved', () => {
    const r = run(
      {
        'pkg/package.xml': '<package><name>pkg</name></package>',
        'pkg/config/j.yaml': 'joint: elbow\n',
        'pkg/urdf/r.xacro': `<robot name="r" ${X}><xacro:arg name="cfg_dir" default="$(find pkg)/config"/><xacro:arg name="cfg" default="$(arg cfg_dir)/j.yaml"/><xacro:property name="j" value="\${xacro.load_yaml('$(arg cfg)')}"/><link name="a"/><link name="b"/><joint name="\${j['joint']}" type="revolute"><parent link="a"/><child link="b"/><limit effort="1" velocity="1" lower="0" upper="1"/></joint></robot>`,
      },
      'pkg/urdf/r.xacro',
    );
    expect(r.records.map((x) => (x as { joint_name?: string }).joint_name)).toEqual(['elbow']);
  });

  it('an error in a property names the line where the value is written, not where it is used', () => {
    const doc = `<robot name="t" ${X}>\n<xacro:property name="bad" value="\${nope + 1}"/>\n\n\n<link name="\${bad}"/></robot>`;
    try {
      expandXacroDocument(parseXml(doc));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(XacroError);
      expect((e as XacroError).where.line).toBe(2);
    }
  });
});
