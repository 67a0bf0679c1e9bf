/**
 * xacro, written for this project against the xacro documentation (http://wiki.ros.org/xacro),
 * over the parsed document (xml.ts), so nothing inside a comment is ever read as xacro:
 *   <xacro:property name value|default> (lazy: evaluated when first used, as xacro does; block
 *   properties), <xacro:arg name default/> with $(arg name) and passed args, ${...} expressions
 *   (numbers typed as Python types them: int and float apart, + - * / // ** % with Python's
 *   results (int/int division a float, floor division and modulo to the floor), written as Python's
 *   str() writes them (1.0, 1e-05, 1.5e+16, True); property values and macro parameters read by
 *   xacro's _eval_literal ("1" an int, "1.0" a float, "true" a bool, 'x' the text x);
 *   comparisons, and/or/not, pi and the math constants, properties, strings, math functions,
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
/**
 * Values as Python types them: an int is a bigint, a float a number, a bool a boolean (an int in
 * arithmetic, as in Python), so int/float survive arithmetic and print as Python's str() prints them.
 */
type YamlValue = string | bigint | number | boolean | null | YamlValue[] | Dict;
type Value = bigint | number | string | boolean | null | YamlValue[] | Dict | { fn: 'load_yaml' } | { ns: 'xacro' };
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

/** Math functions xacro exposes from Python's math module: each returns a float (floor, ceil, trunc: an int, as in Python 3). */
const FUNCS: Record<string, (...a: number[]) => number> = {
  // As CPython computes them: x * (pi / 180) and x * (180 / pi).
  radians: (d) => d * (Math.PI / 180),
  degrees: (r) => r * (180 / Math.PI),
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  sqrt: Math.sqrt,
  exp: Math.exp,
  log: (x, b) => (b === undefined ? Math.log(x) : Math.log(x) / Math.log(b)),
  log10: Math.log10,
  hypot: Math.hypot,
  fabs: Math.abs,
  floor: Math.floor,
  ceil: Math.ceil,
  trunc: Math.trunc,
  pow: (x, y) => (x === 1 || y === 0 ? 1 : floatPow(x, y)),
};
/** The math functions whose Python result is an int. */
const INT_FUNCS = new Set(['floor', 'ceil', 'trunc']);
/** Math constants (math.__dict__): floats. */
const CONSTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI, inf: Infinity, nan: NaN };

/** Python's str() of an int is bounded (sys.int_info.str_digits_check_threshold, 4300 digits); so is ours. */
const MAX_INT_DIGITS = 4300;
const MAX_INT_BITS = Math.ceil(MAX_INT_DIGITS * Math.log2(10));

/** Tuples (read as arrays, printed with parentheses) and dict views (dict_keys, ...), as Python prints them. */
const tuples = new WeakSet<object>();
const views = new WeakMap<object, string>();
const tuple = <T extends YamlValue[]>(items: T): T => {
  tuples.add(items);
  return items;
};

