/**
 * The catalogue's records as the in-memory catalogue reads them: in id order, each record by its
 * position, with the columns that listings, counts and the search index need (id, category,
 * quarantine) apart from the records themselves.
 *
 * Two kinds. A small catalogue's records are all read, validated and frozen at start
 * (recordsInMemory). A large one's (LazyRecords, when its search index is built on a worker) are
 * read twice: once at start for their columns and searched texts, without keeping them (garbage
 * collected young, never copied or promoted), and again, each record on first use (a search's hit,
 * a lookup by id) or in the background once the server is ready, validated, its common values
 * shared and frozen exactly as the small catalogue's are. A caller that needs every record (the
 * analytics, a listing of all) reads the rest at once; one that only needs to look at each (the
 * spec layer's columns: forEach) reads those not read yet without keeping them. The records are
 * read from the file, kept open (a file replaced on disk meanwhile is still the one read at start),
 * by their byte ranges: one pread for a record asked alone, a window of consecutive records for the
 * background and for all(). When every record is read, the file is closed.
 *
 * Why: at 100,000 records, keeping each record as it is read at start made the main thread copy
 * and promote ~150 MB of objects through the young generation, freeze and index them before the
 * server could answer (~0.8 s of a ~2 s start on the 2-core machine); the columns alone are enough
 * to answer searches, and a page of hits reads only its own records.
 */
import fs from 'node:fs';
import type { StoredEntity } from '../domain/catalogue/entity.js';
import { documentColumns, idsInOrder, type IdsInOrder } from '../domain/catalogue/search.js';
import { deepFreeze } from '../domain/shared/freeze.js';
import { SPEC_SOURCE_KEYS, type SpecSource } from '../domain/specs/fields.js';

/** The catalogue's records in id order. */
export interface SortedRecords {
  readonly size: number;
  /** The records' ids in id order, and the same lower-cased. */
  readonly ids: readonly string[];
  readonly lower: readonly string[];
  /** The record at position d (id order) is the file's record positions[d]; null when the file is in id order. */
  readonly positions: readonly number[] | null;
  category(d: number): string;
  quarantine(d: number): boolean;
  /** Every record's quarantine flag (1 or 0) and category, in id order: new arrays, made in one pass (the search index's columns). */
  columns(): { quarantine: Uint8Array; categories: string[] };
  /** The record at position d (id order): read on first use when the records are read lazily. */
  record(d: number): StoredEntity;
  /** Every record in id order (those not read yet are read now). */
  all(): readonly StoredEntity[];
}

/** Records all read already (in any order), put in id order and deep-frozen (records frozen already are left as they are). */
export function recordsInMemory(entities: readonly StoredEntity[]): SortedRecords {
  const { ids, lower, positions } = idsInOrder(entities.map((e) => e.id));
  const sorted = deepFreeze(positions === null ? [...entities] : positions.map((i) => entities[i]!));
  return {
    size: sorted.length,
    ids,
    lower,
    positions,
    category: (d) => sorted[d]!.category,
    quarantine: (d) => sorted[d]!.quarantine,
    columns: () => {
      const { quarantine, categories } = documentColumns(ids, (d) => sorted[d]!.quarantine, (d) => sorted[d]!.category);
      return { quarantine, categories };
    },
    record: (d) => sorted[d]!,
    all: () => sorted,
  };
}

/** The columns of a large catalogue's records, in the file's order, taken at start. */
export interface RecordColumns {
  ids: string[];
  categories: string[];
  quarantine: Uint8Array;
  manufacturers: (string | null)[];
  /** Each record's bytes in the file: [starts[i], ends[i]). */
  starts: Float64Array;
  ends: Float64Array;
}

