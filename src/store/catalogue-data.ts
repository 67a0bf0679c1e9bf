/**
 * The shipped catalogue as files: data/catalogue/ read and validated at start, and the rule that
 * open-source-layer ids never collide with catalogue ids. Every backend serves the catalogue from
 * memory (memory-catalogue.ts) built from this data; the database holds accounts, the ledger and
 * rate windows only. (The catalogue tables of migration 'catalogue' are left from when SQLite
 * served the catalogue; nothing reads or writes them.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { StoredEntity } from '../domain/catalogue/entity.js';
import { DomainError } from '../domain/shared/errors.js';
import { deepFreezeSharingEmpty } from '../domain/shared/freeze.js';
import { lowerBound, sortedIndexOf } from '../domain/shared/sorted.js';
import type { CatalogueMeta } from './catalogue.js';
import { fileIdentity, type FileIdentity } from './catalogue-prepared.js';
import { ColumnCollector, LazyRecords, RecordFile, type RecordColumns } from './catalogue-records.js';
import { readJsonRecordsFile, type RecordSplit } from './json-records.js';
import type { RecordObserver } from './search-index-build.js';
import { checkRecord } from './catalogue-check.js';
import { PARSE_ONCE } from '../domain/shared/parse-once.js';

export const CatalogueFile = z.object({
  meta: z
    .object({
      dataset_version: z.string(),
      license: z.string(),
      attribution: z.string(),
      source: z.string(),
      snapshot_commit: z.string().nullable().optional(),
      imported_at: z.string().nullable().optional(),
    })
    .passthrough(),
  entities: z.array(z.unknown()),
});

export const CategoriesFile = z.object({
  categories: z.array(z.object({ slug: z.string(), name: z.string(), spec_name: z.string().nullable() })),
});

export interface CatalogueData {
  meta: CatalogueMeta;
  categories: { slug: string; name: string; spec_name: string | null }[];
  /** Every record, in the file's order (records read lazily: those not read yet are read on this access). */
  entities: StoredEntity[];
  /** Set when the records are read lazily (readCatalogueData's `lazy`): their columns now, each record on first use. */
  lazy?: LazyRecords;
}

/**
 * Equal values that many records hold, made one shared value: each record's provenance lists
 * (["torque"], ["specs.rated_torque"]: a few dozen distinct lists over the whole catalogue) and
 * its manufacturer, type, protocol and interface names (a few hundred makers and types). JSON.parse
 * makes each its own copy (it shares only strings of up to ten characters); at 100,000 records
 * the copies are about a tenth of the catalogue's memory. The values are equal, so nothing a
 * reader sees changes. Each record is then frozen as it is read (deepFreezeSharingEmpty: its empty
 * lists and objects shared too), shared lists once.
 */
function sharedValues(): (e: StoredEntity) => StoredEntity {
  const names = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const name = (v: string): string => {
    if (v.length <= 10) return v;
    const seen = names.get(v);
    if (seen !== undefined) return seen;
    names.set(v, v);
    return v;
  };
  return (e) => {
    if (e.manufacturer !== null) e.manufacturer = name(e.manufacturer);
    if (e.type !== null) e.type = name(e.type);
    e.protocol = name(e.protocol);
    e.interface = name(e.interface);
    const p = e.provenance;
    if (p) {
      for (const k in p) {
        const list = p[k]!;
        const key = list.length === 1 ? list[0]! : list.join('\n');
        const seen = lists.get(key);
        if (seen === undefined) lists.set(key, list);
        else if (seen.length === list.length && seen.every((x, j) => x === list[j])) p[k] = seen;
      }
    }
    return e;
  };
}

/** The catalogue file's bytes as a lazily read catalogue derived them: what a prepared start keeps (catalogue-prepared.ts). */
export interface DerivedColumns {
  /** The document's other top-level members. */
  members: Record<string, unknown>;
  columns: RecordColumns;
  /** The file's identity taken before its records were read: the prepared start's key is the SHA-256 of its bytes when it is still that file (hashUnchangedFile). */
  file: string;
  identity: FileIdentity;
}

export interface ReadOptions {
  /** Read the records lazily (large catalogues): see readCatalogueData. */
  lazy?: boolean;
  /** With `lazy`: the columns and members as derived here, for a prepared start (null when the file was read whole). */
  derived?: (d: DerivedColumns | null) => void;
}

const EMPTY_META: CatalogueMeta = { dataset_version: 'empty', license: 'CC BY 4.0', attribution: 'Data: RoboParts (https://roboparts.cc), CC BY 4.0', source: 'none', snapshot_commit: null, imported_at: null };

