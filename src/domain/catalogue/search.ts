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
import { fnv1a, FNV_BASIS, FNV_PRIME } from '../shared/fnv.js';
import { lowerBound } from '../shared/sorted.js';

// forEachWord's FNV-1a constants as this module's own: an imported binding read per character (a
// module cell, not a constant) made tokenize 15-30% slower (measured).
const BASIS = FNV_BASIS;
const PRIME = FNV_PRIME;

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
        h = BASIS;
        wide = false;
      }
      if (c >= CJK_FROM) wide = true;
      h = Math.imul(h ^ c, PRIME);
      if (width === 2) h = Math.imul(h ^ s.charCodeAt(i + 1), PRIME);
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
      if (wide) for (const at of cjkTailStarts(s, start, end)) out.push(this.intern(s, at, end, fnv1a(s, at, end)));
    });
  }

  /** The number of `token` (a token another interner made, `h` its hash there: hashOf), added when new. */
  internToken(token: string, h: number): number {
    return this.intern(token, 0, token.length, h);
  }

  /** The hash token number k was interned with. */
  hashOf(k: number): number {
    return this.hashes[k]!;
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
    this.tokens.push(ownCopy(s, start, end));
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

/**
 * The characters s[start, end) as a string of their own. `s.slice` may make a view of `s` instead
 * (V8 does for 13 characters or more), and a token is kept for the index's life: on the index
 * worker, `s` is a slice of a batch's one string (256 documents' texts), which the view would keep
 * alive. A token is new once per distinct token, so making it from its characters costs little.
 */
function ownCopy(s: string, start: number, end: number): string {
  let out = '';
  for (let at = start; at < end; at += 4096) {
    const stop = Math.min(end, at + 4096);
    const codes = new Array<number>(stop - at);
    for (let i = at; i < stop; i++) codes[i - at] = s.charCodeAt(i);
    out += String.fromCharCode(...codes);
  }
  return out;
}

/** The searched texts of a record, in SEARCH_FIELDS order (the first is its id). */
export function searchTexts(e: StoredEntity): string[] {
  const na = (s: string | null) => (s && s !== 'N/A' ? s : '');
  return [
    e.id,
    [e.name, e.name_en !== e.name ? e.name_en : ''].join(' '),
    e.manufacturer ?? '',
    e.type ?? '',
    [...e.applications, na(e.interface), ...e.interfaces, na(e.protocol)].join(' '),
    e.description,
  ];
}

/**
 * The postings of an index (SearchIndex's fields of the same names): plain data, typed arrays
 * and strings, so they can be built elsewhere (a worker thread) and handed over.
 */
export interface SearchPostings {
  /** Sorted vocabulary; token number = position. */
  vocab: string[];
  /** Inverted: postings of token t are postDoc/postField[tokStart[t] .. tokStart[t+1]). */
  tokStart: Int32Array;
  postDoc: Int32Array;
  postField: Uint8Array;
  /** Forward: pairs of document d are docTok/docField[docStart[d] .. docStart[d+1]). */
  docStart: Int32Array;
  docTok: Int32Array;
  docField: Uint8Array;
}

/** Everything an index is made of: its documents in number (id) order and their postings. */
export interface SearchIndexParts extends SearchPostings {
  ids: string[];
  quarantine: Uint8Array;
  categories: string[];
}

/**
 * Builds the postings from the documents' texts (searchTexts), added one document at a time in
 * any order; `finish` numbers the documents in id order (the first text of each is its id), as
 * SearchIndex numbers them. Per document: its unique (token, field) pairs, tokens numbered in order
 * of first sight, renumbered once the vocabulary is sorted.
 */
export class PostingsBuilder {
  private readonly interner = new TokenInterner();
  /** The documents' ids in the order added (null: not kept, `finish` is given the order). */
  private readonly ids: string[] | null;
  private count = 0;
  /** Pairs of the n-th added document: pairTok/pairField[addedStart[n] .. addedStart[n+1]). */
  private addedStart = new Int32Array(1024);
  private pairTok = new Int32Array(1 << 12);
  private pairField = new Uint8Array(1 << 12);
  private p = 0;
  private readonly found: number[] = [];
  /** Per token number: the last (document, field) stamp it was counted in (once per field). */
  private countedIn = new Int32Array(1 << 12);
  private stamp = 0;
  /** finish() has made the postings in the pairs' memory: nothing more can be added or finished. */
  private spent = false;

  /**
   * `keepIds: false`: the documents' ids are not kept, so `finish` must be given their order. The
   * index worker's builder: it is handed each document's texts as slices of a batch's one string,
   * and V8 makes a slice of 13 characters or more a view of that string, so a kept id would keep
   * its whole batch alive until the end (~25-30 MB of the worker's heap at 100,000 records;
   * measured, bench/README.md). The worker is given the order by the main thread anyway.
   * `pairs`: room for about that many (document, token) pairs from the start (the index worker's
   * guess from the file's size), instead of arrays doubled and copied as pairs come.
   */
  constructor(opts: { keepIds?: boolean; pairs?: number } = {}) {
    this.ids = opts.keepIds === false ? null : [];
    // Room for about this many pairs from the start (a guess from the catalogue's size: the index worker's).
    if (opts.pairs !== undefined && opts.pairs > this.pairTok.length) this.growPairs(opts.pairs);
  }

  /** Room for at least `min` pairs (doubling): the pairs so far copied to larger arrays. */
  private growPairs(min: number): void {
    this.pairTok = grownInt32(this.pairTok, min);
    const grownField = new Uint8Array(this.pairTok.length);
    grownField.set(this.pairField);
    this.pairField = grownField;
  }

  /** Documents added so far. */
  get added(): number {
    return this.count;
  }

  /** Adds a document: its texts in SEARCH_FIELDS order (searchTexts). */
  add(texts: readonly string[]): void {
    if (this.spent) throw new Error('PostingsBuilder.add: after finish');
    const interner = this.interner;
    const found = this.found;
    const n = this.count++;
    if (n + 1 >= this.addedStart.length) this.addedStart = grownInt32(this.addedStart, n + 2);
    this.addedStart[n] = this.p;
    this.ids?.push(texts[0]!);
    for (let f = 0; f < FIELD_COUNT; f++) {
      found.length = 0;
      interner.scan(texts[f]!, found);
      this.stamp++;
      if (interner.tokens.length > this.countedIn.length) this.countedIn = grownInt32(this.countedIn, interner.tokens.length);
      const countedIn = this.countedIn;
      for (let i = 0; i < found.length; i++) {
        const k = found[i]!;
        if (countedIn[k] === this.stamp) continue;
        countedIn[k] = this.stamp;
        if (this.p === this.pairTok.length) this.growPairs(this.p + 1);
        this.pairTok[this.p] = k;
        this.pairField[this.p] = f;
        this.p++;
      }
    }
    this.addedStart[n + 1] = this.p;
  }

  /**
   * Adds `other`'s documents after this builder's, in their order, as if each had been added here
   * with add() (the same postings come out of finish()). `other` is spent. The index worker reads
   * the catalogue's last records itself while the main thread sends the first ones (readJsonRecordsTail):
   * those are added after them once the main thread has read up to where they begin.
   */
  append(other: PostingsBuilder): void {
    if (this.spent || other.spent) throw new Error('PostingsBuilder.append: after finish');
    if (other === this) throw new Error('PostingsBuilder.append: a builder to itself');
    if ((this.ids === null) !== (other.ids === null)) throw new Error('PostingsBuilder.append: one builder keeps its ids, the other does not');
    const theirs = other.interner;
    // Their token numbers as this builder's (each token interned here with the hash it has there).
    const mine = new Int32Array(theirs.tokens.length);
    for (let k = 0; k < mine.length; k++) mine[k] = this.interner.internToken(theirs.tokens[k]!, theirs.hashOf(k));
    const m = other.count;
    const pairs = other.p;
    if (this.count + m + 1 >= this.addedStart.length) this.addedStart = grownInt32(this.addedStart, this.count + m + 2);
    if (this.p + pairs > this.pairTok.length) this.growPairs(this.p + pairs);
    for (let j = 0; j < m; j++) this.addedStart[this.count + j] = this.p + other.addedStart[j]!;
    for (let q = 0; q < pairs; q++) this.pairTok[this.p + q] = mine[other.pairTok[q]!]!;
    this.pairField.set(other.pairField.subarray(0, pairs), this.p);
    if (this.ids && other.ids) for (const id of other.ids) this.ids.push(id);
    this.count += m;
    this.p += pairs;
    this.addedStart[this.count] = this.p;
    other.spent = true;
  }

  /**
   * The postings, documents numbered in id order, and that order: order[d] is the position (in the
   * order added) of document d; null when they were added in id order. `positions`: that order
   * when the caller knows it already (idOrder's positions over the same records), else computed
   * from the documents' ids (a builder that keeps them). `count`: tokenCounts' counts are made too,
   * over the documents' quarantine flags (in id order) and the fields given (`counts`; else null).
   */
  finish(positions?: ArrayLike<number> | null, count?: TokenCountAsk): { postings: SearchPostings; order: Int32Array | null; counts: TokenCounts | null } {
    if (this.spent) throw new Error('PostingsBuilder.finish: called twice (the postings were made in its own memory)');
    const n = this.count;
    if (positions && positions.length !== n) throw new Error(`PostingsBuilder.finish: an order of ${positions.length} positions for ${n} documents`);
    if (positions === undefined && this.ids === null) throw new Error("PostingsBuilder.finish: the documents' order is needed (positions, or null when added in id order): this builder does not keep their ids");
    const sorted = positions === undefined ? idOrderOf(this.ids!) : positions;
    const seenTokens = this.interner.tokens;
    const byText = seenTokens.map((_, i) => i).sort((a, b) => cmpStr(seenTokens[a]!, seenTokens[b]!));
    const vocab = byText.map((i) => seenTokens[i]!);
    const renumber = new Int32Array(byText.length);
    byText.forEach((k, t) => (renumber[k] = t));

    const pairs = this.p;
    const docStart = new Int32Array(n + 1);
    const docTok = new Int32Array(pairs);
    const docField = new Uint8Array(pairs);
    const counts = new Int32Array(vocab.length + 1);
    // tokenCounts' counts, when asked, made in this loop (documents in id order, as the postings list
    // them): one more look at each pair here instead of a pass over every posting afterwards.
    if (count && count.quarantine.length !== n) throw new Error(`PostingsBuilder.finish: ${count.quarantine.length} quarantine flags for ${n} documents`);
    const tally = count ? emptyTokenCounts(vocab.length) : null;
    const seen = new Int32Array(count ? vocab.length : 0);
    const only = fieldBits(count?.fields);
    const quarantine = count?.quarantine ?? [];
    for (let d = 0, q = 0; d < n; d++) {
      docStart[d] = q;
      const a = sorted === null ? d : sorted[d]!;
      for (let at = this.addedStart[a]!, end = this.addedStart[a + 1]!; at < end; at++, q++) {
        const t = renumber[this.pairTok[at]!]!;
        const f = this.pairField[at]!;
        docTok[q] = t;
        docField[q] = f;
        counts[t + 1]++;
        if (tally !== null) tallyPosting(tally.counted, tally.answered, seen, quarantine, only, t, f, d);
      }
    }
    docStart[n] = pairs;
    const tokStart = new Int32Array(vocab.length + 1);
    for (let t = 0; t < vocab.length; t++) tokStart[t + 1] = tokStart[t]! + counts[t + 1]!;
    // The postings go where the pairs in the order added were (read for the last time above): memory
    // already written, where new arrays of that size cost the kernel's zero-filled pages (at 100,000
    // records ~13 MB, ~30 ms of the index worker's last step here). The builder is spent after this.
    const postDoc = this.pairTok.subarray(0, pairs);
    const postField = this.pairField.subarray(0, pairs);
    this.spent = true;
    const fill = tokStart.slice(0, vocab.length);
    for (let d = 0; d < n; d++) {
      for (let q = docStart[d]!; q < docStart[d + 1]!; q++) {
        const at = fill[docTok[q]!]!++;
        postDoc[at] = d;
        postField[at] = docField[q]!;
      }
    }
    return { postings: { vocab, tokStart, postDoc, postField, docStart, docTok, docField }, order: sorted === null ? null : Int32Array.from(sorted), counts: tally };
  }
}

/** A copy of `a` at least `min` long (doubling). */
function grownInt32(a: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(min, a.length * 2));
  grown.set(a);
  return grown;
}

