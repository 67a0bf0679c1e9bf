/**
 * A large catalogue's prepared start: what a start derives from data/catalogue/entities.json
 * (every record parsed and validated, the records' columns and byte ranges, their id order, the
 * search index's postings), written next to it once a start has derived it, and read back by the
 * next start instead of deriving it again.
 *
 * Why: at 100,000 records (~100 MB) a start spends ~1 s of its main thread parsing and validating
 * every record and ~1 s of a worker thread tokenising them, on a 2-core host where both compete
 * with module loading and the garbage collector. Read back, the same start takes a hash of the
 * file (~0.1 s) and one read of the prepared file (~35 MB).
 *
 * Trust. The prepared file is used only when its key matches: the SHA-256 of the catalogue file's
 * bytes (every byte, read through the same open descriptor the records are later read from) and
 * the content stamp of the modules that derive it (src/store/module-stamp.ts: this module, the
 * catalogue reader and the index worker with their imports; another build, another stamp). So a
 * changed catalogue, or code that reads or indexes it differently, derives it again; never an
 * answer from stale postings. Its sections carry a SHA-256 of their own (a file damaged on disk),
 * and their structure is checked before use (sizes, ranges, the ids' order); a file that fails any
 * check is ignored and written again. It is written to a temporary name and
 * renamed (a reader never sees half a file); a folder that cannot be written keeps no prepared
 * start (each start then derives it, as before).
 *
 * Layout: "RPPREP01", the header's length (u32 LE) and 4 bytes of padding, the header (JSON: key,
 * record count, the document's other members, sections as [offset, bytes] from the end of the
 * header, padded to 8), then the sections, each at an 8-byte boundary.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchPostings } from '../domain/catalogue/search.js';
import type { RecordColumns } from './catalogue-records.js';
import { moduleStamp } from './module-stamp.js';

/** The prepared start of `<dataDir>/catalogue/entities.json`. */
export const PREPARED_FILE = 'entities.prepared';
const MAGIC = 'RPPREP01';

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
}

let codeStampMemo: string | null | undefined;

/**
 * The stamp of the code that derives a prepared start: this module, the catalogue reader and the
 * index worker, with their static imports (compiled .js, or the .ts sources when run from them).
 */
export function preparedCodeStamp(): string | null {
  if (codeStampMemo !== undefined) return codeStampMemo;
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  const entries = ['catalogue-prepared', 'catalogue-data', 'catalogue-records', 'search-index-worker', 'search-index-build'].map((m) => path.join(path.dirname(here), m + ext));
  codeStampMemo = moduleStamp(entries, path.dirname(path.dirname(here)))?.sha256 ?? null;
  return codeStampMemo;
}

/** Hashes a file's bytes as they are read (in order, each once): the catalogue reader's window feeds it. */
export class ContentHash {
  private readonly h = createHash('sha256');
  bytes = 0;
  update(b: Uint8Array): void {
    this.bytes += b.length;
    this.h.update(b);
  }
  digest(): string {
    return this.h.digest('hex');
  }
}

/** The key of the catalogue file open at `fd` as it is now (every byte read and hashed), or null without a code stamp. */
export function preparedKeyOf(fd: number): PreparedKey | null {
  const code = preparedCodeStamp();
  if (code === null) return null;
  const hash = new ContentHash();
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let pos = 0; ; ) {
    const n = fs.readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  return { entities_sha256: hash.digest(), bytes: hash.bytes, code_sha256: code };
}

export const preparedPath = (dataDir: string) => path.join(dataDir, 'catalogue', PREPARED_FILE);

const sameKey = (a: Partial<PreparedKey> | undefined, b: PreparedKey) => a?.entities_sha256 === b.entities_sha256 && a.bytes === b.bytes && a.code_sha256 === b.code_sha256;

type TypedKind = 'u8' | 'i32' | 'f64';
const SIZE: Record<TypedKind, number> = { u8: 1, i32: 4, f64: 8 };
type Section = { name: string; json: unknown } | { name: string; typed: TypedKind; data: Uint8Array | Int32Array | Float64Array };

