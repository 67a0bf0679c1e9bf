/**
 * A large catalogue's prepared start: what a start derives from data/catalogue/entities.json
 * (every record parsed and validated, the records' columns and byte ranges, their id order, the
 * search index's postings), written next to it once a start has derived it, and read back by the
 * next start instead of deriving it again.
 *
 * Why: at 100,000 records (~100 MB) a start spends ~1 s of its main thread parsing and validating
 * every record and ~1 s of a worker thread tokenising them, on a 2-core host where both compete
 * with module loading and the garbage collector. Read back, the same start takes a hash of the
 * file (~0.1 s) and one read of the prepared file (~47 MB, of which ~15 MB are the spec sources).
 *
 * Trust. The prepared file is used only when its key matches: the SHA-256 of the catalogue file's
 * bytes (every byte, read through the same open descriptor the records are later read from) and
 * the content stamp of the modules that derive it (src/store/module-stamp.ts: this module, the
 * catalogue reader and the index worker with their imports; another build, another stamp). So a
 * changed catalogue, or code that reads or indexes it differently, derives it again; never an
 * answer from stale postings. The start that derives it takes the key when it writes the file,
 * seconds after it read the records (hashUnchangedFile: the same file, unchanged, or no prepared
 * start is written). Its sections carry a SHA-256 of their own (a file damaged on disk),
 * and their structure is checked before use (sizes, ranges, the ids' order); a file that fails any
 * check is ignored and written again. It is written to a temporary name and
 * renamed (a reader never sees half a file); a folder that cannot be written keeps no prepared
 * start (each start then derives it, as before).
 *
 * Layout: "RPPREP03", the header's length (u32 LE) and 4 bytes of padding, the header (JSON: key,
 * record count, the document's other members, sections as [offset, bytes] from the end of the
 * header, padded to 8), then the sections, each at an 8-byte boundary.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { SearchPostings } from '../domain/catalogue/search.js';
import type { RecordColumns } from './catalogue-records.js';
import { moduleStamp } from './module-stamp.js';

/** The prepared start of `<dataDir>/catalogue/entities.json`. */
export const PREPARED_FILE = 'entities.prepared';
const MAGIC = 'RPPREP03';

export interface PreparedKey {
  /** SHA-256 (hex) of the catalogue file's bytes. */
  entities_sha256: string;
  /** The catalogue file's size in bytes. */
  bytes: number;
  /** The content stamp of the code that derives the prepared start. */
  code_sha256: string;
}

export interface PreparedStart {
  /** The document's top-level members other than `entities` (meta). */
  members: Record<string, unknown>;
  /** The records' columns in the file's order. */
  columns: RecordColumns;
  /** The file positions of the records in id order (null: the file is in id order). */
  positions: Int32Array | null;
  /** The search index's postings, documents numbered in id order. */
  postings: SearchPostings;
  /** What the spec fields read of each record (SpecSource): one line per record, the JSON array of its values in SPEC_SOURCE_KEYS order, in the file's order (UTF-8). */
  specSources: Uint8Array;
}

let codeStampMemo: string | null | undefined;

/**
 * The stamp of the code that derives a prepared start: this module, the catalogue reader and the
 * index worker, with their static imports (compiled .js, or the .ts sources when run from them).
 * In the built package these are the bundle's entry files (scripts/bundle.mjs) and the chunks
 * they import, so a change to any code in those chunks gives another stamp.
 */
export function preparedCodeStamp(): string | null {
  if (codeStampMemo !== undefined) return codeStampMemo;
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  const entries = ['catalogue-prepared', 'catalogue-data', 'catalogue-records', 'search-index-worker', 'search-index-build'].map((m) => path.join(path.dirname(here), m + ext));
  codeStampMemo = moduleStamp(entries, path.dirname(path.dirname(here)))?.sha256 ?? null;
  return codeStampMemo;
}

/**
 * What identifies a file's bytes without reading them: its device and inode (another file renamed
 * into its place is another inode), size, and modification and change times in nanoseconds (a
 * write in place changes both; the change time cannot be set back).
 */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** The identity of the file open at `fd`. */
export function fileIdentity(fd: number): FileIdentity {
  const s = fs.fstatSync(fd, { bigint: true });
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
}

const sameIdentity = (s: fs.BigIntStats, id: FileIdentity) => s.dev === id.dev && s.ino === id.ino && s.size === id.size && s.mtimeNs === id.mtimeNs && s.ctimeNs === id.ctimeNs;