export interface SearchMatch {
  id: string;
  /**
   * The document's number: the record's position in the catalogue's id order (the index numbers
   * its documents as the catalogue sorts its records). What Catalogue.getMany takes beside the id.
   */
  position: number;
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

  /** The index of the records (any order: documents are numbered in id order), or of parts built elsewhere (fromParts). */
  constructor(source: readonly StoredEntity[] | SearchIndexParts) {
    const parts = isParts(source) ? checkedParts(source) : partsOf(source);
    this.ids = parts.ids;
    this.quarantine = parts.quarantine;
    this.categories = parts.categories;
    this.vocab = Object.freeze(parts.vocab);
    this.tokStart = parts.tokStart;
    this.postDoc = parts.postDoc;
    this.postField = parts.postField;
    this.docStart = parts.docStart;
    this.docTok = parts.docTok;
    this.docField = parts.docField;
    const n = this.ids.length;
    this.epoch = new Int32Array(n);
    this.hits = new Int32Array(n);
    this.score = new Int32Array(n);
    this.termBest = new Int32Array(n);
    this.mask = new Uint8Array(n);
    this.cand = new Int32Array(n);
  }

  /** The index made of parts built elsewhere (a PostingsBuilder's postings over the same records, with documentsOf them). */
  static fromParts(parts: SearchIndexParts): SearchIndex {
    return new SearchIndex(parts);
  }

