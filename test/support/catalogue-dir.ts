/**
 * Data folders like the shipped one whose catalogue is the shipped records several times over
 * (ids suffixed), for the tests of large catalogues: every other shipped folder linked, the
 * catalogue written in the order and spacing asked. Removed by removeCatalogueDirs().
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rng } from './rng.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
export const shipped = JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { meta: Record<string, unknown>; entities: Record<string, unknown>[] };

const dirs: string[] = [];

/** Id order as the catalogue defines it, computed here: case-insensitive, then by code unit. */
export const idOrder = (a: string, b: string): number => {
  const [la, lb] = [a.toLowerCase(), b.toLowerCase()];
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

export interface CatalogueDirOptions {
  /** The shipped records this many times (copy k's ids suffixed `-<suffix><k>`). */
  copies: number;
  /** Shuffled (with `seed`), or sorted in id order. */
  order: 'shuffled' | 'sorted';
  seed?: number;
  suffix?: string;
  /** Pretty-printed (records at other offsets and with other separators than the compact file's). */
  pretty?: boolean;
}

export function catalogueDir(o: CatalogueDirOptions): { dir: string; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  for (let k = 0; k < o.copies; k++) for (const e of shipped.entities) records.push(k === 0 ? e : { ...e, id: `${String(e.id)}-${o.suffix ?? 'L'}${k}` });
  if (o.order === 'sorted') records.sort((a, b) => idOrder(String(a.id), String(b.id)));
  else {
    const next = rng(o.seed ?? 7);
    for (let i = records.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [records[i], records[j]] = [records[j]!, records[i]!];
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-catalogue-'));
  dirs.push(dir);
  for (const name of fs.readdirSync(DATA)) if (name !== 'catalogue') fs.symlinkSync(path.join(DATA, name), path.join(dir, name));
  fs.mkdirSync(path.join(dir, 'catalogue'));
  fs.copyFileSync(path.join(DATA, 'catalogue/categories.json'), path.join(dir, 'catalogue/categories.json'));
  fs.writeFileSync(path.join(dir, 'catalogue/entities.json'), JSON.stringify({ meta: shipped.meta, entities: records }, null, o.pretty ? 2 : undefined));
  return { dir, records };
}

export function removeCatalogueDirs(): void {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
