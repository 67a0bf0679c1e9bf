/**
 * A package upload as an archive: .zip or .tar.gz. Only the description's text files are kept
 * (.xacro, .urdf, .xml, .yaml, .yml, .gazebo, .transmission, .trans); meshes and everything else
 * are counted, never decompressed (zip) or kept (tar). Nothing an entry DECLARES is trusted:
 *
 * - zip: the central directory is read by hand; every entry's bytes (local header + compressed
 *   data) must lie before the central directory and overlap no other entry's (several entries
 *   pointing at one compressed stream are refused before anything is inflated); a name may appear
 *   once; a declared size over what the kept text may still hold is refused unread; a kept entry
 *   is inflated in small slices, counting the bytes actually produced against its declared size
 *   (a real size past it stops the inflater there: false_size), the total (MAX_INPUT_BYTES) and
 *   the ratio (MAX_ARCHIVE_RATIO), so a bomb stops within one slice of a limit; its real size must
 *   equal the declared one and its CRC-32 must match.
 * - .tar.gz: gunzipped in slices the same way (total MAX_ARCHIVE_UNPACKED_BYTES and the ratio,
 *   real bytes), a name may appear once, kept text at most MAX_INPUT_BYTES together.
 *
 * A refusal names the limit or the defect and the entry. At most MAX_ARCHIVE_ENTRIES entries;
 * paths are checked as `files` paths are (no '..', no absolute path, depth).
 */
import { crc32 } from 'node:zlib';
import { lazyRequire } from '../../lazy-require.js';
import { DomainError, invalidInput } from '../../domain/shared/errors.js';
import { decodeText, type FileNotes } from './decode.js';
import { MAX_INPUT_BYTES } from './limits.js';
import { normalisePath, type UploadFile } from './package.js';

/** fflate (its streaming inflaters), loaded by the first archive (src/lazy-require.ts). */
const fflate = lazyRequire<typeof import('fflate')>('fflate');

export const MAX_ARCHIVE_ENTRIES = 10_000;
/** A .tar.gz is unpacked whole (tar has no index); its unpacked size is capped here. */
export const MAX_ARCHIVE_UNPACKED_BYTES = 64 * 1024 * 1024;
/**
 * Most bytes one compressed byte may inflate to (beyond the first ARCHIVE_RATIO_SLACK bytes of
 * an entry or a .tar.gz). Deflate reaches ~1,032:1 on runs of one byte; real description text
 * compresses 5-30:1 and meshes less.
 */
export const MAX_ARCHIVE_RATIO = 200;
export const ARCHIVE_RATIO_SLACK = 64 * 1024;
/** Compressed bytes handed to the inflater at a time: one slice inflates to at most ~264 KB (deflate's 1,032:1). */
const SLICE = 256;
const TEXT_FILE = /(\.xacro|\.urdf|\.xml|\.ya?ml|\.gazebo|\.transmission|\.trans)$/i;

export interface ArchiveContents {
  files: UploadFile[];
  /** What decoding the kept files' bytes found (UTF-16, a declared encoding, bytes replaced), by file. */
  notes: FileNotes;
  /** Entries not kept (meshes, images, other files). */
  other_entries: number;
}

/** What reading an archive cost: bytes the inflater actually produced (a caller may pass one to watch). */
export interface ArchiveWork {
  inflated_bytes: number;
}

const tooLarge = (field: string, what: string, size: number, limit: number, name: string, entry?: string) =>
  new DomainError('payload_too_large', `${field}: ${entry !== undefined ? `entry "${entry}": ` : ''}${what} ${size} bytes; at most ${limit} (limit ${name})`, {
    field,
    ...(entry !== undefined ? { entry } : {}),
    size_bytes: size,
    limit_bytes: limit,
    limit: name,
  });

const defect = (field: string, entry: string | null, what: string, defectName: string) =>
  new DomainError('invalid_input', `${field}: ${entry !== null ? `entry "${entry}": ` : ''}${what} (refused: ${defectName})`, {
    field,
    ...(entry !== null ? { entry } : {}),
    defect: defectName,
  });

/**
 * Inflates `input` (raw deflate, or gzip) slice by slice, handing each produced chunk to `sink`
 * and counting real bytes: past `limit` bytes, or past MAX_ARCHIVE_RATIO times the input (plus
 * the slack), `over(kind, produced)` is thrown at once. Returns the bytes produced.
 */
