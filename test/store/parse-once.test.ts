/**
 * PARSE_ONCE (zod without its compiled fast path, for documents validated once such as the start's
 * datasets) gives the same result as zod's default path: the same data for valid documents, the
 * same issues (code, path, message) for invalid ones. Checked on the shipped records and tables and
 * on random corruptions of them, compared with the default path of the same schemas.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MomentumMethod, TrlTable } from '../../src/domain/analytics/tables.js';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { PARSE_ONCE } from '../../src/domain/shared/parse-once.js';
import { rng } from '../support/rng.js';

const DATA = path.resolve(import.meta.dirname, '../../data');
const json = (rel: string): unknown => JSON.parse(fs.readFileSync(path.join(DATA, rel), 'utf8'));

function outcome(r: z.ZodSafeParseResult<unknown>) {
  return r.success ? { success: true, data: r.data } : { success: false, issues: r.error.issues.map((i) => ({ code: i.code, path: i.path, message: i.message })) };
}

/** A copy of `doc` with one value somewhere inside replaced (wrong type, removed, or an unknown key added). */
function corrupted(doc: unknown, next: () => number): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (let depth = 0; depth < 4; depth++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const k = keys[Math.floor(next() * keys.length)]!;
    const v = node[k];
    if (v !== null && typeof v === 'object' && next() < 0.6) {
      node = v as Record<string, unknown>;
      continue;
    }
    const how = Math.floor(next() * 4);
    if (how === 0) node[k] = 42;
    else if (how === 1) node[k] = 'x';
    else if (how === 2) delete node[k];
    else node[`unknown_${k}`] = true;
    break;
  }
  return copy;
}

const cases: [string, z.ZodType, unknown[]][] = [
  ['catalogue records (StoredEntity)', StoredEntity, (json('catalogue/entities.json') as { entities: unknown[] }).entities.slice(0, 300)],
  ['the TRL table', TrlTable, [json('analytics/trl.json')]],
  ['the momentum method', MomentumMethod, [json('analytics/momentum.json')]],
];

/** How many functions zod compiles (new Function) while `run` runs. */
function compiledDuring(run: () => void): number {
  const original = globalThis.Function;
  let made = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      made++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = original;
  }
  return made;
}

describe('PARSE_ONCE: zod without its compiled fast path', () => {
  it('compiles nothing, where the default path compiles a function for each object schema it meets (a new copy of each schema, its first parse)', () => {
    for (const [, schema, docs] of cases) {
      expect(compiledDuring(() => schema.clone().safeParse(docs[0], PARSE_ONCE))).toBe(0);
      expect(compiledDuring(() => schema.clone().safeParse(docs[0]))).toBeGreaterThan(0);
    }
  });

  for (const [what, schema, docs] of cases) {
    it(`${what}: the same data, and for corrupted copies the same issues, as the default path`, () => {
      const next = rng(what.length * 101);
      let refused = 0;
      let accepted = 0;
      for (const doc of docs) {
        expect(outcome(schema.safeParse(doc, PARSE_ONCE))).toEqual(outcome(schema.safeParse(doc)));
        for (let k = 0; k < Math.max(3, Math.ceil(600 / docs.length)); k++) {
          const bad = corrupted(doc, next);
          const once = outcome(schema.safeParse(bad, PARSE_ONCE));
          expect(once).toEqual(outcome(schema.safeParse(bad)));
          if (once.success) accepted++;
          else refused++;
        }
      }
      // Both outcomes met (a corruption the schema allows, such as an optional field removed, is accepted).
      expect(refused).toBeGreaterThan(50);
      expect(accepted + refused).toBeGreaterThan(100);
    });
  }
});
