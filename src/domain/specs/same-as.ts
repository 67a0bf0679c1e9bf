/**
 * Records that are one product, linked as `same_as` with the evidence of each link:
 * - duplicate_of: upstream (or the importer's check) marks one record a duplicate of the other;
 * - same_name: the same name from one company (manufacturer names normalised, aliases included);
 * - brand_model: the same model number under a company's brand and under the company
 *   (e.g. CubeMars AK80-9 and T-Motor AK80-9; the brand link's own evidence is quoted);
 * - version_mark: names equal apart from a trailing "v2" from one company (upstream writes a
 *   second record of a model this way; it may be a revision, so the link says so).
 * Model numbers must contain a digit to link; links are transitive (one product = one group).
 */
import type { StoredEntity } from '../entity.js';
import { companyForms, type ManufacturerTable } from './manufacturers.js';

export type SameAsRule = 'duplicate_of' | 'same_name' | 'brand_model' | 'version_mark';

export interface SameAsLink {
  id: string;
  rule: SameAsRule;
  evidence: string;
}

const tokens = (s: string): string[] =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);

function startsWith(a: string[], b: string[]): boolean {
  return b.length > 0 && b.length <= a.length && b.every((t, i) => a[i] === t);
}

interface Keyed {
  e: StoredEntity;
  company: string;
  written: string;
  brand: string | null;
  full: string;
  model: string;
  versioned: boolean;
}

export class SameAsIndex {
  private readonly links = new Map<string, SameAsLink[]>();

  constructor(entities: readonly StoredEntity[], manufacturers: ManufacturerTable) {
    const byId = new Map(entities.map((e) => [e.id, e]));
    const add = (a: string, b: string, rule: SameAsRule, evidence: string) => {
      if (a === b) return;
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        const list = this.links.get(x) ?? [];
        if (!list.some((l) => l.id === y)) list.push({ id: y, rule, evidence });
        this.links.set(x, list);
      }
    };
    for (const e of entities) {
      if (e.duplicate_of && byId.has(e.duplicate_of)) add(e.id, e.duplicate_of, 'duplicate_of', `${e.id} is marked duplicate_of ${e.duplicate_of} (${e.quarantine_reason ?? 'duplicate'})`);
    }
    const keyed: Keyed[] = [];
    for (const e of entities) {
      const m = manufacturers.read(e.manufacturer);
      if (!m) continue;
      const forms = companyForms(manufacturers, m.canonical).map(tokens).sort((x, y) => y.length - x.length);
      const full = tokens(e.name_en || e.name);
      let model = [...full];
      for (let changed = true; changed; ) {
        changed = false;
        for (const f of forms) if (startsWith(model, f)) {
          model = model.slice(f.length);
          changed = true;
        }
      }
      const versioned = model.length > 1 && model[model.length - 1] === 'v2';
      if (versioned) model = model.slice(0, -1);
      keyed.push({ e, company: m.canonical, written: m.written, brand: m.brand, full: full.join(' '), model: model.join(' '), versioned });
    }
    const buckets = new Map<string, Keyed[]>();
    for (const k of keyed) {
      const keys = new Set([`full\u0000${k.company}\u0000${k.full}`]);
      if (/\d/.test(k.model)) keys.add(`model\u0000${k.company}\u0000${k.model}`);
      for (const key of keys) buckets.set(key, [...(buckets.get(key) ?? []), k]);
    }
    for (const group of buckets.values()) {
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const a = group[i];
          const b = group[j];
          const names = `"${a.e.name_en || a.e.name}" (${a.e.id}, ${a.written}) and "${b.e.name_en || b.e.name}" (${b.e.id}, ${b.written})`;
          if (a.full === b.full) add(a.e.id, b.e.id, 'same_name', `${names}: the same name from one company (${a.company})`);
          else if (a.versioned !== b.versioned) add(a.e.id, b.e.id, 'version_mark', `${names}: the same model "${a.model}" from one company (${a.company}), one record marked "v2" (a second record of the model upstream, possibly a revision)`);
          else if (a.brand !== b.brand) {
            const br = a.brand ?? b.brand;
            const ev = manufacturers.file.companies.find((c) => c.canonical === a.company)?.brands.find((x) => x.name === br)?.evidence.note ?? '';
            add(a.e.id, b.e.id, 'brand_model', `${names}: the same model "${a.model}" under ${a.company} and its brand ${br} (${ev})`);
          } else add(a.e.id, b.e.id, 'same_name', `${names}: the same model "${a.model}" from one company (${a.company}), written with different forms of its name`);
        }
      }
    }
    // One product = one group: close the links transitively (evidence: the chain).
    for (const id of [...this.links.keys()]) {
      const seen = new Set([id]);
      const queue = [...(this.links.get(id) ?? []).map((l) => l.id)];
      while (queue.length) {
        const x = queue.shift()!;
        if (seen.has(x)) continue;
        seen.add(x);
        for (const l of this.links.get(x) ?? []) if (!seen.has(l.id)) queue.push(l.id);
      }
      const direct = new Set((this.links.get(id) ?? []).map((l) => l.id));
      for (const other of seen) {
        if (other === id || direct.has(other)) continue;
        const list = this.links.get(id)!;
        const via = [...direct].find((d) => (this.links.get(d) ?? []).some((l) => l.id === other));
        const viaLink = via ? (this.links.get(via) ?? []).find((l) => l.id === other) : undefined;
        list.push({ id: other, rule: viaLink?.rule ?? 'same_name', evidence: `through ${via ?? 'a linked record'}: ${viaLink?.evidence ?? 'linked records'}` });
      }
    }
    for (const list of this.links.values()) list.sort((x, y) => (x.id.toLowerCase() < y.id.toLowerCase() ? -1 : 1));
  }

  /** Records that are the same product as id (never including id). */
  of(id: string): readonly SameAsLink[] {
    return this.links.get(id) ?? [];
  }

  /** Every record id with at least one link. */
  ids(): string[] {
    return [...this.links.keys()];
  }
}