  /** What the index is made of (its arrays themselves, not copies: read them, never change them). */
  parts(): SearchIndexParts {
    const { ids, quarantine, categories, tokStart, postDoc, postField, docStart, docTok, docField } = this;
    return { ids, quarantine, categories, vocab: [...this.vocab], tokStart, postDoc, postField, docStart, docTok, docField };
  }

  get size(): number {
    return this.ids.length;
  }

  /** countWords over this index's postings (see there). */
  wordsByCount(n: number, narrowN: number, minDocs: number, fields?: readonly SearchField[]): WarmWords {
    const { vocab, tokStart, postDoc, postField, quarantine } = this;
    return countWords(vocab, tokStart, tokenCounts({ vocab, tokStart, postDoc, postField, quarantine }, fields), n, narrowN, minDocs);
  }

  /** The indexed words, sorted (for close-spelling suggestions on a query that finds nothing). */
  get words(): readonly string[] {
    return this.vocab;
  }

  /** Token numbers [lo, hi) equal to or starting with `term`, and the number of `term` itself (-1 if absent). */
  private range(term: string): { lo: number; hi: number; exact: number } {
    return vocabRange(this.vocab, term);
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
    const { epoch, hits, score, termBest, mask, tokStart, postDoc, postField } = this;
    // First (most selective) term: its postings are the candidates, token by token (the exact
    // token's at full weight, the longer words it starts at half). Its score is its best weight,
    // so termBest (which later terms read) is the score itself until they add to it: set once at the end.
    const first = ranges[0];
    let cand: Int32Array = this.cand; // a document is a candidate at most once: n slots suffice
    let nc = firstTermCandidates(first.lo, first.hi, first.exact, q, tokStart, postDoc, postField, epoch, score, mask, cand);
    if (ranges.length > 1) {
      for (let i = 0; i < nc; i++) {
        const d = cand[i];
        hits[d] = 1;
        termBest[d] = score[d];
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
      position: d,
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

    const worse = (a: number, b: number) => better(b, a);
    // Ranked by relevance alone (no filter, no custom order: a plain search), the selection compares scores inline.
    const byScore = keys === null && !filter;
    const { heap, total, excluded } = byScore
      ? selectByScore(cand, k, includeQ, category, score, this.quarantine, this.categories)
      : this.selectBest(cand, k, includeQ, category, filter, keys, orderBy, better, worse);
    // Best first: the heap's root (the worst kept) taken off again and again, written from the back.
    const ranked = new Array<number>(heap.length);
    for (let n = heap.length - 1; n >= 0; n--) {
      ranked[n] = heap[0]!;
      const last = heap.pop()!;
      if (n > 0) {
        heap[0] = last;
        if (byScore) downByScore(heap, score);
        else siftDown(heap, 0, worse);
      }
    }
    const page: SearchMatch[] = [];
    for (let i = offset; i < ranked.length; i++) page.push(this.match(ranked[i]!));
    return { page, total, quarantinedExcluded: excluded };
  }

  /**
   * The k best of the candidates (query): a bounded heap whose root is the worst of them, with the
   * count of those that pass the category, filter and quarantine (total) and of the quarantined left
   * out. Its own method so that V8 compiles only this loop on stack replacement when the first call
   * is a broad word (see firstTermCandidates: compiled inside query, the OSR code met query's later
   * lines with no type feedback yet and deoptimized there on each later call).
   */
  private selectBest(
    cand: Int32Array,
    k: number,
    includeQ: boolean,
    category: string | null,
    filter: ((id: string) => boolean) | undefined,
    keys: Float64Array | null,
    orderBy: SearchQueryOptions['orderBy'],
    better: (a: number, b: number) => boolean,
    worse: (a: number, b: number) => boolean,
  ): { heap: number[]; total: number; excluded: number } {
    const heap: number[] = [];
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
    return { heap, total, excluded };
  }

  /** All matches of the query terms (AND), best first, quarantined included. */
  search(terms: readonly string[]): SearchMatch[] {
    return this.query(terms, { includeQuarantine: true }).page;
  }
}

/** The documents of an index over `docs` (already in id order): ids, quarantine flags, categories. */
export function documentsOf(docs: readonly StoredEntity[]): Pick<SearchIndexParts, 'ids' | 'quarantine' | 'categories'> {
  return documentColumns(
    docs.map((e) => e.id), // a new array, the index's own
    (d) => docs[d]!.quarantine,
    (d) => docs[d]!.category,
  );
}

/** The words of countWords: the most frequent, and the narrow ones (see there). */
export interface WarmWords {
  frequent: string[];
  narrow: string[];
}

/** What tokenCounts reads of an index: its postings and each document's quarantine flag (documents numbered alike). */
export interface WordCountParts {
  vocab: readonly string[];
  tokStart: Int32Array;
  postDoc: Int32Array;
  postField: Uint8Array;
  quarantine: Uint8Array;
}

/**
 * From each token's counts (`tokens`: tokenCounts' over the postings, or PostingsBuilder.finish's
 * made with them, whose `fields` decide what is counted: the words people search by, names, makers,
 * types, each document once), the `n` words counted most (most first, ties in word order): a new
 * instance's likely first queries. And `narrowN` words that are cheap to search for although they
 * fill a page: counted in at least `minDocs` answered (not quarantined) documents, asked as they
 * are (a query of the word is the word itself), and with the fewest postings over all the words
 * they start (a search matches those too), fewest first, ties in word order. `vocab` and
 * `tokStart`: the postings' sorted vocabulary and where each token's postings start.
 */
export function countWords(vocab: readonly string[], tokStart: Int32Array, tokens: TokenCounts, n: number, narrowN: number, minDocs: number): WarmWords {
  const { counted, answered } = tokens;
  const counts: [number, number][] = [];
  for (let t = 0; t < vocab.length; t++) counts.push([counted[t]!, t]);
  const narrow: string[] = [];
  if (narrowN > 0) {
    // Each token's postings together with those of the longer words it starts (what a search of it walks).
    const cheap: [number, number][] = [];
    for (let t = 0; t < vocab.length; t++) {
      if (answered[t]! < Math.max(1, minDocs)) continue;
      const r = vocabRange(vocab, vocab[t]!);
      cheap.push([tokStart[r.hi]! - tokStart[r.lo]!, t]);
    }
    cheap.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [, t] of cheap) {
      if (narrow.length >= narrowN) break;
      const word = vocab[t]!;
      const q = tokenize(word);
      if (q.length === 1 && q[0] === word) narrow.push(word);
    }
  }
  counts.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return { frequent: counts.slice(0, Math.max(0, n)).map(([, t]) => vocab[t]!), narrow };
}

/** What finish() counts beside the postings when asked (tokenCounts' counts): each document's quarantine flag in id order, and the counted fields. */
export interface TokenCountAsk {
  quarantine: ArrayLike<number>;
  fields?: readonly SearchField[];
}

/**
 * Per token t: `counted[t]`, the documents holding it in one of the counted fields (with no
 * fields: its postings); `answered[t]`, those of them a search answers (not quarantined).
 */
export interface TokenCounts {
  counted: Int32Array;
  answered: Int32Array;
}

const emptyTokenCounts = (tokens: number): TokenCounts => ({ counted: new Int32Array(tokens), answered: new Int32Array(tokens) });

/** The fields as bits (a posting's field f is counted when bit f is set); -1: every field, each posting counted. */
const fieldBits = (fields?: readonly SearchField[]): number => (fields ? fields.reduce((m, f) => m | (1 << SEARCH_FIELDS.indexOf(f)), 0) : -1);

/**
 * Counts one posting (token t, field f, document d; `only`: fieldBits) into `counted` and
 * `answered`. A token's postings come in document order (as the postings list them, or as
 * finish() reads the documents); `seen[t]` holds the last document counted for t, plus one.
 */
function tallyPosting(counted: Int32Array, answered: Int32Array, seen: Int32Array, quarantine: ArrayLike<number>, only: number, t: number, f: number, d: number): void {
  if (only === -1) counted[t]++;
  if (seen[t] !== d + 1 && ((only >> f) & 1) === 1) {
    if (only !== -1) counted[t]++;
    if (quarantine[d] !== 1) answered[t]++;
    seen[t] = d + 1;
  }
}

/** Each token's counts for countWords, over the postings (each token's postings in document order). */
export function tokenCounts(postings: WordCountParts, fields?: readonly SearchField[]): TokenCounts {
  const { vocab, tokStart, postDoc, postField, quarantine } = postings;
  const { counted, answered } = emptyTokenCounts(vocab.length);
  const seen = new Int32Array(vocab.length);
  const only = fieldBits(fields);
  // Run once, over every posting (2.7 million at 100,000 records): the arrays read from locals.
  for (let t = 0; t < vocab.length; t++) {
    for (let k = tokStart[t]!, end = tokStart[t + 1]!; k < end; k++) tallyPosting(counted, answered, seen, quarantine, only, t, postField[k]!, postDoc[k]!);
  }
  return { counted, answered };
}

/** Token numbers [lo, hi) of the sorted vocabulary `v` equal to or starting with `term`, and the number of `term` itself (-1 if absent). */
export function vocabRange(v: readonly string[], term: string): { lo: number; hi: number; exact: number } {
  const start = lowerBound(v, term);
  // The tokens starting with `term` are the run from `start` on (each sorts at or after it, and
  // before any token at or after it that does not start with it): the end of the run.
  let lo = start;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v[mid]!.startsWith(term)) lo = mid + 1;
    else hi = mid;
  }
  return { lo: start, hi: lo, exact: start < v.length && v[start] === term ? start : -1 };
}

