/**
 * xacro, single file: written for this project against the xacro documentation
 * (http://wiki.ros.org/xacro). Expands what one file can define by itself:
 *   <xacro:property name value/>, <xacro:arg name default/> with $(arg name),
 *   ${...} expressions (numbers, + - * / ** %, parentheses, unary minus, comparisons, and/or/not,
 *   pi, property names, string properties, radians()/degrees()/sin/cos/tan/sqrt/abs/min/max),
 *   <xacro:macro name params> (params with := defaults) and its calls (nested, to depth 50),
 *   <xacro:if value>/<xacro:unless value>.
 * Refused, naming what is missing: <xacro:include>, $(find ...), $(env ...) / $(optenv ...) /
 * $(eval ...), an $(arg) without a default, an undefined property or macro, block parameters
 * (*name) and <xacro:insert_block>, any other xacro: element. Nothing unexpanded is passed on.
 * Pure; the expansion is bounded (MAX_NODES elements).
 */

export const XACRO_NS = 'http://www.ros.org/wiki/xacro';

/** Whether a text is xacro: the xacro namespace, a xacro: element, or a ${...} expression. */
export function isXacro(text: string): boolean {
  return text.includes(XACRO_NS) || /<xacro:[A-Za-z_]/.test(text) || /\$\{[^}]*\}/.test(text) || /\$\((arg|find|env|optenv|eval)\s/.test(text);
}

export class XacroError extends Error {
  constructor(
    message: string,
    readonly missing: string[],
  ) {
    super(message);
  }
}

interface El {
  kind: 'el';
  name: string;
  attrs: [string, string][];
  children: Node[];
}
interface Text {
  kind: 'text';
  text: string;
}
type Node = El | Text;

const MAX_NODES = 200_000;
const MAX_DEPTH = 50;

