/**
 * Issue 39 (third attack round), findings N1 and N9: the archive reader counts the bytes it
 * actually inflates and trusts no declared size, offset, name or CRC. The hostile archives are
 * built here byte by byte (a small zip writer independent of the production reader), and the
 * work a refusal costs is the inflated byte count the reader reports, not a time.
 */
import { deflateRawSync, gzipSync, crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ARCHIVE_RATIO_SLACK, MAX_ARCHIVE_RATIO, MAX_ARCHIVE_UNPACKED_BYTES, readArchive, type ArchiveWork } from '../../src/ingest/oss/archive.js';
import { MAX_INPUT_BYTES } from '../../src/ingest/oss/limits.js';
import { DomainError } from '../../src/domain/shared/errors.js';
import { startTestServer } from '../support/http.js';
import { sampleEntities } from '../support/factory.js';

/** Deflate's best ratio (RFC 1951: a 258-byte match in about 2 bits): no slice of 1 KiB inflates to more than this many KiB. */
const DEFLATE_MAX_RATIO = 1032;
const SLICE_BOUND = 1024 * DEFLATE_MAX_RATIO;

interface Local {
  name: string;
  data: Uint8Array; // as stored (compressed when method 8)
  method: 0 | 8;
  crc: number;
  size: number;
}
interface Central {
  name: string;
  local: number; // index of the local record it points at
  method?: 0 | 8;
  crc?: number;
  size?: number;
  compressedSize?: number;
}

const le16 = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff]);
const le32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A zip of these local records and central-directory entries (which may point at any record, with any declared values). */
function zip(locals: Local[], centrals: Central[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const l of locals) {
    const name = Buffer.from(l.name);
    const head = Buffer.concat([le32(0x04034b50), le16(20), le16(0), le16(l.method), le16(0), le16(0), le32(l.crc), le32(l.data.length), le32(l.size), le16(name.length), le16(0), name]);
    offsets.push(at);
    parts.push(head, Buffer.from(l.data));
    at += head.length + l.data.length;
  }
  const cdStart = at;
  for (const c of centrals) {
    const l = locals[c.local]!;
    const name = Buffer.from(c.name);
    const rec = Buffer.concat([
      le32(0x02014b50), le16(20), le16(20), le16(0), le16(c.method ?? l.method), le16(0), le16(0),
      le32(c.crc ?? l.crc), le32(c.compressedSize ?? l.data.length), le32(c.size ?? l.size),
      le16(name.length), le16(0), le16(0), le16(0), le16(0), le32(0), le32(offsets[c.local]!), name,
    ]);
    parts.push(rec);
    at += rec.length;
  }
  parts.push(Buffer.concat([le32(0x06054b50), le16(0), le16(0), le16(centrals.length), le16(centrals.length), le32(at - cdStart), le32(cdStart), le16(0)]));
  return Buffer.concat(parts);
}

const deflated = (name: string, text: string | Buffer): Local => {
  const raw = typeof text === 'string' ? Buffer.from(text) : text;
  return { name, data: deflateRawSync(raw, { level: 9 }), method: 8, crc: crc32(raw) >>> 0, size: raw.length };
};
const plain = (locals: Local[]) => zip(locals, locals.map((l, i) => ({ name: l.name, local: i })));

/** The refusal `readArchive` throws, with the bytes it inflated before throwing. */
function refusal(bytes: Uint8Array): { err: DomainError; work: ArchiveWork } {
  const work: ArchiveWork = { inflated_bytes: 0 };
  try {
    readArchive(bytes, 'body', work);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return { err: err as DomainError, work };
  }
  throw new Error('the archive was accepted');
}

const ROBOT = '<robot name="r"><link name="base"/></robot>\n';

/** A 100 MB run of zeros as one deflate stream (about 97 KB). */
const ZEROS = Buffer.alloc(100 * 1024 * 1024);
const zeroStream = deflateRawSync(ZEROS, { level: 9 });