/** RecordColumns gathered record by record, in the file's order (the main thread's reading, and the index worker's of a tail). */
export class ColumnCollector {
  private readonly ids: string[] = [];
  private readonly categories: string[] = [];
  private readonly quarantine: number[] = [];
  private readonly manufacturers: (string | null)[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** Records gathered so far. */
  get size(): number {
    return this.ids.length;
  }

  /** A record, read from the file's bytes [start, end). */
  add(e: StoredEntity, start: number, end: number): void {
    this.ids.push(e.id);
    this.categories.push(e.category);
    this.quarantine.push(e.quarantine ? 1 : 0);
    this.manufacturers.push(e.manufacturer);
    this.starts.push(start);
    this.ends.push(end);
  }

  /** The columns of records that follow (read elsewhere). */
  addColumns(c: RecordColumns): void {
    for (let j = 0; j < c.ids.length; j++) {
      this.ids.push(c.ids[j]!);
      this.categories.push(c.categories[j]!);
      this.quarantine.push(c.quarantine[j]!);
      this.manufacturers.push(c.manufacturers[j]!);
      this.starts.push(c.starts[j]!);
      this.ends.push(c.ends[j]!);
    }
  }

  columns(): RecordColumns {
    const { ids, categories, manufacturers } = this;
    return { ids, categories, quarantine: Uint8Array.from(this.quarantine), manufacturers, starts: Float64Array.from(this.starts), ends: Float64Array.from(this.ends) };
  }
}

/** Records between two looks at the clock while reading in the background (one read of the file for them). */
const BACKGROUND_CHECK_EVERY = 32;

/** At most this many bytes of consecutive records are read at once (all(), forEach). */
const RUN_BYTES = 1 << 20;

/** A record's spec source line (SpecSource): the JSON array of its values in SPEC_SOURCE_KEYS order (all of them required members). */
function specSourceLine(e: StoredEntity): string {
  return JSON.stringify(SPEC_SOURCE_KEYS.map((k) => e[k]));
}

/** The catalogue file, open for reading records by their byte ranges. */
export class RecordFile {
  private fd: number | null;
  private scratch = Buffer.allocUnsafe(64 * 1024);

  /** `fd`: open for reading (closed by close()). */
  constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  get open(): boolean {
    return this.fd !== null;
  }