/** How records are validated, shared and frozen: one set per catalogue read (its shared values are the catalogue's). */
function recordReaders(): { checked: (raw: unknown, i: number) => StoredEntity; kept: (raw: unknown, i: number) => StoredEntity } {
  const share = sharedValues();
  /** The record as the catalogue keeps it, validated, not yet shared or frozen. */
  const checked = checkRecord;
  /** The record validated, its common values shared (when taken as parsed) and frozen. */
  const kept = (raw: unknown, i: number): StoredEntity => {
    const e = checked(raw, i);
    return deepFreezeSharingEmpty(e === raw ? share(e) : e);
  };
  return { checked, kept };
}

/** The records of the file open at `fd`, read lazily by their columns' byte ranges (the descriptor is theirs now). */
function lazyRecords(entFile: string, fd: number, columns: RecordColumns, readers: ReturnType<typeof recordReaders>, opts: { specSources?: Uint8Array | null; collectSpecSources?: boolean } = {}): LazyRecords {
  const ids = columns.ids;
  // The id string the columns (and so the catalogue's maps and the index) hold already.
  const sameId = (raw: unknown, i: number) => {
    if (raw !== null && typeof raw === 'object' && (raw as { id?: unknown }).id === ids[i]) (raw as { id: string }).id = ids[i]!;
    return raw;
  };
  return new LazyRecords(new RecordFile(entFile, fd), columns, { kept: (raw, i) => readers.kept(sameId(raw, i), i), checked: (raw, i) => readers.checked(sameId(raw, i), i) }, opts);
}

/** The catalogue's meta and categories from the document's other members and categories.json. */
function metaAndCategories(dir: string, members: Record<string, unknown>): Pick<CatalogueData, 'meta' | 'categories'> {
  const file = CatalogueFile.parse({ ...members, entities: [] }, PARSE_ONCE);
  return { meta: metaOf(file.meta), categories: readCategories(dir) };
}

function readCategories(dir: string): CatalogueData['categories'] {
  const catFile = path.join(dir, 'categories.json');
  return fs.existsSync(catFile) ? CategoriesFile.parse(JSON.parse(fs.readFileSync(catFile, 'utf8'))).categories : [];
}

function metaOf(m: z.infer<typeof CatalogueFile>['meta']): CatalogueMeta {
  return {
    dataset_version: m.dataset_version,
    license: m.license,
    attribution: m.attribution,
    source: m.source,
    snapshot_commit: m.snapshot_commit ?? null,
    imported_at: m.imported_at ?? null,
  };
}

/** A lazily read catalogue's data: every record asked for through `entities` reads those not read yet. */
function lazyData(head: Pick<CatalogueData, 'meta' | 'categories'>, records: LazyRecords): CatalogueData {
  return {
    ...head,
    get entities() {
      return records.all() as StoredEntity[];
    },
    lazy: records,
  };
}

/**
 * Reads and validates data/catalogue/. Throws with the offending record id on invalid data. The
 * records come back deep-frozen (frozen as they are read: one walk over each while it is fresh).
 * `observer` is handed each record as it is read (the search index's worker build).
 *
 * `lazy` (large catalogues): every record is still parsed and validated now, and handed to the
 * observer, but only its columns are kept (src/store/catalogue-records.ts); the records are read
 * again from the file on first use, validated, shared and frozen as they are here. A file that is
 * not of the shape read record by record is read whole, as without `lazy`.
 */
