/**
 * Records that are one product, linked as `same_as` with the evidence of each link:
 * - duplicate_of: upstream (or the importer's check) marks one record a duplicate of the other;
 * - same_name: the same model code from one company (manufacturer names normalised, aliases included);
 * - brand_model: the same model code under a company's brand and under the company
 *   (e.g. CubeMars AK80-9 and T-Motor AK80-9; the brand link's own evidence is quoted).
 * A model code is what is left of the name once the company's names are taken off the front; it
 * must hold a digit or a word that is not generic (GENERIC_WORDS): generic names ("AgiBot Actuator",
 * "Unitree Robotics") never link. Links are transitive
 * (one product = one group).
 *
 * Versions are not one product: a record whose model ends in a version mark ("v2", "v3") from the
 * same company as a record of the model without it is a newer version of it (the base lists it as
 * `newer_version`, it lists the base as `older_version`), shown beside the part and never hidden from its alternatives.
 *
 * Cost: construction is linear in the catalogue (names keyed, records grouped with a union-find);
 * the links of a group and their evidence are written when one of its records is first asked for
 * (a group of k records has k(k-1) links, so writing them all at start grows with the square of
 * the group sizes). A bounded cache keeps the groups recently asked for. The answer for a record
 * is the same as writing every link at start: links are added group by group in catalogue order
 * and a group's links never depend on records outside it.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { companyForms, type ManufacturerTable } from './manufacturers.js';

export type SameAsRule = 'duplicate_of' | 'same_name' | 'brand_model';

/** Named from the listed record's side: newer_version: `id` is a newer version of this record; older_version: `id` is an older version of it. */
export interface VersionLink {
  id: string;
  relation: 'newer_version' | 'older_version';
  evidence: string;
}

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
  /** The version mark ending the name ("v2"), or null. */
  version: string | null;
}

/** Words that name a kind of part or company, not a product: a name made only of these is generic. */
const GENERIC_WORDS = new Set(
  'actuator actuators motor motors servo servos joint module modules gripper grippers hand hands sensor sensors robot robots robotics robotic humanoid arm controller driver chip platform system series ai inc co ltd 执行器 电机 机器人 关节 模组 舵机 传感器 灵巧手 夹爪 控制器 驱动器 芯片 平台 系列'.split(' '),
);

/** Whether a model (the name once the company is taken off) names a product: a digit, or a word that is not generic. */
function namesProduct(model: string): boolean {
  if (/\d/.test(model)) return true;
  const words = model.split(' ').filter(Boolean);
  return words.length > 0 && words.some((w) => !GENERIC_WORDS.has(w));
}

/** Groups whose links are kept written (most recently asked for); a group is rewritten when asked again. */
const GROUP_CACHE = 1_000;

