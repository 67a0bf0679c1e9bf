/** Bytes of a robot file -> text, the encoding read from the byte-order mark or the byte pattern. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

export interface Decoded {
  text: string;
  encoding: TextEncodingName;
  /** Whether the file starts with a byte-order mark. */
  bom: boolean;
  /** Invalid byte sequences replaced by U+FFFD (counted, never guessed). */
  replaced: number;
}

function decode(bytes: Uint8Array, encoding: TextEncodingName, bom: boolean): Decoded {
  const body = bytes.subarray(bom ? (encoding === 'utf-8' ? 3 : 2) : 0);
  let text: string;
  let replaced = 0;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    text = new TextDecoder(encoding, { fatal: false, ignoreBOM: true }).decode(body);
    for (const ch of text) if (ch === '\uFFFD') replaced += 1;
  }
  return { text, encoding, bom, replaced };
}

export function decodeText(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode(bytes, 'utf-8', true);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode(bytes, 'utf-16le', true);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode(bytes, 'utf-16be', true);
  // No BOM: UTF-16 text of mostly ASCII has a zero in every other byte.
  const n = Math.min(bytes.length, 1024) & ~1;
  if (n >= 4) {
    let evenZero = 0;
    let oddZero = 0;
    for (let i = 0; i < n; i += 2) {
      if (bytes[i] === 0) evenZero += 1;
      if (bytes[i + 1] === 0) oddZero += 1;
    }
    const half = n / 2;
    if (oddZero >= half * 0.4 && evenZero === 0) return decode(bytes, 'utf-16le', false);
    if (evenZero >= half * 0.4 && oddZero === 0) return decode(bytes, 'utf-16be', false);
  }
  return decode(bytes, 'utf-8', false);
}
