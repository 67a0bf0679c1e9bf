/**
 * Manufacturer names, normalised: one canonical name per company, its aliases (other written
 * forms of the same company) and its brands, each with evidence (data/manufacturers.json).
 * Names match after folding case, width, spaces and punctuation; a name not in the table is its
 * own canonical name. Placeholders ("多家", "Various", "Community", ...) name no manufacturer.
 */
import { z } from 'zod';

const Evidence = z
  .object({
    kind: z.enum(['record', 'vendor_listing', 'written_form', 'shared_model', 'oss_line', 'public_source']),
    id: z.string().optional(),
    source_url: z.string().optional(),
    /** public_source: the public pages that name the maker and its models (cited, never copied). */
    source_urls: z.array(z.string().url()).optional(),
    line: z.number().int().optional(),
    ids: z.array(z.string()).optional(),
    host: z.string().optional(),
    models: z.array(z.string()).optional(),
    text: z.string().optional(),
    note: z.string(),
  })
  .strict();
export type ManufacturerEvidence = z.infer<typeof Evidence>;

export const ManufacturersFile = z
  .object({
    meta: z.object({ name: z.string(), description: z.string(), license: z.string(), basis: z.string() }).strict(),
    placeholders: z.array(z.string().min(1)),
    companies: z.array(
      z
        .object({
          canonical: z.string().min(1),
          aliases: z.array(z.object({ name: z.string().min(1), evidence: Evidence }).strict()),
          brands: z.array(z.object({ name: z.string().min(1), evidence: Evidence }).strict()),
          /** Product lines and model-code prefixes the company sells under (DYNAMIXEL, STS). */
          families: z.array(z.object({ name: z.string().min(1), evidence: Evidence }).strict()),
          /**
           * Model codes a public source attributes to the company ("J4340P-2EC"), with the forms
           * they are written in ("DM-J4340P-2EC", "DM 4340P"): a form matches only as whole tokens
           * ("DM 4340" is not "DM 4340P").
           */
          models: z.array(z.object({ code: z.string().min(1), forms: z.array(z.string().min(1)), evidence: Evidence }).strict()).optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type ManufacturersFile = z.infer<typeof ManufacturersFile>;

export interface ManufacturerReading {
  /** The name as written on the record. */
  written: string;
  /** The company's canonical name (the owning company for a brand). */
  canonical: string;
  /** How the written form relates to the canonical name. */
  relation: 'canonical' | 'alias' | 'brand' | 'unlisted';
  /** The brand the record names, when it is a brand of the company. */
  brand: string | null;
  evidence: ManufacturerEvidence | null;
}

export const foldName = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

export interface ManufacturerTable {
  file: ManufacturersFile;
  read(name: string | null): ManufacturerReading | null;
  isPlaceholder(name: string): boolean;
}

export function parseManufacturers(raw: unknown): ManufacturerTable {
  const file = ManufacturersFile.parse(raw);
  const byFold = new Map<string, ManufacturerReading>();
  const add = (name: string, r: Omit<ManufacturerReading, 'written'>) => {
    const k = foldName(name);
    const prev = byFold.get(k);
    if (prev && prev.canonical !== r.canonical) throw new Error(`manufacturers: "${name}" is claimed by ${prev.canonical} and ${r.canonical}`);
    byFold.set(k, { written: name, ...r });
  };
  for (const c of file.companies) {
    add(c.canonical, { canonical: c.canonical, relation: 'canonical', brand: null, evidence: null });
    for (const a of c.aliases) add(a.name, { canonical: c.canonical, relation: 'alias', brand: null, evidence: a.evidence });
    for (const b of c.brands) add(b.name, { canonical: c.canonical, relation: 'brand', brand: b.name, evidence: b.evidence });
  }
  const placeholders = new Set(file.placeholders.map(foldName));
  return {
    file,
    isPlaceholder: (name) => placeholders.has(foldName(name)),
    read(name) {
      if (name === null || name.trim() === '' || placeholders.has(foldName(name))) return null;
      const hit = byFold.get(foldName(name));
      if (!hit) return { written: name, canonical: name, relation: 'unlisted', brand: null, evidence: null };
      return { ...hit, written: name };
    },
  };
}

/** The names a company is written as (canonical, aliases, brands), for stripping from product names. */
export function companyForms(t: ManufacturerTable, canonical: string): string[] {
  const c = t.file.companies.find((x) => x.canonical === canonical);
  if (!c) return [canonical];
  return [c.canonical, ...c.aliases.map((a) => a.name), ...c.brands.map((b) => b.name)];
}