class UnionFind {
  private readonly p: Int32Array;
  constructor(n: number) {
    this.p = new Int32Array(n);
    for (let i = 0; i < n; i++) this.p[i] = i;
  }
  find(x: number): number {
    while (this.p[x] !== x) {
      this.p[x] = this.p[this.p[x]!]!;
      x = this.p[x]!;
    }
    return x;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.p[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

export class SameAsIndex {
  private readonly entities: readonly StoredEntity[];
  private readonly manufacturers: ManufacturerTable;
  /** Record id -> catalogue position. */
  private readonly pos = new Map<string, number>();
  /** duplicate_of links: [record, the record it duplicates], catalogue order of the first. */
  private readonly dups: [number, number][] = [];
  /** Each company's written forms as tokens, longest first (for stripping from product names). */
  private readonly formsOf = new Map<string, string[][]>();
  /** Buckets of records sharing a key, in the order the keys were first seen; only buckets of two or more. */
  private readonly buckets: number[][] = [];
  /** Catalogue position -> the buckets (indices into buckets) it is in. */
  private readonly bucketsOf = new Map<number, number[]>();
  private readonly uf: UnionFind;
  /** Group root -> its members in catalogue order (groups of two or more). */
  private readonly groups = new Map<number, number[]>();
  /** Written links of the groups recently asked for: group root -> id -> links. */
  private readonly cache = new Map<number, Map<string, SameAsLink[]>>();
  /** Versions: catalogue position -> positions of the records it is a newer version of, and the reverse. */
  private readonly olderOf = new Map<number, number[]>();
  private readonly newerOf = new Map<number, number[]>();

  constructor(entities: readonly StoredEntity[], manufacturers: ManufacturerTable) {
    this.entities = entities;
    this.manufacturers = manufacturers;
    entities.forEach((e, i) => {
      if (!this.pos.has(e.id)) this.pos.set(e.id, i);
    });
    this.uf = new UnionFind(entities.length);
    entities.forEach((e, i) => {
      const j = e.duplicate_of ? this.pos.get(e.duplicate_of) : undefined;
      if (j !== undefined && e.id !== e.duplicate_of) {
        this.dups.push([i, j]);
        this.uf.union(i, j);
      }
    });
    // Name keys are made here to bucket the records and made again for the members of a group
    // when its links are written: kept for every record they took about a third of this index.
    const keyed = entities.map((e) => this.keyOf(e));
    const byKey = new Map<string, number[]>();
    const modelKey = (k: Keyed, version: string | null) => `${k.company}\u0000${k.model}\u0000${version ?? ''}`;
    keyed.forEach((k, i) => {
      // Only a model code or product name links: nothing left once the company is taken off, or only generic words, is no product.
      if (!k || !namesProduct(k.model)) return;
      const key = modelKey(k, k.version);
      const b = byKey.get(key);
      if (b) b.push(i);
      else byKey.set(key, [i]);
    });
    keyed.forEach((k, i) => {
      if (!k || k.version === null || !namesProduct(k.model)) return;
      const older = byKey.get(modelKey(k, null));
      if (!older) return;
      this.olderOf.set(i, older);
      for (const j of older) {
        const list = this.newerOf.get(j);
        if (list) list.push(i);
        else this.newerOf.set(j, [i]);
      }
    });
    for (const members of byKey.values()) {
      // Two records with one id link nothing (add() skips a === b); the first of them stands.
      if (members.length < 2) continue;
      const b = this.buckets.length;
      this.buckets.push(members);
      for (const i of members) {
        const list = this.bucketsOf.get(i);
        if (list) list.push(b);
        else this.bucketsOf.set(i, [b]);
        this.uf.union(members[0]!, i);
      }
    }
    const inDup = new Set(this.dups.flat());
    for (let i = 0; i < entities.length; i++) {
      if (!inDup.has(i) && !this.bucketsOf.has(i)) continue;
      const r = this.uf.find(i);
      const g = this.groups.get(r);
      if (g) g.push(i);
      else this.groups.set(r, [i]);
    }
    for (const [r, g] of this.groups) if (g.length < 2) this.groups.delete(r);
  }

  /** A record's name keys (null: no manufacturer read). */
  private keyOf(e: StoredEntity): Keyed | null {
    const m = this.manufacturers.read(e.manufacturer);
    if (!m) return null;
    let forms = this.formsOf.get(m.canonical);
    if (!forms) {
      forms = companyForms(this.manufacturers, m.canonical).map(tokens).sort((x, y) => y.length - x.length);
      this.formsOf.set(m.canonical, forms);
    }
    const full = tokens(e.name_en || e.name);
    let model = [...full];
    for (let changed = true; changed; ) {
      changed = false;
      for (const f of forms) if (startsWith(model, f)) {
        model = model.slice(f.length);
        changed = true;
      }
    }
    const last = model[model.length - 1] ?? '';
    const version = model.length > 1 && /^v([2-9]|\d{2,})$/.test(last) ? last : null;
    if (version) model = model.slice(0, -1);
    return { e, company: m.canonical, written: m.written, brand: m.brand, full: full.join(' '), model: model.join(' '), version };
  }

  /** The records `id` is a newer version of, and the newer versions of `id`, each with its evidence. */
  versionsOf(id: string): VersionLink[] {
    const i = this.pos.get(id);
    if (i === undefined) return [];
    const out: VersionLink[] = [];
    const say = (newer: number, older: number) => {
      const a = this.keyOf(this.entities[newer]!)!;
      const b = this.keyOf(this.entities[older]!)!;
      return `"${a.e.name_en || a.e.name}" (${a.e.id}, ${a.written}) ends in the version mark "${a.version}" after the model "${a.model}" of "${b.e.name_en || b.e.name}" (${b.e.id}, ${b.written}), one company (${a.company}): a newer version, not the same product`;
    };
    for (const j of this.olderOf.get(i) ?? []) out.push({ id: this.entities[j]!.id, relation: 'older_version', evidence: say(i, j) });
    for (const j of this.newerOf.get(i) ?? []) out.push({ id: this.entities[j]!.id, relation: 'newer_version', evidence: say(j, i) });
    return out;
  }

  /** Records that are the same product as id (never including id). */
  of(id: string): readonly SameAsLink[] {
    const i = this.pos.get(id);
    if (i === undefined) return [];
    const root = this.uf.find(i);
    if (!this.groups.has(root)) return [];
    let written = this.cache.get(root);
    if (written) {
      this.cache.delete(root); // most recently used last
    } else {
      written = this.writeGroup(root);
      if (this.cache.size >= GROUP_CACHE) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(root, written);
    return written.get(id) ?? [];
  }

  /** Every record id with at least one link. */
  ids(): string[] {
    const out: string[] = [];
    for (const members of this.groups.values()) {
      for (const i of members) {
        const id = this.entities[i]!.id;
        if (this.pos.get(id) === i && this.hasLink(i)) out.push(id);
      }
    }
    return out;
  }

  private hasLink(i: number): boolean {
    const id = this.entities[i]!.id;
    const other = (j: number) => this.entities[j]!.id !== id;
    return this.dups.some(([a, b]) => (a === i && other(b)) || (b === i && other(a))) || (this.bucketsOf.get(i) ?? []).some((b) => this.buckets[b]!.some(other));
  }

  /** The links of one group, added in the order the whole-catalogue pass adds them. */
  private writeGroup(root: number): Map<string, SameAsLink[]> {
    const links = new Map<string, SameAsLink[]>();
    const inGroup = (i: number) => this.uf.find(i) === root;
    const add = (a: string, b: string, rule: SameAsRule, evidence: () => string) => {
      if (a === b) return;
      let ev: string | undefined;
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        const list = links.get(x) ?? [];
        if (!list.some((l) => l.id === y)) list.push({ id: y, rule, evidence: (ev ??= evidence()) });
        links.set(x, list);
      }
    };
    for (const [i, j] of this.dups) {
      if (!inGroup(i)) continue;
      const e = this.entities[i]!;
      add(e.id, this.entities[j]!.id, 'duplicate_of', () => `${e.id} is marked duplicate_of ${e.duplicate_of} (${e.quarantine_reason ?? 'duplicate'})`);
    }
    for (const members of this.buckets) {
      if (!inGroup(members[0]!)) continue;
      const group = members.map((i) => this.keyOf(this.entities[i]!)!);
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const a = group[i]!;
          const b = group[j]!;
          const names = () => `"${a.e.name_en || a.e.name}" (${a.e.id}, ${a.written}) and "${b.e.name_en || b.e.name}" (${b.e.id}, ${b.written})`;
          if (a.full === b.full) add(a.e.id, b.e.id, 'same_name', () => `${names()}: the same name from one company (${a.company})`);
          else if (a.brand !== b.brand) {
            const br = a.brand ?? b.brand;
            add(a.e.id, b.e.id, 'brand_model', () => {
              const ev = this.manufacturers.file.companies.find((c) => c.canonical === a.company)?.brands.find((x) => x.name === br)?.evidence.note ?? '';
              return `${names()}: the same model "${a.model}" under ${a.company} and its brand ${br} (${ev})`;
            });
          } else add(a.e.id, b.e.id, 'same_name', () => `${names()}: the same model "${a.model}" from one company (${a.company}), written with different forms of its name`);
        }
      }
    }
    // One product = one group: close the links transitively (evidence: the chain).
    for (const id of [...links.keys()]) {
      const seen = new Set([id]);
      const queue = [...(links.get(id) ?? []).map((l) => l.id)];
      while (queue.length) {
        const x = queue.shift()!;
        if (seen.has(x)) continue;
        seen.add(x);
        for (const l of links.get(x) ?? []) if (!seen.has(l.id)) queue.push(l.id);
      }
      const own = links.get(id)!;
      const direct = new Set(own.map((l) => l.id));
      for (const other of seen) {
        if (other === id || direct.has(other)) continue;
        const via = [...direct].find((d) => (links.get(d) ?? []).some((l) => l.id === other));
        const viaLink = via ? (links.get(via) ?? []).find((l) => l.id === other) : undefined;
        own.push({ id: other, rule: viaLink?.rule ?? 'same_name', evidence: `through ${via ?? 'a linked record'}: ${viaLink?.evidence ?? 'linked records'}` });
      }
    }
    for (const list of links.values()) list.sort((x, y) => (x.id.toLowerCase() < y.id.toLowerCase() ? -1 : 1));
    return links;
  }
}
