/** readJsonRecords gives what JSON.parse of the whole document gives, or null (then the caller parses whole). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonRecords } from '../../src/store/json-records.js';

function viaRecords(text: string, key = 'entities') {
  const records: unknown[] = [];
  const members = readJsonRecords(Buffer.from(text, 'utf8'), key, (v, i) => {
    expect(i).toBe(records.length);
    records.push(v);
  });
  return members === null ? null : { ...members, [key]: records };
}

describe('readJsonRecords', () => {
  it('equals JSON.parse on documents of the expected shape (spacing, escapes, unicode, nesting, numbers)', () => {
    const docs = [
      '{"meta":{"a":1},"entities":[]}',
      ' \n{ "entities" : [ {"id":"A"} , {"id":"B","x":[1,[2,{"y":"]}\\"[{"}]]} ] , "meta" : null }\n ',
      '{"meta":"x","entities":[1,-2.5e3,true,false,null,"s\\"t\\\\","雷赛智能 ✓ \\u00e9",[],{}],"tail":{"k":[{"z":"}"}]}}',
      JSON.stringify({ meta: { dataset_version: 'v', n: 3 }, entities: [{ id: 'Ä', tags: ['a,b', '{', '['] }, { id: 'B', deep: { a: { b: { c: [1, 2, { d: '"' }] } } } }] }, null, 2),
      '{"__proto__":{"polluted":true},"entities":[{"__proto__":1}]}',
      '{"meta":1,"meta":2,"entities":[3]}',
      // Runs of backslashes before a quote: an even run ends the string, an odd run escapes the quote.
      JSON.stringify({ entities: ['\\', '\\"x', '"', { 'k\\': 'v\\\\' }, '\\\\"]\\"'], 'm\\': '"' }),
    ];
    for (const d of docs) expect(viaRecords(d), d).toEqual(JSON.parse(d));
    expect(Object.keys(viaRecords(docs[4])!)).toEqual(Object.keys(JSON.parse(docs[4])));
  });

  it('the shipped catalogue: the same records as a whole parse', () => {
    const file = path.resolve(import.meta.dirname, '../../data/catalogue/entities.json');
    const text = fs.readFileSync(file, 'utf8');
    expect(viaRecords(text)).toEqual(JSON.parse(text));
  });

  it('anything else is handed back (null): not an object, no array under the key, the key twice, malformed or trailing text', () => {
    for (const d of ['[1,2]', '{}', '{"meta":1}', '{"entities":{}}', '{"entities":[1],"entities":[2]}', '{"entities":[1,]}', '{"entities":[1 2]}', '{"entities":[tru]}', '{"entities":[1]} x', '{"entities":[1]', '{"entities":["abc]}', '\ufeff{"entities":[]}', '{"a":1 "entities":[]}'])
      expect(viaRecords(d), d).toBeNull();
  });

  it('an error thrown by the caller for a record propagates (it is not taken for malformed JSON)', () => {
    expect(() =>
      readJsonRecords(Buffer.from('{"entities":[{"id":"A"},{"id":"B"}]}'), 'entities', (v) => {
        if ((v as { id: string }).id === 'B') throw new Error('record B is invalid');
      }),
    ).toThrow('record B is invalid');
  });
});
