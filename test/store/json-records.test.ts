/**
 * readJsonRecords (a buffer) and readJsonRecordsFile (a file through a window that moves and grows)
 * give what JSON.parse of the whole document gives, or null (then the caller parses whole); each
 * record's byte range holds exactly that record.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonRecords, readJsonRecordsFile, readJsonRecordsTail, type RecordSplit } from '../../src/store/json-records.js';
import { rng } from '../support/rng.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-json-records-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The buffer reader, and the file reader with windows smaller than a record, of a few records, and larger than the document. */
const READERS = ['buffer', 16, 61, 700, 1 << 20] as const;

function viaRecordsWith(reader: (typeof READERS)[number], text: string, key = 'entities') {
  const bytes = Buffer.from(text, 'utf8');
  const records: unknown[] = [];
  const onRecord = (v: unknown, i: number, start: number, end: number) => {
    expect(i).toBe(records.length);
    // The record's bytes in the document, and nothing else.
    expect(JSON.parse(bytes.toString('utf8', start, end))).toEqual(v);
    records.push(v);
  };
  let members: Record<string, unknown> | null;
  if (reader === 'buffer') members = readJsonRecords(bytes, key, onRecord);
  else {
    const file = path.join(tmp, 'doc.json');
    fs.writeFileSync(file, bytes);
    members = readJsonRecordsFile(file, key, onRecord, reader);
  }
  return members === null ? null : { ...members, [key]: records };
}

