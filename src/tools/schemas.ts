/** Schema pieces shared by several tools, defined once. */
import { z } from 'zod';
import { invalidInput } from '../domain/shared/errors.js';
import { SummaryEntity } from '../domain/catalogue/entity.js';

export const ATTRIBUTION = 'Data: RoboParts (https://roboparts.cc), CC BY 4.0';
export const LICENSE = 'CC BY 4.0';

/** Ids of the open-source compatibility layer (OSS-<SOURCE_ID>-<NNN>, OSS-LIVE-<hex>); the catalogue has no OSS- prefix. */
export function isOssLayerId(id: string): boolean {
  return /^OSS-/i.test(id);
}

/**
 * Licence and attribution of one record's data: the RoboParts catalogue's, or, for an
 * open-source-layer record, its source file's licence and URL (RoboParts is not the source there).
 */
export function recordMeta(e: { id: string; source_license: string | null; source_urls: string[] }): { license: string; attribution: string } {
  if (!isOssLayerId(e.id)) return { license: LICENSE, attribution: ATTRIBUTION };
  const license = e.source_license ?? 'not stated';
  return { license, attribution: `Open-source robot compatibility layer: extracted from ${e.source_urls[0] ?? 'its source file'} (${license})` };
}

export const EntityId = z.string().min(1).max(200).describe('Entity id, e.g. "ACT-001"');

// No minimum: an empty or blank key counts as "not presented" (missing_credentials), the same on every surface.
export const ApiKey = z
  .string()
  .max(300)
  .describe('gtk_... key, else the transport\'s');

export const Cursor = z.string().max(200).describe('A previous page\'s next_cursor');

/** page_url: the HTML page of a part, robot or plate (src/domain/shared/page-urls.ts); absent without a base URL. */
export const PageUrl = z.string().optional();

export const NextCursor = z.string().nullable().describe('null on the last page');

export const Category = z.string().min(1).max(100).describe('Slug ("actuators") or spec name');

export const DatasetMeta = z.object({
  license: z.string(),
  attribution: z.string(),
  dataset_version: z.string(),
});

export const Summary = SummaryEntity;

/** How many of the records, from the first, fit in `budget` characters of JSON (at least one). */
export function recordsWithin(records: readonly unknown[], budget: number): number {
  let used = 0;
  for (let i = 0; i < records.length; i++) {
    used += JSON.stringify(records[i]).length + 1;
    if (used > budget) return Math.max(1, i);
  }
  return records.length;
}

/** Cursors made so far, by offset (a page boundary: few distinct ones). */
const cursorOf = new Map<number, string>();
const CURSORS_KEPT = 4096;

export function encodeCursor(offset: number): string {
  let c = cursorOf.get(offset);
  if (c === undefined) {
    c = Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
    if (cursorOf.size < CURSORS_KEPT) cursorOf.set(offset, c);
  }
  return c;
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0) return v.o;
  } catch {
    /* fall through */
  }
  throw invalidInput('cursor', 'is not a cursor returned by this service');
}

/** The named fields of a record (id always kept), in the record's own order. */
export function pickFields<T extends { id: string }>(record: T, fields: readonly string[]): Partial<T> & { id: string } {
  const keep = new Set(['id', ...fields]);
  return Object.fromEntries(Object.entries(record).filter(([k]) => keep.has(k))) as Partial<T> & { id: string };
}

/** Where else a name occurs when a query finds nothing, with the call that shows it (src/domain/catalogue/elsewhere.ts). */
export const ElsewhereSchema = z
  .array(
    z
      .object({
        where: z.enum(['quarantined', 'other_name', 'open_source_layer', 'catalogue', 'close_spelling']),
        count: z.number().int(),
        call: z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }).strict(),
        note: z.string(),
      })
      .strict(),
  );