function inflateCounted(
  input: Uint8Array,
  gzip: boolean,
  limit: number,
  work: ArchiveWork,
  sink: (chunk: Uint8Array) => void,
  over: (kind: 'size' | 'ratio', produced: number) => Error,
): number {
  let produced = 0;
  let done = false;
  const ratioCap = MAX_ARCHIVE_RATIO * input.length + ARCHIVE_RATIO_SLACK;
  const ondata = (chunk: Uint8Array, final: boolean) => {
    produced += chunk.length;
    work.inflated_bytes += chunk.length;
    if (produced > limit) throw over('size', produced);
    if (produced > ratioCap) throw over('ratio', produced);
    if (chunk.length) sink(chunk);
    if (final) done = true;
  };
  const f = fflate();
  const stream = gzip ? new f.Gunzip(ondata) : new f.Inflate(ondata);
  for (let at = 0; at < input.length; at += SLICE) {
    const end = Math.min(input.length, at + SLICE);
    stream.push(input.subarray(at, end), end === input.length);
  }
  if (input.length === 0) stream.push(new Uint8Array(0), true);
  if (!done) throw new Error('the compressed data ends early');
  return produced;
}

/** Concatenates chunks into one array of `n` bytes. */
function joined(chunks: Uint8Array[], n: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function keep(path: string, bytes: Uint8Array, out: UploadFile[], total: { bytes: number }, field: string, notes: FileNotes): void {
  total.bytes += bytes.length;
  if (total.bytes > MAX_INPUT_BYTES) throw tooLarge(field, 'the description files of the archive hold more than', MAX_INPUT_BYTES, MAX_INPUT_BYTES, 'max_input_bytes');
  const decoded = decodeText(bytes);
  const file = normalisePath(path, `${field}: entry`);
  out.push({ path: file, content: decoded.text });
  for (const note of decoded.notes) notes.push({ file, note });
}

interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** Byte range of the entry in the archive: local header to the end of its compressed data. */
  start: number;
  dataStart: number;
  end: number;
  nameBytes: Uint8Array;
  localName: Uint8Array;
}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000;
const utf8 = new TextDecoder('utf-8');

/** The central directory's entries, each located and checked against its local header; overlaps and duplicates refused. */
function zipEntries(b: Uint8Array, field: string): ZipEntry[] {
  const broken = (what: string) => invalidInput(field, `not a readable .zip archive: ${what}`);
  // End of central directory: 22 bytes, after at most a 65,535-byte comment.
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 5 && b[i + 3] === 6) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw broken('no end of central directory record');
  const count = u16(b, eocd + 10);
  const cdSize = u32(b, eocd + 12);
  const cdOffset = u32(b, eocd + 16);
  if (u16(b, eocd + 4) !== 0 || u16(b, eocd + 6) !== 0 || u16(b, eocd + 8) !== count) throw broken('multi-part archives are not supported');
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw broken('ZIP64 archives are not supported');
  if (count > MAX_ARCHIVE_ENTRIES) throw invalidInput(field, `the archive has more than ${MAX_ARCHIVE_ENTRIES} entries (limit max_archive_entries)`);
  if (cdOffset + cdSize > eocd) throw broken('the central directory lies outside the archive');
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > cdOffset + cdSize || u32(b, at) !== 0x02014b50) throw broken(`central directory entry ${i + 1} is broken`);
    const nameLen = u16(b, at + 28);
    const extraLen = u16(b, at + 30);
    const commentLen = u16(b, at + 32);
    if (at + 46 + nameLen + extraLen + commentLen > cdOffset + cdSize) throw broken(`central directory entry ${i + 1} is cut short`);
    const nameBytes = b.subarray(at + 46, at + 46 + nameLen);
    const name = utf8.decode(nameBytes);
    const e: ZipEntry = {
      name,
      flags: u16(b, at + 8),
      method: u16(b, at + 10),
      crc: u32(b, at + 16),
      compressedSize: u32(b, at + 20),
      size: u32(b, at + 24),
      localOffset: u32(b, at + 42),
      start: 0,
      dataStart: 0,
      end: 0,
      nameBytes,
      localName: nameBytes,
    };
    at += 46 + nameLen + extraLen + commentLen;
    if (e.compressedSize === 0xffffffff || e.size === 0xffffffff || e.localOffset === 0xffffffff) throw broken(`entry "${name}" uses ZIP64, which is not supported`);
    const key = name.replace(/\\/g, '/');
    if (names.has(key)) throw defect(field, name, 'the name appears more than once in the archive', 'duplicate_entry');
    names.add(key);
    // The local header: its name must be the central directory's; its data follows its own name and extra field.
    const lo = e.localOffset;
    if (lo + 30 > cdOffset || u32(b, lo) !== 0x04034b50) throw defect(field, name, 'its local header is missing or broken', 'bad_local_header');
    const localNameLen = u16(b, lo + 26);
    const localExtraLen = u16(b, lo + 28);
    e.localName = b.subarray(lo + 30, lo + 30 + localNameLen);
    e.nameBytes = nameBytes;
    e.start = lo;
    e.dataStart = lo + 30 + localNameLen + localExtraLen;
    e.end = e.dataStart + e.compressedSize;
    if (e.end > cdOffset) throw defect(field, name, 'its compressed data runs past the end of the entries', 'bad_local_header');
    entries.push(e);
  }
  // No two entries may share bytes (a bomb points many entries at one compressed stream).
  const byStart = [...entries].sort((x, y) => x.start - y.start);
  for (let i = 1; i < byStart.length; i++) {
    const prev = byStart[i - 1]!;
    const cur = byStart[i]!;
    if (cur.start < prev.end) throw defect(field, cur.name, `its bytes overlap those of entry "${prev.name}"`, 'overlapping_entries');
  }
  for (const e of entries) {
    if (e.localName.length !== e.nameBytes.length || !e.localName.every((x, j) => x === e.nameBytes[j])) throw defect(field, e.name, 'its local header names another file', 'name_mismatch');
  }
  return entries;
}

