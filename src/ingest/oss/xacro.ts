/**
 * xacro, written for this project against the xacro documentation (http://wiki.ros.org/xacro),
 * over the parsed document (xml.ts), so nothing inside a comment is ever read as xacro:
 *   <xacro:property name value|default> (lazy: evaluated when first used, as xacro does; block
 *   properties), <xacro:arg name default/> with $(arg name) and passed args, ${...} expressions
 *   (numbers, + - * / ** %, comparisons, and/or/not, pi, properties, strings, math functions,
 *   dict access d['k'] and d.k, dict(...) and a dict's get/keys/values/items, a string's methods
 *   upper/lower/strip/startswith/endswith/replace/split/join; a {...} literal
 *   is refused as xacro refuses it: its lexer ends ${...} at the first "}"), <xacro:macro name params> (defaults with := , quoted defaults
 *   with spaces, ^ and ^|default, block parameters *p / **p with <xacro:insert_block>) and its
 *   calls, <xacro:if>/<xacro:unless>, <xacro:include filename> and $(find pkg), $(dirname),
 *   $(optenv NAME default) (no environment is read: the default is used), and
 *   xacro.load_yaml(file) read with the `yaml` parser. Includes, packages and YAML files come
 *   from the files given (a package upload); anything else the document needs is refused,
 *   naming it. Nothing unexpanded is passed on.
 *
 * Bounded: output elements, characters produced, macro nesting, include nesting, property
 * reference depth, expression nesting and work steps each have a limit; going over one throws
 * XacroError naming the limit. Pure.
 */
import { lazyRequire } from '../../lazy-require.js';
import { childElements, parseXml, walk, XmlError, type XmlElement, type XmlNode } from './xml.js';

/** yaml, loaded by the first package that loads a YAML file (src/lazy-require.ts). */
const yaml = lazyRequire<typeof import('yaml')>('yaml');

export const XACRO_NS = 'http://www.ros.org/wiki/xacro';

/** Limits of the expansion (README limits table). */
export const XACRO_LIMITS = {
  /** Elements in the expanded document. */
  max_xacro_elements: 200_000,
  /** Characters produced by substitution: every attribute value, text and property value evaluated. */
  max_xacro_output_chars: 8 * 1024 * 1024,
  /** Macro calls nested inside macro calls. */
  max_xacro_macro_depth: 50,
  /** Includes nested inside includes. */
  max_xacro_include_depth: 32,
  /** Properties whose value refers to a property whose value refers to ... (lazy evaluation chain). */
  max_xacro_property_depth: 100,
  /** Parentheses, unary operators and subscripts nested in one ${...} expression. */
  max_xacro_expression_depth: 64,
  /** Nodes visited, macro bodies counted each time they are expanded. */
  max_xacro_steps: 1_000_000,
} as const;
export type XacroLimit = keyof typeof XACRO_LIMITS;

export class XacroError extends Error {
  constructor(
    message: string,
    readonly missing: string[],
    readonly limit: XacroLimit | null = null,
    readonly where: { file?: string; line?: number; column?: number } = {},
    /** A file of the upload that is not well-formed XML. */
    readonly xml: XmlError | null = null,
  ) {
    super(message);
  }
}

type Dict = { [k: string]: YamlValue };
type YamlValue = string | number | boolean | null | YamlValue[] | Dict;
type Value = number | string | boolean | null | YamlValue[] | Dict | { fn: 'load_yaml' } | { ns: 'xacro' };

interface Macro {
  name: string;
  params: { name: string; def: string | null; block: '*' | '**' | null; outer: boolean }[];
  body: XmlNode[];
  file: string | undefined;
}
type Prop = { kind: 'lazy'; raw: string; scope: Scope; file: string | undefined; evaluating: boolean; def?: XmlElement } | { kind: 'value'; v: Value } | { kind: 'block'; nodes: XmlElement[] };

class Scope {
  readonly vars = new Map<string, Prop>();
  constructor(readonly parent: Scope | null) {}
  get(name: string): Prop | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const p = s.vars.get(name);
      if (p) return p;
    }
    return undefined;
  }
}

export interface XacroExpansion {
  root: XmlElement;
  properties: number;
  macros: number;
  macro_calls: number;
  includes: number;
  args: { name: string; value: string; source: 'default' | 'passed' }[];
  files_read: string[];
  /** What real xacro accepts but a reader should know (a YAML key written twice). */
  warnings: string[];
}

export interface XacroContext {
  /** The entry file's path in the upload; undefined for a single document. */
  file?: string;
  /** Upload files by normalised path (no leading '/'). */
  files?: ReadonlyMap<string, string>;
  /** ROS package name -> folder in the upload ('' for the root). */
  packages?: ReadonlyMap<string, string>;
  /** Passed xacro args. */
  args?: Readonly<Record<string, string>>;
}

/** Whether a parsed document is xacro: the xacro namespace, a xacro: element, or a ${...} / $(...) substitution. */
export function isXacroDocument(root: XmlElement): boolean {
  for (const { el } of walk(root)) {
    if (el.name.startsWith('xacro:')) return true;
    for (const [k, v] of el.attrs) if ((k.startsWith('xmlns:') && v.includes('ros.org/wiki/xacro')) || v.includes('${') || /\$\((arg|find|env|optenv|eval|dirname)[\s)]/.test(v)) return true;
    for (const c of el.children) if (typeof c === 'string' && (c.includes('${') || c.includes('$(arg '))) return true;
  }
  return false;
}

