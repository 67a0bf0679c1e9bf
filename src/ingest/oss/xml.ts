/**
 * A strict, linear XML parser for URDF, xacro and package.xml: the document becomes a tree of
 * elements (name, attributes, children, text) with the line and column of every element.
 * Comments, processing instructions and the DOCTYPE are dropped; CDATA becomes text. So nothing
 * commented out is ever read as content: callers parse first, then decide what the document is.
 *
 * Well-formedness is checked (one root element, every tag closed by the matching end tag, quoted
 * attribute values without '<', no duplicate attribute, comments and CDATA closed): anything else
 * throws XmlError with the line and column. Limits: nesting depth (MAX_XML_DEPTH) and element
 * count (MAX_XML_ELEMENTS), each refusal naming the limit. Every step advances through the input,
 * and line numbers are counted incrementally, so the cost is linear in the input.
 *
 * Lenient where TinyXML2 (urdfdom's parser) is: an unknown entity reference is kept as written.
 */

/** Deepest element nesting read (a URDF nests about 6 deep; a xacro's macros a few more). */
export const MAX_XML_DEPTH = 256;
/** Most elements in one document (2 MiB of URDF holds about 60,000). */
export const MAX_XML_ELEMENTS = 250_000;

export interface XmlElement {
  name: string;
  /** Attributes in document order, entity references decoded. */
  attrs: Map<string, string>;
  /** Child elements and text (strings, entity references decoded). */
  children: XmlNode[];
  line: number;
  column: number;
  /** The file the element was written in (packages; set by the xacro expander). */
  file?: string;
  /** On the root: where a DOCTYPE with an internal subset ([ ... ], e.g. <!ENTITY>) was written (dropped unread). */
  dtdSubset?: { line: number; column: number };
}
export type XmlNode = XmlElement | string;

export type XmlLimit = 'max_xml_depth' | 'max_xml_elements';

export class XmlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
    /** The limit exceeded, when that is the reason. */
    readonly limit: XmlLimit | null = null,
    readonly limitValue: number | null = null,
  ) {
    super(`line ${line}, column ${column}: ${message}`);
  }
  /** The reason without the position (the message carries both). */
  get reason(): string {
    return this.message.replace(/^line \d+, column \d+: /, '');
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML entity references decoded exactly; an unknown or invalid reference is kept as written. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,4});/g, (m, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[ref] ?? m;
  });
}

const NAME = /[A-Za-z_:\u00C0-\uFFFF][\w:.\-\u00B7\u00C0-\uFFFF]*/y;
const SPACE = /[ \t\r\n]*/y;

export interface ParseOptions {
  maxDepth?: number;
  maxElements?: number;
  /** Keep text nodes (xacro needs them; URDF reading does not). Default true. */
  text?: boolean;
}