/** What every reader gives (they must agree). */
function viaRecords(text: string, key = 'entities') {
  const first = viaRecordsWith('buffer', text, key);
  for (const r of READERS.slice(1)) expect(viaRecordsWith(r, text, key), `window ${r}: ${text.slice(0, 200)}`).toEqual(first);
  return first;
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
    const whole = JSON.parse(text);
    expect(viaRecordsWith('buffer', text)).toEqual(whole);
    // Through windows of 4 kB (a few records each) and 1 MB, read from the file itself.
    for (const w of [4096, 1 << 20]) {
      const records: unknown[] = [];
      const members = readJsonRecordsFile(file, 'entities', (v) => records.push(v), w);
      expect({ ...members, entities: records }).toEqual(whole);
    }
  });

  it('a record larger than the window grows it; a document that is not of the shape gives null from a file too', () => {
    const big = { id: 'BIG', blob: 'x'.repeat(50_000), list: Array.from({ length: 2000 }, (_, i) => ({ i })) };
    const text = JSON.stringify({ meta: { m: 1 }, entities: [{ id: 'A' }, big, { id: 'C' }], tail: 'z'.repeat(3000) });
    expect(viaRecords(text)).toEqual(JSON.parse(text));
    for (const bad of ['{"entities":[{"id":"A"},{"id":"B"}', '{"entities":[{"id":"A"}]} {}', '{"meta":1}']) expect(viaRecords(bad), bad).toBeNull();
  });

  it('records found by their separator: the same as JSON.parse when the separator also occurs inside records, strings or after the array', () => {
    const nested = (id: string) => ({ id, parts: [{ id: `${id}-a` }, { id: `${id}-b`, v: [{ id: 'c' }] }], note: '},{"id":"x"} \\"},{\\"id\\":' });
    const docs = [
      // Every record holds the separator ('},{"id":') in a nested list: each guess fails, the scanner decides.
      JSON.stringify({ meta: 1, entities: Array.from({ length: 40 }, (_, i) => nested(`N${i}`)) }),
      JSON.stringify({ meta: 1, entities: Array.from({ length: 40 }, (_, i) => nested(`N${i}`)) }, null, 2),
      // Some records hold it: the others are taken by the guess.
      JSON.stringify({ entities: Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? nested(`M${i}`) : { id: `M${i}`, name: '雷赛智能 \\', d: '"\\\\"' })) }),
      // The separator after the array (a later member): the last record is scanned.
      JSON.stringify({ entities: [{ id: 'A' }, { id: 'B' }, { id: 'C' }], tail: [{ id: 'x' }, { id: 'y' }] }),
      // Records of other shapes and spacing after the first two: guesses spanning two records fail.
      '{"entities":[{"id":"A"},{"id":"B"},{"name":"C"},{"id":"D"} ,{"id":"E"},\n{"id":"F"},{"id":"G","k":{"id":1}},{"id":"H"}]}',
      // Escaped quotes and backslash runs right before a record's end.
      JSON.stringify({ entities: [{ id: 'A', s: '\\' }, { id: 'B', s: '\\"' }, { id: 'C', s: '"}' }, { id: 'D', s: '\\\\' }, { id: 'E', s: '},{"id":' }] }),
      // Only the first record is an object with a key: nothing to learn from.
      '{"entities":[{"id":"A"},[1],{"id":"B"},{},{"id":"C"}]}',
      '{"entities":[{},{"id":"A"},{"id":"B"}]}',
    ];
    for (const d of docs) expect(viaRecords(d), d).toEqual(JSON.parse(d));
  });

  it('random documents (nested records, escapes, CJK, the separator inside strings), compact and indented: the same as JSON.parse', () => {
    const next = rng(29);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const pieces = ['a', 'Z', '9', ' ', '"', '\\', '\\\\', '\\"', '}', '{', ']', '[', ',', ':', '},{"id":', '谐波', '減速機', '👍', '\n', 'é'];
    const str = () => Array.from({ length: Math.floor(next() * 6) }, () => pick(pieces)).join('');
    const value = (depth: number): unknown => {
      const r = next();
      if (depth > 2 || r < 0.4) return pick([str(), Math.floor(next() * 1e6) / 100, true, false, null]);
      if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      return record(depth + 1);
    };
    const record = (depth: number): Record<string, unknown> => {
      const o: Record<string, unknown> = { id: str() };
      for (let k = Math.floor(next() * 4); k > 0; k--) o[pick(['name', 'x', str()])] = value(depth);
      return o;
    };
    for (let round = 0; round < 60; round++) {
      const doc = { meta: value(0), entities: Array.from({ length: 1 + Math.floor(next() * 30) }, () => (next() < 0.9 ? record(0) : value(0))), tail: value(0) };
      for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, round % 3)]) expect(viaRecords(text), text).toEqual(JSON.parse(text));
    }
  });

  it('anything else is handed back (null): not an object, no array under the key, the key twice, malformed or trailing text', () => {
    for (const d of ['[1,2]', '{}', '{"meta":1}', '{"entities":{}}', '{"entities":[1],"entities":[2]}', '{"entities":[1,]}', '{"entities":[1 2]}', '{"entities":[tru]}', '{"entities":[1]} x', '{"entities":[1]', '{"entities":["abc]}', '\ufeff{"entities":[]}', '{"a":1 "entities":[]}'])
      expect(viaRecords(d), d).toBeNull();
  });

  it('an error thrown by the caller for a record propagates (it is not taken for malformed JSON)', () => {
    const refuse = (v: unknown) => {
      if ((v as { id: string }).id === 'B') throw new Error('record B is invalid');
    };
    const text = '{"entities":[{"id":"A"},{"id":"B"}]}';
    expect(() => readJsonRecords(Buffer.from(text), 'entities', refuse)).toThrow('record B is invalid');
    fs.writeFileSync(path.join(tmp, 'refused.json'), text);
    expect(() => readJsonRecordsFile(path.join(tmp, 'refused.json'), 'entities', refuse, 16)).toThrow('record B is invalid');
  });
});

/**
 * A scan with its tail read elsewhere (RecordSplit), the tail read here by readJsonRecordsTail at
 * once when offered: what the two give together, and whether the tail was reached or missed.
 */
function viaSplit(file: string, from: number, window: number) {
  const fd = fs.openSync(file, 'r');
  const bytes = fs.readFileSync(file);
  try {
    const head: unknown[] = [];
    let tail: { records: unknown[]; members: Record<string, unknown> | null } | null = null;
    const seen = { outcome: 'none' as 'none' | 'reached' | 'missed' };
    const onRecord = (records: unknown[]) => (v: unknown, i: number, start: number, end: number) => {
      expect(i).toBe(records.length);
      expect(JSON.parse(bytes.toString('utf8', start, end))).toEqual(v);
      records.push(v);
    };
    const split: RecordSplit = {
      from,
      start: (at) => {
        const records: unknown[] = [];
        tail = { records, members: readJsonRecordsTail(fd, 'entities', at, onRecord(records), window) };
        return true;
      },
      reached: () => {
        seen.outcome = 'reached';
        return tail!.members;
      },
      missed: () => {
        seen.outcome = 'missed';
      },
    };
    const members = readJsonRecordsFile(fd, 'entities', onRecord(head), window, split);
    const records = seen.outcome === 'reached' ? [...head, ...tail!.records] : head;
    return { doc: members === null ? null : { ...members, entities: records }, outcome: seen.outcome };
  } finally {
    fs.closeSync(fd);
  }
}

