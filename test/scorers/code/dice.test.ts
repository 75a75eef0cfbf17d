/**
 * Content similarity's Dice coefficient against the library it stands in for: `string-similarity`'s
 * `compareTwoStrings`, bit for bit, on hand-picked cases and seeded random texts (whitespace of every kind,
 * repeated bigrams, short strings, surrogate pairs, case).
 */
import stringSimilarity from 'string-similarity';
import { describe, expect, it } from 'vitest';
import { diceBigrams } from '../../../src/scorers/utils/dice.js';
import { seededRandom } from '../../seeded-random.js';

const CASES: Array<[string, string]> = [
  ['', ''],
  ['a', 'a'],
  ['a', 'b'],
  ['ab', 'a'],
  ['The quick brown fox', 'The quick brown cat'],
  ['aaaa', 'aa'],
  ['abab', 'baba'],
  ['  spaced\tout\ntext ', 'spacedouttext'],
  ['Hello World', 'hello world'],
  ['😀😀 emoji', '😀 emoji 😀'],
  ['\u00a0non-breaking\u2003spaces', 'non-breaking spaces'],
  // Bigrams a narrower key would confuse: (U+0001, U+0000) and (U+0000, U+0100) are different bigrams.
  ['\u0001\u0000', '\u0000\u0100'],
  ['x\u0001\u0000y', 'x\u0000\u0100y'],
];

/** Random text from a small alphabet, so bigrams repeat, with whitespace and astral characters mixed in. */
function text(random: () => number): string {
  const alphabet = ['a', 'b', 'c', 'A', 'B', ' ', '\t', '\n', '\u00a0', '.', 'é', '😀', '𝒳', 'ab', 'the ', '\u0000', '\u0001', '\u0100'];
  const n = Math.floor(random() * 30);
  let t = '';
  for (let i = 0; i < n; i++) t += alphabet[Math.floor(random() * alphabet.length)];
  return t;
}

describe('diceBigrams', () => {
  it('equals string-similarity compareTwoStrings on the hand-picked cases', () => {
    for (const [a, b] of CASES) expect(diceBigrams(a, b)).toBe(stringSimilarity.compareTwoStrings(a, b));
  });

  it('equals string-similarity compareTwoStrings on 20,000 seeded random pairs', () => {
    const random = seededRandom(31);
    for (let i = 0; i < 20_000; i++) {
      const a = text(random);
      // Every third pair: the second text a variation of the first, so scores spread over (0, 1).
      const b = i % 3 === 0 ? `${a.slice(0, Math.floor(a.length / 2))}${text(random)}` : text(random);
      expect(diceBigrams(a, b)).toBe(stringSimilarity.compareTwoStrings(a, b));
    }
  });
});