function readZip(bytes: Uint8Array, field: string, work: ArchiveWork): ArchiveContents {
  const files: UploadFile[] = [];
  const notes: FileNotes = [];
  let other = 0;
  const total = { bytes: 0 };
  const entries = zipEntries(bytes, field);
  const kept: ZipEntry[] = [];
  for (const e of entries) {
    if (e.name.endsWith('/')) continue;
    normalisePath(e.name, `${field}: entry`); // refuse an escaping path even when it is not kept
    if (!TEXT_FILE.test(e.name)) {
      other += 1;
      continue;
    }
    if (e.flags & 1) throw defect(field, e.name, 'it is encrypted', 'encrypted_entry');
    if (e.method !== 0 && e.method !== 8) throw defect(field, e.name, `compression method ${e.method} is not supported (stored or deflate)`, 'unsupported_method');
    kept.push(e);
  }
  for (const e of kept) {
    const data = bytes.subarray(e.dataStart, e.end);
    let content: Uint8Array;
    const left = MAX_INPUT_BYTES - total.bytes;
    if (e.method === 0) {
      content = data; // stored: its real size is its compressed size
      if (content.length > left) throw tooLarge(field, 'the description files of the archive hold more than', MAX_INPUT_BYTES, MAX_INPUT_BYTES, 'max_input_bytes', e.name);
    } else {
      // A declared size over what is left is refused unread; a real size over the declared one stops the inflater there.
      if (e.size > left) throw tooLarge(field, 'declares more bytes than the description files of the archive may hold together:', MAX_INPUT_BYTES, MAX_INPUT_BYTES, 'max_input_bytes', e.name);
      const chunks: Uint8Array[] = [];
      let n: number;
      try {
        n = inflateCounted(data, false, e.size, work, (c) => chunks.push(c), (kind, produced) =>
          kind === 'size'
            ? defect(field, e.name, `it inflates past ${produced} bytes but declares ${e.size}`, 'false_size')
            : tooLarge(field, `inflated ${produced} bytes from ${data.length} compressed (more than ${MAX_ARCHIVE_RATIO}:1); an entry inflates to`, MAX_ARCHIVE_RATIO * data.length + ARCHIVE_RATIO_SLACK, MAX_ARCHIVE_RATIO * data.length + ARCHIVE_RATIO_SLACK, 'max_archive_ratio', e.name),
        );
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw defect(field, e.name, `its compressed data is broken: ${(err as Error).message}`, 'bad_compressed_data');
      }
      content = joined(chunks, n);
    }
    if (content.length !== e.size) throw defect(field, e.name, `it holds ${content.length} bytes but declares ${e.size}`, 'false_size');
    if ((crc32(content) >>> 0) !== e.crc) throw defect(field, e.name, `its CRC-32 is ${(crc32(content) >>> 0).toString(16).padStart(8, '0')}, the archive declares ${e.crc.toString(16).padStart(8, '0')}`, 'bad_crc');
    keep(e.name, content, files, total, field, notes);
  }
  return { files, notes, other_entries: other };
}

