/**
 * Keyword search over the free fields of the catalogue (spec "GET /api/search" rules).
 *
 * - Terms are split on anything that is not a letter or digit, lower-cased; a term matches a
 *   field token equal to it or starting with it (no fuzzy matching, stemming or synonyms).
 *   Words holding Chinese, Japanese or Korean characters are also indexed from each CJK
 *   position inside them, so a CJK term matches inside such a word (cjkTailStarts).
 * - All terms must match (AND), each in at least one field.
 * - Score: for every term, the weight of the highest-ranked field it matched (exact token:
 *   full weight, prefix only: half). Field weights double down the spec's order, so a term in
 *   the id outranks the same term anywhere below it. Ties are broken by id.
 * - Only free fields are indexed; paid (deep) fields are never matched.
 *
 * The index is built once over the immutable catalogue (no MiniSearch: see bench/README.md for
 * the measurement). Documents are numbered in id order, so "ties by id" is "ties by number".
 * The vocabulary is sorted, so the tokens a term matches (equal or starting with it) are one
 * contiguous range of token numbers, found by binary search. Two flat structures hold the
 * postings: per token, the (document, field) pairs that contain it (inverted), and per
 * document, its (token, field) pairs (forward). A query walks the postings of its most
 * selective term, then narrows the candidates term by term, either through that term's
 * postings or, when the candidates are few, by checking each candidate's own tokens against
 * the term's token range (integer comparisons). Scores add up in typed scratch arrays; only
 * the top `offset + limit` matches are kept (bounded heap) and materialised. Totals are exact.
 */
import type { StoredEntity } from './entity.js';

export const SEARCH_FIELDS = ['id', 'name', 'manufacturer', 'type', 'application_interface', 'description'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const FIELD_WEIGHTS: Record<SearchField, number> = {
  id: 32,
  name: 16,
  manufacturer: 8,
  type: 4,
  application_interface: 2,
  description: 1,
};

/** A letter or digit (Unicode L or N), the characters tokens are made of. */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** ASCII: 1 for [0-9a-zA-Z]. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => (WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0));
/** Non-ASCII code points seen so far: letter or digit (bounded: the catalogue's alphabet is small). */
const wideWord = new Map<number, boolean>();
function isWordCodePoint(cp: number): boolean {
  if (cp < 128) return ASCII_WORD[cp] === 1;
  let w = wideWord.get(cp);
  if (w === undefined) {
    w = WORD_CHAR.test(String.fromCodePoint(cp));
    if (wideWord.size < 65_536) wideWord.set(cp, w);
  }
  return w;
}

/**
 * Calls `word(start, end, hash)` for each run of letters and digits of `s` (text already
 * lower-cased), in order, with the FNV-1a hash of the run's UTF-16 units. One pass over the code
 * points: what splitting on /[^\p{L}\p{N}]+/u and dropping empty pieces gives.
 */
function forEachWord(s: string, word: (start: number, end: number, hash: number, wide: boolean) => void): void {
  let start = -1;
  let h = 0;
  let wide = false;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    const cp = c >= 0xd800 && c <= 0xdbff ? (s.codePointAt(i) as number) : c;
    const width = cp > 0xffff ? 2 : 1;
    if (isWordCodePoint(cp)) {
      if (start < 0) {
        start = i;
        h = 0x811c9dc5;
        wide = false;
      }
      if (c >= CJK_FROM) wide = true;
      h = Math.imul(h ^ c, 0x01000193);
      if (width === 2) h = Math.imul(h ^ s.charCodeAt(i + 1), 0x01000193);
    } else if (start >= 0) {
      word(start, i, h, wide);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) word(start, s.length, h, wide);
}

/** No CJK character has a UTF-16 unit below this (U+2E80, CJK Radicals); a word without one is never looked at again. */
const CJK_FROM = 0x2e80;
/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/**
 * Where a word written without spaces can hold another word: each position (after the first) that
 * starts or follows a CJK character. Chinese and Japanese run words together ("绿的谐波减速器"), so
 * the index also holds the word's tails from these positions ("谐波减速器", "波减速器", ...), and a
 * term then matches inside the word as it matches the start of any word (谐波 finds 绿的谐波). Only
 * words holding a CJK character are looked at; Latin words are indexed exactly as before.
 */