/** Python's repr of a float: the shortest round-trip digits; scientific below 1e-4 and from 1e16, as `1e-05`, `1.5e+16`; a whole number ends in `.0`. */
function pyFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential())!;
  const sign = m[1];
  const digits = m[2] + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < -4 || exp >= 16) {
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${int}.${frac === '' ? '0' : frac}`;
}

/** x as m * 2**e exactly (x finite, > 0). */
function decompose(x: number): [bigint, number] {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return biased === 0 ? [frac, -1074] : [frac | (1n << 52n), biased - 1075];
}
const bitLength = (n: bigint): number => n.toString(2).length;
/** x * 2**a, exact whenever the result is representable (scaled in steps that neither overflow nor underflow early). */
function scale2(x: number, a: number): number {
  while (a > 1000) {
    x *= 2 ** 1000;
    a -= 1000;
  }
  while (a < -1000) {
    x *= 2 ** -1000;
    a += 1000;
  }
  return x * 2 ** a;
}
/** p / q * 2**k (p, q > 0) rounded once, to nearest, ties to even: the double C would return for the exact value. */
function ratToDouble(p: bigint, q: bigint, k: number): number {
  const s = 56 - (bitLength(p) - bitLength(q));
  const num = s >= 0 ? p << BigInt(s) : p;
  const den = s >= 0 ? q : q << BigInt(-s);
  const Q = num / den;
  const sticky = num % den !== 0n;
  const bq = bitLength(Q);
  const E = bq - 1 + (k - s);
  if (E > 1023) return Infinity;
  const bits = E >= -1022 ? 53 : 53 - (-1022 - E);
  const drop = bq - bits;
  if (drop > bq) return 0;
  let kept = Q >> BigInt(drop);
  const rest = Q & ((1n << BigInt(drop)) - 1n);
  const half = 1n << BigInt(drop - 1);
  if (rest > half || (rest === half && (sticky || (kept & 1n) === 1n))) kept += 1n;
  return scale2(Number(kept), k - s + drop);
}
/**
 * Python's float ** (C's pow): for a whole exponent (|n| <= 4096) computed exactly and rounded
 * once, as glibc's correctly rounded pow gives it (JavaScript's ** is off in the last digit for
 * about one x**3 in ten); other exponents use JavaScript's pow.
 */
function floatPow(x: number, y: number): number {
  if (!Number.isInteger(y) || Math.abs(y) > 4096 || x === 0 || !Number.isFinite(x) || y === 0) return x ** y;
  const [m, e] = decompose(Math.abs(x));
  const n = Math.abs(y);
  const r = y > 0 ? ratToDouble(m ** BigInt(n), 1n, e * n) : ratToDouble(1n, m ** BigInt(n), -e * n);
  return x < 0 && n % 2 === 1 ? -r : r;
}

/** Python's repr of a string: single quotes unless it holds a ' and no ". */
function pyStrRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\' || ch === q) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + q;
}

/** Python's repr: what a value prints as inside a list, tuple or dict. */
function pyRepr(v: Value): string {
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) {
    const items = v.map((x) => pyRepr(x as Value)).join(', ');
    const kind = views.get(v);
    if (kind) return `${kind}([${items}])`;
    if (tuples.has(v)) return v.length === 1 ? `(${items},)` : `(${items})`;
    return `[${items}]`;
  }
  if (v !== null && typeof v === 'object') {
    if ('fn' in v) return '<function load_yaml>';
    if ('ns' in v) return '<xacro namespace>';
    return `{${Object.entries(v).map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x as Value)}`).join(', ')}}`;
  }
  return show(v);
}

/** Python's str(): what xacro writes for a value (str(result)). */
function show(v: Value): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return pyFloat(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  return pyRepr(v);
}
/** Python's truth value. */
const truthy = (v: Value): boolean => {
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'number') return v !== 0; // NaN is true in Python, and here: NaN !== 0
  if (typeof v === 'boolean') return v;
  if (v === null) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object' && !('fn' in v) && !('ns' in v)) return Object.keys(v).length > 0;
  return true;
};

/** Python's int(text): optional sign and digits, surrounding whitespace allowed; null when it is not one. */
const pyIntText = (s: string): bigint | null => (/^\s*[+-]?\d+\s*$/.test(s) ? BigInt(s.trim()) : null);
/** Python's float(text): decimal or scientific, inf/infinity/nan; null when it is not one. */
const pyFloatText = (s: string): number | null => {
  const t = s.trim();
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : null;
};

/**
 * xacro's Table._eval_literal: a text in single quotes is that text; a text holding "_" stays text
 * (Python would drop the underscores of 1_000); else int(text), then float(text), then a boolean
 * (true/True/false/False); else the text. Other values are returned as they are.
 */