/**
 * The documents of an index from the records' columns (`ids` in id order, kept as the index's own:
 * not copied; the flag and category of the record at each position): what documentsOf gives, for
 * a catalogue whose records are not all read.
 */
export function documentColumns(ids: string[], quarantineAt: (d: number) => boolean, categoryAt: (d: number) => string): Pick<SearchIndexParts, 'ids' | 'quarantine' | 'categories'> {
  const n = ids.length;
  const quarantine = new Uint8Array(n);
  const categories: string[] = [];
  // One loop (Uint8Array.from with a mapping function took ~40 ms at 100,000 records).
  for (let d = 0; d < n; d++) {
    quarantine[d] = quarantineAt(d) ? 1 : 0;
    categories.push(categoryAt(d));
  }
  return { ids, quarantine, categories };
}

function partsOf(entities: readonly StoredEntity[]): SearchIndexParts {
  const docs = sortedById(entities);
  const builder = new PostingsBuilder();
  for (const e of docs) builder.add(searchTexts(e));
  return { ...documentsOf(docs), ...builder.finish().postings };
}

function isParts(source: readonly StoredEntity[] | SearchIndexParts): source is SearchIndexParts {
  return !Array.isArray(source);
}

/** Parts handed over from elsewhere whose arrays fit one another (a mismatch is a bug: refused rather than answering wrong). */
function checkedParts(p: SearchIndexParts): SearchIndexParts {
  const n = p.ids.length;
  const pairs = p.docTok.length;
  const fits =
    p.quarantine.length === n &&
    p.categories.length === n &&
    p.docStart.length === n + 1 &&
    p.docStart[n] === pairs &&
    p.docField.length === pairs &&
    p.postDoc.length === pairs &&
    p.postField.length === pairs &&
    p.tokStart.length === p.vocab.length + 1 &&
    p.tokStart[p.vocab.length] === pairs;
  if (!fits) throw new Error('SearchIndex.fromParts: the parts do not fit together (documents, pairs and vocabulary differ in size)');
  return p;
}