const cstr = (b: Uint8Array, from: number, len: number) => {
  let end = from;
  while (end < from + len && b[end] !== 0) end++;
  return Buffer.from(b.subarray(from, end)).toString('utf8');
};

function readTar(tar: Uint8Array, field: string): ArchiveContents {
  const files: UploadFile[] = [];
  const notes: FileNotes = [];
  const total = { bytes: 0 };
  let other = 0;
  let entries = 0;
  let longName: string | null = null;
  const seen = new Set<string>();
  let off = 0;
  while (off + 512 <= tar.length) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break; // end of archive
    if (++entries > MAX_ARCHIVE_ENTRIES) throw invalidInput(field, `the archive has more than ${MAX_ARCHIVE_ENTRIES} entries (limit max_archive_entries)`);
    const sizeText = cstr(h, 124, 12).trim();
    const size = /^[0-7]*$/.test(sizeText) ? parseInt(sizeText || '0', 8) : NaN;
    if (!Number.isFinite(size) || off + 512 + size > tar.length) throw invalidInput(field, 'not a readable .tar.gz archive (a header is broken or the data is cut short)');
    const type = String.fromCharCode(h[156] || 48);
    const prefix = cstr(h, 345, 155);
    let name = longName ?? (prefix ? `${prefix}/${cstr(h, 0, 100)}` : cstr(h, 0, 100));
    longName = null;
    const data = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = cstr(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(Buffer.from(data).toString('utf8'));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'g') continue;
    if (type === '5') continue; // directory
    if (name.startsWith('./')) name = name.slice(2);
    if (name === '' || name === '.') continue;
    const path = normalisePath(name, `${field}: entry`);
    if (seen.has(path)) throw defect(field, name, 'the name appears more than once in the archive', 'duplicate_entry');
    seen.add(path);
    if (type !== '0' && type !== '7') {
      other += 1; // links and devices are never followed
      continue;
    }
    if (!TEXT_FILE.test(path)) {
      other += 1;
      continue;
    }
    keep(path, data, files, total, field, notes);
  }
  return { files, notes, other_entries: other };
}

/**
 * The files of a .zip or .tar.gz package upload, every limit checked. `work`, when given, counts
 * the bytes the inflater actually produced (the refusals happen within one slice of a limit).
 */
export function readArchive(bytes: Uint8Array, field = 'body', work: ArchiveWork = { inflated_bytes: 0 }): ArchiveContents {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return readZip(bytes, field, work);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const chunks: Uint8Array[] = [];
    let n: number;
    try {
      n = inflateCounted(bytes, true, MAX_ARCHIVE_UNPACKED_BYTES, work, (c) => chunks.push(c), (kind, produced) =>
        kind === 'size'
          ? tooLarge(field, `the .tar.gz inflated past ${produced} bytes; it may unpack to`, MAX_ARCHIVE_UNPACKED_BYTES, MAX_ARCHIVE_UNPACKED_BYTES, 'max_archive_unpacked_bytes')
          : tooLarge(field, `the .tar.gz inflated ${produced} bytes from ${bytes.length} compressed (more than ${MAX_ARCHIVE_RATIO}:1); it may unpack to`, MAX_ARCHIVE_RATIO * bytes.length + ARCHIVE_RATIO_SLACK, MAX_ARCHIVE_RATIO * bytes.length + ARCHIVE_RATIO_SLACK, 'max_archive_ratio'),
      );
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw invalidInput(field, `not a readable .tar.gz archive: ${(err as Error).message}`);
    }
    return readTar(joined(chunks, n), field);
  }
  throw invalidInput(field, 'is neither a .zip nor a .tar.gz archive (send JSON with files, or one of those)');
}
