/**
 * The one-line summary of a tool's text block (src/tools/text.ts): every run of whitespace
 * (newlines, tabs, no-break and ideographic spaces included) becomes one space, the ends are
 * trimmed, and at most SUMMARY_MAX characters are kept.
 */
import { describe, expect, it } from 'vitest';
import { composeText, oneLine, structuredFromText, SUMMARY_MAX } from '../../src/tools/text.js';

/** The folding written the long way: split on whitespace (JavaScript's \s set), drop empties, join. */
function folded(s: string): string {
  const words = s.split(/[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+/).filter((w) => w !== '');
  const line = words.join(' ');
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

describe('oneLine', () => {
  it('leaves a summary that is already one line as it is', () => {
    const s = '12 match(es) for "servo"; showing 12.';
    expect(oneLine(s)).toBe(s);
  });

  it('folds every kind of whitespace run and trims the ends', () => {
    for (const s of [' a', 'a ', 'a  b', 'a\nb', 'a \n b', '\ta\t', 'a\u00a0b', 'a\u3000\u3000b', 'a\r\nb', '\n', '', '  ', 'a\u2028b', 'a\ufeffb']) {
      expect(oneLine(s), JSON.stringify(s)).toBe(folded(s));
    }
  });

  it('agrees with the long way on random mixes of words and whitespace', () => {
    const pieces = ['servo', '雷赛', 'x', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', '\r\n', '"q"', ';'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length;
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: 1 + (i % 40) }, () => pieces[next()]).join('');
      expect(oneLine(s), JSON.stringify(s)).toBe(folded(s));
    }
  });

  it(`keeps at most ${SUMMARY_MAX} characters, ending an overlong one with an ellipsis`, () => {
    const long = 'word '.repeat(200).trim();
    const line = oneLine(long);
    expect(line).toHaveLength(SUMMARY_MAX);
    expect(line.endsWith('…')).toBe(true);
    expect(long.startsWith(line.slice(0, -1))).toBe(true);
  });

  it('puts the summary before the JSON, which parses back to the structured result', () => {
    const structured = { data: [{ id: 'A-1', name: 'x\ny' }], meta: { total: 1 } };
    const text = composeText('1 match\n  for "x"', structured);
    expect(text.split('\n')[0]).toBe('1 match for "x"');
    expect(structuredFromText(text)).toEqual(structured);
  });

  it('finds the JSON after the summary line even when the summary starts with a brace, and the JSON alone without one', () => {
    const structured = { data: [{ id: 'A-1', name: '{x}\n' }], meta: { q: '{x}', total: 1 } };
    expect(structuredFromText(composeText('{x}: 1 match', structured))).toEqual(structured);
    expect(structuredFromText(composeText(null, structured))).toEqual(structured);
  });
});