function decode(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (m, r: string) => {
    const map: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (map[r]) return map[r];
    const cp = r[1] === 'x' ? parseInt(r.slice(2), 16) : parseInt(r.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const escText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A small XML parser (elements, attributes, text; comments, PIs, DOCTYPE dropped; CDATA as text). */
function parse(text: string): El {
  const root: El = { kind: 'el', name: '#root', attrs: [], children: [] };
  const stack: El[] = [root];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) stack[stack.length - 1].children.push({ kind: 'text', text: decode(text.slice(i, end)) });
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      if (e < 0) throw new XacroError('a comment is never closed', ['-->']);
      i = e + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const e = text.indexOf(']]>', lt + 9);
      if (e < 0) throw new XacroError('a CDATA section is never closed', [']]>']);
      stack[stack.length - 1].children.push({ kind: 'text', text: text.slice(lt + 9, e) });
      i = e + 3;
      continue;
    }
    if (text.startsWith('<?', lt) || text.startsWith('<!', lt)) {
      const e = text.indexOf('>', lt);
      i = e < 0 ? n : e + 1;
      continue;
    }
    const m = /^<(\/?)([A-Za-z_][\w:.-]*)/.exec(text.slice(lt, lt + 200));
    if (!m) throw new XacroError(`malformed tag at offset ${lt}`, ['well-formed XML']);
    let j = lt + m[0].length;
    if (m[1] === '/') {
      const e = text.indexOf('>', j);
      if (e < 0) throw new XacroError(`</${m[2]}> is not closed`, ['>']);
      const top = stack.pop();
      if (!top || top.name !== m[2] || stack.length === 0) throw new XacroError(`</${m[2]}> does not close <${top?.name ?? ''}>`, [`</${top?.name ?? ''}>`]);
      i = e + 1;
      continue;
    }
    const el: El = { kind: 'el', name: m[2], attrs: [], children: [] };
    for (;;) {
      while (j < n && /\s/.test(text[j])) j++;
      if (text[j] === '>') {
        j++;
        stack[stack.length - 1].children.push(el);
        stack.push(el);
        break;
      }
      if (text[j] === '/' && text[j + 1] === '>') {
        j += 2;
        stack[stack.length - 1].children.push(el);
        break;
      }
      const a = /^([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/.exec(text.slice(j, j + 100_000));
      if (!a) throw new XacroError(`malformed attribute in <${m[2]}>`, ['well-formed XML']);
      el.attrs.push([a[1], decode(a[3] ?? a[4])]);
      j += a[0].length;
    }
    i = j;
  }
  if (stack.length !== 1) throw new XacroError(`<${stack[stack.length - 1].name}> is never closed`, [`</${stack[stack.length - 1].name}>`]);
  return root;
}

function serialise(nodes: Node[], out: string[]): void {
  for (const nd of nodes) {
    if (nd.kind === 'text') {
      out.push(escText(nd.text));
      continue;
    }
    out.push(`<${nd.name}${nd.attrs.map(([k, v]) => ` ${k}="${esc(v)}"`).join('')}`);
    if (nd.children.length === 0) out.push('/>');
    else {
      out.push('>');
      serialise(nd.children, out);
      out.push(`</${nd.name}>`);
    }
  }
}

type Value = number | string | boolean;
type Scope = Map<string, Value>;

// ---- expressions: a small recursive-descent evaluator (no eval) ----
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
  floor: Math.floor,
  ceil: Math.ceil,
  min: Math.min,
  max: Math.max,
  pow: Math.pow,
};

function evaluate(expr: string, scope: (name: string) => Value | undefined): Value {
  const toks = expr.match(/\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[A-Za-z_]\w*|\*\*|==|!=|<=|>=|"[^"]*"|'[^']*'|\S/g) ?? [];
  let p = 0;
  const peek = () => toks[p];
  const take = (t?: string) => {
    const x = toks[p++];
    if (t !== undefined && x !== t) throw new XacroError(`expression "${expr}": expected "${t}"`, [t]);
    return x;
  };
  const num = (v: Value): number => {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    const f = Number(v);
    if (v.trim() === '' || !Number.isFinite(f)) throw new XacroError(`expression "${expr}": "${v}" is not a number`, [v]);
    return f;
  };
  const truthy = (v: Value) => (typeof v === 'string' ? v !== '' && v !== 'false' && v !== '0' : Boolean(v));
  const primary = (): Value => {
    const t = take();
    if (t === undefined) throw new XacroError(`expression "${expr}" ends early`, ['operand']);
    if (t === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (t === '-') return -num(primary());
    if (t === '+') return num(primary());
    if (t === 'not') return !truthy(primary());
    if (/^[\d.]/.test(t)) return Number(t);
    if (/^["']/.test(t)) return t.slice(1, -1);
    if (t === 'True' || t === 'true') return true;
    if (t === 'False' || t === 'false') return false;
    if (/^[A-Za-z_]/.test(t)) {
      if (peek() === '(' && FUNCS[t]) {
        take('(');
        const args: number[] = [];
        if (peek() !== ')') {
          args.push(num(or()));
          while (peek() === ',') {
            take(',');
            args.push(num(or()));
          }
        }
        take(')');
        return FUNCS[t](...args);
      }
      if (t === 'pi') return Math.PI;
      const v = scope(t);
      if (v === undefined) throw new XacroError(`property "${t}" is not defined in the file`, [`property ${t}`]);
      return v;
    }
    throw new XacroError(`expression "${expr}": unexpected "${t}"`, ['a supported expression']);
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
      v = op === '+' ? (typeof v === 'string' && typeof r === 'string' ? v + r : num(v) + num(r)) : num(v) - num(r);
    }
    return v;
  };
  const cmp = (): Value => {
    const v = sum();
    const op = peek();
    if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
      take();
      const r = sum();
      if (op === '==') return String(v) === String(r) || (typeof v !== 'string' && typeof r !== 'string' && num(v) === num(r));
      if (op === '!=') return !(String(v) === String(r));
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
      v = truthy(v) && truthy(r);
    }
    return v;
  };
  const or = (): Value => {
    let v = and();
    while (peek() === 'or') {
      take();
      const r = and();
      v = truthy(v) || truthy(r);
    }
    return v;
  };
  const v = or();
  if (p < toks.length) throw new XacroError(`expression "${expr}": unexpected "${toks[p]}"`, ['a supported expression']);
  return v;
}

function show(v: Value): string {
  if (typeof v === 'number') return String(v); // shortest round-trip form, as Python's repr
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return v;
}

export interface XacroExpansion {
  text: string;
  properties: number;
  macros: number;
  macro_calls: number;
  args: { name: string; value: string }[];
}

/** Expands a single-file xacro; throws XacroError naming what is missing when it needs anything outside the file. */
export function expandXacro(text: string): XacroExpansion {
  // Things outside the file, refused before anything else.
  const missing: string[] = [];
  for (const m of text.matchAll(/<xacro:include\b[^>]*?filename\s*=\s*["']([^"']*)["']/g)) missing.push(`included file ${m[1]}`);
  if (/<xacro:include\b/.test(text) && missing.length === 0) missing.push('an included file');
  for (const m of text.matchAll(/\$\(find\s+([^)\s]+)\s*\)/g)) missing.push(`ROS package ${m[1]} ($(find ${m[1]}))`);
  for (const m of text.matchAll(/\$\((env|optenv|eval)\s+([^)]*)\)/g)) missing.push(`$(${m[1]} ${m[2].trim()})`);
  if (missing.length > 0) {
    const uniq = [...new Set(missing)];
    throw new XacroError(`this xacro needs what is not in the input: ${uniq.join('; ')}. Only a single-file xacro (every macro, property and argument defined in it) is expanded; expand it with xacro and pass the URDF.`, uniq);
  }
  const root = parse(text);
  const props: Scope = new Map();
  const args = new Map<string, string>();
  const macros = new Map<string, { params: { name: string; def: string | null }[]; body: Node[] }>();
  let nodes = 0;
  let calls = 0;

  const subst = (s: string, scope: Scope): string => {
    let out = s.replace(/\$\(arg\s+([^)\s]+)\s*\)/g, (_m, a: string) => {
      const v = args.get(a);
      if (v === undefined) throw new XacroError(`argument "${a}" has no default in the file and cannot be passed here`, [`argument ${a}`]);
      return v;
    });
    if (!out.includes('${')) return out;
    out = out.replace(/\$\{([^}]*)\}/g, (_m, e: string) => {
      const lookup = (name: string): Value | undefined => scope.get(name) ?? props.get(name);
      return show(evaluate(e, lookup));
    });
    return out;
  };
  const attr = (el: El, k: string) => el.attrs.find(([a]) => a === k)?.[1];

  // Definitions first, anywhere in the document (xacro reads properties and macros in order; a
  // single pass over the top level is enough for files that define before use).
  const collect = (el: El, scope: Scope) => {
    for (const c of el.children) {
      if (c.kind !== 'el') continue;
      if (c.name === 'xacro:arg') {
        const name = attr(c, 'name');
        if (!name) throw new XacroError('<xacro:arg> without a name', ['name']);
        const def = attr(c, 'default');
        if (def !== undefined && !args.has(name)) args.set(name, subst(def, scope));
      } else if (c.name !== 'xacro:macro') collect(c, scope);
    }
  };
  collect(root, new Map());

  const expand = (list: Node[], scope: Scope, depth: number): Node[] => {
    if (depth > MAX_DEPTH) throw new XacroError(`macros nest deeper than ${MAX_DEPTH} (recursion?)`, ['a finite macro expansion']);
    const out: Node[] = [];
    for (const nd of list) {
      if (++nodes > MAX_NODES) throw new XacroError(`the expansion exceeds ${MAX_NODES} elements`, ['a smaller expansion']);
      if (nd.kind === 'text') {
        out.push({ kind: 'text', text: subst(nd.text, scope) });
        continue;
      }
      if (nd.name === 'xacro:arg') continue;
      if (nd.name === 'xacro:property') {
        const name = attr(nd, 'name');
        if (!name) throw new XacroError('<xacro:property> without a name', ['name']);
        const v = attr(nd, 'value');
        if (v === undefined) throw new XacroError(`property "${name}" is a block property (no value attribute): not supported`, [`value of property ${name}`]);
        const raw = subst(v, scope);
        const asNum = Number(raw);
        (scope.size > 0 && attr(nd, 'scope') !== 'global' ? scope : props).set(name, raw.trim() !== '' && Number.isFinite(asNum) ? asNum : raw);
        continue;
      }
      if (nd.name === 'xacro:macro') {
        const name = attr(nd, 'name');
        if (!name) throw new XacroError('<xacro:macro> without a name', ['name']);
        const params = (attr(nd, 'params') ?? '').split(/\s+/).filter(Boolean).map((p) => {
          if (p.startsWith('*')) throw new XacroError(`macro "${name}" takes a block parameter ${p}: not supported`, [`block parameter ${p}`]);
          const m = /^([^:=]+)(?::=|=)(.*)$/.exec(p);
          return m ? { name: m[1], def: m[2].replace(/^\^\|?/, '').replace(/^["']|["']$/g, '') } : { name: p, def: null };
        });
        macros.set(name, { params, body: nd.children });
        continue;
      }
      if (nd.name === 'xacro:if' || nd.name === 'xacro:unless') {
        const v = attr(nd, 'value');
        if (v === undefined) throw new XacroError(`<${nd.name}> without a value`, ['value']);
        const s = subst(v, scope).trim();
        const truth = s === 'true' || s === 'True' || s === '1' ? true : s === 'false' || s === 'False' || s === '0' ? false : null;
        if (truth === null) throw new XacroError(`<${nd.name} value="${v}"> is not a boolean (${s})`, ['a boolean value']);
        if (truth === (nd.name === 'xacro:if')) out.push(...expand(nd.children, scope, depth));
        continue;
      }
      if (nd.name.startsWith('xacro:')) {
        const name = nd.name.slice(6);
        const macro = macros.get(name);
        if (!macro) {
          if (['include', 'insert_block', 'element', 'attribute', 'call', 'eval'].includes(name)) throw new XacroError(`<${nd.name}> is not supported by this single-file expander`, [`<${nd.name}>`]);
          throw new XacroError(`macro "${name}" is not defined in the file`, [`macro ${name}`]);
        }
        calls += 1;
        const inner: Scope = new Map(scope);
        for (const p of macro.params) {
          const given = attr(nd, p.name);
          if (given !== undefined) {
            const raw = subst(given, scope);
            const asNum = Number(raw);
            inner.set(p.name, raw.trim() !== '' && Number.isFinite(asNum) ? asNum : raw);
          } else if (p.def !== null) inner.set(p.name, Number.isFinite(Number(p.def)) && p.def.trim() !== '' ? Number(p.def) : p.def);
          else throw new XacroError(`call of macro "${name}" does not give parameter "${p.name}"`, [`parameter ${p.name} of macro ${name}`]);
        }
        out.push(...expand(macro.body, inner, depth + 1));
        continue;
      }
      const el: El = { kind: 'el', name: nd.name, attrs: nd.attrs.filter(([k]) => k !== 'xmlns:xacro').map(([k, v]) => [k, subst(v, scope)]), children: expand(nd.children, scope, depth) };
      out.push(el);
    }
    return out;
  };
  const expanded = expand(root.children, new Map(), 0);
  const parts: string[] = ['<?xml version="1.0"?>\n'];
  serialise(expanded.filter((n) => n.kind === 'el' || n.text.trim() !== ''), parts);
  const out = parts.join('');
  const left = /\$\{[^}]*\}|\$\([a-z]+\s[^)]*\)|<xacro:[\w]+/.exec(out);
  if (left) throw new XacroError(`"${left[0]}" is left unexpanded`, [left[0]]);
  return { text: out, properties: props.size, macros: macros.size, macro_calls: calls, args: [...args.entries()].map(([name, value]) => ({ name, value })) };
}