  /** The bytes [start, end) of the file, in a buffer reused by the next read. */
  read(start: number, end: number): Buffer {
    if (this.fd === null) throw new Error(`${this.path} is closed`);
    const n = end - start;
    if (this.scratch.length < n) this.scratch = Buffer.allocUnsafe(Math.max(n, this.scratch.length * 2));
    let got = 0;
    while (got < n) {
      const r = fs.readSync(this.fd, this.scratch, got, n - got, start + got);
      if (r === 0) throw new Error(`${this.path} ended at byte ${start + got}, before ${end}: it was cut after the start`);
      got += r;
    }
    return this.scratch.subarray(0, n);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

/** How a record is made from its parsed bytes: `kept` validated, shared and frozen; `checked` validated only (looked at, not kept). */
export interface RecordReaders {
  kept: (raw: unknown, i: number) => StoredEntity;
  checked: (raw: unknown, i: number) => StoredEntity;
}

/**
 * When the background reading gives way to requests: no slice while a request was seen in the
 * last `quietMs`, unless `maxWaitMs` have passed since the last slice (so that it still ends
 * under a steady load, at a small share of it). `lastRequest()`: performance.now() of the last
 * request seen (-Infinity: none).
 */
export interface BackgroundPace {
  lastRequest: () => number;
  quietMs: number;
  maxWaitMs: number;
}

/**
 * A large catalogue's records in the file's order, each read from its bytes on first use.
 * `readers.kept(raw, i)`: the record validated, shared and frozen as the catalogue keeps it (it
 * throws when the record is invalid, which the start has already ruled out).
 */
export class LazyRecords {
  readonly size: number;
  readonly ids: readonly string[];
  readonly categories: readonly string[];
  readonly quarantine: Uint8Array;
  /** The records' manufacturers as read at start (let go, with the byte ranges, once every record is read: the records hold them). */
  private manufacturers: readonly (string | null)[] | null;
  private file: RecordFile | null;
  private starts: Float64Array | null;
  private ends: Float64Array | null;
  private readers: RecordReaders | null;
  private readonly records: (StoredEntity | undefined)[];
  private unread: number;
  /** The next record the background reading looks at. */
  private cursor = 0;
  private background: NodeJS.Immediate | NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly whenComplete: (() => void)[] = [];

  /**
   * The members the spec fields read of every record (SpecSource), as the start that derived the
   * catalogue kept them: one line per record, the JSON array of its values in SPEC_SOURCE_KEYS
   * order, in the file's order, UTF-8 (null: none; let go once every record is read).
   */
  private specSources: Uint8Array | null;
  /**
   * Collecting the spec sources (a start that derived the catalogue): each record's line, made as
   * it is read in the background, or once every record is read for those read on first use (the
   * warm-up's and the first requests' hits: their lines are not made in their way, ~10-20 ms of a
   * start at 100,000 records); joined then and handed to `specSourcesRead` (the prepared start is
   * written with them).
   */
  private sourceLines: (string | undefined)[] | null = null;
  /** Whether the records being read are the background's (their spec source lines are made as they are read). */
  private inBackground = false;
  private readonly specSourcesRead: ((sources: Uint8Array) => void)[] = [];

  /** `specSources`: a prepared start's; `collectSpecSources`: make them from the records as they are read (specSourcesWhenRead). */
  constructor(file: RecordFile, columns: RecordColumns, readers: RecordReaders, opts: { specSources?: Uint8Array | null; collectSpecSources?: boolean } = {}) {
    this.specSources = opts.specSources ?? null;
    if (opts.collectSpecSources && this.specSources === null) this.sourceLines = new Array<string | undefined>(columns.ids.length);
    this.size = columns.ids.length;
    this.ids = columns.ids;
    this.categories = columns.categories;
    this.quarantine = columns.quarantine;
    this.manufacturers = columns.manufacturers;
    this.starts = columns.starts;
    this.ends = columns.ends;
    this.file = file;
    this.readers = readers;
    this.records = new Array<StoredEntity | undefined>(this.size).fill(undefined);
    this.unread = this.size;
    if (this.size === 0) this.finish();
  }

  /** Whether every record has been read (the file is then closed). */
  get complete(): boolean {
    return this.unread === 0;
  }

  /** Whether the file is still open (until every record is read). */
  get fileOpen(): boolean {
    return this.file?.open ?? false;
  }

  /** How many records have been read so far. */
  get readCount(): number {
    return this.size - this.unread;
  }

  /** The i-th record of the file. */
  record(i: number): StoredEntity {
    return this.records[i] ?? this.readAt(i);
  }

  /** Every record in the file's order (those not read yet are read now). */
  all(): readonly StoredEntity[] {
    for (let i = this.cursor; this.unread > 0 && i < this.size; ) i = this.readRun(i, this.size, true);
    return this.records as StoredEntity[];
  }

  /**
   * Each record in the file's order, without keeping those not read yet: they are read (validated,
   * neither shared nor frozen) and let go after `visit`, garbage collected young. For a caller that
   * looks at every record once (a spec column) where all() would keep them all at once.
   */
  forEach(visit: (e: StoredEntity, i: number) => void): void {
    for (let i = 0; i < this.size; ) {
      const kept = this.records[i];
      if (kept !== undefined) {
        visit(kept, i++);
        continue;
      }
      i = this.readRun(i, this.size, false, visit);
    }
  }

  /**
   * Visits what the spec fields read of every record (SpecSource) once, in the file's order: the
   * records themselves once all are read; else the prepared start's copy of those members (one
   * parse of a small part of the file's bytes, nothing kept); else each record (forEach).
   */
  forEachSpecSource(visit: (e: SpecSource, i: number) => void): void {
    const sources = this.complete ? null : this.specSources;
    if (sources !== null) {
      const bytes = Buffer.from(sources.buffer, sources.byteOffset, sources.byteLength);
      // One line of JSON per record (JSON.stringify writes no raw line break), each parsed and let go
      // after its visit (young garbage), checked against the record's id: a start wrote them from
      // these records (its key checked), so a line that does not fit means none is used.
      const lines: [number, number][] = [];
      for (let at = 0; at < bytes.length; ) {
        const nl = bytes.indexOf(0x0a, at);
        const end = nl === -1 ? bytes.length : nl;
        lines.push([at, end]);
        at = end + 1;
      }
      if (lines.length === this.size) {
        const keys = SPEC_SOURCE_KEYS;
        let i = 0;
        for (; i < this.size; i++) {
          // The values in SPEC_SOURCE_KEYS order (every one of them a required member of a record).
          const values = JSON.parse(bytes.toString('utf8', lines[i]![0], lines[i]![1])) as unknown[] | null;
          if (!Array.isArray(values) || values.length !== keys.length || values[0] !== this.ids[i]) break;
          const e: Record<string, unknown> = {};
          for (let k = 0; k < keys.length; k++) e[keys[k]!] = values[k];
          visit(e as SpecSource, i);
        }
        if (i === this.size) return;
        this.specSources = null; // the next reading reads the records themselves
        throw new Error(`catalogue record #${i}: the prepared spec sources do not hold its id ${this.ids[i]}`);
      }
      this.specSources = null;
    }
    this.forEach(visit);
  }

  /**
   * The manufacturers the records name, each name as written once, with the id of the first record
   * (in the file's order) that writes it; records naming none are left out. What knownManufacturers
   * reads (it judges each written name once, at its first record): the same answer as from every
   * record, without an object per record (at 100,000 records, 40-70 ms of the start; bench/README.md).
   */
  makers(): { id: string; manufacturer: string }[] {
    const out: { id: string; manufacturer: string }[] = [];
    const seen = new Set<string>();
    const m = this.manufacturers;
    for (let i = 0; i < this.size; i++) {
      const name = m === null ? this.records[i]!.manufacturer : m[i]!;
      if (typeof name !== 'string' || seen.has(name)) continue;
      seen.add(name);
      out.push({ id: this.ids[i]!, manufacturer: name });
    }
    return out;
  }

  /**
   * Reads the records not read yet, a slice of about `sliceMs` at a time, yielding to the event
   * loop between slices (requests are answered between them); `done` is called once every record
   * is read (at once when they are). It keeps the process alive until then (an unreferenced
   * immediate would run only when something else wakes the event loop); stop() ends it.
   * With `pace`, a slice waits while requests are coming (a new instance's first searches, each
   * of which a slice would delay by up to sliceMs and whose garbage it would add to).
   */
  readInBackground(sliceMs: number, done: () => void, pace?: BackgroundPace): void {
    if (this.complete) {
      done();
      return;
    }
    this.whenComplete.push(done);
    if (this.background !== null || this.stopped) return;
    let lastSlice = performance.now();
    const slice = () => {
      this.background = null;
      if (this.stopped || this.complete) return;
      const now = performance.now();
      if (pace) {
        const wait = Math.min(pace.lastRequest() + pace.quietMs, lastSlice + pace.maxWaitMs) - now;
        if (wait > 0) {
          this.background = setTimeout(slice, Math.ceil(wait));
          return;
        }
      }
      const deadline = now + sliceMs;
      let i = this.cursor;
      this.inBackground = true;
      try {
        while (i < this.size && !this.complete) {
          i = this.readRun(i, Math.min(this.size, i + BACKGROUND_CHECK_EVERY), true);
          if (performance.now() >= deadline) break;
        }
      } finally {
        this.inBackground = false;
      }
      this.cursor = i;
      lastSlice = performance.now();
      if (!this.complete) this.background = setImmediate(slice);
    };
    this.background = setImmediate(slice);
  }

  /** Closes the file (a start that failed after reading it): records not read yet can no longer be. */
  close(): void {
    this.stop();
    this.file?.close();
    this.file = null;
  }

  /** Stops the background reading (records are still read on first use). */
  stop(): void {
    this.stopped = true;
    if (this.background !== null) {
      clearImmediate(this.background as NodeJS.Immediate);
      clearTimeout(this.background as NodeJS.Timeout);
    }
    this.background = null;
  }

  private readAt(i: number): StoredEntity {
    const { file, starts, ends } = this;
    if (file === null || starts === null || ends === null) throw new Error(`catalogue record #${i} is not read and the file is closed`);
    return this.keep(i, file.read(starts[i]!, ends[i]!), starts[i]!);
  }

  /**
   * Reads the records from i on (consecutive in the file) up to `to` or RUN_BYTES of them, with one
   * read of the file: those not read yet are kept (`keep`), or handed to `visit` and let go. Records
   * read already are skipped (kept) or visited as kept. Returns the index after the last one read.
   */
  private readRun(i: number, to: number, keep: boolean, visit?: (e: StoredEntity, i: number) => void): number {
    const { file, starts, ends, readers } = this;
    if (file === null || starts === null || ends === null || readers === null) throw new Error(`catalogue record #${i} is not read and the file is closed`);
    const from = starts[i]!;
    let j = i + 1;
    while (j < to && ends[j]! - from <= RUN_BYTES) j++;
    const bytes = file.read(from, ends[j - 1]!);
    for (let k = i; k < j; k++) {
      const kept = this.records[k];
      if (kept !== undefined) {
        visit?.(kept, k);
        continue;
      }
      if (keep) {
        const e = this.keep(k, bytes, from);
        visit?.(e, k);
        if (this.complete) {
          // The last record not read: the file is closed, the rest of the run was read before.
          for (let m = k + 1; m < j; m++) visit?.(this.records[m]!, m);
          return j;
        }
      } else {
        const e = readers.checked(JSON.parse(bytes.toString('utf8', starts[k]! - from, ends[k]! - from)), k);
        this.checkId(e, k);
        visit!(e, k);
      }
    }
    return j;
  }

  /** Record i from `bytes` holding the file from byte `base`: validated, kept; the file closed after the last. */
  private keep(i: number, bytes: Buffer, base: number): StoredEntity {
    const e = this.readers!.kept(JSON.parse(bytes.toString('utf8', this.starts![i]! - base, this.ends![i]! - base)), i);
    this.checkId(e, i);
    this.records[i] = e;
    if (this.sourceLines !== null && this.inBackground) this.sourceLines[i] = specSourceLine(e);
    if (--this.unread === 0) this.finish();
    return e;
  }

  /** The same bytes were validated at start: another id means the reading is broken (or the file changed), not the data. */
  private checkId(e: StoredEntity, i: number): void {
    if (e.id !== this.ids[i]) throw new Error(`catalogue record #${i} read as ${e.id}, expected ${this.ids[i]}`);
  }

  /**
   * The spec sources made from the records once every one is read (collectSpecSources), or null
   * (not collecting, or the reading stopped first: it never resolves then).
   */
  specSourcesWhenRead(): Promise<Uint8Array> | null {
    if (this.sourceLines === null) return null;
    return new Promise((resolve) => this.specSourcesRead.push(resolve));
  }

  private finish(): void {
    if (this.sourceLines !== null) {
      const lines = this.sourceLines;
      // The lines of the records read on first use, made now (every record is read).
      for (let i = 0; i < lines.length; i++) if (lines[i] === undefined) lines[i] = specSourceLine(this.records[i]!);
      const sources = Buffer.from(lines.join('\n'), 'utf8');
      this.sourceLines = null;
      for (const f of this.specSourcesRead.splice(0)) f(sources);
    }
    this.file?.close();
    this.file = null;
    this.readers = null;
    this.specSources = null;
    this.starts = null;
    this.ends = null;
    this.manufacturers = null;
    this.stop();
    for (const f of this.whenComplete.splice(0)) f();
  }
}

/** A lazily read catalogue's records in id order; `order`: idsInOrder's answer, computed already (a prepared start's, checked with idsInGivenOrder). */
export function recordsLazily(records: LazyRecords, order?: IdsInOrder): SortedRecords {
  const { ids, lower, positions } = order ?? idsInOrder(records.ids);
  const at = positions === null ? (d: number) => d : (d: number) => positions[d]!;
  let sorted: readonly StoredEntity[] | null = null;
  return {
    size: records.size,
    ids,
    lower,
    positions,
    category: (d) => records.categories[at(d)]!,
    quarantine: (d) => records.quarantine[at(d)] === 1,
    // One plain loop over the columns (through a closure per record, ~20 ms at 100,000 records; bench/README.md).
    columns: () => {
      const n = records.size;
      const flags = records.quarantine;
      const cats = records.categories;
      const quarantine = new Uint8Array(n);
      const categories: string[] = []; // pushed, not new Array(n): a packed array, as the searches read it
      for (let d = 0; d < n; d++) {
        const i = positions === null ? d : positions[d]!;
        quarantine[d] = flags[i] === 1 ? 1 : 0;
        categories.push(cats[i]!);
      }
      return { quarantine, categories };
    },
    record: (d) => records.record(at(d)),
    all: () => {
      if (sorted === null) {
        const inFile = records.all();
        // Frozen, as the records themselves are (recordsInMemory's are too).
        sorted = Object.freeze(positions === null ? [...inFile] : positions.map((i) => inFile[i]!));
      }
      return sorted;
    },
  };
}