function evalLiteral(v: Value): Value {
  if (typeof v !== 'string') return v;
  if (v.length >= 2 && v[0] === "'" && v[v.length - 1] === "'") return v.slice(1, -1);
  if (v.includes('_')) return v;
  const i = pyIntText(v);
  if (i !== null) return i;
  const f = pyFloatText(v);
  if (f !== null) return f;
  if (v === 'true' || v === 'True') return true;
  if (v === 'false' || v === 'False') return false;
  return v;
}

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
      if (Object.hasOwn(CONSTS, name)) return CONSTS[name]!;
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
      // As xacro's Table._resolve_: the evaluated text, then _eval_literal ("1.0" is the float 1.0).
      const v = evalLiteral(evalText(p.raw, p.scope, p.file, p.def ?? at, false));
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
      const doc = yaml().parseDocument(text!, { maxAliasCount: 100, uniqueKeys: false, lineCounter: lines, intAsBigInt: true } as never);
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
    const toks = expr.match(/\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[A-Za-z_]\w*|\*\*|\/\/|==|!=|<=|>=|"[^"]*"|'[^']*'|\S/g) ?? [];
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
    const pyType = (v: Value): string =>
      typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'float' : typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'str' : v === null ? 'NoneType' : Array.isArray(v) ? (views.get(v) ?? (tuples.has(v) ? 'tuple' : 'list')) : 'fn' in v ? 'function' : 'ns' in v ? 'namespace' : 'dict';
    /** Python's TypeError, refused by name. */
    const typeError = (msg: string): never => fail(`expression "${expr}": ${msg} (a TypeError in Python, so xacro refuses it too)`, ['operands of a type the operation takes'], where);
    /** An int kept within Python's printable size (4300 digits). */
    const big = (x: bigint): bigint => {
      if ((x < 0n ? -x : x).toString(16).length * 4 > MAX_INT_BITS + 4) fail(`expression "${expr}": an integer over ${MAX_INT_DIGITS} digits (Python refuses to print it; this expander refuses to compute it)`, ['a smaller integer'], where);
      return x;
    };
    /** A number operand: an int (bigint; a bool counts as an int, as in Python) or a float (number). */
    const numArg = (v: Value, op: string): bigint | number => {
      if (dead > 0) return 0n;
      if (typeof v === 'bigint' || typeof v === 'number') return v;
      if (typeof v === 'boolean') return v ? 1n : 0n;
      return typeError(`${op} of a '${pyType(v)}' (${pyRepr(v)}): it needs a number`);
    };
    /** A number as a float, as Python converts an int for float arithmetic. */
    const f64 = (v: Value, op: string): number => {
      const n = numArg(v, op);
      const x = Number(n);
      if (typeof n === 'bigint' && !Number.isFinite(x)) fail(`expression "${expr}": int too large to convert to float (OverflowError in Python)`, ['a smaller integer'], where);
      return x;
    };
    /** An int operand (an index, a count): a float is refused as Python refuses it. */
    const intArg = (v: Value, what: string): bigint => {
      if (dead > 0) return 0n;
      if (typeof v === 'bigint') return v;
      if (typeof v === 'boolean') return v ? 1n : 0n;
      return typeError(`${what} must be an integer, not '${pyType(v)}' (${pyRepr(v)})`);
    };
    const zeroDiv = (what: string): never => fail(`expression "${expr}": ${what} (ZeroDivisionError in Python)`, ['a non-zero divisor'], where);
    /** Python's divmod of floats (floatobject.c _float_div_mod): floor division and a modulo with the divisor's sign. */
    const floatDivMod = (vx: number, wx: number): [number, number] => {
      let mod = vx % wx;
      let div = (vx - mod) / wx;
      if (mod) {
        if (wx < 0 !== mod < 0) {
          mod += wx;
          div -= 1;
        }
      } else mod = wx < 0 ? -0 : 0;
      let floordiv: number;
      if (div) {
        floordiv = Math.floor(div);
        if (div - floordiv > 0.5) floordiv += 1;
      } else floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0 : 0;
      return [floordiv, mod];
    };
    /** Python's binary arithmetic: int op int stays an int (but / is always a float); any float makes a float. */
    const binop = (op: string, av: Value, bv: Value): Value => {
      if (dead > 0) return null;
      if (op === '+' && typeof av === 'string' && typeof bv === 'string') return count(av + bv, at);
      if (op === '+' && Array.isArray(av) && Array.isArray(bv) && !views.has(av) && !views.has(bv) && tuples.has(av) === tuples.has(bv)) return tuples.has(av) ? tuple([...av, ...bv]) : [...av, ...bv];
      if (op === '*' && (typeof av === 'string' || typeof bv === 'string') && !(typeof av === 'string' && typeof bv === 'string')) {
        const text = (typeof av === 'string' ? av : bv) as string;
        const k = Number(intArg(typeof av === 'string' ? bv : av, "a string's repeat count"));
        if (k <= 0) return '';
        if (produced + text.length * k > L.max_xacro_output_chars) overLimit('max_xacro_output_chars', 'characters of substituted text', at);
        return count(text.repeat(k), at);
      }
      if (typeof av === 'string' || typeof bv === 'string' || Array.isArray(av) || Array.isArray(bv) || av === null || bv === null || typeof av === 'object' || typeof bv === 'object') {
        return typeError(`unsupported operand types for ${op}: '${pyType(av)}' and '${pyType(bv)}'`);
      }
      const a = numArg(av, op);
      const b = numArg(bv, op);
      if (typeof a === 'bigint' && typeof b === 'bigint') {
        switch (op) {
          case '+':
            return big(a + b);
          case '-':
            return big(a - b);
          case '*':
            return big(a * b);
          case '/':
            return b === 0n ? zeroDiv('division by zero') : f64(a, op) / f64(b, op);
          case '//': {
            if (b === 0n) return zeroDiv('integer division or modulo by zero');
            const q = a / b;
            return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
          }
          case '%': {
            if (b === 0n) return zeroDiv('integer division or modulo by zero');
            const r = a % b;
            return r !== 0n && r < 0n !== b < 0n ? r + b : r;
          }
          case '**': {
            if (b < 0n) return a === 0n ? zeroDiv('0.0 cannot be raised to a negative power') : floatPow(f64(a, op), f64(b, op));
            if (a === 0n || a === 1n) return b === 0n ? 1n : a;
            if (a === -1n) return b % 2n === 0n ? 1n : -1n;
            const bits = (a < 0n ? -a : a).toString(2).length - 1;
            if (bits * Number(b) > MAX_INT_BITS) big(1n << BigInt(MAX_INT_BITS + 8));
            return big(a ** b);
          }
        }
      }
      const x = f64(a, op);
      const y = f64(b, op);
      switch (op) {
        case '+':
          return x + y;
        case '-':
          return x - y;
        case '*':
          return x * y;
        case '/':
          return y === 0 ? zeroDiv('float division by zero') : x / y;
        case '//':
          return y === 0 ? zeroDiv('float floor division by zero') : floatDivMod(x, y)[0];
        case '%':
          return y === 0 ? zeroDiv('float modulo') : floatDivMod(x, y)[1];
        case '**': {
          if (x === 0 && y < 0) return zeroDiv('0.0 cannot be raised to a negative power');
          if (x === 1 || y === 0) return 1; // Python: 1.0 ** nan and nan ** 0 are 1.0
          const r = floatPow(x, y);
          if (Number.isNaN(r) && !Number.isNaN(x) && !Number.isNaN(y)) return fail(`expression "${expr}": ${pyFloat(x)} ** ${pyFloat(y)} is a complex number in Python, which xacro cannot write`, ['a real result'], where);
          if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y)) return fail(`expression "${expr}": ${pyFloat(x)} ** ${pyFloat(y)} overflows (OverflowError in Python)`, ['a smaller power'], where);
          return r;
        }
      }
      return fail(`expression "${expr}": operator ${op} is not supported`, [`operator ${op}`], where);
    };
    const isNumeric = (v: Value): v is bigint | number | boolean => typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean';
    /** Python's ==: numbers by value across int, float and bool; otherwise same type and equal contents. */
    const pyEq = (a: Value, b: Value): boolean => {
      if (isNumeric(a) && isNumeric(b)) {
        const x = typeof a === 'boolean' ? BigInt(a) : a;
        const y = typeof b === 'boolean' ? BigInt(b) : b;
        // bigint == number compares the exact values (1n == 1.0, 1n != 1.5).
        return x == y;
      }
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
      if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && tuples.has(a) === tuples.has(b) && a.length === b.length && a.every((x, i) => pyEq(x as Value, b[i] as Value));
      if ('fn' in a || 'ns' in a || 'fn' in b || 'ns' in b) return a === b;
      const ka = Object.keys(a);
      return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && pyEq((a as Dict)[k] as Value, (b as Dict)[k] as Value));
    };
    /** Python's <: numbers with numbers, strings with strings, lists and tuples item by item; anything else a TypeError. */
    const pyLt = (a: Value, b: Value, op = '<'): boolean => {
      if (isNumeric(a) && isNumeric(b)) return (typeof a === 'boolean' ? BigInt(a) : a) < (typeof b === 'boolean' ? BigInt(b) : b);
      if (typeof a === 'string' && typeof b === 'string') return a < b;
      if (Array.isArray(a) && Array.isArray(b) && tuples.has(a) === tuples.has(b)) {
        for (let i = 0; i < Math.min(a.length, b.length); i++) if (!pyEq(a[i] as Value, b[i] as Value)) return pyLt(a[i] as Value, b[i] as Value, op);
        return a.length < b.length;
      }
      return typeError(`'${op}' is not supported between instances of '${pyType(a)}' and '${pyType(b)}'`);
    };
    const nest = () => {
      if (++depth > L.max_xacro_expression_depth) overLimit('max_xacro_expression_depth', 'nested parentheses, operators or subscripts in one expression', at);
    };
    const member = (v: Value, key: Value): Value => {
      if (dead > 0) return null;
      if (typeof v === 'string') {
        const i = Number(intArg(key, 'a string index'));
        const ch = v[i < 0 ? v.length + i : i];
        if (ch !== undefined) return ch;
        return fail(`expression "${expr}": string index ${i} out of range (IndexError in Python)`, ['an index within the string'], where);
      }
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && !('fn' in v) && !('ns' in v)) {
        const k = show(key);
        if (Object.prototype.hasOwnProperty.call(v, k)) return (v as Dict)[k];
        return fail(`expression "${expr}": key "${k}" not found`, [`key ${k}`], where);
      }
      if (Array.isArray(v) && views.has(v)) return fail(`expression "${expr}": '${views.get(v)}' object is not subscriptable (as in Python): wrap it in list(...)`, ['list(...) around the view'], where);
      if (Array.isArray(v)) {
        const i = Number(intArg(key, `a ${pyType(v)} index`));
        const item = v[i < 0 ? v.length + i : i];
        if (item !== undefined) return item;
        return fail(`expression "${expr}": ${pyType(v)} index ${i} out of range (IndexError in Python)`, ['an index within the list'], where);
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
            v = tuple([]);
          } else {
            v = cond();
            if (peek() === ',') {
              const items: Value[] = [v];
              while (peek() === ',') {
                take(',');
                if (peek() === ')') break;
                items.push(cond());
              }
              v = tuple(items as YamlValue[]);
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
        } else if (t === 'not') return dead > 0 ? (cmp(), false) : !truthy(cmp());
        else if (/^\d+$/.test(t)) {
          if (/^0+[1-9]/.test(t)) return fail(`expression "${expr}": leading zeros in the integer ${t} (a SyntaxError in Python)`, ['an integer without leading zeros'], where);
          v = big(BigInt(t));
        } else if (/^[\d.]/.test(t)) v = Number(t);
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
            else if (t === 'len') v = Array.isArray(args[0]) ? BigInt(args[0].length) : typeof args[0] === 'string' ? BigInt([...args[0]].length) : args[0] && typeof args[0] === 'object' && !('fn' in args[0]) && !('ns' in args[0]) ? BigInt(Object.keys(args[0]).length) : typeError(`object of type '${pyType(args[0] ?? null)}' has no len()`);
            else if (t === 'load_yaml') v = loadYaml(show(args[0] ?? ''), file, at);
            else v = mathCall(t, args);
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
    /** A math function: float arguments, a float result (floor, ceil, trunc: an int); a domain or range error is refused as Python raises it. */
    const mathCall = (name: string, args: Value[]): Value => {
      const xs = args.map((x) => f64(x, `${name}()`));
      const r = FUNCS[name]!(...xs);
      if (INT_FUNCS.has(name)) {
        if (!Number.isFinite(r)) return fail(`expression "${expr}": ${name}() of ${pyFloat(xs[0] ?? NaN)} cannot be an integer (${Number.isNaN(r) ? 'ValueError' : 'OverflowError'} in Python)`, ['a finite number'], where);
        return typeof args[0] === 'bigint' ? args[0] : big(BigInt(r));
      }
      if (Number.isNaN(r) && !xs.some(Number.isNaN)) return fail(`expression "${expr}": ${name}(${xs.map(pyFloat).join(', ')}): math domain error (ValueError in Python)`, ['an argument within the function\'s domain'], where);
      if (!Number.isFinite(r) && !Number.isNaN(r) && xs.every(Number.isFinite)) return fail(`expression "${expr}": ${name}(${xs.map(pyFloat).join(', ')}): math range error (${name === 'log' || name === 'log10' ? 'ValueError' : 'OverflowError'} in Python)`, ['an argument within range'], where);
      return r;
    };
    /** Unary minus and plus: bind looser than ** (-2**2 is -4), keep int or float; a bool becomes an int. */
    const unary = (): Value => {
      if (peek() === '-' || peek() === '+') {
        const op = take()!;
        nest();
        try {
          const v = unary();
          if (dead > 0) return null;
          if (!isNumeric(v)) return typeError(`bad operand type for unary ${op}: '${pyType(v)}'`);
          const n = numArg(v, op);
          return op === '-' ? (typeof n === 'bigint' ? -n : -n) : n;
        } finally {
          depth -= 1;
        }
      }
      return power();
    };
    const power = (): Value => {
      const b = primary();
      if (peek() === '**') {
        take();
        return binop('**', b, unary());
      }
      return b;
    };
    const term = (): Value => {
      let v = unary();
      while (peek() === '*' || peek() === '/' || peek() === '//' || peek() === '%') {
        const op = take()!;
        v = binop(op, v, unary());
      }
      return v;
    };
    const sum = (): Value => {
      let v = term();
      while (peek() === '+' || peek() === '-') {
        const op = take()!;
        v = binop(op, v, term());
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
        if (Array.isArray(r)) has = r.some((x) => pyEq(x as Value, v));
        else if (typeof r === 'string') has = typeof v === 'string' ? r.includes(v) : typeError(`'in <string>' requires a string as left operand, not '${pyType(v)}'`);
        else if (r !== null && typeof r === 'object' && !('fn' in r) && !('ns' in r)) has = Object.prototype.hasOwnProperty.call(r, show(v));
        else return typeError(`argument of type '${pyType(r)}' is not iterable ("in" needs a string, list, tuple or dict)`);
        return op === 'in' ? has : !has;
      }
      if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
        take();
        const r = sum();
        if (dead > 0) return false;
        if (op === '==') return pyEq(v, r);
        if (op === '!=') return !pyEq(v, r);
        return op === '<' ? pyLt(v, r, op) : op === '>' ? pyLt(r, v, op) : op === '<=' ? pyLt(v, r, op) || pyEq(v, r) : pyLt(r, v, op) || pyEq(v, r);
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
      const at = (x: Value, d: number) => {
        if (x === null) return d;
        const i = Number(intArg(x, 'a slice index'));
        return Math.max(0, Math.min(n, i < 0 ? n + i : i));
      };
      return v.slice(at(from, 0), at(to, n)) as Value;
    };
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
            return view(Object.entries(v).map(([k, x]) => tuple([k, x])) as YamlValue[], 'dict_items');
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
    /** Python's round(x, n) of a float: half to even on the float's exact value (as CPython rounds its exact decimal expansion), a float. */
    const roundDigits = (x: number, n: number): number => {
      if (!Number.isFinite(x) || x === 0 || Math.abs(x) >= 1e21) return x === 0 || !Number.isFinite(x) || n >= 0 ? x : roundBig(x, n);
      if (n > 40) return fail(`expression "${expr}": round() to ${n} digits (over 40) is not supported by this expander`, ['at most 40 digits'], where);
      const full = Math.abs(x).toFixed(100); // exact to 100 decimals: enough to tell a tie at 40 digits
      const [ip, fp] = full.split('.') as [string, string];
      const digits = ip + fp;
      const c = ip.length + n;
      if (c < 0) return x < 0 ? -0 : 0;
      const kept = digits.slice(0, c);
      const rest = digits.slice(c);
      const half = '5'.padEnd(rest.length, '0');
      const last = kept === '' ? 0 : Number(kept[kept.length - 1]);
      const up = rest > half || (rest === half && last % 2 === 1);
      const k = BigInt(kept === '' ? '0' : kept) + (up ? 1n : 0n);
      const r = Number(`${k}e${-n}`);
      return x < 0 ? -r : r;
    };
    const roundBig = (x: number, n: number): number => Number(roundInt(BigInt(x), n));
    /** Python's round(i, n) of an int, n < 0: half to even at 10**-n. */
    const roundInt = (i: bigint, n: number): bigint => {
      if (n >= 0) return i;
      const m = 10n ** BigInt(-n);
      const neg = i < 0n;
      const a = neg ? -i : i;
      let q = a / m;
      const r = a % m;
      if (2n * r > m || (2n * r === m && q % 2n === 1n)) q += 1n;
      return neg ? -q * m : q * m;
    };
    const builtin = (name: string, args: Value[]): Value => {
      const one = args[0] ?? null;
      switch (name) {
        case 'int': {
          if (args.length === 0) return 0n;
          if (typeof one === 'string') {
            const i = pyIntText(one);
            return i === null ? fail(`expression "${expr}": int(${pyRepr(one)}): invalid literal for int() with base 10 (ValueError in Python)`, ['an integer text'], where) : big(i);
          }
          if (typeof one === 'number') {
            if (!Number.isFinite(one)) return fail(`expression "${expr}": int(${pyFloat(one)}) (${Number.isNaN(one) ? 'ValueError' : 'OverflowError'} in Python)`, ['a finite number'], where);
            return big(BigInt(Math.trunc(one)));
          }
          return intArg(one, 'the argument of int()');
        }
        case 'float': {
          if (args.length === 0) return 0;
          if (typeof one === 'string') {
            const f = pyFloatText(one);
            return f === null ? fail(`expression "${expr}": float(${pyRepr(one)}): could not convert string to float (ValueError in Python)`, ['a number text'], where) : f;
          }
          return f64(one, 'float()');
        }
        case 'bool':
          return truthy(one);
        case 'round': {
          const digits = args.length > 1 && args[1] !== null ? Number(intArg(args[1]!, 'the digits of round()')) : null;
          if (typeof one === 'number') {
            if (digits !== null) return roundDigits(one, digits);
            if (!Number.isFinite(one)) return fail(`expression "${expr}": round(${pyFloat(one)}) (${Number.isNaN(one) ? 'ValueError' : 'OverflowError'} in Python)`, ['a finite number'], where);
            // Half to even, to an int (Python 3).
            const f = Math.floor(one);
            const d = one - f;
            const r = d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
            return big(BigInt(r));
          }
          const i = intArg(one, 'the argument of round()');
          return digits === null ? i : roundInt(i, digits);
        }
        case 'abs': {
          const n = numArg(one, 'abs()');
          return typeof n === 'bigint' ? (n < 0n ? -n : n) : Math.abs(n);
        }
        case 'min':
        case 'max': {
          const xs = args.length === 1 && Array.isArray(one) ? (one as Value[]) : args;
          if (xs.length === 0) return fail(`expression "${expr}": ${name}() of nothing`, ['values'], where);
          // The first of the smallest (largest) values, its own type kept (max(1, 1.0) is 1), as Python returns it.
          return xs.reduce((a, b) => (name === 'min' ? (pyLt(b, a) ? b : a) : pyLt(a, b) ? b : a));
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
  /** A macro parameter's value: eval_text, then _eval_literal (a string result counted against the output limit). */
  const param = (s: string, scope: Scope, file: string | undefined, at: XmlElement): Value => {
    const v = evalText(s, scope, file, at, false);
    if (typeof v === 'string') count(v, at);
    return evalLiteral(v);
  };
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
        else {
          // xacro's Table._setitem: _eval_literal first ('x' -> x, "1" -> 1, "1.0" -> 1.0, "true" -> True); a text left is evaluated when first used.
          const lit = evalLiteral(value);
          if (typeof lit === 'string') target.vars.set(name!, { kind: 'lazy', raw: lit, scope, file, evaluating: false, def: nd });
          else target.vars.set(name!, { kind: 'value', v: lit });
        }
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
          // A single-quoted default keeps its quotes, as xacro's parser keeps them: _eval_literal then makes it a text ('1' stays the text 1).
          def = def.replace(/^"([\s\S]*)"$/, '$1');
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
        if (typeof val !== 'string') truth = truthy(val);
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
          // As xacro: the parameter's value is eval_text of the attribute, then _eval_literal.
          if (given !== undefined) inner.vars.set(p.name, { kind: 'value', v: param(given, scope, file, nd) });
          else if (p.outer && scope.get(p.name)) inner.vars.set(p.name, { kind: 'value', v: lookup(p.name, scope, nd) });
          else if (p.def !== null) inner.vars.set(p.name, { kind: 'value', v: param(p.def, scope, file, nd) });
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