function sectionsOf(p: PreparedStart): Section[] {
  const { columns: c, postings: x } = p;
  return [
    { name: 'ids', json: c.ids },
    { name: 'categories', json: c.categories },
    { name: 'manufacturers', json: c.manufacturers },
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
  let at = 0;
  for (const { s, bytes } of sections) {
    table[s.name] = [at, bytes.length, 'json' in s ? 'json' : s.typed];
    at = pad8(at + bytes.length);
  }
  // A checksum of the sections as written (a file damaged on disk is not read as a prepared start).
  const sum = createHash('sha256');
  let written = 0;
  for (const { s, bytes } of sections) {
    const gap = table[s.name]![0] - written;
    if (gap > 0) sum.update(Buffer.alloc(gap));
    sum.update(bytes);
    written = table[s.name]![0] + bytes.length;
  }
  const header = Buffer.from(JSON.stringify({ key, endianness: os.endianness(), records: p.columns.ids.length, members: p.members, sections: table, sections_sha256: sum.digest('hex') }));
  const head = Buffer.alloc(16 + pad8(header.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(header.length, 8);
  header.copy(head, 16);
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

/** The prepared start in `file` when it is there, well formed and of this key; else null. */
export function readPrepared(file: string, key: PreparedKey): PreparedStart | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return null;
  }
  try {
    return parsePrepared(buf, key);
  } catch {
    return null;
  }
}

function parsePrepared(buf: Buffer, key: PreparedKey): PreparedStart | null {
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) return null;
  const headerLength = buf.readUInt32LE(8);
  if (16 + headerLength > buf.length) return null;
  const header = JSON.parse(buf.toString('utf8', 16, 16 + headerLength)) as { key?: PreparedKey; endianness?: string; records?: unknown; members?: unknown; sections?: Record<string, unknown>; sections_sha256?: unknown };
  if (!sameKey(header.key, key) || header.endianness !== os.endianness()) return null;
  const base = 16 + pad8(headerLength);
  if (createHash('sha256').update(buf.subarray(base)).digest('hex') !== header.sections_sha256) return null;
  const n = header.records;
  const members = header.members;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || members === null || typeof members !== 'object' || Array.isArray(members)) return null;
  const sections = header.sections ?? {};
  const span = (name: string, kind: 'json' | TypedKind): [number, number] | null => {
    const s = sections[name];
    if (!Array.isArray(s) || s.length !== 3 || s[2] !== kind) return null;
    const [off, len] = s as [unknown, unknown];
    if (typeof off !== 'number' || typeof len !== 'number' || !Number.isInteger(off) || !Number.isInteger(len) || off < 0 || len < 0 || off % 8 !== 0) return null;
    if (base + off + len > buf.length || (kind !== 'json' && len % SIZE[kind] !== 0)) return null;
    return [base + off, len];
  };
  const json = (name: string): unknown => {
    const s = span(name, 'json');
    if (!s) throw new Error(name);
    return JSON.parse(buf.toString('utf8', s[0], s[0] + s[1]));
  };
  const typed = <K extends TypedKind>(name: string, kind: K): K extends 'u8' ? Uint8Array : K extends 'i32' ? Int32Array : Float64Array => {
    const s = span(name, kind);
    if (!s) throw new Error(name);
    const [off, len] = s;
    const at = buf.byteOffset + off;
    const Ctor = kind === 'u8' ? Uint8Array : kind === 'i32' ? Int32Array : Float64Array;
    // A view over the read bytes when aligned (no copy), else a copy.
    const arr = at % SIZE[kind] === 0 ? new Ctor(buf.buffer as ArrayBuffer, at, len / SIZE[kind]) : new Ctor(new Uint8Array(buf.subarray(off, off + len)).buffer);
    return arr as never;
  };
  const strings = (v: unknown, nullable = false): v is (string | null)[] => Array.isArray(v) && v.every((x) => typeof x === 'string' || (nullable && x === null));
  const ids = json('ids');
  const categories = json('categories');
  const manufacturers = json('manufacturers');
  const vocab = json('vocab');
  if (!strings(ids) || !strings(categories) || !strings(manufacturers, true) || !strings(vocab)) return null;
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
  for (let i = 0; i < n; i++) if (!(starts[i]! < ends[i]! && ends[i]! <= key.bytes && (i === 0 || ends[i - 1]! <= starts[i]!))) return null;
  if (positions) {
    if (positions.length !== n) return null;
    const seen = new Uint8Array(n);
    for (const p of positions) {
      if (!(p >= 0 && p < n) || seen[p]) return null;
      seen[p] = 1;
    }
  }
  if (!postingsFit(postings, n)) return null;
  return { members: members as Record<string, unknown>, columns: { ids: ids as string[], categories: categories as string[], quarantine, manufacturers, starts, ends }, positions, postings };
}

/** The postings' arrays fit together and every number in them points inside them. */
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
  for (let i = 0; i < pairs; i++) if (!(p.docTok[i]! >= 0 && p.docTok[i]! < v && p.postDoc[i]! >= 0 && p.postDoc[i]! < n)) return false;
  for (let i = 1; i < v; i++) if (!(p.vocab[i - 1]! < p.vocab[i]!)) return false;
  return true;
}
