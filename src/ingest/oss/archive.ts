/**
 * A package upload as an archive: .zip (fflate) or .tar.gz (node's zlib and a small ustar reader:
 * 512-byte headers, pax and GNU long names). Only the description's text files are kept
 * (.xacro, .urdf, .xml, .yaml, .yml, .gazebo, .transmission, .trans); meshes and everything else
 * are counted, never decompressed (zip) or kept (tar). Limits: the archive's size is the route's
 * body limit; at most MAX_ARCHIVE_ENTRIES entries; a tar.gz unpacks to at most
 * MAX_ARCHIVE_UNPACKED_BYTES; the kept text at most MAX_INPUT_BYTES together (the same limit as
 * content and files); paths are checked as `files` paths are (no '..', no absolute path, depth).
 */
import { gunzipSync } from 'node:zlib';
import { lazyRequire } from '../../lazy-require.js';
import { DomainError, invalidInput } from '../../domain/shared/errors.js';
import { decodeText } from './decode.js';
import { MAX_INPUT_BYTES } from './limits.js';
import { normalisePath, type UploadFile } from './package.js';

/** fflate, loaded by the first zip archive (src/lazy-require.ts). */
const fflate = lazyRequire<typeof import('fflate')>('fflate');

export const MAX_ARCHIVE_ENTRIES = 10_000;
/** A .tar.gz is unpacked whole (tar has no index); its unpacked size is capped here. */
export const MAX_ARCHIVE_UNPACKED_BYTES = 64 * 1024 * 1024;
const TEXT_FILE = /(\.xacro|\.urdf|\.xml|\.ya?ml|\.gazebo|\.transmission|\.trans)$/i;

export interface ArchiveContents {
  files: UploadFile[];
  /** Entries not kept (meshes, images, other files). */
  other_entries: number;
}

const tooLarge = (field: string, what: string, size: number, limit: number, name: string) =>
  new DomainError('payload_too_large', `${field}: ${what} ${size} bytes; at most ${limit} (limit ${name})`, { field, size_bytes: size, limit_bytes: limit, limit: name });

function keep(path: string, bytes: Uint8Array, out: UploadFile[], total: { bytes: number }, field: string): void {
  total.bytes += bytes.length;
  if (total.bytes > MAX_INPUT_BYTES) throw tooLarge(field, 'the description files of the archive hold more than', MAX_INPUT_BYTES, MAX_INPUT_BYTES, 'max_input_bytes');
  out.push({ path: normalisePath(path, `${field}: entry`), content: decodeText(bytes).text });
}

function readZip(bytes: Uint8Array, field: string): ArchiveContents {
  const files: UploadFile[] = [];
  let entries = 0;
  let other = 0;
  let declared = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = fflate().unzipSync(bytes, {
      filter: (f) => {
        if (++entries > MAX_ARCHIVE_ENTRIES) throw invalidInput(field, `the archive has more than ${MAX_ARCHIVE_ENTRIES} entries (limit max_archive_entries)`);
        if (f.name.endsWith('/')) return false;
        normalisePath(f.name, `${field}: entry`); // refuse an escaping path even when it is not kept
        if (!TEXT_FILE.test(f.name)) {
          other += 1;
          return false;
        }
        declared += f.originalSize;
        if (declared > MAX_INPUT_BYTES) throw tooLarge(field, 'the description files of the archive hold more than', MAX_INPUT_BYTES, MAX_INPUT_BYTES, 'max_input_bytes');
        return true;
      },
    });
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw invalidInput(field, `not a readable .zip archive: ${(err as Error).message}`);
  }
  const total = { bytes: 0 };
  for (const [name, data] of Object.entries(unzipped)) keep(name, data, files, total, field);
  return { files, other_entries: other };
}

const cstr = (b: Uint8Array, from: number, len: number) => {
  let end = from;
  while (end < from + len && b[end] !== 0) end++;
  return Buffer.from(b.subarray(from, end)).toString('utf8');
};

function readTar(tar: Uint8Array, field: string): ArchiveContents {
  const files: UploadFile[] = [];
  const total = { bytes: 0 };
  let other = 0;
  let entries = 0;
  let longName: string | null = null;
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
    if (type !== '0' && type !== '7') {
      other += 1; // links and devices are never followed
      continue;
    }
    if (!TEXT_FILE.test(path)) {
      other += 1;
      continue;
    }
    keep(path, data, files, total, field);
  }
  return { files, other_entries: other };
}

/** The files of a .zip or .tar.gz package upload, every limit checked. */
export function readArchive(bytes: Uint8Array, field = 'body'): ArchiveContents {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return readZip(bytes, field);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    let tar: Buffer;
    try {
      tar = gunzipSync(bytes, { maxOutputLength: MAX_ARCHIVE_UNPACKED_BYTES });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw tooLarge(field, 'the .tar.gz unpacks to more than', MAX_ARCHIVE_UNPACKED_BYTES, MAX_ARCHIVE_UNPACKED_BYTES, 'max_archive_unpacked_bytes');
      }
      throw invalidInput(field, `not a readable .tar.gz archive: ${(err as Error).message}`);
    }
    return readTar(tar, field);
  }
  throw invalidInput(field, 'is neither a .zip nor a .tar.gz archive (send JSON with files, or one of those)');
}
