/**
 * Supplier suggestions from the registry in data/suppliers.json (facts from the RoboParts seed:
 * channel names and URLs). A manufacturer's official store is suggested only when that
 * manufacturer is registered; nothing is ever made up for an unknown manufacturer. Keyword and
 * category matches are general channels for that kind of part, labelled as such; a category match
 * never suggests another brand's official store (ROBOTIS is not a channel for a Maxon motor).
 */
import { z } from 'zod';
import { DataEvidence } from '../knowledge/evidence.js';
import type { LineSuppliers, SupplierSuggestion } from './schema.js';
import { PARSE_ONCE } from '../shared/parse-once.js';

/** A channel's role: manufacturer = the brand's official store; tool_maker = makes bus tools and interfaces (never a distributor of other makers' parts). */
export const CHANNEL_KINDS = ['manufacturer', 'distributor', 'marketplace', 'print_service', 'printer_maker', 'tool_maker'] as const;

export const SupplierChannel = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    name_zh: z.string().nullable(),
    url: z.url(),
    kind: z.enum(CHANNEL_KINDS),
    evidence: DataEvidence.describe('The source record the channel and its role come from'),
  })
  .strict();
export type SupplierChannel = z.infer<typeof SupplierChannel>;

export const SupplierRegistry = z
  .object({
    meta: z
      .object({
        name: z.string(),
        version: z.string(),
        schema: z.literal('suppliers/v1'),
        source: z.string(),
        license: z.string(),
        license_url: z.string(),
        attribution: z.string(),
        scope: z.string(),
        derivation: z.record(z.string(), z.string()),
        corrections: z.array(z.object({ channel: z.string(), upstream_name: z.string(), reason: z.string() }).strict()),
      })
      .strict(),
    channels: z.array(SupplierChannel).min(1),
    by_category: z.record(z.string(), z.array(z.string())),
    category_aliases: z.record(z.string(), z.string()),
    by_keyword: z.record(z.string(), z.array(z.string())),
    by_manufacturer: z.array(z.object({ channel: z.string(), names: z.array(z.string().min(1)).min(1) }).strict()),
  })
  .strict()
  .superRefine((r, ctx) => {
    const ids = new Set<string>();
    for (const c of r.channels) {
      if (ids.has(c.id)) ctx.addIssue({ code: 'custom', message: `duplicate channel id ${c.id}`, path: ['channels'] });
      ids.add(c.id);
    }
    const check = (list: string[], where: string) => {
      for (const id of list) if (!ids.has(id)) ctx.addIssue({ code: 'custom', message: `unknown channel ${id} in ${where}`, path: [where] });
    };
    for (const [k, v] of Object.entries(r.by_category)) check(v, `by_category.${k}`);
    for (const [k, v] of Object.entries(r.by_keyword)) check(v, `by_keyword.${k}`);
    check(
      r.by_manufacturer.map((m) => m.channel),
      'by_manufacturer',
    );
    for (const [alias, target] of Object.entries(r.category_aliases)) {
      if (!(target in r.by_category)) ctx.addIssue({ code: 'custom', message: `alias ${alias} -> unknown category ${target}`, path: ['category_aliases'] });
    }
  });
export type SupplierRegistry = z.infer<typeof SupplierRegistry>;

export function parseSupplierRegistry(json: unknown): SupplierRegistry {
  return SupplierRegistry.parse(json, PARSE_ONCE);
}



