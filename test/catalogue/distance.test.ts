import { describe, expect, it } from 'vitest';
import { levenshtein, levenshteinWithin } from '../../src/domain/shared/distance.js';
import { closeSpellings } from '../../src/domain/catalogue/names.js';

/** The textbook edit distance (full table), written here as the reference. */
function reference(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

describe('levenshteinWithin (the banded distance close spellings use)', () => {
  it('equals the full distance when it is at most max, and max + 1 otherwise, on random and edge-case strings', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const word = (n: number) => Array.from({ length: n }, () => 'abcdeé谐'[Math.floor(rnd() * 7)]).join('');
    const pairs: [string, string][] = [['', ''], ['', 'ab'], ['abc', ''], ['kitten', 'sitting'], ['servo', 'serov'], ['xyzzyplonk', 'xyzzyplank'], ['actuator', 'actuators'], ['谐波', '谐波减速器']];
    for (let k = 0; k < 3000; k++) pairs.push([word(Math.floor(rnd() * 12)), word(Math.floor(rnd() * 12))]);
    for (const [a, b] of pairs) {
      const d = reference(a, b);
      expect(levenshtein(a, b), `${a} ${b}`).toBe(d);
      for (const max of [0, 1, 2, 3, 5]) expect(levenshteinWithin(a, b, max), `${a} ${b} max ${max}`).toBe(Math.min(d, max + 1));
    }
  });

  it('close spellings are the words within one or two edits, nearest first', () => {
    const words = ['servo', 'serve', 'nerve', 'server', 'serious', 'actuator', 'sevro'];
    expect(closeSpellings('servp', words)).toEqual(['servo', 'serve', 'nerve'].filter((w) => reference('servp', w) <= 1).sort((x, y) => reference('servp', x) - reference('servp', y) || (x < y ? -1 : 1)));
    expect(closeSpellings('actuatro', words)).toEqual(['actuator']);
  });

  it('the letter-set pre-check never drops a word within reach (a frozen vocabulary of random words, against a brute force)', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const word = (n: number) => Array.from({ length: n }, () => 'aeiourstnl0谐-'[Math.floor(rnd() * 14)]).join('');
    const vocab = Object.freeze([...new Set(Array.from({ length: 4000 }, () => word(3 + Math.floor(rnd() * 8))))].sort());
    for (let k = 0; k < 200; k++) {
      const term = k % 2 ? vocab[Math.floor(rnd() * vocab.length)]!.replace(/^./, 'x') : word(4 + Math.floor(rnd() * 6));
      const limit = term.length <= 5 ? 1 : 2;
      // Terms shorter than 4 characters get no suggestion (closeSpellings' rule).
      const brute = [...term].length < 4 ? [] : vocab
        .filter((w) => w !== term && reference(term, w) <= limit)
        .sort((x, y) => reference(term, x) - reference(term, y) || (x < y ? -1 : x > y ? 1 : 0))
        .slice(0, 3);
      expect(closeSpellings(term, vocab), term).toEqual(brute);
    }
  });
});
