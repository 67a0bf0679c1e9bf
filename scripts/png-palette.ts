/**
 * A screenshot (an 8-bit RGB(A) PNG, as Chromium writes) as an indexed PNG of at most `colors` colours (2, 4, 16 or
 * 256 entries; 1-, 2-, 4- or 8-bit pixels): the most frequent colours, each kept only when it is not
 * close to one already kept, so that a link's blue survives beside the greys of anti-aliased text;
 * every pixel takes the nearest. For docs/ screenshots (scripts/page-shots.ts): text pages become a
 * third to a half of Chromium's RGBA file.
 */
import { deflateSync, inflateSync } from 'node:zlib';

/** An 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's screenshots are) as RGBA pixels. */
function readPng(png: Buffer): { width: number; height: number; data: Uint8Array } {
  let off = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    const body = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0) throw new Error('readPng: only 8-bit RGB(A), non-interlaced');
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const cur = new Uint8Array(stride);
  const prev = new Uint8Array(stride);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      cur[i] = (row[i]! + pred) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      data.set(cur.subarray(x * channels, x * channels + 3), (y * width + x) * 4);
      data[(y * width + x) * 4 + 3] = channels === 4 ? cur[x * 4 + 3]! : 255;
    }
    prev.set(cur);
  }
  return { width, height, data };
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

export function palettePng(png: Buffer, colors = 16): Buffer {
  const { width, height, data } = readPng(png);
  const key = (i: number) => ((data[i]! >> 3) << 10) | ((data[i + 1]! >> 3) << 5) | (data[i + 2]! >> 3);
  const count = new Map<number, number>();
  for (let i = 0; i < data.length; i += 4) {
    const k = key(i);
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  const rgb = (k: number) => [((k >> 10) & 31) * 8 + 4, ((k >> 5) & 31) * 8 + 4, (k & 31) * 8 + 4] as const;
  const dist = (a: readonly number[], b: readonly number[]) => (a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2;
  const ranked = [...count.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => rgb(k));
  const palette: (readonly number[])[] = [];
  for (const min of [48 * 48, 24 * 24, 0]) {
    for (const c of ranked) {
      if (palette.length >= colors) break;
      if (palette.every((p) => dist(p, c) > min)) palette.push(c);
    }
  }
  const depth = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
  const nearest = new Map<number, number>();
  const indexOf = (i: number) => {
    const k = key(i);
    let n = nearest.get(k);
    if (n === undefined) {
      const c = rgb(k);
      n = 0;
      for (let j = 1; j < palette.length; j++) if (dist(palette[j]!, c) < dist(palette[n]!, c)) n = j;
      nearest.set(k, n);
    }
    return n;
  };
  const stride = Math.ceil((width * depth) / 8);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1; // filter byte 0 (none) before each row
    for (let x = 0; x < width; x++) {
      const bit = x * depth;
      raw[row + (bit >> 3)] |= indexOf((y * width + x) * 4) << (8 - depth - (bit & 7));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = 3; // indexed colour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