/**
 * The first term's candidates (SearchIndex.matchAll): its postings token by token, the exact
 * token's at full weight and the longer words it starts at half; each document's score is its best
 * weight, its mask the fields it matched in. Writes the documents into `cand` and returns how many.
 *
 * A function of its own so that its loop is all that V8 compiles on stack replacement (OSR) when
 * the first call is a broad word: compiled inside matchAll, the OSR code met matchAll's later
 * lines with no type feedback yet, deoptimized there, and was entered again by each later call,
 * deoptimizing each time (a new instance's first 64 broad searches: 63 deoptimizations).
 */
function firstTermCandidates(
  lo: number,
  hi: number,
  exact: number,
  q: number,
  tokStart: Int32Array,
  postDoc: Int32Array,
  postField: Uint8Array,
  epoch: Int32Array,
  score: Int32Array,
  mask: Uint8Array,
  cand: Int32Array,
): number {
  let nc = 0;
  for (let t = lo; t < hi; t++) {
    const shift = t === exact ? 0 : 1;
    for (let at = tokStart[t], end = tokStart[t + 1]; at < end; at++) {
      const d = postDoc[at];
      const f = postField[at];
      const w = W2[f] >> shift;
      if (epoch[d] !== q) {
        epoch[d] = q;
        score[d] = w;
        mask[d] = 1 << f;
        cand[nc++] = d;
      } else {
        mask[d] |= 1 << f;
        if (w > score[d]) score[d] = w;
      }
    }
  }
  return nc;
}