function cjkTailStarts(s: string, start: number, end: number): number[] {
  const out: number[] = [];
  let prevCjk = false;
  for (let i = start; i < end; ) {
    const cp = s.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const cjk = cp >= CJK_FROM && CJK_CHAR.test(String.fromCodePoint(cp));
    if (i > start && (cjk || prevCjk)) out.push(i);
    prevCjk = cjk;
    i += width;
  }
  return out;
}

/** FNV-1a of s[start, end) (the hash forEachWord gives a word). */
function hashOf(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** The lower-cased runs of letters and digits of `text` (the spec's terms and field tokens). */
export function tokenize(text: string): string[] {
  const s = text.toLowerCase();
  const out: string[] = [];
  forEachWord(s, (start, end) => out.push(s.slice(start, end)));
  return out;
}

/**
 * Token numbers for the index build: tokenises a text (with tokenize()'s scan) and numbers each
 * token in order of first sight, without making a string for a token already seen. The tokens are
 * hashed while they are scanned and looked up in an open-addressing table by their characters;
 * only a new token is sliced out. At 100,000 records this is most of the index's
 * build time saved (no substring and no Map hashing per token).
 */
class TokenInterner {
  /** Token strings by number. */
  readonly tokens: string[] = [];
  private slots = new Int32Array(1 << 12).fill(-1);
  private hashes: number[] = [];

  /** Appends to `out` the numbers of the tokens of `text` (lower-cased here), in order, repeats included. */
  scan(text: string, out: number[]): void {
    const s = text.toLowerCase();
    forEachWord(s, (start, end, h, wide) => {
      out.push(this.intern(s, start, end, h));
      if (wide) for (const at of cjkTailStarts(s, start, end)) out.push(this.intern(s, at, end, hashOf(s, at, end)));
    });
  }

  private intern(s: string, start: number, end: number, h: number): number {
    const len = end - start;
    let mask = this.slots.length - 1;
    let at = h & mask;
    for (;;) {
      const k = this.slots[at]!;
      if (k < 0) break;
      if (this.hashes[k] === h) {
        const t = this.tokens[k]!;
        if (t.length === len) {
          let same = true;
          for (let j = 0; j < len; j++) {
            if (t.charCodeAt(j) !== s.charCodeAt(start + j)) {
              same = false;
              break;
            }
          }
          if (same) return k;
        }
      }
      at = (at + 1) & mask;
    }
    const k = this.tokens.length;
    this.tokens.push(s.slice(start, end));
    this.hashes.push(h);
    this.slots[at] = k;
    if (this.tokens.length * 2 > this.slots.length) {
      // Grow: every token placed again by its hash.
      const grown = new Int32Array(this.slots.length * 2).fill(-1);
      mask = grown.length - 1;
      for (let t = 0; t < this.tokens.length; t++) {
        let p = this.hashes[t]! & mask;
        while (grown[p]! >= 0) p = (p + 1) & mask;
        grown[p] = t;
      }
      this.slots = grown;
    }
    return k;
  }
}

function fieldTexts(e: StoredEntity): Record<SearchField, string> {
  const na = (s: string | null) => (s && s !== 'N/A' ? s : '');
  return {
    id: e.id,
    name: [e.name, e.name_en !== e.name ? e.name_en : ''].join(' '),
    manufacturer: e.manufacturer ?? '',
    type: e.type ?? '',
    application_interface: [...e.applications, na(e.interface), ...e.interfaces, na(e.protocol)].join(' '),
    description: e.description,
  };
}

export interface SearchMatch {
  id: string;
  quarantine: boolean;
  category: string;
  relevance_score: number;
  matched_fields: SearchField[];
}

/**
 * Options of `SearchIndex.query`. Every option narrows or orders the AND-matches of the terms
 * BEFORE the top-k selection, so `total` and `quarantinedExcluded` stay exact.
 *
 * Extension points (issue 9 plugs spec filters and sorting in here, in one place):
 * - `filter(entityId)`: a candidate predicate; a match it rejects is neither counted nor returned.
 *   It is called once per match of the terms (after category, before the quarantine split).
 * - `orderBy`: a custom ordering instead of relevance. `key(entityId)` gives the sort value;
 *   documents whose key is undefined come after every document with a key, in either direction.
 *   Equal keys fall back to relevance (higher first), then id.
 */
export interface SearchQueryOptions {
  /** Category slug the matches must have (exact). */
  category?: string | null;
  /** Include quarantined entries (default false: they are counted in quarantinedExcluded). */
  includeQuarantine?: boolean;
  /** Candidate predicate (see above). */
  filter?: (entityId: string) => boolean;
  /** Custom ordering (see above). */
  orderBy?: { key: (entityId: string) => number | undefined; dir: 'asc' | 'desc' };
  offset?: number;
  /** Page size; the index keeps only offset + limit matches while ranking. */
  limit?: number;
  /** With no terms, every document is a candidate (relevance 0): a query by filter alone (issue 9's where without q). */
  allWhenNoTerms?: boolean;
}

export interface SearchQueryResult {
  /** The page: matches offset .. offset + limit - 1 in rank order. */
  page: SearchMatch[];
  /** Matches after category, filter and quarantine. */
  total: number;
  /** Matches left out because they are quarantined (0 when included). */
  quarantinedExcluded: number;
}

/** Field bits for the matched-field masks, in SEARCH_FIELDS order. */
const FIELD_COUNT = SEARCH_FIELDS.length;
/** Twice the field weights (prefix matches count half: integers throughout). */
const W2 = SEARCH_FIELDS.map((f) => FIELD_WEIGHTS[f] * 2);

/** The matched-field list of each field mask, built once and frozen (shared by every hit). */
const fieldLists = new Map<number, readonly SearchField[]>();
function matchedFields(mask: number): readonly SearchField[] {
  let l = fieldLists.get(mask);
  if (!l) {
    l = Object.freeze(SEARCH_FIELDS.filter((_, f) => (mask & (1 << f)) !== 0));
    fieldLists.set(mask, l);
  }
  return l;
}

export class SearchIndex {
  /** Documents in id order (lower-cased id, then id). */
  private readonly ids: string[];
  private readonly quarantine: Uint8Array;
  private readonly categories: string[];
  /** Sorted vocabulary; token number = position. */
  private readonly vocab: readonly string[];
  /** Inverted: postings of token t are postDoc/postField[tokStart[t] .. tokStart[t+1]). */
  private readonly tokStart: Int32Array;
  private readonly postDoc: Int32Array;
  private readonly postField: Uint8Array;
  /** Forward: pairs of document d are docTok/docField[docStart[d] .. docStart[d+1]). */
  private readonly docStart: Int32Array;
  private readonly docTok: Int32Array;
  private readonly docField: Uint8Array;
  /** Scratch, reused by every query (queries are synchronous). */
  private readonly epoch: Int32Array;
  private readonly hits: Int32Array;
  private readonly score: Int32Array;
  private readonly termBest: Int32Array;
  private readonly mask: Uint8Array;
  /** The candidates of the current query (a typed array of its own per query cost more than the match). */
  private readonly cand: Int32Array;
  /** Sort keys of a sorted query, made on the first one (each document's key is set before it is compared). */
  private sortKeys: Float64Array | null = null;
  private query_ = 0;

  constructor(entities: readonly StoredEntity[]) {
    const docs = sortedById(entities);
    const n = docs.length;
    this.ids = docs.map((e) => e.id);
    this.quarantine = Uint8Array.from(docs, (e) => (e.quarantine ? 1 : 0));
    this.categories = docs.map((e) => e.category);

    // Per document: unique (token, field) pairs, tokens numbered in order of first sight
    // (renumbered below once the vocabulary is sorted).
    const interner = new TokenInterner();
    const docStart = new Int32Array(n + 1);
    let pairTok: Int32Array = new Int32Array(Math.max(16, n * 8));
    let pairField: Uint8Array = new Uint8Array(pairTok.length);
    let p = 0;
    const found: number[] = [];
    /** Per token number: the last (document, field) stamp it was counted in (once per field). */
    let countedIn = new Int32Array(1 << 12);
    let stamp = 0;
    for (let d = 0; d < n; d++) {
      docStart[d] = p;
      const texts = fieldTexts(docs[d]!);
      for (let f = 0; f < FIELD_COUNT; f++) {
        found.length = 0;
        interner.scan(texts[SEARCH_FIELDS[f]], found);
        stamp++;
        if (interner.tokens.length > countedIn.length) {
          const grown = new Int32Array(Math.max(interner.tokens.length, countedIn.length * 2));
          grown.set(countedIn);
          countedIn = grown;
        }
        for (let i = 0; i < found.length; i++) {
          const k = found[i]!;
          if (countedIn[k] === stamp) continue;
          countedIn[k] = stamp;
          if (p === pairTok.length) {
            const grownTok = new Int32Array(p * 2);
            grownTok.set(pairTok);
            pairTok = grownTok;
            const grownField = new Uint8Array(p * 2);
            grownField.set(pairField);
            pairField = grownField;
          }
          pairTok[p] = k;
          pairField[p] = f;
          p++;
        }
      }
    }
    docStart[n] = p;
    const seenTokens = interner.tokens;
    const order = seenTokens.map((_, i) => i).sort((a, b) => cmpStr(seenTokens[a]!, seenTokens[b]!));
    this.vocab = Object.freeze(order.map((i) => seenTokens[i]!));
    const renumber = new Int32Array(order.length);
    order.forEach((k, t) => (renumber[k] = t));

    const pairs = p;
    this.docStart = docStart;
    this.docTok = new Int32Array(pairs);
    this.docField = pairField.slice(0, pairs);
    const counts = new Int32Array(this.vocab.length + 1);
    for (let q = 0; q < pairs; q++) {
      const t = renumber[pairTok[q]!]!;
      this.docTok[q] = t;
      counts[t + 1]++;
    }
    this.tokStart = new Int32Array(this.vocab.length + 1);
    for (let t = 0; t < this.vocab.length; t++) this.tokStart[t + 1] = this.tokStart[t] + counts[t + 1];
    this.postDoc = new Int32Array(pairs);
    this.postField = new Uint8Array(pairs);
    const fill = this.tokStart.slice(0, this.vocab.length);
    for (let d = 0; d < n; d++) {
      for (let q = this.docStart[d]; q < this.docStart[d + 1]; q++) {
        const at = fill[this.docTok[q]]++;
        this.postDoc[at] = d;
        this.postField[at] = this.docField[q];
      }
    }
    this.epoch = new Int32Array(n);
    this.hits = new Int32Array(n);
    this.score = new Int32Array(n);
    this.termBest = new Int32Array(n);
    this.mask = new Uint8Array(n);
    this.cand = new Int32Array(n);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The indexed words, sorted (for close-spelling suggestions on a query that finds nothing). */
  get words(): readonly string[] {
    return this.vocab;
  }

  /** Token numbers [lo, hi) equal to or starting with `term`, and the number of `term` itself (-1 if absent). */
  private range(term: string): { lo: number; hi: number; exact: number } {
    const v = this.vocab;
    let lo = 0;
    let hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    const start = lo;
    // The tokens starting with `term` are the run from `start` on (each sorts at or after it, and
    // before any token at or after it that does not start with it): the end of the run.
    hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid]!.startsWith(term)) lo = mid + 1;
      else hi = mid;
    }
    return { lo: start, hi: lo, exact: start < v.length && v[start] === term ? start : -1 };
  }

  /**
   * Document numbers matching every term (AND), with their scores (twice the relevance) in
   * this.score and their matched fields in this.mask. Valid until the next call.
   */
  private matchAll(terms: readonly string[]): Int32Array {
    if (terms.length === 0 || this.ids.length === 0) return new Int32Array(0);
    const ranges = terms.map((t) => {
      const r = this.range(t);
      return { lo: r.lo, hi: r.hi, exact: r.exact, postings: this.tokStart[r.hi] - this.tokStart[r.lo] };
    });
    if (ranges.some((r) => r.postings === 0)) return new Int32Array(0);
    ranges.sort((a, b) => a.postings - b.postings);

    const q = ++this.query_;
    const { epoch, hits, score, termBest, mask } = this;
    // First (most selective) term: its postings are the candidates.
    const first = ranges[0];
    let cand: Int32Array = this.cand; // a document is a candidate at most once: n slots suffice
    let nc = 0;
    for (let at = this.tokStart[first.lo], end = this.tokStart[first.hi]; at < end; at++) {
      const d = this.postDoc[at];
      const f = this.postField[at];
      const w = this.postTokenIsExact(at, first.exact) ? W2[f] : W2[f] >> 1;
      if (epoch[d] !== q) {
        epoch[d] = q;
        hits[d] = 1;
        score[d] = w;
        termBest[d] = w;
        mask[d] = 1 << f;
        cand[nc++] = d;
      } else {
        mask[d] |= 1 << f;
        if (w > termBest[d]) {
          score[d] += w - termBest[d];
          termBest[d] = w;
        }
      }
    }
    cand = cand.subarray(0, nc);

    for (let j = 1; j < ranges.length && nc > 0; j++) {
      const r = ranges[j];
      // Checking each candidate's own pairs costs about nc * (pairs per document); walking the
      // term's postings costs its postings count. Take the cheaper.
      const avgPairs = this.docTok.length / this.ids.length;
      if (nc * avgPairs < r.postings) {
        let kept = 0;
        for (let i = 0; i < nc; i++) {
          const d = cand[i];
          let best = 0;
          let m = 0;
          for (let at = this.docStart[d], end = this.docStart[d + 1]; at < end; at++) {
            const t = this.docTok[at];
            if (t < r.lo || t >= r.hi) continue;
            const f = this.docField[at];
            const w = t === r.exact ? W2[f] : W2[f] >> 1;
            m |= 1 << f;
            if (w > best) best = w;
          }
          if (best > 0) {
            score[d] += best;
            mask[d] |= m;
            hits[d] = j + 1;
            cand[kept++] = d;
          }
        }
        nc = kept;
      } else {
        for (let at = this.tokStart[r.lo], end = this.tokStart[r.hi]; at < end; at++) {
          const d = this.postDoc[at];
          if (epoch[d] !== q) continue;
          const h = hits[d];
          if (h < j) continue; // missed an earlier term
          const f = this.postField[at];
          const w = this.postTokenIsExact(at, r.exact) ? W2[f] : W2[f] >> 1;
          if (h === j) {
            hits[d] = j + 1;
            score[d] += w;
            termBest[d] = w;
            mask[d] |= 1 << f;
          } else {
            mask[d] |= 1 << f;
            if (w > termBest[d]) {
              score[d] += w - termBest[d];
              termBest[d] = w;
            }
          }
        }
        let kept = 0;
        for (let i = 0; i < nc; i++) if (hits[cand[i]] === j + 1) cand[kept++] = cand[i];
        nc = kept;
      }
      cand = cand.subarray(0, nc);
    }
    return cand;
  }

  /** Whether posting `at` belongs to token `exact` (postings are grouped by token, in token order). */
  private postTokenIsExact(at: number, exact: number): boolean {
    return exact >= 0 && at >= this.tokStart[exact] && at < this.tokStart[exact + 1];
  }

  /** Every document, with score 0 and no matched field (valid until the next call, like matchAll). */
  private everyDoc(): Int32Array {
    const n = this.ids.length;
    const all = this.cand;
    for (let d = 0; d < n; d++) {
      all[d] = d;
      this.score[d] = 0;
      this.mask[d] = 0;
    }
    return all;
  }

  private match(d: number): SearchMatch {
    const m = this.mask[d];
    return {
      id: this.ids[d],
      quarantine: this.quarantine[d] === 1,
      category: this.categories[d],
      relevance_score: this.score[d] / 2,
      matched_fields: matchedFields(m) as SearchField[],
    };
  }

  /** One page of the matches of the terms (AND), best first, with exact totals. */
  query(terms: readonly string[], opts: SearchQueryOptions = {}): SearchQueryResult {
    const cand = terms.length === 0 && opts.allWhenNoTerms ? this.everyDoc() : this.matchAll(terms);
    const offset = Math.max(0, opts.offset ?? 0);
    const k = offset + Math.max(0, opts.limit ?? cand.length);
    const includeQ = opts.includeQuarantine ?? false;
    const { score } = this;
    const category = opts.category ?? null;
    const filter = opts.filter;
    const orderBy = opts.orderBy;
    let keys: Float64Array | null = null;
    if (orderBy) keys = this.sortKeys ??= new Float64Array(this.ids.length);
    // better(a, b): a ranks before b.
    const better = keys
      ? (a: number, b: number) => {
          const ka = keys![a];
          const kb = keys![b];
          const na = Number.isNaN(ka);
          const nb = Number.isNaN(kb);
          if (na !== nb) return nb; // a key beats no key
          if (!na && ka !== kb) return orderBy!.dir === 'asc' ? ka < kb : ka > kb;
          return score[a] > score[b] || (score[a] === score[b] && a < b);
        }
      : (a: number, b: number) => score[a] > score[b] || (score[a] === score[b] && a < b);

    // Bounded heap of the k best so far; its root is the worst of them.
    const heap: number[] = [];
    const worse = (a: number, b: number) => better(b, a);
    let total = 0;
    let excluded = 0;
    for (let i = 0; i < cand.length; i++) {
      const d = cand[i];
      if (category !== null && this.categories[d] !== category) continue;
      if (filter && !filter(this.ids[d])) continue;
      if (!includeQ && this.quarantine[d] === 1) {
        excluded++;
        continue;
      }
      total++;
      if (k === 0) continue;
      if (keys) {
        const v = orderBy!.key(this.ids[d]);
        keys[d] = v === undefined || Number.isNaN(v) ? NaN : v;
      }
      if (heap.length < k) {
        heap.push(d);
        siftUp(heap, heap.length - 1, worse);
      } else if (better(d, heap[0])) {
        heap[0] = d;
        siftDown(heap, 0, worse);
      }
    }
    // Best first: the heap's root (the worst kept) taken off again and again, written from the back.
    const ranked = new Array<number>(heap.length);
    for (let n = heap.length - 1; n >= 0; n--) {
      ranked[n] = heap[0]!;
      const last = heap.pop()!;
      if (n > 0) {
        heap[0] = last;
        siftDown(heap, 0, worse);
      }
    }
    const page: SearchMatch[] = [];
    for (let i = offset; i < ranked.length; i++) page.push(this.match(ranked[i]!));
    return { page, total, quarantinedExcluded: excluded };
  }

  /** All matches of the query terms (AND), best first, quarantined included. */
  search(terms: readonly string[]): SearchMatch[] {
    return this.query(terms, { includeQuarantine: true }).page;
  }
}