describe('finding N1: a small zip cannot make the reader inflate more than the limits', () => {
  it('finding N1: the 99 KB zip of one deflate stream of zeros behind 40 entries is refused as overlapping before a byte is inflated', () => {
    const bomb = zip(
      [{ name: 'f0.urdf', data: zeroStream, method: 8, crc: crc32(ZEROS) >>> 0, size: 1000 }],
      Array.from({ length: 40 }, (_, i) => ({ name: `f${i}.urdf`, local: 0 })),
    );
    expect(bomb.length).toBeLessThan(110 * 1024);
    const { err, work } = refusal(bomb);
    expect(err.code).toBe('invalid_input');
    expect(err.details).toMatchObject({ field: 'body', defect: 'overlapping_entries' });
    expect(err.message).toMatch(/entry "f\d+\.urdf": its bytes overlap those of entry "f\d+\.urdf"/);
    expect(work.inflated_bytes).toBe(0);
  });

  it('finding N1: entries pointing into the middle of another entry\'s data (partial overlap) are refused too', () => {
    const a = deflated('a.urdf', ROBOT.repeat(50));
    const b = zip([a], [
      { name: 'a.urdf', local: 0 },
      { name: 'b.urdf', local: 0, compressedSize: 4 },
    ]);
    expect(refusal(b).err.details).toMatchObject({ defect: 'overlapping_entries' });
  });

  it('finding N1: one entry of 100 MB of zeros declaring 1,000 bytes stops within one slice of its declared size, as false_size', () => {
    const { err, work } = refusal(plain([{ name: 'z.urdf', data: zeroStream, method: 8, crc: 0, size: 1000 }]));
    expect(err.code).toBe('invalid_input');
    expect(err.details).toMatchObject({ entry: 'z.urdf', defect: 'false_size' });
    expect(err.message).toMatch(/entry "z\.urdf": it inflates past \d+ bytes but declares 1000/);
    // Bounded work: the declared 1,000 bytes plus what one slice can produce, never the 100 MB.
    expect(work.inflated_bytes).toBeLessThanOrEqual(1000 + SLICE_BOUND);
  });

  it('finding N1: an entry declaring more than the limit is refused without inflating it', () => {
    const { err, work } = refusal(plain([{ name: 'z.urdf', data: zeroStream, method: 8, crc: crc32(ZEROS) >>> 0, size: ZEROS.length }]));
    expect(err.code).toBe('payload_too_large');
    expect(err.details).toMatchObject({ entry: 'z.urdf', limit: 'max_input_bytes' });
    expect(work.inflated_bytes).toBe(0);
  });

  it('finding N1: 40 separate zero streams (each legal alone) are stopped by the total, counted in real bytes', () => {
    const z = Buffer.alloc(300 * 1024);
    const one = deflateRawSync(z, { level: 9 }); // ~300 bytes -> ratio far above the cap
    const small = deflateRawSync(Buffer.alloc(60 * 1024)); // within the ratio slack: only the total can stop these
    const locals: Local[] = Array.from({ length: 40 }, (_, i) => ({ name: `p${i}.urdf`, data: small, method: 8, crc: crc32(Buffer.alloc(60 * 1024)) >>> 0, size: 60 * 1024 }));
    const { err, work } = refusal(plain(locals));
    expect(err.code).toBe('payload_too_large');
    expect(err.details.limit).toBe('max_input_bytes');
    expect(work.inflated_bytes).toBeLessThanOrEqual(MAX_INPUT_BYTES + SLICE_BOUND);
    // The ratio: 300 KB from ~300 bytes is refused as soon as it passes 200:1 plus the slack.
    const r = refusal(plain([{ name: 'r.urdf', data: one, method: 8, crc: crc32(z) >>> 0, size: z.length }]));
    expect(r.err.details).toMatchObject({ limit: 'max_archive_ratio', entry: 'r.urdf' });
    expect(r.work.inflated_bytes).toBeLessThanOrEqual(MAX_ARCHIVE_RATIO * one.length + ARCHIVE_RATIO_SLACK + SLICE_BOUND);
  });

  it('finding N1: a .tar.gz of zeros is stopped by its real inflated bytes (ratio), not after unpacking it all', () => {
    const gz = gzipSync(ZEROS, { level: 9 });
    const { err, work } = refusal(gz);
    expect(err.code).toBe('payload_too_large');
    expect(err.details.limit).toBe('max_archive_ratio');
    expect(work.inflated_bytes).toBeLessThanOrEqual(MAX_ARCHIVE_RATIO * gz.length + ARCHIVE_RATIO_SLACK + SLICE_BOUND);
    expect(work.inflated_bytes).toBeLessThan(MAX_ARCHIVE_UNPACKED_BYTES);
  });

  it('finding N1: over REST, the 99 KB bomb gets 400 naming the defect and the server keeps answering', async () => {
    const srv = await startTestServer(sampleEntities());
    try {
      const bomb = zip(
        [{ name: 'f0.urdf', data: zeroStream, method: 8, crc: crc32(ZEROS) >>> 0, size: 1000 }],
        Array.from({ length: 40 }, (_, i) => ({ name: `f${i}.urdf`, local: 0 })),
      );
      const r = await fetch(`${srv.url}/api/oss/extract?entry=f0.urdf`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: new Uint8Array(bomb) });
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ code: 'invalid_input', defect: 'overlapping_entries', field: 'body' });
      expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });
});

