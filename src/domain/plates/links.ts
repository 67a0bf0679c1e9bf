/**
 * Addresses of a plate design: MCP resource URIs robotparts://plates/<a>/<b>/<variant>.<ext> and
 * REST URLs /api/adapter-plate?a=&b=&format=. A URI carries everything the design is made from
 * (the two registered designations, the hole option, a thickness override), so any instance can
 * answer it: nothing is stored.
 */
import { PLATE_FORMATS, PLATE_HOLE_OPTIONS, type PlateFormat, type PlateHoleOption, type PlatePointer } from './schema.js';
import { platePageUrl } from '../shared/page-urls.js';

export const PLATE_URI_PREFIX = 'robotparts://plates/';
export const PLATE_REST_PATH = '/api/adapter-plate';

export const PLATE_MEDIA_TYPES: Record<PlateFormat, string> = {
  json: 'application/json',
  stl: 'model/stl',
  '3mf': 'model/3mf',
  scad: 'application/x-openscad',
};

export interface PlateKey {
  a: string;
  b: string;
  b_holes: PlateHoleOption;
  thickness_mm: number | null;
}

const variant = (k: PlateKey) => `${k.b_holes}${k.thickness_mm !== null ? `-t${k.thickness_mm}` : ''}`;

/** File name: adapter-plate_<a>_<b>_<variant>.<ext> (designations with only file-safe characters). */
export function plateFileName(k: PlateKey, format: PlateFormat): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '-');
  return `adapter-plate_${safe(k.a)}_${safe(k.b)}_${variant(k)}.${format}`;
}

export function plateUri(k: PlateKey, format: PlateFormat): string {
  return `${PLATE_URI_PREFIX}${encodeURIComponent(k.a)}/${encodeURIComponent(k.b)}/${variant(k)}.${format}`;
}

export function plateUrl(baseUrl: string | null, k: PlateKey, format: PlateFormat): string | null {
  if (baseUrl === null) return null;
  const q = new URLSearchParams({ a: k.a, b: k.b });
  if (k.b_holes !== 'tapped') q.set('b_holes', k.b_holes);
  if (k.thickness_mm !== null) q.set('thickness_mm', String(k.thickness_mm));
  q.set('format', format);
  return `${baseUrl.replace(/\/$/, '')}${PLATE_REST_PATH}?${q.toString()}`;
}

/** The key and format of a plate URI, or null when the URI is not one. */
export function parsePlateUri(uri: string): (PlateKey & { format: PlateFormat }) | null {
  if (!uri.startsWith(PLATE_URI_PREFIX)) return null;
  const parts = uri.slice(PLATE_URI_PREFIX.length).split('/');
  if (parts.length !== 3) return null;
  const m = /^(tapped|nut)(?:-t(\d+(?:\.\d+)?))?\.(json|stl|3mf|scad)$/.exec(parts[2]!);
  if (!m) return null;
  try {
    const a = decodeURIComponent(parts[0]!);
    const b = decodeURIComponent(parts[1]!);
    if (!a || !b) return null;
    if (!(PLATE_HOLE_OPTIONS as readonly string[]).includes(m[1]!) || !(PLATE_FORMATS as readonly string[]).includes(m[3]!)) return null;
    return { a, b, b_holes: m[1] as PlateHoleOption, thickness_mm: m[2] !== undefined ? Number(m[2]) : null, format: m[3] as PlateFormat };
  } catch {
    return null;
  }
}

/** The pointer to the plate of an adapter_required pair (default hole option, rule thickness). */
export function platePointer(baseUrl: string | null, a: string, b: string): PlatePointer {
  const k: PlateKey = { a, b, b_holes: 'tapped', thickness_mm: null };
  const p: PlatePointer = { tool: 'design_adapter_plate', arguments: { a, b }, uri: plateUri(k, 'json'), url: plateUrl(baseUrl, k, 'json') };
  if (baseUrl !== null) p.page_url = platePageUrl(baseUrl, a, b);
  return p;
}