/**
 * The SHA-256 of the file at `file` when it is still the one `identity` was taken of, before and
 * after every byte is read, else null (replaced, written or cut since; or gone). Read on libuv's
 * pool a megabyte at a time, each hashed in its own turn of the event loop (~0.6 ms each here).
 *
 * Why not as the records are read: a start that derives a large catalogue (100,000 records) is
 * bound by its main thread's parsing, and hashing 100 MB there cost ~60 ms of it (bench/README.md);
 * the prepared start is written seconds later, once every record is read again in the background,
 * so its key is taken then, of the same file (the identity taken before the records were read).
 * What the identity cannot see: a write in place within the same tick of the file system's clock
 * as the previous one, while the records are read (the change time would not move); the
 * catalogue's own import replaces the file (a new inode) instead of writing into it.
 */
export async function hashUnchangedFile(file: string, identity: FileIdentity): Promise<{ sha256: string; bytes: number } | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, 'r');
  } catch {
    return null;
  }
  try {
    if (!sameIdentity(await fh.stat({ bigint: true }), identity)) return null;
    const h = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, bytes);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
      bytes += bytesRead;
    }
    if (BigInt(bytes) !== identity.size || !sameIdentity(await fh.stat({ bigint: true }), identity)) return null;
    return { sha256: h.digest('hex'), bytes };
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => {});
  }
}

export const preparedPath = (dataDir: string) => path.join(dataDir, 'catalogue', PREPARED_FILE);


type TypedKind = 'u8' | 'i32' | 'f64';
const SIZE: Record<TypedKind, number> = { u8: 1, i32: 4, f64: 8 };
type Section = { name: string; json: unknown } | { name: string; typed: TypedKind; data: Uint8Array | Int32Array | Float64Array };

/** Values that repeat (a record's category, its manufacturer) as a list of the distinct ones and each record's number in it (-1: null). */
function dictionary(values: readonly (string | null)[]): { names: string[]; of: Int32Array } {
  const names: string[] = [];
  const seen = new Map<string, number>();
  const of = new Int32Array(values.length);
  values.forEach((v, i) => {
    if (v === null) {
      of[i] = -1;
      return;
    }
    let k = seen.get(v);
    if (k === undefined) seen.set(v, (k = names.push(v) - 1));
    of[i] = k;
  });
  return { names, of };
}

/** dictionary()'s values back (each distinct string one string), or null when a number is out of range (or -1 where nulls are not allowed). */
function undictionary(names: readonly string[], of: Int32Array, nullable: boolean): (string | null)[] | null {
  const out = new Array<string | null>(of.length);
  for (let i = 0; i < of.length; i++) {
    const k = of[i]!;
    if (k === -1 && nullable) out[i] = null;
    else if (k >= 0 && k < names.length) out[i] = names[k]!;
    else return null;
  }
  return out;
}

function sectionsOf(p: PreparedStart): Section[] {
  const { columns: c, postings: x } = p;
  const categories = dictionary(c.categories);
  const makers = dictionary(c.manufacturers);
  return [
    { name: 'ids', json: c.ids },
    { name: 'categoryNames', json: categories.names },
    { name: 'categoryOf', typed: 'i32', data: categories.of },
    { name: 'makerNames', json: makers.names },
    { name: 'makerOf', typed: 'i32', data: makers.of },
    { name: 'quarantine', typed: 'u8', data: c.quarantine },
    { name: 'starts', typed: 'f64', data: c.starts },
    { name: 'ends', typed: 'f64', data: c.ends },
    ...(p.positions ? [{ name: 'positions', typed: 'i32' as const, data: p.positions }] : []),
    { name: 'vocab', json: x.vocab },
    { name: 'tokStart', typed: 'i32', data: x.tokStart },
    { name: 'postDoc', typed: 'i32', data: x.postDoc },
    { name: 'postField', typed: 'u8', data: x.postField },
    { name: 'docStart', typed: 'i32', data: x.docStart },
    { name: 'docTok', typed: 'i32', data: x.docTok },
    { name: 'docField', typed: 'u8', data: x.docField },
    { name: 'specSources', typed: 'u8', data: p.specSources },
  ];
}

const pad8 = (n: number) => (n + 7) & ~7;

/**
 * Writes the prepared start to `file` (a temporary name, then renamed). Resolves false (nothing
 * left behind) when the folder cannot be written.
 */
