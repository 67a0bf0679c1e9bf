/**
 * Keyword search over the free fields of the catalogue (spec "GET /api/search" rules).
 *
 * - Terms are split on anything that is not a letter or digit, lower-cased; a term matches a
 *   field token equal to it or starting with it (no fuzzy matching, stemming or synonyms).
 * - All terms must match (AND), each in at least one field.
 * - Score: for every term, the weight of the highest-ranked field it matched (exact token:
 *   full weight, prefix only: half). Field weights double down the spec's order, so a term in
 *   the id outranks the same term anywhere below it. Ties are broken by id.
 * - Only free fields are indexed; paid (deep) fields are never matched.
 */
import MiniSearch from 'minisearch';
import type { StoredEntity } from './entity.js';

export const SEARCH_FIELDS = ['id', 'name', 'manufacturer', 'type', 'application_interface', 'description'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const FIELD_WEIGHTS: Record<SearchField, number> = {
  id: 32,
  name: 16,
  manufacturer: 8,
  type: 4,
  application_interface: 2,
  description: 1,
};

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

function fieldTexts(e: StoredEntity): Record<SearchField, string> {
  const na = (s: string | null) => (s && s !== 'N/A' ? s : '');
  return {
    id: e.id,
    name: [e.name, e.name_en !== e.name ? e.name_en : ''].join(' '),
    manufacturer: e.manufacturer ?? '',
    type: e.type ?? '',
    application_interface: [...e.applications, na(e.interface), ...e.interfaces, na(e.protocol)].join(' '),
    description: e.description,
  };
}

export interface SearchMatch {
  id: string;
  quarantine: boolean;
  category: string;
  relevance_score: number;
  matched_fields: SearchField[];
}

interface Doc {
  id: string;
  quarantine: boolean;
  category: string;
  tokens: Record<SearchField, Set<string>>;
}

export class SearchIndex {
  private readonly mini: MiniSearch;
  private readonly docs = new Map<string, Doc>();

  constructor(entities: readonly StoredEntity[]) {
    this.mini = new MiniSearch({
      idField: 'key',
      fields: [...SEARCH_FIELDS],
      tokenize,
      processTerm: (t) => t,
      searchOptions: { combineWith: 'AND', prefix: true, fuzzy: false },
    });
    const rows = entities.map((e) => {
      const texts = fieldTexts(e);
      const key = e.id.toLowerCase();
      const tokens = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, new Set(tokenize(texts[f]))])) as Doc['tokens'];
      this.docs.set(key, { id: e.id, quarantine: e.quarantine, category: e.category, tokens });
      return { key, ...texts };
    });
    this.mini.addAll(rows);
  }

  get size(): number {
    return this.docs.size;
  }

  /** All matches of the query terms (AND), best first. */
  search(terms: readonly string[]): SearchMatch[] {
    if (terms.length === 0) return [];
    const candidates = this.mini.search({ combineWith: 'AND', queries: terms.map((t) => t) });
    const out: SearchMatch[] = [];
    for (const c of candidates) {
      const doc = this.docs.get(String(c.id));
      if (!doc) continue;
      const scored = this.score(doc, terms);
      if (scored) out.push({ id: doc.id, quarantine: doc.quarantine, category: doc.category, ...scored });
    }
    out.sort((a, b) => b.relevance_score - a.relevance_score || (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : a.id.toLowerCase() > b.id.toLowerCase() ? 1 : 0));
    return out;
  }

  private score(doc: Doc, terms: readonly string[]): { relevance_score: number; matched_fields: SearchField[] } | null {
    let total = 0;
    const matched = new Set<SearchField>();
    for (const term of terms) {
      let best = 0;
      for (const f of SEARCH_FIELDS) {
        let w = 0;
        if (doc.tokens[f].has(term)) w = FIELD_WEIGHTS[f];
        else for (const tok of doc.tokens[f]) if (tok.startsWith(term)) { w = FIELD_WEIGHTS[f] / 2; break; }
        if (w > 0) {
          matched.add(f);
          if (w > best) best = w;
        }
      }
      if (best === 0) return null; // AND: every term must match somewhere
      total += best;
    }
    return { relevance_score: total, matched_fields: SEARCH_FIELDS.filter((f) => matched.has(f)) };
  }
}