export function readCatalogueData(dataDir: string, observer?: RecordObserver, opts: ReadOptions = {}): CatalogueData {
  const dir = path.join(dataDir, 'catalogue');
  const entFile = path.join(dir, 'entities.json');
  if (!fs.existsSync(entFile)) return { meta: EMPTY_META, categories: [], entities: [] };
  const readers = recordReaders();
  const validate = (raw: unknown, i: number): StoredEntity => {
    const e = readers.kept(raw, i);
    observer?.record(e);
    return e;
  };
  // Record by record, through a window that moves along the file (a 100 MB file parsed whole grows
  // the heap to several times what is kept, and read whole it costs fresh memory the size of the
  // file); anything but `{..., "entities": [...]}` is parsed whole, which also reports invalid JSON.
  // A lazily read catalogue keeps the file open: its records are read again from the same file.
  const fd = fs.openSync(entFile, 'r');
  let entities: StoredEntity[] = [];
  let lazy: LazyRecords | undefined;
  let members: Record<string, unknown> | null;
  try {
    if (opts.lazy) {
      const collected = new ColumnCollector();
      // A start that derives the catalogue: its file's identity before a byte is read (its hash is taken later, off the start's path).
      const identity = opts.derived ? fileIdentity(fd) : null;
      // The file's last records read by the observer (the index worker) meanwhile, when it offers to.
      const tail = observer?.tail?.(entFile, fd, fs.fstatSync(fd).size) ?? null;
      const split: RecordSplit | undefined = tail
        ? {
            from: tail.from,
            start: (at) => tail.start(at),
            missed: () => tail.drop(),
            reached: () => {
              const r = tail.result();
              if (r?.ok) {
                if (r.members === null) return null;
                collected.addColumns(r.columns);
                return r.members;
              }
              // A record the worker refused: read again here (its bytes through a RecordFile over the same
              // descriptor, which stays open), it is refused with the error reading it here gives.
              if (r && 'invalid' in r) readers.checked(JSON.parse(new RecordFile(entFile, fd).read(r.invalid.start, r.invalid.end).toString('utf8')), collected.size + r.invalid.index);
              // No answer, a failure, or a refusal not repeated here: the tail is read here.
              tail.drop();
              return 'here';
            },
          }
        : undefined;
      members = readJsonRecordsFile(
        fd,
        'entities',
        (raw, i, start, end) => {
          const e = readers.checked(raw, i);
          observer?.record(e);
          collected.add(e, start, end);
        },
        undefined,
        split,
      );
      if (members) {
        const columns = collected.columns();
        // A derived start collects the spec sources as its records are read again (off the start's path), for the prepared start.
        lazy = lazyRecords(entFile, fd, columns, readers, { collectSpecSources: identity !== null });
        if (identity) opts.derived!({ members, columns, file: entFile, identity });
      }
    } else members = readJsonRecordsFile(fd, 'entities', (raw, i) => entities.push(validate(raw, i)));
  } finally {
    if (!lazy) fs.closeSync(fd);
  }
  if (!members) {
    if (opts.lazy) opts.derived?.(null);
    observer?.restart(); // the records seen so far are read again
    const file = CatalogueFile.parse(JSON.parse(fs.readFileSync(entFile, 'utf8')));
    entities = file.entities.map(validate);
    return { meta: metaOf(file.meta), categories: readCategories(dir), entities };
  }
  let head: Pick<CatalogueData, 'meta' | 'categories'>;
  try {
    head = metaAndCategories(dir, members);
  } catch (err) {
    lazy?.close();
    throw err;
  }
  return lazy ? lazyData(head, lazy) : { ...head, entities };
}

/**
 * A large catalogue from its prepared start (catalogue-prepared.ts), on the file open at `fd`
 * whose bytes the prepared start's key was checked against: its records read lazily, as
 * readCatalogueData's `lazy` reads them, without parsing the file now (its records were all
 * validated by the start that prepared it). The descriptor is the records' (closed with them).
 */
export function preparedCatalogueData(dataDir: string, fd: number, members: Record<string, unknown>, columns: RecordColumns, specSources: Uint8Array | null = null): CatalogueData {
  const dir = path.join(dataDir, 'catalogue');
  const records = lazyRecords(path.join(dir, 'entities.json'), fd, columns, recordReaders(), { specSources });
  try {
    return lazyData(metaAndCategories(dir, members), records);
  } catch (err) {
    records.close();
    throw err;
  }
}

/**
 * Throws when an open-source-layer id is also a catalogue id (case-insensitive) or appears twice:
 * a lookup by id must resolve to exactly one record. The "OSS-" prefix is the layer's (spec id
 * shapes), so a catalogue id using it is refused too: answers label such ids as layer records.
 * `catalogue`: the catalogue's ids in id order and the same lower-cased, sorted by the latter
 * (SortedRecords), so each question is a binary search: the layer's few hundred ids are looked
 * up among the catalogue's, not the catalogue's 100,000 among the layer's (~9 ms of a start).
 */
export function checkOssIds(catalogue: { readonly ids: readonly string[]; readonly lower: readonly string[] }, oss: readonly StoredEntity[]): void {
  const { ids, lower } = catalogue;
  // The catalogue's ids that start with oss- in any case are together, from the first not below "oss-".
  const reserved = lowerBound(lower, 'oss-');
  if (reserved < lower.length && lower[reserved]!.startsWith('oss-')) throw new Error(`data/catalogue/entities.json: id ${ids[reserved]} uses the prefix OSS-, reserved for the open-source layer`);
  const seen = new Set<string>();
  for (const e of oss) {
    const k = e.id.toLowerCase();
    if (seen.has(k) || sortedIndexOf(lower, k) >= 0) throw new Error(`data/oss/oss_components.json: id ${e.id} is already used by another record`);
    seen.add(k);
  }
}
