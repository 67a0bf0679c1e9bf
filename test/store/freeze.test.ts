/**
 * deepFreezeSharingEmpty (records frozen as they are read): the same values as before, every
 * container frozen, empty lists and objects shared; and readCatalogueData hands back such records.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { deepFreezeSharingEmpty } from '../../src/domain/shared/freeze.js';
import { readCatalogueData } from '../../src/store/catalogue-data.js';

const DATA = path.resolve(import.meta.dirname, '../../data');

/** Every array and object inside `v` (itself included). */
function containers(v: unknown, out: object[] = []): object[] {
  if (v !== null && typeof v === 'object') {
    out.push(v);
    for (const x of Object.values(v)) containers(x, out);
  }
  return out;
}

describe('deepFreezeSharingEmpty', () => {
  it('keeps the values, freezes every container and shares the empty ones', () => {
    const text = JSON.stringify([
      { id: 'A', tags: [], deep: { sources: [], compliance: {}, list: [[], {}, [1, []], { x: {} }] }, n: null },
      { id: 'B', tags: ['x'], deep: { sources: [], compliance: {} } },
    ]);
    const frozen = deepFreezeSharingEmpty(JSON.parse(text) as Record<string, any>[]);
    expect(JSON.stringify(frozen)).toBe(text);
    expect(frozen).toEqual(JSON.parse(text));
    for (const c of containers(frozen)) expect(Object.isFrozen(c)).toBe(true);
    const [a, b] = frozen;
    expect(a!.tags).toBe(b!.deep.sources);
    expect(a!.deep.compliance).toBe(b!.deep.compliance);
    expect(a!.deep.list[0]).toBe(a!.tags);
    expect(a!.deep.list[3].x).toBe(b!.deep.compliance);
    expect(Object.getPrototypeOf(a!.deep.compliance)).toBe(Object.prototype);
    expect(Array.isArray(a!.tags)).toBe(true);
    expect(() => (a!.tags as unknown[]).push(1)).toThrow(TypeError);
    // An empty value at the top is the shared one too.
    expect(deepFreezeSharingEmpty([])).toBe(a!.tags);
  });

  it('an own "__proto__" member (as JSON.parse makes it) stays an own member; the prototype is untouched', () => {
    const v = deepFreezeSharingEmpty(JSON.parse('{"__proto__":{},"k":{"__proto__":[]}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'k']);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual({});
    expect(Object.getPrototypeOf(v.k)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v.k, '__proto__')?.value).toEqual([]);
    expect(JSON.stringify(v)).toBe('{"__proto__":{},"k":{"__proto__":[]}}');
  });

  it('with an enumerable property on Object.prototype (polluted), only own members are walked and nothing is added', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = [];
    try {
      const v = deepFreezeSharingEmpty(JSON.parse('{"a":{},"b":[{}],"c":{"d":1}}') as Record<string, any>);
      expect(Object.keys(v)).toEqual(['a', 'b', 'c']);
      expect(Object.hasOwn(v, 'polluted')).toBe(false);
      expect(Object.hasOwn(v.c, 'polluted')).toBe(false);
      expect(Object.isFrozen(proto.polluted)).toBe(false);
      expect(Object.isFrozen(v.c)).toBe(true);
      expect(JSON.stringify(v)).toBe('{"a":{},"b":[{}],"c":{"d":1}}');
    } finally {
      delete proto.polluted;
    }
  });

  it('leaves an object already frozen as it is (shared values are walked once), and objects that are not plain', () => {
    const shared = Object.freeze({ list: [] as unknown[] });
    const v = deepFreezeSharingEmpty({ a: shared, b: shared, c: Object.create(null) as object });
    expect(v.a).toBe(shared);
    expect(Object.isFrozen(shared.list)).toBe(false); // frozen objects are taken as frozen all the way down
    expect(Object.getPrototypeOf(v.c)).toBeNull();
    expect(Object.isFrozen(v.c)).toBe(true);
  });
});

describe('readCatalogueData', () => {
  it('hands back the shipped records frozen, equal to the file parsed and validated whole', () => {
    const file = JSON.parse(fs.readFileSync(path.join(DATA, 'catalogue/entities.json'), 'utf8')) as { entities: unknown[] };
    const expected = file.entities.map((e) => StoredEntity.parse(e));
    const data = readCatalogueData(DATA);
    expect(JSON.stringify(data.entities)).toBe(JSON.stringify(expected));
    for (const e of data.entities) for (const c of containers(e)) expect(Object.isFrozen(c)).toBe(true);
    expect(() => {
      (data.entities[0] as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });
});