const dirOf = (p: string | undefined) => (p === undefined ? '' : p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** A path inside the upload: '/'-rooted paths are upload-absolute; others relative to `base`. Null when it escapes. */
export function resolveUploadPath(p: string, base: string): string | null {
  const parts = (p.startsWith('/') ? p.slice(1) : base === '' ? p : `${base}/${p}`).split('/');
  const out: string[] = [];
  for (const s of parts) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(s);
  }
  return out.join('/');
}

/** Python builtins xacro's expressions can call (str and len are handled apart). */
const BUILTINS = new Set(['len', 'min', 'max', 'abs', 'int', 'float', 'str', 'round', 'bool']);

const FUNCS: Record<string, (...a: number[]) => number> = {
  radians: (d) => (d * Math.PI) / 180,
  degrees: (r) => (r * 180) / Math.PI,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  sqrt: Math.sqrt,
  abs: Math.abs,
  fabs: Math.abs,
  floor: Math.floor,
  ceil: Math.ceil,
  min: Math.min,
  max: Math.max,
  pow: Math.pow,
  float: (x) => x,
  int: (x) => Math.trunc(x),
};

function show(v: Value): string {
  if (typeof v === 'number') return String(v); // shortest round-trip form, as Python's repr
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  return JSON.stringify(v);
}
const truthy = (v: Value) => (typeof v === 'string' ? v !== '' && v !== 'false' && v !== 'False' && v !== '0' : typeof v === 'number' ? v !== 0 : Boolean(v));
/** A substituted value kept as a number when it reads as one (as xacro's properties are). */
const typed = (raw: string): Value => {
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) ? n : raw;
};

/** Splits a macro's params on whitespace outside quotes: `n axis:='0 0 1'` -> [n, axis:='0 0 1']. */
export function splitParams(params: string): string[] {
  return params.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? [];
}