describe('finding N9: zip entries are read as they are, not as their headers say', () => {
  it('finding N9: a duplicate name is refused (zip and tar), naming the entry', () => {
    const a = deflated('robot.urdf', ROBOT);
    const b = deflated('robot.urdf', '<robot name="other"/>');
    expect(refusal(plain([a, b])).err.details).toMatchObject({ defect: 'duplicate_entry', entry: 'robot.urdf' });
    // tar: two headers naming one file.
    const header = (name: string, size: number) => {
      const h = Buffer.alloc(512);
      h.write(name, 0);
      h.write(size.toString(8).padStart(11, '0'), 124);
      h.write('0', 156);
      return h;
    };
    const body = Buffer.alloc(512);
    body.write(ROBOT);
    const tar = Buffer.concat([header('robot.urdf', ROBOT.length), body, header('robot.urdf', ROBOT.length), body, Buffer.alloc(1024)]);
    expect(refusal(gzipSync(tar)).err.details).toMatchObject({ defect: 'duplicate_entry', entry: 'robot.urdf' });
  });

  it('finding N9: a declared size smaller or larger than the real one is refused as false_size (not cut into malformed XML)', () => {
    const real = deflated('robot.urdf', ROBOT);
    for (const size of [10, ROBOT.length + 7]) {
      const { err } = refusal(zip([real], [{ name: 'robot.urdf', local: 0, size }]));
      expect(err.details).toMatchObject({ defect: 'false_size', entry: 'robot.urdf' });
      // Too small: the inflater stops past the declared size; too large: the real size is named.
      expect(err.message).toMatch(size < ROBOT.length ? new RegExp(`inflates past \\d+ bytes but declares ${size}`) : new RegExp(`holds ${ROBOT.length} bytes but declares ${size}`));
    }
    // Stored (method 0) entries too.
    const stored: Local = { name: 's.urdf', data: Buffer.from(ROBOT), method: 0, crc: crc32(Buffer.from(ROBOT)) >>> 0, size: ROBOT.length };
    expect(refusal(zip([stored], [{ name: 's.urdf', local: 0, size: 5 }])).err.details).toMatchObject({ defect: 'false_size' });
  });

  it('finding N9: a wrong CRC-32 is refused as bad_crc, naming both values', () => {
    const real = deflated('robot.urdf', ROBOT);
    const wrong = (real.crc ^ 1) >>> 0;
    const { err } = refusal(zip([real], [{ name: 'robot.urdf', local: 0, crc: wrong }]));
    expect(err.details).toMatchObject({ defect: 'bad_crc', entry: 'robot.urdf' });
    expect(err.message).toContain(real.crc.toString(16).padStart(8, '0'));
    expect(err.message).toContain(wrong.toString(16).padStart(8, '0'));
  });

  it('finding N9: a sound archive still reads (deflate and stored, meshes only counted)', () => {
    const stored: Local = { name: 'pkg/b.xacro', data: Buffer.from(ROBOT), method: 0, crc: crc32(Buffer.from(ROBOT)) >>> 0, size: ROBOT.length };
    const mesh: Local = { name: 'pkg/m.stl', data: Buffer.from('solid x'), method: 0, crc: 0, size: 999 }; // never read: its lies do not matter
    const out = readArchive(plain([deflated('pkg/a.urdf', ROBOT), stored, mesh]));
    expect(out.files).toEqual([
      { path: 'pkg/a.urdf', content: ROBOT },
      { path: 'pkg/b.xacro', content: ROBOT },
    ]);
    expect(out.other_entries).toBe(1);
  });
});
