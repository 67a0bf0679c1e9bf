/**
 * A tolerant XML tag scanner for URDF: start/end tags with attributes, comments, CDATA,
 * processing instructions and DOCTYPE skipped. Attribute order, quotes and line breaks inside
 * a tag do not matter. It never throws: malformed constructs are reported and passed over.
 * Linear in the input (every step advances).
 */
export interface Tag {
  kind: 'start' | 'end';
  name: string;
  attrs: Map<string, string>;
  selfClosing: boolean;
  offset: number;
}

export interface ScanProblem {
  code: 'comment_unterminated' | 'tag_malformed';
  offset: number;
  message: string;
}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.\-]/;

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

export function* scanTags(text: string, problems: ScanProblem[]): Generator<Tag> {
  const n = text.length;
  let i = text.indexOf('<');
  while (i >= 0 && i < n) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) {
        problems.push({ code: 'comment_unterminated', offset: i, message: 'comment never closed; the rest of the input is inside it' });
        return;
      }
      i = text.indexOf('<', end + 3);
      continue;
    }
    if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) return;
      i = text.indexOf('<', end + 3);
      continue;
    }
    if (text.startsWith('<?', i) || text.startsWith('<!', i)) {
      const end = text.indexOf('>', i + 2);
      if (end < 0) return;
      i = text.indexOf('<', end + 1);
      continue;
    }
    const start = i;
    let j = i + 1;
    const closing = text[j] === '/';
    if (closing) j += 1;
    if (j >= n || !NAME_START.test(text[j])) {
      // A bare '<' in text: not a tag.
      i = text.indexOf('<', i + 1);
      continue;
    }
    const nameStart = j;
    while (j < n && NAME_CHAR.test(text[j])) j += 1;
    const name = text.slice(nameStart, j);
    const attrs = new Map<string, string>();
    let selfClosing = false;
    let ok = false;
    // Attributes until '>' or '/>'.
    for (;;) {
      while (j < n && /\s/.test(text[j])) j += 1;
      if (j >= n) break;
      const c = text[j];
      if (c === '>') {
        ok = true;
        j += 1;
        break;
      }
      if (c === '/' && text[j + 1] === '>') {
        ok = true;
        selfClosing = true;
        j += 2;
        break;
      }
      if (c === '<') break; // a new tag starts before this one closed
      const aStart = j;
      while (j < n && !/[\s=>/<]/.test(text[j])) j += 1;
      if (j === aStart) {
        j += 1; // a stray '/' or similar: step over it
        continue;
      }
      const aName = text.slice(aStart, j);
      while (j < n && /\s/.test(text[j])) j += 1;
      if (text[j] !== '=') {
        if (!attrs.has(aName)) attrs.set(aName, '');
        continue;
      }
      j += 1;
      while (j < n && /\s/.test(text[j])) j += 1;
      const q = text[j];
      if (q === '"' || q === "'") {
        // '<' cannot occur in an attribute value: stop there, so a broken tag costs only its own span.
        let end = j + 1;
        while (end < n && text[end] !== q && text[end] !== '<') end += 1;
        if (end >= n || text[end] !== q) {
          j = end;
          break;
        }
        if (!attrs.has(aName)) attrs.set(aName, decodeEntities(text.slice(j + 1, end)));
        j = end + 1;
      } else {
        const vStart = j;
        while (j < n && !/[\s><]/.test(text[j]) && !(text[j] === '/' && text[j + 1] === '>')) j += 1;
        if (!attrs.has(aName)) attrs.set(aName, decodeEntities(text.slice(vStart, j)));
      }
    }
    if (!ok) {
      problems.push({ code: 'tag_malformed', offset: start, message: `<${closing ? '/' : ''}${name}> is not closed by '>'` });
      i = text.indexOf('<', start + 1);
      continue;
    }
    yield { kind: closing ? 'end' : 'start', name, attrs, selfClosing: !closing && selfClosing, offset: start };
    i = text.indexOf('<', j);
  }
}