export function expandXacroDocument(doc: XmlElement, ctx: XacroContext = {}): XacroExpansion {
  const L = XACRO_LIMITS;
  const files = ctx.files ?? new Map<string, string>();
  const packages = ctx.packages ?? new Map<string, string>();
  const passed = ctx.args ?? {};
  const passedArg = (name: string): string | undefined => (Object.hasOwn(passed, name) ? passed[name] : undefined);
  const global = new Scope(null);
  const macros = new Map<string, Macro>();
  const argDefaults = new Map<string, string>();
  const argRaw = new Map<string, { def: string; el: XmlElement }>();
  const filesRead: string[] = ctx.file !== undefined ? [ctx.file] : [];
  const parsed = new Map<string, XmlElement>();
  const missingIncludes: string[] = [];
  let produced = 0;
  let elements = 0;
  let steps = 0;
  let calls = 0;
  let includes = 0;
  let propDepth = 0;
  /** The file being processed (xacro's filestack[-1]): the entry, or the included file being read; a macro call does not change it. */
  let processing: string | undefined = ctx.file;
  /** Warnings for the answer's note (YAML duplicate keys). */
  const warnings: string[] = [];

  const fail = (message: string, missing: string[], at?: { file?: string; line?: number; column?: number }, limit: XacroLimit | null = null): never => {
    // A missing include explains what follows: name it first.
    if (missingIncludes.length > 0 && limit === null) {
      throw new XacroError(`${missingIncludes.map((m) => `${m} is not in the upload`).join('; ')} (then: ${message})`, [...missingIncludes, ...missing], null, at ?? {});
    }
    throw new XacroError(message, missing, limit, at ?? {});
  };
  const overLimit = (limit: XacroLimit, what: string, at?: XmlElement): never =>
    fail(`the expansion exceeds ${L[limit]} ${what} (limit ${limit})`, [], at ? { file: at.file, line: at.line, column: at.column } : undefined, limit);
  const count = (s: string, at?: XmlElement): string => {
    produced += s.length;
    if (produced > L.max_xacro_output_chars) overLimit('max_xacro_output_chars', 'characters of substituted text', at);
    return s;
  };

  const readUpload = (path: string): string | null => {
    const text = files.get(path);
    if (text === undefined) return null;
    if (!filesRead.includes(path)) filesRead.push(path);
    return text;
  };
  const findPackage = (name: string): string | undefined => packages.get(name);

  // ---- $(...) extensions ----
  const extension = (kind: string, rest: string, scope: Scope, file: string | undefined, at: XmlElement, lenientFind: boolean): string => {
    const a = rest.trim();
    switch (kind) {
      case 'arg': {
        const v = passedArg(a) ?? argDefaults.get(a) ?? argRaw.get(a)?.def; // own properties only: $(arg __proto__) is an argument like any other
        if (v === undefined) fail(`argument "${a}" is not passed and has no default`, [`argument ${a}`], at);
        // $(find pkg) and $(arg other) inside an argument's value are resolved as xacro resolves them.
        if (v!.includes('$(')) {
          if (++propDepth > L.max_xacro_property_depth) overLimit('max_xacro_property_depth', 'nested argument references', at);
          try {
            const el = argRaw.get(a)?.el ?? at;
            return subst(v!, global, el.file, passedArg(a) !== undefined ? at : el, lenientFind);
          } finally {
            propDepth -= 1;
          }
        }
        return v!;
      }
      case 'find': {
        const folder = findPackage(a);
        if (folder !== undefined) return folder === '' ? '' : `/${folder}`;
        if (lenientFind) return `package://${a}`;
        return fail(`ROS package "${a}" ($(find ${a})) is not in the upload (no package.xml naming it, no folder of that name)`, [`ROS package ${a} ($(find ${a}))`], at);
      }
      case 'dirname':
        return file === undefined ? fail('$(dirname) needs the file to be part of a package upload', ['$(dirname)'], at) : `/${dirOf(file)}`;
      case 'optenv': {
        const [, ...def] = a.split(/\s+/);
        return def.join(' ');
      }
      default:
        return fail(`$(${kind} ${a}) is not supported (no environment is read and nothing is evaluated outside the document)`, [`$(${kind} ${a})`], at);
    }
  };

  // ---- ${...} expressions ----
  const lookup = (name: string, scope: Scope, at: XmlElement): Value => {
    const p = scope.get(name);
    if (!p) {
      if (name === 'pi') return Math.PI;
      if (name === 'xacro') return { ns: 'xacro' };
      if (name === 'load_yaml') return { fn: 'load_yaml' };
      return fail(`property "${name}" is not defined`, [`property ${name}`], at);
    }
    if (p.kind === 'value') return p.v;
    if (p.kind === 'block') return fail(`"${name}" is a block property: use it with <xacro:insert_block>`, [`property ${name}`], at);
    if (p.evaluating) return fail(`property "${name}" refers to itself (a property recursion)`, [`a value for property ${name}`], at);
    if (++propDepth > L.max_xacro_property_depth) overLimit('max_xacro_property_depth', 'nested property references', at);
    p.evaluating = true;
    try {
      // Errors name the file and line where the value is written, not where it is used.
      const v = evalText(p.raw, p.scope, p.file, p.def ?? at, false);
      (p as Prop).kind = 'value';
      (p as unknown as { v: Value }).v = v;
      return v;
    } finally {
      p.evaluating = false;
      propDepth -= 1;
    }
  };

  const loadYaml = (path: string, _file: string | undefined, at: XmlElement): Value => {
    // A relative path is read from the folder of the file being processed (xacro's filestack[-1]:
    // the entry, or the included file being read), not the file that defines the macro or property.
    const resolved = resolveUploadPath(path, dirOf(processing));
    const text = resolved === null ? null : readUpload(resolved);
    if (text === null) return fail(`YAML file ${path} (xacro.load_yaml) is not in the upload: looked for ${resolved ?? `${path} (outside the upload)`}`, [`YAML file ${resolved ?? path}`], at);
    try {
      const lines = new (yaml().LineCounter)();
      const doc = yaml().parseDocument(text!, { maxAliasCount: 100, uniqueKeys: false, lineCounter: lines } as never);
      if (doc.errors.length > 0) throw doc.errors[0];
      // Duplicate keys: the last value wins, as PyYAML (xacro's loader) reads them; each is named.
      yaml().visit(doc, {
        Map(_k, map) {
          const seen = new Map<string, number>();
          for (const pair of map.items) {
            const key = yaml().isScalar(pair.key) ? String(pair.key.value) : null;
            if (key === null) continue;
            const line = pair.key && (pair.key as { range?: number[] }).range ? lines.linePos((pair.key as { range: number[] }).range[0]).line : 0;
            const before = seen.get(key);
            if (before !== undefined) warnings.push(`YAML file ${resolved}: key "${key}" at line ${line} repeats line ${before}; the last value is used, as xacro reads it`);
            seen.set(key, line);
          }
        },
      });
      const v = doc.toJS({ maxAliasCount: 100 }) as YamlValue;
      count(text!, at);
      return v;
    } catch (err) {
      return fail(`YAML file ${resolved} does not parse: ${(err as Error).message.split('\n')[0]}`, [`valid YAML in ${resolved}`], at);
    }
  };

  const evaluate = (expr: string, scope: Scope, file: string | undefined, at: XmlElement): Value => {
    // Real xacro ends ${...} at the first "}" (its lexer: \$\{[^\}]*\}), so a dict literal can
    // never be written inside ${}: xacro fails on it too. Said so, with what xacro does accept.
    if (/\{/.test(expr.replace(/"[^"]*"|'[^']*'/g, ''))) {
      return fail(
        `expression "${expr}": a dict literal {...} cannot be written inside \${...}: xacro ends the expression at the first "}" and fails on it too; write dict(key=value, ...) or dict([('key', value)]), or load the dict with xacro.load_yaml`,
        ['dict(...) instead of a {...} literal inside ${}'],
        { file: at.file, line: at.line, column: at.column },
      );
    }
    const toks = expr.match(/\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[A-Za-z_]\w*|\*\*|==|!=|<=|>=|"[^"]*"|'[^']*'|\S/g) ?? [];
    let p = 0;
    let depth = 0;
    /** Inside the branch a conditional does not take: parsed, never evaluated (as Python does). */
    let dead = 0;
    const where = { file: at.file, line: at.line, column: at.column };
    const peek = () => toks[p];
    const take = (t?: string) => {
      const x = toks[p++];
      if (t !== undefined && x !== t) fail(`expression "${expr}": expected "${t}"`, [t], where);
      return x;
    };
    const num = (v: Value): number => {
      if (dead > 0) return 0;
      if (typeof v === 'number') return v;
      if (typeof v === 'boolean') return v ? 1 : 0;
      const f = typeof v === 'string' ? Number(v) : NaN;
      if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(f)) fail(`expression "${expr}": ${show(v as Value)} is not a number`, [show(v as Value)], where);
      return f;
    };
    const nest = () => {
      if (++depth > L.max_xacro_expression_depth) overLimit('max_xacro_expression_depth', 'nested parentheses, operators or subscripts in one expression', at);
    };
    const member = (v: Value, key: Value): Value => {
      if (dead > 0) return null;
      if (typeof v === 'string' && typeof key === 'number' && Number.isInteger(key)) {
        const ch = v[key < 0 ? v.length + key : key];
        if (ch !== undefined) return ch;
      }
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && !('fn' in v) && !('ns' in v)) {
        const k = show(key);
        if (Object.prototype.hasOwnProperty.call(v, k)) return (v as Dict)[k];
        return fail(`expression "${expr}": key "${k}" not found`, [`key ${k}`], where);
      }
      if (Array.isArray(v) && views.has(v)) return fail(`expression "${expr}": '${views.get(v)}' object is not subscriptable (as in Python): wrap it in list(...)`, ['list(...) around the view'], where);
      if (Array.isArray(v) && typeof key === 'number' && Number.isInteger(key)) {
        const item = v[key < 0 ? v.length + key : key];
        if (item !== undefined) return item;
      }
      return fail(`expression "${expr}": cannot index ${show(v)} with ${show(key)}`, ['a valid subscript'], where);
    };
    const primary = (): Value => {
      nest();
      try {
        const t = take();
        if (t === undefined) return fail(`expression "${expr}" ends early`, ['operand'], where);
        let v: Value;
        if (t === '(') {
          // A parenthesised expression, or a tuple (read as a list).
          if (peek() === ')') {
            take(')');
            v = [];
          } else {
            v = cond();
            if (peek() === ',') {
              const items: Value[] = [v];
              while (peek() === ',') {
                take(',');
                if (peek() === ')') break;
                items.push(cond());
              }
              v = items as YamlValue[];
            }
            take(')');
          }
        } else if (t === '[') {
          const items: Value[] = [];
          while (peek() !== ']') {
            items.push(cond());
            if (peek() !== ',') break;
            take(',');
          }
          take(']');
          v = items as YamlValue[];
        } else if (t === '{') {
          const d: Dict = {};
          while (peek() !== '}') {
            const k = cond();
            take(':');
            d[show(k)] = cond() as YamlValue;
            if (peek() !== ',') break;
            take(',');
          }
          take('}');
          v = d;
        } else if (t === '-') return -num(primary());
        else if (t === '+') return num(primary());
        else if (t === 'not') return dead > 0 ? (cmp(), false) : !truthy(cmp());
        else if (/^[\d.]/.test(t)) v = Number(t);
        else if (/^["']/.test(t)) v = t.slice(1, -1);
        else if (t === 'True' || t === 'true') v = true;
        else if (t === 'False' || t === 'false') v = false;
        else if (t === 'None') v = null;
        else if (/^[A-Za-z_]/.test(t)) {
          if (peek() === '(' && (t === 'dict' || t === 'list')) {
            take('(');
            const args: Value[] = [];
            const kw: [string, Value][] = [];
            while (peek() !== ')' && peek() !== undefined) {
              if (/^[A-Za-z_]\w*$/.test(peek()!) && toks[p + 1] === '=') {
                const k = take()!;
                take('=');
                kw.push([k, cond()]);
              } else args.push(cond());
              if (peek() !== ',') break;
              take(',');
            }
            take(')');
            v = dead > 0 ? null : t === 'dict' ? makeDict(args, kw) : makeList(args, kw);
          } else if (peek() === '(' && (FUNCS[t] || BUILTINS.has(t) || t === 'load_yaml')) {
            take('(');
            const args: Value[] = [];
            if (peek() !== ')') {
              args.push(cond());
              while (peek() === ',') {
                take(',');
                args.push(cond());
              }
            }
            take(')');
            if (dead > 0) v = null;
            else if (BUILTINS.has(t) && t !== 'str' && t !== 'len') v = builtin(t, args);
            else if (t === 'str') v = show(args[0] ?? '');
            else if (t === 'len') v = Array.isArray(args[0]) ? args[0].length : typeof args[0] === 'string' ? args[0].length : args[0] && typeof args[0] === 'object' ? Object.keys(args[0]).length : fail(`len() of ${show(args[0] ?? null)}`, ['a sized value'], where);
            else if (t === 'load_yaml') v = loadYaml(show(args[0] ?? ''), file, at);
            else v = FUNCS[t](...args.map(num));
          } else if (peek() === '(' && !(dead > 0)) {
            return fail(`expression "${expr}": the function ${t}() is not supported by this expander`, [`function ${t}()`], where);
          } else v = dead > 0 ? null : lookup(t, scope, at);
        } else return fail(`expression "${expr}": unexpected "${t}"`, ['a supported expression'], where);
        // Postfix: .name, [index], (args) of xacro.load_yaml.
        for (;;) {
          if (peek() === '.') {
            take('.');
            const key = take();
            if (v !== null && typeof v === 'object' && 'ns' in v) {
              if (key !== 'load_yaml') fail(`xacro.${key} is not supported`, [`xacro.${key}`], where);
              v = { fn: 'load_yaml' };
            } else if (peek() === '(' && !(v !== null && typeof v === 'object' && 'fn' in v)) {
              take('(');
              const args: Value[] = [];
              while (peek() !== ')' && peek() !== undefined) {
                args.push(cond());
                if (peek() !== ',') break;
                take(',');
              }
              take(')');
              v = method(v, key ?? '', args);
            } else v = member(v, key ?? '');
          } else if (peek() === '[') {
            take('[');
            nest();
            // v[i], or a slice v[a:b] of a string or list.
            const from = peek() === ':' ? null : cond();
            if (peek() === ':') {
              take(':');
              const to = peek() === ']' ? null : cond();
              take(']');
              v = slice(v, from, to);
            } else {
              take(']');
              v = member(v, from);
            }
          } else if (peek() === '(' && v !== null && typeof v === 'object' && 'fn' in v) {
            take('(');
            const arg = or();
            take(')');
            v = loadYaml(show(arg), file, at);
          } else break;
        }
        return v;
      } finally {
        depth -= 1;
      }
    };
    const power = (): Value => {
      const b = primary();
      if (peek() === '**') {
        take();
        return num(b) ** num(power());
      }
      return b;
    };
    const term = (): Value => {
      let v = power();
      while (peek() === '*' || peek() === '/' || peek() === '%') {
        const op = take();
        const r = num(power());
        v = op === '*' ? num(v) * r : op === '/' ? num(v) / r : num(v) % r;
      }
      return v;
    };
    const sum = (): Value => {
      let v = term();
      while (peek() === '+' || peek() === '-') {
        const op = take();
        const r = term();
        if (op === '+' && typeof v === 'string' && typeof r === 'string') v = count(v + r, at);
        else v = op === '+' ? num(v) + num(r) : num(v) - num(r);
      }
      return v;
    };
    const cmp = (): Value => {
      const v = sum();
      const op = peek();
      if (op === 'in' || (op === 'not' && toks[p + 1] === 'in')) {
        take();
        if (op === 'not') take('in');
        const r = sum();
        if (dead > 0) return false;
        let has: boolean;
        if (Array.isArray(r)) has = r.some((x) => show(x as Value) === show(v));
        else if (typeof r === 'string') has = r.includes(show(v));
        else if (r !== null && typeof r === 'object' && !('fn' in r) && !('ns' in r)) has = Object.prototype.hasOwnProperty.call(r, show(v));
        else return fail(`expression "${expr}": "in" needs a string, list or dict, not ${show(r)}`, ['a container after in'], where);
        return op === 'in' ? has : !has;
      }
      if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
        take();
        const r = sum();
        const eq = show(v) === show(r) || (typeof v === 'number' && typeof r === 'number' && v === r);
        if (op === '==') return eq;
        if (op === '!=') return !eq;
        const a = num(v);
        const b = num(r);
        return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
      }
      return v;
    };
    const and = (): Value => {
      let v = cmp();
      while (peek() === 'and') {
        take();
        const r = cmp();
        v = truthy(v) ? r : v;
      }
      return v;
    };
    const or = (): Value => {
      let v = and();
      while (peek() === 'or') {
        take();
        const r = and();
        v = truthy(v) ? v : r;
      }
      return v;
    };
    /** `a if c else b`: the branch not taken is parsed but not evaluated. */
    const cond = (): Value => {
      const start = p;
      if (!hasIf) return or();
      dead += 1;
      or();
      dead -= 1;
      if (peek() !== 'if') {
        p = start;
        return or();
      }
      take('if');
      const c = or();
      take('else');
      if (truthy(c) && dead === 0) {
        const afterCond = p;
        p = start;
        const a = or();
        p = afterCond;
        dead += 1;
        cond();
        dead -= 1;
        return a;
      }
      if (dead > 0) {
        cond();
        return null;
      }
      return cond();
    };
    const slice = (v: Value, from: Value, to: Value): Value => {
      if (dead > 0) return null;
      if ((typeof v !== 'string' && !Array.isArray(v)) || (Array.isArray(v) && views.has(v))) return fail(`expression "${expr}": cannot slice ${Array.isArray(v) ? `a '${views.get(v)}' view (wrap it in list(...))` : show(v)}`, ['a string or list to slice'], where);
      const n = v.length;
      const at = (x: Value, d: number) => (x === null ? d : Math.max(0, Math.min(n, num(x) < 0 ? n + num(x) : num(x))));
      return v.slice(at(from, 0), at(to, n)) as Value;
    };
    const views = new WeakMap<object, string>();
    const view = (items: YamlValue[], kind: string): YamlValue[] => {
      views.set(items, kind);
      return items;
    };
    const isDict = (v: Value): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v) && !('fn' in v) && !('ns' in v);
    /** dict(): of keyword arguments, of a dict (a copy), or of a list of (key, value) pairs, as Python builds it. */
    const makeDict = (args: Value[], kw: [string, Value][]): Value => {
      if (args.length > 1) return fail(`expression "${expr}": dict() takes at most one positional argument, got ${args.length}`, ['dict(key=value, ...)'], where);
      const d: Dict = {};
      const one = args[0];
      if (one !== undefined) {
        if (isDict(one)) Object.assign(d, one);
        else if (Array.isArray(one)) {
          for (const pair of one) {
            if (!Array.isArray(pair) || pair.length !== 2) return fail(`expression "${expr}": dict() of a list needs (key, value) pairs, got ${show(pair as Value)}`, ['(key, value) pairs'], where);
            d[show(pair[0] as Value)] = pair[1] as YamlValue;
          }
        } else return fail(`expression "${expr}": dict() of ${show(one)}: give keyword arguments, a dict or a list of (key, value) pairs`, ['dict(key=value, ...)'], where);
      }
      for (const [k, x] of kw) d[k] = x as YamlValue;
      return d;
    };
    /** list(): of a list (a copy), a string (its characters) or a dict (its keys). */
    const makeList = (args: Value[], kw: [string, Value][]): Value => {
      if (kw.length > 0 || args.length > 1) return fail(`expression "${expr}": list() takes one argument`, ['list(x)'], where);
      const one = args[0];
      if (one === undefined) return [];
      if (Array.isArray(one)) return [...one]; // a view's items become a plain list
      if (typeof one === 'string') return [...one];
      if (isDict(one)) return Object.keys(one);
      return fail(`expression "${expr}": list() of ${show(one)}`, ['a string, list or dict'], where);
    };
    /** The dict methods xacro expressions use (get, keys, values, items); any other method is refused by name. */
    const method = (v: Value, name: string, args: Value[]): Value => {
      if (dead > 0) return null;
      if (isDict(v)) {
        switch (name) {
          case 'get': {
            if (args.length < 1 || args.length > 2) return fail(`expression "${expr}": get() takes a key and an optional default`, ['get(key, default)'], where);
            const k = show(args[0]!);
            return Object.prototype.hasOwnProperty.call(v, k) ? ((v as Dict)[k] as Value) : (args[1] ?? null);
          }
          // Python 3 gives views: len, in, min/max and list() read them; a subscript fails, as it does in Python.
          case 'keys':
            return view(Object.keys(v), 'dict_keys');
          case 'values':
            return view(Object.values(v) as YamlValue[], 'dict_values');
          case 'items':
            return view(Object.entries(v).map(([k, x]) => [k, x]) as YamlValue[], 'dict_items');
        }
      }
      if (typeof v === 'string') {
        const str = (i: number) => {
          const a = args[i];
          if (typeof a !== 'string') return fail(`expression "${expr}": .${name}() needs a string argument, got ${show(a ?? null)}`, [`a string for .${name}()`], where);
          return a;
        };
        const chars = (i: number) => (args[i] === undefined || args[i] === null ? null : str(i));
        const trim = (from: boolean, to: boolean) => {
          const set = chars(0);
          const drop = (c: string) => (set === null ? /\s/.test(c) : set.includes(c));
          let a = 0;
          let b = v.length;
          while (from && a < b && drop(v[a]!)) a++;
          while (to && b > a && drop(v[b - 1]!)) b--;
          return v.slice(a, b);
        };
        switch (name) {
          case 'upper':
            return v.toUpperCase();
          case 'lower':
            return v.toLowerCase();
          case 'strip':
            return trim(true, true);
          case 'lstrip':
            return trim(true, false);
          case 'rstrip':
            return trim(false, true);
          case 'startswith':
            return v.startsWith(str(0));
          case 'endswith':
            return v.endsWith(str(0));
          case 'replace': {
            const from = str(0);
            return from === '' ? fail(`expression "${expr}": .replace() of an empty string is not supported`, ['a non-empty text to replace'], where) : count(v.split(from).join(str(1)), at);
          }
          case 'split': {
            const sep = chars(0);
            if (sep === '') return fail(`expression "${expr}": .split('') is an error in Python (empty separator)`, ['a separator'], where);
            return sep === null ? v.split(/\s+/).filter(Boolean) : v.split(sep);
          }
          case 'join': {
            const items = args[0];
            if (!Array.isArray(items) || !items.every((x) => typeof x === 'string')) return fail(`expression "${expr}": .join() needs a list of strings`, ['a list of strings'], where);
            return count((items as string[]).join(v), at);
          }
        }
      }
      return fail(`expression "${expr}": the method .${name}() ${isDict(v) ? 'of a dict ' : typeof v === 'string' ? 'of a string ' : ''}is not supported by this expander (supported: a dict's get, keys, values, items; a string's upper, lower, strip, lstrip, rstrip, startswith, endswith, replace, split, join)`, [`method .${name}()`], where);
    };
    const builtin = (name: string, args: Value[]): Value => {
      const one = args[0] ?? null;
      switch (name) {
        case 'int':
          return typeof one === 'string' && !/^\s*[+-]?\d+\s*$/.test(one) ? fail(`expression "${expr}": int(${show(one)})`, ['an integer text'], where) : Math.trunc(num(one));
        case 'float':
          return num(one);
        case 'bool':
          return truthy(one);
        case 'round': {
          // Python rounds half to even.
          const x = num(one);
          const digits = args.length > 1 ? num(args[1]!) : 0;
          const f = 10 ** digits;
          const y = x * f;
          const r = Math.abs(y - Math.trunc(y)) === 0.5 ? 2 * Math.round(y / 2) : Math.round(y);
          return r / f;
        }
        case 'abs':
          return Math.abs(num(one));
        case 'min':
        case 'max': {
          const xs = args.length === 1 && Array.isArray(one) ? (one as Value[]) : args;
          if (xs.length === 0) return fail(`expression "${expr}": ${name}() of nothing`, ['values'], where);
          return xs.reduce((a, b) => (name === 'min' ? (num(b) < num(a) ? b : a) : num(b) > num(a) ? b : a));
        }
        default:
          return fail(`expression "${expr}": ${name}() is not supported`, [`function ${name}()`], where);
      }
    };
    const hasIf = (toks as readonly string[]).includes('if');
    const v = cond();
    if (p < toks.length) fail(`expression "${expr}": unexpected "${toks[p]}"`, ['a supported expression'], where);
    return v;
  };

  /**
   * Substitutes $(...) and ${...} in `s`. A text that is exactly one ${...} keeps its value's type
   * (a dict from load_yaml stays a dict). The length is checked piece by piece, so no string over
   * the output limit is ever built.
   */
  const evalText = (s: string, scope: Scope, file: string | undefined, at: XmlElement, lenientFind: boolean): Value => {
    if (!s.includes('$')) return s;
    // $(...) first (inside ${...} string literals too, e.g. load_yaml('$(find pkg)/x.yaml')).
    let t = s;
    if (t.includes('$(')) {
      const pieces: string[] = [];
      let len = 0;
      let last = 0;
      for (const m of t.matchAll(/\$\((\w+)([^)]*)\)/g)) {
        const piece = t.slice(last, m.index) + extension(m[1], m[2], scope, file, at, lenientFind);
        len += piece.length;
        if (produced + len > L.max_xacro_output_chars) overLimit('max_xacro_output_chars', 'characters of substituted text', at);
        pieces.push(piece);
        last = m.index + m[0].length;
      }
      pieces.push(t.slice(last));
      t = pieces.join('');
    }
    if (!t.includes('${')) return t;
    const whole = /^\$\{([^}]*)\}$/.exec(t);
    if (whole) return evaluate(whole[1], scope, file, at);
    const pieces: string[] = [];
    let len = 0;
    let last = 0;
    for (const m of t.matchAll(/\$\{([^}]*)\}/g)) {
      const piece = t.slice(last, m.index) + show(evaluate(m[1], scope, file, at));
      len += piece.length;
      if (produced + len > L.max_xacro_output_chars) overLimit('max_xacro_output_chars', 'characters of substituted text', at);
      pieces.push(piece);
      last = m.index + m[0].length;
    }
    pieces.push(t.slice(last));
    return pieces.join('');
  };
  const subst = (s: string, scope: Scope, file: string | undefined, at: XmlElement, lenientFind = false): string => count(show(evalText(s, scope, file, at, lenientFind)), at);
  const attr = (el: XmlElement, k: string) => el.attrs.get(k);

  const parseFile = (path: string, at: XmlElement): XmlElement | null => {
    const cached = parsed.get(path);
    if (cached) return cached;
    const text = readUpload(path);
    if (text === null) return null;
    let root: XmlElement;
    try {
      root = parseXml(text);
    } catch (err) {
      if (err instanceof XmlError) {
        if (err.limit) throw new XacroError(`${path}: ${err.message}`, [], null, { file: path, line: err.line, column: err.column }, err);
        throw new XacroError(`${path}: not well-formed XML: ${err.message}`, [`well-formed XML in ${path}`], null, { file: path, line: err.line, column: err.column }, err);
      }
      throw err;
    }
    for (const { el } of walk(root)) el.file = path;
    parsed.set(path, root);
    return root;
  };

  // Arguments declared anywhere in the entry (xacro reads them in order; files that define before use read the same).
  for (const { el } of walk(doc)) {
    if (el.name !== 'xacro:arg') continue;
    const name = attr(el, 'name');
    const def = attr(el, 'default');
    if (name && def !== undefined && !argDefaults.has(name) && !def.includes('$')) argDefaults.set(name, def);
    // A default holding $(find ...) or $(arg ...): resolved when used, errors at its own line.
    if (name && def !== undefined && def.includes('$') && !argRaw.has(name)) argRaw.set(name, { def, el });
  }

  const expand = (list: readonly XmlNode[], scope: Scope, macroDepth: number, includeDepth: number, blocks: Map<string, XmlElement[]>, parentEl: XmlElement): XmlNode[] => {
    const out: XmlNode[] = [];
    for (const nd of list) {
      if (++steps > L.max_xacro_steps) overLimit('max_xacro_steps', 'expansion steps', parentEl);
      if (typeof nd === 'string') {
        if (nd.trim() !== '') out.push(subst(nd, scope, parentEl.file, parentEl));
        continue;
      }
      const file = nd.file;
      const here = { file, line: nd.line, column: nd.column };
      if (nd.name === 'xacro:arg') {
        const name = attr(nd, 'name');
        if (!name) fail('<xacro:arg> without a name', ['name'], here);
        const def = attr(nd, 'default');
        if (def !== undefined && !argDefaults.has(name!)) argDefaults.set(name!, subst(def, scope, file, nd));
        continue;
      }
      if (nd.name === 'xacro:property') {
        const name = attr(nd, 'name');
        if (!name) fail('<xacro:property> without a name', ['name'], here);
        const where = attr(nd, 'scope');
        const target = where === 'global' ? global : where === 'parent' ? (scope.parent ?? scope) : scope;
        const value = attr(nd, 'value') ?? attr(nd, 'default');
        if (attr(nd, 'default') !== undefined && attr(nd, 'value') === undefined && target.get(name!)) continue;
        if (value === undefined) target.vars.set(name!, { kind: 'block', nodes: childElements(nd) });
        else target.vars.set(name!, { kind: 'lazy', raw: value, scope, file, evaluating: false, def: nd });
        continue;
      }
      if (nd.name === 'xacro:macro') {
        const raw = attr(nd, 'name');
        if (!raw) fail('<xacro:macro> without a name', ['name'], here);
        const name = raw!.replace(/^xacro:/, '');
        const params = splitParams(attr(nd, 'params') ?? '').map((tok) => {
          const block: '*' | '**' | null = tok.startsWith('**') ? '**' : tok.startsWith('*') ? '*' : null;
          const body = block ? tok.slice(block.length) : tok;
          const m = /^([^:=]+)(?::=|=)(.*)$/s.exec(body);
          if (!m) return { name: body, def: null, block, outer: false };
          let def = m[2];
          let outer = false;
          if (def.startsWith('^')) {
            outer = true;
            def = def.startsWith('^|') ? def.slice(2) : '';
          }
          def = def.replace(/^(["'])([\s\S]*)\1$/, '$2');
          return { name: m[1], def: outer && def === '' ? null : def, block, outer };
        });
        macros.set(name, { name, params, body: nd.children, file });
        continue;
      }
      if (nd.name === 'xacro:if' || nd.name === 'xacro:unless') {
        const v = attr(nd, 'value');
        if (v === undefined) fail(`<${nd.name}> without a value`, ['value'], here);
        const val = evalText(v!, scope, file, nd, false);
        const s = show(val).trim();
        let truth: boolean | null;
        if (typeof val === 'boolean' || typeof val === 'number') truth = truthy(val);
        else if (s === 'true' || s === 'True' || s === '1') truth = true;
        else if (s === 'false' || s === 'False' || s === '0') truth = false;
        else truth = Number.isFinite(Number(s)) && s !== '' ? Number(s) !== 0 : null;
        if (truth === null) fail(`<${nd.name} value="${v}"> is not a boolean (${s})`, ['a boolean value'], here);
        if (truth === (nd.name === 'xacro:if')) out.push(...expand(nd.children, scope, macroDepth, includeDepth, blocks, nd));
        continue;
      }
      if (nd.name === 'xacro:include') {
        const fn = attr(nd, 'filename');
        if (!fn) fail('<xacro:include> without a filename', ['filename'], here);
        const target = subst(fn!, scope, file, nd);
        if (target.startsWith('package://')) {
          const [pkg, ...rest] = target.slice('package://'.length).split('/');
          const folder = findPackage(pkg);
          if (folder === undefined) fail(`ROS package "${pkg}" (${target}) is not in the upload`, [`ROS package ${pkg} (${target})`], here);
        }
        const resolved = resolveUploadPath(target.startsWith('package://') ? `/${findPackage(target.slice(10).split('/')[0])}/${target.slice(10).split('/').slice(1).join('/')}` : target, dirOf(file));
        if (resolved === null) fail(`included file ${fn} resolves outside the upload`, [`included file ${fn}`], here);
        if (includeDepth + 1 > L.max_xacro_include_depth) overLimit('max_xacro_include_depth', 'nested includes', nd);
        const inc = files.size > 0 ? parseFile(resolved!, nd) : null;
        if (!inc) {
          const label = `included file ${files.size > 0 ? resolved : fn}${file !== undefined ? ` (included from ${file} line ${nd.line})` : ''}`;
          if (files.size === 0) fail(`this xacro needs what is not in the input: ${label}. Send the package: files with entry (and args)`, [label], here);
          if (!missingIncludes.includes(label)) missingIncludes.push(label);
          continue;
        }
        includes += 1;
        const outer = processing;
        processing = resolved!;
        try {
          out.push(...expand(inc!.children, global, macroDepth, includeDepth + 1, blocks, inc!));
        } finally {
          processing = outer;
        }
        continue;
      }
      if (nd.name === 'xacro:insert_block') {
        const name = attr(nd, 'name') ?? '';
        const block = blocks.get(name) ?? (() => {
          const p = scope.get(name);
          return p?.kind === 'block' ? p.nodes : undefined;
        })();
        if (!block) fail(`<xacro:insert_block name="${name}">: no block parameter or block property of that name`, [`block ${name}`], here);
        out.push(...expand(block!, scope, macroDepth, includeDepth, blocks, nd));
        continue;
      }
      if (nd.name.startsWith('xacro:')) {
        const name = nd.name.slice(6);
        const macro = macros.get(name);
        if (!macro) {
          if (['element', 'attribute', 'call', 'eval', 'eval-comments', 'unless', 'if'].includes(name)) fail(`<${nd.name}> is not supported by this expander`, [`<${nd.name}>`], here);
          fail(`macro "${name}" is not defined`, [`macro ${name}`], here);
        }
        if (macroDepth + 1 > L.max_xacro_macro_depth) overLimit('max_xacro_macro_depth', 'nested macro calls (recursion?)', nd);
        calls += 1;
        const inner = new Scope(scope);
        const innerBlocks = new Map(blocks);
        const blockArgs = childElements(nd);
        let b = 0;
        for (const p of macro!.params) {
          if (p.block) {
            const el = blockArgs[b++];
            if (!el) fail(`call of macro "${name}" gives no block for parameter ${p.block}${p.name}`, [`block parameter ${p.name} of macro ${name}`], here);
            innerBlocks.set(p.name, p.block === '*' ? [el!] : childElements(el!));
            continue;
          }
          const given = attr(nd, p.name);
          if (given !== undefined) inner.vars.set(p.name, { kind: 'value', v: typed(subst(given, scope, file, nd)) });
          else if (p.outer && scope.get(p.name)) inner.vars.set(p.name, { kind: 'value', v: lookup(p.name, scope, nd) });
          else if (p.def !== null) inner.vars.set(p.name, { kind: 'value', v: typed(subst(p.def, scope, file, nd)) });
          else fail(`call of macro "${name}" does not give parameter "${p.name}"`, [`parameter ${p.name} of macro ${name}`], here);
        }
        out.push(...expand(macro!.body, inner, macroDepth + 1, includeDepth, innerBlocks, nd));
        continue;
      }
      if (++elements > L.max_xacro_elements) overLimit('max_xacro_elements', 'elements', nd);
      const attrs = new Map<string, string>();
      for (const [k, v] of nd.attrs) if (!(k.startsWith('xmlns:') && v.includes('ros.org/wiki/xacro'))) attrs.set(k, subst(v, scope, file, nd, true));
      const el: XmlElement = { name: nd.name, attrs, children: [], line: nd.line, column: nd.column, ...(file !== undefined ? { file } : {}) };
      el.children = expand(nd.children, scope, macroDepth, includeDepth, blocks, nd);
      out.push(el);
    }
    return out;
  };

  if (ctx.file !== undefined) for (const { el } of walk(doc)) el.file = ctx.file;
  const rootAttrs = new Map<string, string>();
  for (const [k, v] of doc.attrs) if (!(k.startsWith('xmlns:') && v.includes('ros.org/wiki/xacro'))) rootAttrs.set(k, subst(v, global, ctx.file, doc));
  const root: XmlElement = { name: doc.name, attrs: rootAttrs, children: [], line: doc.line, column: doc.column, ...(ctx.file !== undefined ? { file: ctx.file } : {}) };
  root.children = expand(doc.children, global, 0, 0, new Map(), doc);
  if (missingIncludes.length > 0) throw new XacroError(`${missingIncludes.join('; ')}: not in the upload`, missingIncludes);
  const argNames = new Set([...argDefaults.keys(), ...Object.keys(passed)]);
  return {
    root,
    properties: global.vars.size,
    macros: macros.size,
    macro_calls: calls,
    includes,
    args: [...argNames].map((name) => ({ name, value: passedArg(name) ?? argDefaults.get(name)!, source: Object.hasOwn(passed, name) ? ('passed' as const) : ('default' as const) })),
    files_read: filesRead,
    warnings,
  };
}