/**
 * SearchIndex.selectBest for a search ranked by relevance alone (no filter, no custom order), with
 * the comparison written inline (with a closure called per candidate, selecting the best of the
 * 38,087 matches of `robot` at 100,000 records took 481 us; inline, 313 us): the heap's root is the worst kept, i.e. the lowest score, then the
 * highest document number (better: a higher score, then a lower number). A function of its own, as
 * firstTermCandidates, for its on-stack-replacement code.
 */
function selectByScore(
  cand: Int32Array,
  k: number,
  includeQ: boolean,
  category: string | null,
  score: Int32Array,
  quarantine: Uint8Array,
  categories: readonly string[],
): { heap: number[]; total: number; excluded: number } {
  const heap: number[] = [];
  let total = 0;
  let excluded = 0;
  // The root's document and score (valid once the heap holds k).
  let rootD = -1;
  let rootS = 0;
  for (let i = 0; i < cand.length; i++) {
    const d = cand[i]!;
    if (category !== null && categories[d] !== category) continue;
    if (!includeQ && quarantine[d] === 1) {
      excluded++;
      continue;
    }
    total++;
    if (heap.length < k) {
      heap.push(d);
      upByScore(heap, heap.length - 1, score);
    } else if (k > 0) {
      const s = score[d]!;
      if (s < rootS || (s === rootS && d > rootD)) continue;
      heap[0] = d;
      downByScore(heap, score);
    } else continue;
    rootD = heap[0]!;
    rootS = score[rootD]!;
  }
  return { heap, total, excluded };
}