/** Parses a whole document; returns its root element or throws XmlError. */
export function parseXml(input: string, opts: ParseOptions = {}): XmlElement {
  const maxDepth = opts.maxDepth ?? MAX_XML_DEPTH;
  const maxElements = opts.maxElements ?? MAX_XML_ELEMENTS;
  const keepText = opts.text ?? true;
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const n = text.length;

  // Line and column of an offset, counted forward from the last one asked (offsets only grow).
  // nextBreak: the first line break not yet counted (n when none is left), so no search is repeated.
  let line = 1;
  let lineStart = 0;
  let nextBreak = text.indexOf('\n');
  if (nextBreak < 0) nextBreak = n;
  const at = (offset: number): { line: number; column: number } => {
    while (nextBreak < offset) {
      line += 1;
      lineStart = nextBreak + 1;
      nextBreak = text.indexOf('\n', lineStart);
      if (nextBreak < 0) nextBreak = n;
    }
    return { line, column: offset - lineStart + 1 };
  };
  const fail = (offset: number, message: string, limit: XmlLimit | null = null, value: number | null = null): never => {
    const p = at(offset);
    throw new XmlError(message, p.line, p.column, limit, value);
  };

  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  let i = 0;
  let dtdSubset: { line: number; column: number } | undefined;

  const textRun = (from: number, to: number) => {
    if (to <= from) return;
    const top = stack[stack.length - 1];
    if (!top) {
      for (let k = from; k < to; k++) {
        const c = text.charCodeAt(k);
        if (c !== 32 && c !== 9 && c !== 10 && c !== 13) fail(k, root ? 'text after the root element' : 'text before the root element');
      }
      return;
    }
    if (keepText) top.children.push(decodeEntities(text.slice(from, to)));
  };

  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      textRun(i, n);
      break;
    }
    textRun(i, lt);
    const c1 = text[lt + 1];
    if (c1 === '!') {
      if (text.startsWith('<!--', lt)) {
        const e = text.indexOf('-->', lt + 4);
        if (e < 0) fail(lt, 'comment never closed (no "-->")');
        i = e + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const e = text.indexOf(']]>', lt + 9);
        if (e < 0) fail(lt, 'CDATA section never closed (no "]]>")');
        if (stack.length === 0) fail(lt, 'CDATA outside the root element');
        if (keepText) stack[stack.length - 1].children.push(text.slice(lt + 9, e));
        i = e + 3;
      } else if (text.startsWith('<!DOCTYPE', lt)) {
        if (stack.length > 0 || root) fail(lt, 'DOCTYPE after the root element started');
        // Skip to the closing '>', over an internal subset in [ ] and quoted strings.
        let k = lt + 9;
        let bracket = 0;
        let sawSubset = false;
        for (; k < n; k++) {
          const c = text[k];
          if (c === '"' || c === "'") {
            const q = text.indexOf(c, k + 1);
            if (q < 0) break;
            k = q;
          } else if (c === '[') (bracket += 1), (sawSubset = true);
          else if (c === ']') bracket -= 1;
          else if (c === '>' && bracket <= 0) break;
        }
        if (k >= n) fail(lt, 'DOCTYPE never closed');
        if (bracket !== 0 || sawSubset) dtdSubset = at(lt);
        i = k + 1;
      } else fail(lt, 'markup starting "<!" that is not a comment, CDATA or DOCTYPE');
      continue;
    }
    if (c1 === '?') {
      const e = text.indexOf('?>', lt + 2);
      if (e < 0) fail(lt, 'processing instruction never closed (no "?>")');
      i = e + 2;
      continue;
    }
    if (c1 === '/') {
      NAME.lastIndex = lt + 2;
      const m = NAME.exec(text);
      if (!m) fail(lt, 'end tag without a name');
      const name = m![0];
      SPACE.lastIndex = lt + 2 + name.length;
      SPACE.exec(text);
      const gt = SPACE.lastIndex;
      if (text[gt] !== '>') fail(gt, `end tag </${name}> not closed by ">"`);
      const top = stack.pop();
      if (!top) fail(lt, `end tag </${name}> without a matching start tag`);
      if (top!.name !== name) fail(lt, `end tag </${name}> does not match <${top!.name}> opened at line ${top!.line}, column ${top!.column}`);
      i = gt + 1;
      continue;
    }
    // Start tag.
    NAME.lastIndex = lt + 1;
    const m = NAME.exec(text);
    if (!m) fail(lt, '"<" not followed by a tag name (write &lt; for a literal "<")');
    const name = m![0];
    if (stack.length === 0 && root) fail(lt, `a second top-level element <${name}> after the root element <${root.name}>`);
    if (stack.length + 1 > maxDepth) fail(lt, `elements nest deeper than ${maxDepth} (limit max_xml_depth)`, 'max_xml_depth', maxDepth);
    if (++elements > maxElements) fail(lt, `more than ${maxElements} elements (limit max_xml_elements)`, 'max_xml_elements', maxElements);
    const pos = at(lt);
    const el: XmlElement = { name, attrs: new Map(), children: [], line: pos.line, column: pos.column };
    let j = lt + 1 + name.length;
    let selfClosing = false;
    for (;;) {
      SPACE.lastIndex = j;
      SPACE.exec(text);
      const spaced = SPACE.lastIndex > j;
      j = SPACE.lastIndex;
      if (j >= n) fail(lt, `start tag <${name}> never closed by ">"`);
      const c = text[j];
      if (c === '>') {
        j += 1;
        break;
      }
      if (c === '/') {
        if (text[j + 1] !== '>') fail(j, `"/" inside <${name}> not followed by ">"`);
        selfClosing = true;
        j += 2;
        break;
      }
      if (!spaced) fail(j, `attributes of <${name}> must be separated by whitespace`);
      NAME.lastIndex = j;
      const a = NAME.exec(text);
      if (!a) fail(j, `unexpected "${c}" inside <${name}>`);
      const aName = a![0];
      SPACE.lastIndex = j + aName.length;
      SPACE.exec(text);
      j = SPACE.lastIndex;
      if (text[j] !== '=') fail(j, `attribute ${aName} of <${name}> has no "=value"`);
      SPACE.lastIndex = j + 1;
      SPACE.exec(text);
      j = SPACE.lastIndex;
      const q = text[j];
      if (q !== '"' && q !== "'") fail(j, `value of attribute ${aName} of <${name}> is not quoted`);
      const end = text.indexOf(q, j + 1);
      if (end < 0) fail(j, `value of attribute ${aName} of <${name}> never closed`);
      const raw = text.slice(j + 1, end);
      const bad = raw.indexOf('<');
      if (bad >= 0) fail(j + 1 + bad, `"<" inside the value of attribute ${aName} of <${name}> (write &lt;)`);
      if (el.attrs.has(aName)) fail(j, `attribute ${aName} repeated in <${name}>`);
      el.attrs.set(aName, decodeEntities(raw));
      j = end + 1;
    }
    if (stack.length > 0) stack[stack.length - 1].children.push(el);
    else root = el;
    if (!selfClosing) stack.push(el);
    i = j;
  }
  if (stack.length > 0) {
    const open = stack[stack.length - 1];
    throw new XmlError(`<${open.name}> opened here is never closed (the input ends first${stack.length > 1 ? `; ${stack.length} elements are open` : ''})`, open.line, open.column);
  }
  if (!root) {
    const p = at(n);
    throw new XmlError('no root element', p.line, p.column);
  }
  if (dtdSubset) root.dtdSubset = dtdSubset;
  return root;
}

/** Child elements of `el`, optionally by name. */
export function childElements(el: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== 'string' && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** The concatenated text directly inside `el`. */
export function elementText(el: XmlElement): string {
  let s = '';
  for (const c of el.children) if (typeof c === 'string') s += c;
  return s;
}

/** Every element of the tree in document order (iterative: no recursion limit on deep trees). */
export function* walk(root: XmlElement): Generator<{ el: XmlElement; parents: readonly XmlElement[] }> {
  const parents: XmlElement[] = [];
  const iters: { el: XmlElement; next: number }[] = [];
  yield { el: root, parents };
  iters.push({ el: root, next: 0 });
  parents.push(root);
  while (iters.length > 0) {
    const top = iters[iters.length - 1];
    let child: XmlElement | null = null;
    while (top.next < top.el.children.length) {
      const c = top.el.children[top.next++];
      if (typeof c !== 'string') {
        child = c;
        break;
      }
    }
    if (!child) {
      iters.pop();
      parents.pop();
      continue;
    }
    yield { el: child, parents };
    iters.push({ el: child, next: 0 });
    parents.push(child);
  }
}
