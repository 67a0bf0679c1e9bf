/**
 * The fast acceptor must never take a value zod would refuse or hand back changed: for every
 * shipped record and thousands of mutations of them, acceptance implies zod's parse succeeds
 * and serialises to the same bytes (same keys, same order). It must also take the shipped
 * records themselves (else it saves nothing), and give up (null) on schemas it does not know.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { OssDocument } from '../../src/ingest/oss/layer.js';
import { OssRecord } from '../../src/ingest/oss/records.js';
import { compileAcceptor } from '../../src/store/zod-acceptor.js';
import { rng } from '../support/rng.js';

const records = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: Record<string, unknown>[] }).entities;
const accept = compileAcceptor(StoredEntity)!;

/** Accepted -> zod accepts and gives the same JSON. */
function agreesWithZod(v: unknown, schema: z.ZodType = StoredEntity, acceptor = accept): boolean {
  if (!acceptor(v)) return true;
  const r = schema.safeParse(v);
  return r.success && JSON.stringify(r.data) === JSON.stringify(v);
}


const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Paths to every value inside a record (objects and arrays included). */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      out.push([...at, k]);
      paths(x, [...at, k], out);
    }
  }
  return out;
}

const REPLACEMENTS: unknown[] = [null, '', 'x', 0, -1, 1.5, 2 ** 60, true, [], ['a'], [1], {}, { a: 1 }, { unknown: 'x' }];

function mutate(rec: Record<string, unknown>, r: () => number): unknown {
  const m = clone(rec);
  const all = paths(m);
  const p = all[Math.floor(r() * all.length)]!;
  const parent = p.slice(0, -1).reduce<any>((o, k) => o[k], m);
  const key = p[p.length - 1]!;
  switch (Math.floor(r() * 5)) {
    case 0: // replace a value
      parent[key] = clone(REPLACEMENTS[Math.floor(r() * REPLACEMENTS.length)]);
      break;
    case 1: // delete a key (or an array element)
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 2: // add an unknown key beside it
      if (!Array.isArray(parent)) parent[`extra_${String(key)}`] = 'x';
      break;
    case 3: {
      // move the key to the end (order changes, content does not)
      if (!Array.isArray(parent)) {
        const v = parent[key];
        delete parent[key];
        parent[key] = v;
      }
      break;
    }
    default: // a string where a number is, or the reverse
      parent[key] = typeof parent[key] === 'string' ? 7 : String(parent[key]);
  }
  return m;
}

describe('compileAcceptor(StoredEntity)', () => {
  it('takes every shipped record, and zod gives each back unchanged', () => {
    for (const rec of records) {
      expect(accept(rec), String(rec.id)).toBe(true);
      expect(agreesWithZod(rec)).toBe(true);
    }
  });

  it('never takes a mutation that zod refuses or changes (5,000 mutations)', () => {
    const r = rng(16);
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const m = mutate(records[i % records.length]!, r);
      if (!accept(m)) refused++;
      expect(agreesWithZod(m), JSON.stringify(m).slice(0, 300)).toBe(true);
    }
    expect(refused).toBeGreaterThan(1000); // the mutations do reach it
  });

  it('refuses the cases that need zod: out-of-order keys, unknown keys, bounds, integers, non-plain objects', () => {
    const base = clone(records[0]!);
    const { id, ...rest } = base;
    expect(accept({ ...rest, id })).toBe(false); // same content, id moved to the end: zod reorders
    expect(accept({ ...base, surplus: 1 })).toBe(false);
    expect(accept({ ...base, id: '' })).toBe(false); // id min length 1
    expect(accept({ ...base, year: 2020.5 })).toBe(false);
    expect(accept({ ...base, deep: { ...(base.deep as object), confidence: 1.01 } })).toBe(false);
    expect(accept(Object.assign(Object.create({ inherited: true }), base))).toBe(false);
    expect(accept([base])).toBe(false);
  });

  it('gives up on schemas it does not support', () => {
    expect(compileAcceptor(z.object({ a: z.string().default('x') }))).toBeNull();
    expect(compileAcceptor(z.object({ a: z.union([z.string(), z.number()]) }))).toBeNull();
    expect(compileAcceptor(z.string().email())).toBeNull();
    expect(compileAcceptor(z.object({ a: z.string().transform((s) => s.length) }))).toBeNull();
  });
});

describe('compileAcceptor(OssDocument): literals and a discriminated union', () => {
  const doc = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/oss/oss_components.json'), 'utf8')) as { meta: Record<string, unknown>; data: Record<string, unknown>[] };
  const acceptDoc = compileAcceptor(OssDocument)!;
  const acceptRecord = compileAcceptor(OssRecord)!;

  it('takes the shipped document, and zod gives it back unchanged', () => {
    expect(acceptDoc).not.toBeNull();
    expect(acceptDoc(doc)).toBe(true);
    expect(agreesWithZod(doc, OssDocument, acceptDoc)).toBe(true);
    // Both kinds of extracted record (the union's two options) are among the shipped ones.
    expect(new Set(doc.data.map((r) => (r.extracted as { record_type: string }).record_type)).size).toBe(2);
  });

  it('never takes a mutation that zod refuses or changes (5,000 mutations of records, 500 of the document)', () => {
    const r = rng(29);
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const m = mutate(doc.data[i % doc.data.length]!, r);
      if (!acceptRecord(m)) refused++;
      expect(agreesWithZod(m, OssRecord, acceptRecord), JSON.stringify(m).slice(0, 300)).toBe(true);
    }
    expect(refused).toBeGreaterThan(1000);
    const small = { meta: doc.meta, data: doc.data.slice(0, 3) };
    for (let i = 0; i < 500; i++) expect(agreesWithZod(mutate(small, r), OssDocument, acceptDoc)).toBe(true);
  });

  it('decides a union by its discriminator: the option it names, never another', () => {
    const joint = clone(doc.data.find((x) => (x.extracted as { record_type: string }).record_type === 'urdf_joint')!);
    const extracted = joint.extracted as Record<string, unknown>;
    expect(acceptRecord(joint)).toBe(true);
    for (const tag of ['bom_item', 'URDF_JOINT', '', null, 1]) expect(acceptRecord({ ...joint, extracted: { ...extracted, record_type: tag } })).toBe(false);
    const { record_type: _tag, ...untagged } = extracted;
    expect(acceptRecord({ ...joint, extracted: untagged })).toBe(false);
    expect(acceptRecord({ ...joint, live: false })).toBe(false); // z.literal(true)
    expect(acceptDoc({ ...doc, meta: { ...doc.meta, files_copied: true } })).toBe(false); // z.literal(false)
  });

  it('gives up on literals and unions it cannot judge exactly', () => {
    expect(compileAcceptor(z.literal(undefined))).toBeNull();
    expect(compileAcceptor(z.literal(Number.NaN))).toBeNull();
    expect(compileAcceptor(z.literal(1n))).toBeNull();
    expect(compileAcceptor(z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.enum(['b', 'c']) })]))).toBeNull();
    expect(compileAcceptor(z.discriminatedUnion('k', [z.object({ k: z.literal('a'), x: z.string().default('d') }), z.object({ k: z.literal('b') })]))).toBeNull();
  });
});