/** siftUp of a relevance heap (selectByScore): x rises while it ranks after its parent. */
function upByScore(h: number[], i: number, score: Int32Array): void {
  const x = h[i]!;
  const sx = score[x]!;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const y = h[p]!;
    const sy = score[y]!;
    if (!(sx < sy || (sx === sy && x > y))) break;
    h[i] = y;
    i = p;
  }
  h[i] = x;
}

/** siftDown of the root of a relevance heap (selectByScore): the root sinks while a child ranks after it. */
function downByScore(h: number[], score: Int32Array): void {
  const n = h.length;
  const x = h[0]!;
  const sx = score[x]!;
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    let y = h[c]!;
    let sy = score[y]!;
    if (c + 1 < n) {
      const z = h[c + 1]!;
      const sz = score[z]!;
      if (sz < sy || (sz === sy && z > y)) {
        c++;
        y = z;
        sy = sz;
      }
    }
    if (!(sy < sx || (sy === sx && y > x))) break;
    h[i] = y;
    i = c;
  }
  h[i] = x;
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
export function idOrder<T extends { id: string }>(items: readonly T[]): IdOrder<T> {
  const { lower, positions } = idsInOrder(items.map((x) => x.id));
  return { sorted: positions === null ? [...items] : positions.map((i) => items[i]!), lower, positions };
}