/** Heap whose root is the element for which `top(root, x)` holds against every other x. */
function siftUp(h: number[], i: number, top: (a: number, b: number) => boolean): void {
  const x = h[i];
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!top(x, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = x;
}

function siftDown(h: number[], i: number, top: (a: number, b: number) => boolean): void {
  const n = h.length;
  const x = h[i];
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && top(h[c + 1], h[c])) c++;
    if (!top(h[c], x)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = x;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The records in id order (cmpId), each id lower-cased once rather than on every comparison;
 * a new array (the input is left as it is).
 */
export function sortedById<T extends { id: string }>(items: readonly T[]): T[] {
  return idOrder(items).sorted;
}

/** sortedById, with the sorted records' ids lower-cased (lower[i] is sorted[i].id lower-cased). */
export function idOrder<T extends { id: string }>(items: readonly T[]): { sorted: T[]; lower: string[] } {
  const lower = items.map((x) => x.id.toLowerCase());
  // Already in id order (the catalogue hands its sorted records to the index): one pass.
  let sorted = true;
  for (let i = 1; i < items.length && sorted; i++) {
    const a = lower[i - 1]!;
    const b = lower[i]!;
    sorted = a < b || (a === b && cmpStr(items[i - 1]!.id, items[i]!.id) <= 0);
  }
  if (sorted) return { sorted: [...items], lower };
  const order = items.map((_, i) => i);
  order.sort((i, j) => {
    const a = lower[i]!;
    const b = lower[j]!;
    return a < b ? -1 : a > b ? 1 : cmpStr(items[i]!.id, items[j]!.id);
  });
  return { sorted: order.map((i) => items[i]!), lower: order.map((i) => lower[i]!) };
}

/** Id order: case-insensitive, then exact (the store's id_lower order). */
export function cmpId(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : cmpStr(a, b);
}