describe('readJsonRecordsFile with its tail read elsewhere (RecordSplit)', () => {
  it('gives what JSON.parse gives wherever the tail is guessed to start: a record start (reached) or inside a record (missed)', () => {
    const next = rng(53);
    // Records whose nested objects start with the same key as the records: the separator
    // ('},{"id":') also occurs inside them, so some guesses fall inside a record.
    const record = (n: number): Record<string, unknown> => ({
      id: `r${n}`,
      kids: Array.from({ length: Math.floor(next() * 4) }, (_, k) => ({ id: `k${n}.${k}`, note: next() < 0.3 ? '},{"id":"quoted"}' : k })),
      name: 'x'.repeat(Math.floor(next() * 40)),
    });
    const outcomes = { reached: 0, missed: 0, none: 0 };
    for (const [round, layout] of [[0, 0], [1, 2], [2, 0]] as const) {
      const doc = { meta: { round }, entities: Array.from({ length: 40 }, (_, n) => record(n)), after: { round, list: [{ id: 'a' }, { id: 'b' }] } };
      const text = JSON.stringify(doc, null, layout);
      const file = path.join(tmp, `split-${round}.json`);
      fs.writeFileSync(file, text);
      const size = Buffer.byteLength(text);
      for (let from = 0; from < size; from += 23) {
        for (const window of [61, 1 << 20]) {
          const { doc: got, outcome } = viaSplit(file, from, window);
          expect(got, `from ${from}, window ${window}`).toEqual(doc);
          outcomes[outcome]++;
        }
      }
    }
    // Both ways were taken (else the test shows nothing of the split).
    expect(outcomes.reached).toBeGreaterThan(50);
    expect(outcomes.missed).toBeGreaterThan(20);
  });

  it('a tail that is not the rest of such a document: null, as for the file read by one scan', () => {
    const good = JSON.stringify({ meta: 1, entities: Array.from({ length: 30 }, (_, n) => ({ id: `r${n}`, pad: 'y'.repeat(30) })) });
    for (const text of [good + ' x', good.slice(0, -2) + ',]}', good.replace('"r25"', '"r25" "oops"'), good.slice(0, -1) + ',"entities":[]}']) {
      const file = path.join(tmp, 'split-bad.json');
      fs.writeFileSync(file, text);
      const { doc, outcome } = viaSplit(file, Math.floor(text.length / 2), 1 << 20);
      expect(outcome, text.slice(-40)).toBe('reached');
      expect(doc).toBeNull();
    }
  });

  it('readJsonRecordsTail on its own: the records from a record start to the end, and the members after the array', () => {
    const text = JSON.stringify({ before: 1, entities: [{ id: 'A' }, { id: 'B', v: [1, { id: 'n' }] }, { id: 'C' }], after: { z: true } });
    const at = text.indexOf('{"id":"B"');
    const fd = fs.openSync(path.join(tmp, 'tail.json'), 'w+');
    try {
      fs.writeSync(fd, text);
      const got: [unknown, number, string][] = [];
      const members = readJsonRecordsTail(fd, 'entities', at, (v, i, start, end) => got.push([v, i, text.slice(start, end)]), 16);
      expect(got).toEqual([
        [{ id: 'B', v: [1, { id: 'n' }] }, 0, '{"id":"B","v":[1,{"id":"n"}]}'],
        [{ id: 'C' }, 1, '{"id":"C"}'],
      ]);
      expect(members).toEqual({ after: { z: true } });
    } finally {
      fs.closeSync(fd);
    }
  });
});