/** Ids in id order: the sorted ids, the same lower-cased, and their positions in `ids` (null: in id order already). */
export interface IdsInOrder {
  ids: string[];
  lower: string[];
  positions: number[] | null;
}

/** Ids in id order: the sorted ids, the same lower-cased, and their positions in `ids` (null: in id order already). */
export function idsInOrder(ids: readonly string[]): IdsInOrder {
  const lower = ids.map((id) => id.toLowerCase());
  const positions = idOrderOf(ids, lower);
  if (positions === null) return { ids: [...ids], lower, positions };
  return { ids: positions.map((i) => ids[i]!), lower: positions.map((i) => lower[i]!), positions };
}

/**
 * idsInOrder's answer when `positions` (as an earlier idsInOrder gave them) still put `ids` in id
 * order (checked in one pass, no sort: a prepared start keeps them); null when they do not.
 */
export function idsInGivenOrder(ids: readonly string[], positions: ArrayLike<number> | null): IdsInOrder | null {
  const n = ids.length;
  if (positions !== null && positions.length !== n) return null;
  const sorted: string[] = new Array<string>(n);
  const lower: string[] = new Array<string>(n);
  for (let d = 0; d < n; d++) {
    const p = positions === null ? d : positions[d]!;
    const id = ids[p];
    if (id === undefined) return null;
    sorted[d] = id;
    lower[d] = id.toLowerCase();
    if (d > 0) {
      const a = lower[d - 1]!;
      const b = lower[d]!;
      const c = a < b ? -1 : a > b ? 1 : cmpStr(sorted[d - 1]!, id);
      // Equal ids keep the file's order (the stable sort's).
      if (c > 0 || (c === 0 && positions !== null && positions[d - 1]! > p)) return null;
    }
  }
  return { ids: sorted, lower, positions: positions === null ? null : Array.from(positions) };
}

/** Records in id order: sorted[i] is items[positions[i]] (positions null: the items were in id order), lower[i] its id lower-cased. */
export interface IdOrder<T> {
  sorted: T[];
  lower: string[];
  positions: number[] | null;
}

/**
 * The positions of `ids` in id order (a stable sort: equal ids keep their order), or null when they
 * are in id order already (the catalogue hands its sorted records to the index: one pass).
 */
function idOrderOf(ids: readonly string[], lower: readonly string[] = ids.map((id) => id.toLowerCase())): number[] | null {
  let sorted = true;
  for (let i = 1; i < ids.length && sorted; i++) {
    const a = lower[i - 1]!;
    const b = lower[i]!;
    sorted = a < b || (a === b && cmpStr(ids[i - 1]!, ids[i]!) <= 0);
  }
  if (sorted) return null;
  const order = ids.map((_, i) => i);
  order.sort((i, j) => {
    const a = lower[i]!;
    const b = lower[j]!;
    return a < b ? -1 : a > b ? 1 : cmpStr(ids[i]!, ids[j]!);
  });
  return order;
}

/** Id order: case-insensitive, then exact (the store's id_lower order). */
export function cmpId(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : cmpStr(a, b);
}