/** Lowercase, NFKC, every run of non-letters/digits -> one space. */
export function normaliseName(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/** A registered name matches the whole manufacturer string or its leading words ("Unitree Robotics (China)" ~ "Unitree"). */
function manufacturerMatches(manufacturer: string, registered: string): boolean {
  const m = normaliseName(manufacturer);
  const k = normaliseName(registered);
  if (!k || !m) return false;
  if (m === k || m.startsWith(`${k} `)) return true;
  // CJK names have no word breaks: "宇树科技" begins with the registered "宇树".
  return CJK_END.test(k) && m.startsWith(k);
}

export interface SupplierQuery {
  /** Manufacturer names to try (item's and catalogue record's), in order. */
  manufacturers: (string | null | undefined)[];
  /** Categories to try (item's and catalogue record's). */
  categories: (string | null | undefined)[];
  /** Texts searched for registry keywords as whole tokens (name, specs, type, protocol, interface). */
  texts: (string | null | undefined)[];
}

export interface SupplierIndex {
  registry: SupplierRegistry;
  channel: (id: string) => SupplierChannel;
}

export function supplierIndex(registry: SupplierRegistry): SupplierIndex {
  const byId = new Map(registry.channels.map((c) => [c.id, c]));
  return {
    registry,
    channel: (id) => {
      const c = byId.get(id);
      if (!c) throw new Error(`supplier registry: unknown channel ${id}`);
      return c;
    },
  };
}

function resolveCategoryKey(registry: SupplierRegistry, category: string): string | null {
  const n = normaliseName(category).replace(/ /g, '_');
  if (n in registry.by_category) return n;
  return registry.category_aliases[n] ?? null;
}

const present = (xs: (string | null | undefined)[]): string[] =>
  xs.filter((x): x is string => typeof x === 'string' && x.trim() !== '' && x.trim().toUpperCase() !== 'N/A');

export function suggestSuppliers(index: SupplierIndex, q: SupplierQuery): LineSuppliers {
  const { registry } = index;
  const official: SupplierSuggestion[] = [];
  const distributors: SupplierSuggestion[] = [];
  const seen = new Set<string>();
  const notes: string[] = [];
  const push = (list: SupplierSuggestion[], channelId: string, basis: SupplierSuggestion['basis'], matched: string) => {
    if (seen.has(channelId)) return;
    seen.add(channelId);
    const c = index.channel(channelId);
    list.push({ name: c.name, url: c.url, kind: c.kind, basis, matched });
  };

  const manufacturers = [...new Set(present(q.manufacturers))];
  if (manufacturers.length === 0) {
    notes.push('manufacturer not stated: no official store suggested');
  } else {
    for (const m of manufacturers) {
      for (const entry of registry.by_manufacturer) {
        const name = entry.names.find((n) => manufacturerMatches(m, n));
        if (name) push(official, entry.channel, 'manufacturer', name);
      }
    }
    if (official.length === 0) {
      notes.push(`no official store registered for manufacturer ${manufacturers.map((m) => `"${m}"`).join(' / ')}`);
    }
  }

  const tokens = new Set(present(q.texts).flatMap((t) => normaliseName(t).split(' ')));
  const tools = new Set<string>();
  for (const [keyword, ids] of Object.entries(registry.by_keyword)) {
    if (!tokens.has(keyword.toLowerCase())) continue;
    for (const id of ids) {
      // A bus-tool maker does not sell other makers' parts: named in a note, not as a distributor.
      if (index.channel(id).kind === 'tool_maker') tools.add(`${index.channel(id).name} (${keyword} tools)`);
      else push(distributors, id, 'keyword', keyword);
    }
  }

  const categories = [...new Set(present(q.categories))];
  const keys = [...new Set(categories.map((c) => resolveCategoryKey(registry, c)).filter((k): k is string => k !== null))];
  // A brand's own store is suggested for that brand only (by manufacturer or a brand keyword),
  // never as a general channel for other makers' parts of the same category.
  for (const key of keys) {
    for (const id of registry.by_category[key]) {
      const kind = index.channel(id).kind;
      if (kind === 'tool_maker') tools.add(`${index.channel(id).name} (${key} tools)`);
      else if (kind !== 'manufacturer') push(distributors, id, 'category', key);
    }
  }
  if (tools.size > 0) notes.push(`bus tools and interfaces (tool makers, not distributors of this part): ${[...tools].join(', ')}`);
  if (categories.length === 0) notes.push('category not stated: no category channels suggested');
  else if (keys.length === 0) notes.push(`no channels registered for category ${categories.map((c) => `"${c}"`).join(' / ')}`);

  return { official_stores: official, distributors, notes };
}

/** The registry's 3D-printing channels (for print suggestions). */
export function printServices(index: SupplierIndex): SupplierSuggestion[] {
  return (index.registry.by_category['3d_printing'] ?? []).filter((id) => index.channel(id).kind === 'print_service').map((id) => {
    const c = index.channel(id);
    return { name: c.name, url: c.url, kind: c.kind, basis: 'category' as const, matched: '3d_printing' };
  });
}