export async function writePrepared(file: string, key: PreparedKey, p: PreparedStart): Promise<boolean> {
  const sections = sectionsOf(p).map((s) => ({ s, bytes: 'json' in s ? Buffer.from(JSON.stringify(s.json)) : Buffer.from(s.data.buffer, s.data.byteOffset, s.data.byteLength) }));
  const table: Record<string, [number, number, string]> = {};
  // A checksum of the sections as written, their zero padding included (a file damaged on disk is not read as a prepared start).
  const sum = createHash('sha256');
  let end = 0;
  for (const { s, bytes } of sections) {
    const at = pad8(end);
    sum.update(Buffer.alloc(at - end));
    sum.update(bytes);
    table[s.name] = [at, bytes.length, 'json' in s ? 'json' : s.typed];
    end = at + bytes.length;
  }
  const header = Buffer.from(JSON.stringify({ key, endianness: os.endianness(), records: p.columns.ids.length, members: p.members, sections: table, sections_sha256: sum.digest('hex') }));
  const head = Buffer.alloc(16 + pad8(header.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(header.length, 8);
  header.copy(head, 16);
  removeLeftTemporaries(file);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let fh: fs.promises.FileHandle | null = null;
  try {
    fh = await fs.promises.open(tmp, 'wx');
    await fh.write(head, 0, head.length, 0);
    const base = head.length;
    for (const { s, bytes } of sections) await fh.write(bytes, 0, bytes.length, base + table[s.name]![0]);
    await fh.close();
    fh = null;
    await fs.promises.rename(tmp, file);
    return true;
  } catch {
    await fh?.close().catch(() => {});
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    return false;
  }
}

/**
 * Removes the temporary files a write of `file` left when its process ended before renaming
 * (killed mid-write): `<file>.<pid>.<random>.tmp` whose process no longer runs. A temporary of a
 * process still running (another instance writing now) is left alone.
 */
export function removeLeftTemporaries(file: string): void {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)\.[a-z0-9]+\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (!m) continue;
    const pid = Number(m[1]);
    let running = pid === process.pid;
    if (!running) {
      try {
        process.kill(pid, 0);
        running = true;
      } catch (err) {
        running = (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, not ours to signal
      }
    }
    if (!running) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * The checks of a prepared start that read every byte, on a worker thread while the main thread
 * reads the prepared file (on 2 cores, ~0.2-0.3 s of the start off the main thread): the catalogue
 * file's hash, through the descriptor its records are read from (begun at once), then, once the
 * main thread has read the prepared file into a shared buffer (sections()), its sections' hash and
 * the range of every posting's numbers, over the same bytes (not a second read).
 */
class ChecksOnWorker {
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;

  constructor(fd: number) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(CHECK_WORKER, { eval: true, workerData: { fd, port: port2, signal: this.signal }, transferList: [port2] });
    this.worker.unref();
  }

  /** The prepared file's bytes: sections from byte `from`; `ranges`: Int32 sections whose every number is in [0, limit), as [byte offset, count, limit]. Null: none (the worker only hashes the catalogue file). */
  sections(shared: SharedArrayBuffer | null, from = 0, ranges: [number, number, number][] = []): void {
    this.port.postMessage({ shared, from, ranges });
  }

  /** The worker's answer (blocking until it comes), or null when it failed. Call sections() first. */
  result(): { entities_sha256: string; bytes: number; sections_sha256: string | null; in_range: boolean } | null {
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const m = receiveMessageOnPort(this.port);
        if (m) return (m.message as { ok: boolean }).ok ? (m.message as { entities_sha256: string; bytes: number; sections_sha256: string | null; in_range: boolean }) : null;
        if (Date.now() > deadline) return null;
        Atomics.wait(this.signal, 0, 0, 100);
      }
    } finally {
      this.port.close();
      void this.worker.terminate();
    }
  }
}

