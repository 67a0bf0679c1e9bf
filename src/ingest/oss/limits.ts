/** Input limits of the extractors, and the collector of skipped items. */
import { DomainError } from '../../domain/shared/errors.js';
import type { SkipCode, Skipped } from './types.js';
import { parseXml, XmlError, type ParseOptions, type XmlElement } from './xml.js';

/** Largest input the extractors read: 2 MiB of UTF-8. */
export const MAX_INPUT_BYTES = 2 * 1024 * 1024;
/**
 * Request body limit of the routes that carry file content (extract, lint; /mcp for those tools):
 * a 2 MiB content as a JSON string (escaping at most doubles quotes, backslashes and line
 * breaks) plus the envelope. The content itself is checked at MAX_INPUT_BYTES exactly.
 */
export const MAX_REQUEST_BYTES = 2 * MAX_INPUT_BYTES + 64 * 1024;
/** Most records one extraction returns; the rest are counted as skipped (record_limit). */
export const MAX_RECORDS = 10_000;
/** Most skipped entries listed; counts.skipped always has the total. */
export const MAX_SKIPPED_LISTED = 200;

/** Throws payload_too_large naming the field when `content` exceeds MAX_INPUT_BYTES. */
export function assertInputSize(content: string, field = 'content'): void {
  // A string of n UTF-16 units is at most 3n UTF-8 bytes: skip the exact count when it cannot exceed.
  if (content.length * 3 <= MAX_INPUT_BYTES) return;
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_INPUT_BYTES) {
    throw new DomainError('payload_too_large', `${field}: is ${bytes} bytes of UTF-8; the extractors read at most ${MAX_INPUT_BYTES} bytes (2 MiB)`, {
      field,
      size_bytes: bytes,
      limit_bytes: MAX_INPUT_BYTES,
    });
  }
}

export class SkipLog {
  readonly listed: Skipped[] = [];
  total = 0;
  add(code: SkipCode, scope: Skipped['scope'], line: number | null, reason: string): void {
    this.total += 1;
    if (this.listed.length < MAX_SKIPPED_LISTED) this.listed.push({ code, scope, line, reason });
  }
}

/** Line lookup by offset (binary search over line starts). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  line(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** A short, single-line excerpt of input text for a skip reason. */
export function excerpt(s: string, max = 60): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return JSON.stringify(one.length > max ? `${one.slice(0, max)}…` : one);
}

/** The XML error as the details of an invalid_input refusal: line, column and the limit when one was exceeded. */
export function xmlErrorDetails(err: XmlError, field: string, file?: string): Record<string, unknown> {
  return { field, ...(file !== undefined ? { file } : {}), line: err.line, column: err.column, ...(err.limit ? { limit: err.limit, limit_value: err.limitValue } : {}) };
}

/** Parses `text` as XML; malformed XML or an XML limit throws invalid_input naming the field, line and column (and the limit). */
export function parseXmlInput(text: string, field = 'content', opts: ParseOptions = {}, file?: string): XmlElement {
  try {
    return parseXml(text, opts);
  } catch (err) {
    if (err instanceof XmlError) {
      const where = file !== undefined ? `${file}: ` : '';
      throw new DomainError('invalid_input', `${field}: ${where}${err.limit ? 'over an XML limit' : 'not well-formed XML'}: ${err.message}`, xmlErrorDetails(err, field, file));
    }
    throw err;
  }
}