/** The worker's code (CommonJS, evaluated): hashes the catalogue file, then checks the sections it is handed; posts once, then signals. */
const CHECK_WORKER = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const { fd, port, signal } = workerData;
let answer;
try {
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, bytes);
    if (n === 0) break;
    h.update(buf.subarray(0, n));
    bytes += n;
  }
  answer = { ok: true, entities_sha256: h.digest('hex'), bytes, sections_sha256: null, in_range: true };
} catch (err) {
  answer = { ok: false, message: String(err && err.message) };
}
const finish = (m) => {
  if (answer.ok && m.shared) {
    // Every posting's document and every document's token inside their ranges ([offset, count, limit]).
    for (const [offset, count, limit] of m.ranges) {
      const a = new Int32Array(m.shared, offset, count);
      for (let i = 0; i < count && answer.in_range; i++) answer.in_range = a[i] >= 0 && a[i] < limit;
    }
    answer.sections_sha256 = createHash('sha256').update(new Uint8Array(m.shared, m.from)).digest('hex');
  }
  port.postMessage(answer);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
  port.close();
};
const waiting = receiveMessageOnPort(port);
if (waiting) finish(waiting.message);
else port.once('message', finish);
`;

interface Header {
  key?: PreparedKey;
  endianness?: string;
  records?: unknown;
  members?: unknown;
  sections?: Record<string, unknown>;
  sections_sha256?: unknown;
}

/**
 * A prepared start read and parsed while the worker's checks of every byte may still run: the
 * caller builds on `start` meanwhile (on 2 cores the checks otherwise kept the main thread waiting
 * 50-120 ms at 100,000 records) and uses it only once checked() says they hold.
 */
export interface PendingPrepared {
  start: PreparedStart;
  /**
   * Whether the catalogue file's bytes, the sections' hash and every posting's numbers are the
   * prepared start's (blocks until the worker answers; the same answer on later calls). Call it
   * before the catalogue file's descriptor is closed: until then the worker may read it.
   */
  checked(): boolean;
}

/**
 * The prepared start at `file` for the catalogue file open at `fd` (its records are read through
 * it later): null when there is none, when it was made by other code or for other bytes, or when
 * its sections do not hold together; the checks that read every byte (the catalogue file's hash,
 * the sections' checksum, every posting's numbers) run on a worker meanwhile (PendingPrepared).
 */
export function openPrepared(file: string, fd: number): PendingPrepared | null {
  const code = preparedCodeStamp();
  if (code === null) return null;
  let pf: number;
  try {
    pf = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  let checks: ChecksOnWorker | null = null;
  try {
    const size = fs.fstatSync(pf).size;
    const entitiesSize = fs.fstatSync(fd).size;
    // The header first: what can be told without hashing (the code, the byte order, the catalogue file's size).
    const head = Buffer.alloc(16);
    if (size < 16 || fs.readSync(pf, head, 0, 16, 0) !== 16 || head.toString('latin1', 0, 8) !== MAGIC) return null;
    const headerLength = head.readUInt32LE(8);
    const base = 16 + pad8(headerLength);
    if (base > size) return null;
    const headerBytes = Buffer.alloc(headerLength);
    if (fs.readSync(pf, headerBytes, 0, headerLength, 16) !== headerLength) return null;
    const header = JSON.parse(headerBytes.toString('utf8')) as Header;
    const n = header.records;
    const key = header.key;
    if (key?.code_sha256 !== code || key.bytes !== entitiesSize || header.endianness !== os.endianness() || typeof n !== 'number' || !Number.isInteger(n) || n < 0) return null;
    checks = new ChecksOnWorker(fd);
    // The whole file into memory the worker reads too.
    const shared = new SharedArrayBuffer(size);
    const buf = Buffer.from(shared);
    for (let got = 0; got < size; ) {
      const r = fs.readSync(pf, buf, got, size - got, got);
      if (r === 0) return null;
      got += r;
    }
    // The postings' numbers are checked on the worker (2.7 million of them at 100,000 records).
    const spans = ['postDoc', 'docTok', 'tokStart'].map((name) => sectionSpan(header, name, 'i32', base, size));
    if (spans.some((x) => x === null)) return null;
    const [postDoc, docTok, tokStart] = spans as [number, number][];
    checks.sections(shared, base, [
      [postDoc[0], postDoc[1] / 4, n],
      [docTok[0], docTok[1] / 4, tokStart[1] / 4 - 1],
    ]);
    const start = parsePrepared(buf, header, base, n, entitiesSize);
    if (start === null) return null;
    // Handed over: the caller waits for the worker (checked()).
    const worker = checks;
    checks = null;
    let verdict: boolean | undefined;
    return {
      start,
      checked: () => {
        if (verdict === undefined) {
          const h = worker.result();
          verdict = h !== null && h.in_range && h.entities_sha256 === key.entities_sha256 && h.bytes === key.bytes && h.sections_sha256 === header.sections_sha256;
        }
        return verdict;
      },
    };
  } catch {
    return null;
  } finally {
    // Never return null (the caller may close the descriptor) while the worker still reads it.
    if (checks) {
      checks.sections(null);
      checks.result();
    }
    fs.closeSync(pf);
  }
}

/** A section's [absolute byte offset, bytes] when the header lists it with this kind, aligned and inside the file; else null. */
function sectionSpan(header: Header, name: string, kind: 'json' | TypedKind, base: number, size: number): [number, number] | null {
  const s = header.sections?.[name];
  if (!Array.isArray(s) || s.length !== 3 || s[2] !== kind) return null;
  const [off, len] = s as [unknown, unknown];
  if (typeof off !== 'number' || typeof len !== 'number' || !Number.isInteger(off) || !Number.isInteger(len) || off < 0 || len < 0 || off % 8 !== 0) return null;
  if (base + off + len > size || (kind !== 'json' && len % SIZE[kind] !== 0)) return null;
  return [base + off, len];
}

/** The sections of `buf` (the whole prepared file, from its own buffer's start) for `n` records of a catalogue file of `bytes`, or null. */
function parsePrepared(buf: Buffer, header: Header, base: number, n: number, bytes: number): PreparedStart | null {
  const members = header.members;
  if (members === null || typeof members !== 'object' || Array.isArray(members)) return null;
  const sections = header.sections ?? {};
  const span = (name: string, kind: 'json' | TypedKind) => sectionSpan(header, name, kind, base, buf.length);
  const json = (name: string): unknown => {
    const s = span(name, 'json');
    if (!s) throw new Error(name);
    return JSON.parse(buf.toString('utf8', s[0], s[0] + s[1]));
  };
  const typed = <K extends TypedKind>(name: string, kind: K): K extends 'u8' ? Uint8Array : K extends 'i32' ? Int32Array : Float64Array => {
    const s = span(name, kind);
    if (!s) throw new Error(name);
    const [off, len] = s;
    const Ctor = kind === 'u8' ? Uint8Array : kind === 'i32' ? Int32Array : Float64Array;
    // A view over the read bytes, no copy: `buf` starts its own buffer and sections sit at 8-byte boundaries (sectionSpan).
    return new Ctor(buf.buffer as ArrayBuffer, off, len / SIZE[kind]) as never;
  };
  const strings = (v: unknown, nullable = false): v is (string | null)[] => Array.isArray(v) && v.every((x) => typeof x === 'string' || (nullable && x === null));
  const ids = json('ids');
  const categoryNames = json('categoryNames');
  const makerNames = json('makerNames');
  const vocab = json('vocab');
  if (!strings(ids) || !strings(categoryNames) || !strings(makerNames) || !strings(vocab)) return null;
  const categories = undictionary(categoryNames as string[], typed('categoryOf', 'i32'), false);
  const manufacturers = undictionary(makerNames as string[], typed('makerOf', 'i32'), true);
  if (categories === null || manufacturers === null) return null;
  const quarantine = typed('quarantine', 'u8');
  const starts = typed('starts', 'f64');
  const ends = typed('ends', 'f64');
  const positions = sections.positions === undefined ? null : typed('positions', 'i32');
  const postings: SearchPostings = {
    vocab: vocab as string[],
    tokStart: typed('tokStart', 'i32'),
    postDoc: typed('postDoc', 'i32'),
    postField: typed('postField', 'u8'),
    docStart: typed('docStart', 'i32'),
    docTok: typed('docTok', 'i32'),
    docField: typed('docField', 'u8'),
  };
  if (ids.length !== n || categories.length !== n || manufacturers.length !== n || quarantine.length !== n || starts.length !== n || ends.length !== n) return null;
  // Byte ranges in order, inside the file.
  for (let i = 0; i < n; i++) if (!(starts[i]! < ends[i]! && ends[i]! <= bytes && (i === 0 || ends[i - 1]! <= starts[i]!))) return null;
  if (positions) {
    if (positions.length !== n) return null;
    const seen = new Uint8Array(n);
    for (const p of positions) {
      if (!(p >= 0 && p < n) || seen[p]) return null;
      seen[p] = 1;
    }
  }
  if (!postingsFit(postings, n)) return null;
  // Parsed (and checked against the ids) when the first spec filter reads them (LazyRecords.forEachSpecSource).
  const specSources = typed('specSources', 'u8');
  return { members: members as Record<string, unknown>, columns: { ids: ids as string[], categories: categories as string[], quarantine, manufacturers, starts, ends }, positions, postings, specSources };
}

/** The postings' arrays fit together, their start arrays rise, the vocabulary is sorted (the pairs' numbers are checked on the worker). */
function postingsFit(p: SearchPostings, n: number): boolean {
  const pairs = p.docTok.length;
  const v = p.vocab.length;
  if (p.docStart.length !== n + 1 || p.tokStart.length !== v + 1 || p.docField.length !== pairs || p.postDoc.length !== pairs || p.postField.length !== pairs) return false;
  const rising = (a: Int32Array) => {
    if (a[0] !== 0 || a[a.length - 1] !== pairs) return false;
    for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false;
    return true;
  };
  if (!rising(p.docStart) || !rising(p.tokStart)) return false;
  // (Every docTok and postDoc number in range: checked by the hashing worker.)
  for (let i = 1; i < v; i++) if (!(p.vocab[i - 1]! < p.vocab[i]!)) return false;
  return true;
}
