/**
 * `extractKeywords` is tracejudge's own one-pass keyword extraction; the reference is `keyword-extractor`
 * 0.0.28's `extract` with the options the keyword-coverage scorer uses. Both run on the same texts here: the
 * fixture texts, hand-picked edge cases, and seeded random texts built from the characters and words the
 * reference treats specially (punctuation, quotes at word edges, URLs, digits, HTML, lone symbols, Unicode
 * whitespace, stopwords in any case).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import keywordExtractorModule from 'keyword-extractor';
import { describe, expect, it } from 'vitest';
import { extractKeywords } from '../../../src/scorers/code/keyword-coverage/index.js';
import { seededRandom } from '../../seeded-random.js';

const reference = keywordExtractorModule as unknown as { extract(text: string, options: Record<string, unknown>): string[] };
const OPTIONS = { language: 'english', remove_digits: true, return_changed_case: true, remove_duplicates: true };
const expected = (text: string): string[] => reference.extract(text, OPTIONS);

const WORDS = [
  'The', 'the', 'THE', 'weather', 'Lisbon', 'is', 'sunny', 'A', 'an', 'order', "don't", "'quoted'", "it's", 'you\'re', 'shipped', 'cancelled',
  '42', '3.14', '2026-12-04', '$1,276.40', '18°C', 'R2-D2', 'v2', 'http://example.com/a?b=1', 'https://x.io/(path)', 'HTTP://UPPER.COM', 'mailto:x@y',
  '<b>bold</b>', '<br/>', '<a href="x">link</a>', '_', '@', '&', '#', '#tag', '@user', 'a_b', '...', '?!', '“curly”', '‘single’', '(paren)', 'semi;colon',
  'über', 'ÉCOLE', 'naïve', '東京', 'İstanbul', 'ß', '"', "'", "''", "'a'", "a''", 'zero', 'z', 'able', "a's", 'Yourselves',
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', ', ', '. ', ''];

function randomText(next: () => number): string {
  const n = Math.floor(next() * 30);
  let out = next() < 0.1 ? ' ' : '';
  for (let i = 0; i < n; i++) {
    out += WORDS[Math.floor(next() * WORDS.length)] as string;
    out += SEPARATORS[Math.floor(next() * SEPARATORS.length)] as string;
  }
  return out;
}

function fixtureTexts(): string[] {
  const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'traces');
  const texts: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const walk = (v: unknown): void => {
      if (typeof v === 'string') {
        if (v.length > 0) texts.push(v);
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(JSON.parse(readFileSync(join(dir, f), 'utf8')));
  }
  return texts;
}

describe('extractKeywords against keyword-extractor 0.0.28', () => {
  it('edge cases', () => {
    const cases = [
      '', ' ', '\n\t', 'the a an', '<p></p>', '<p>Hello</p> <b>World</b>', "'start end'", "''double''", '"quoted words" here', '1 22 333 4a5',
      'Visit https://example.com/path, now!', 'http://a.b http://a.b HTTP://A.B', '_ @ & # __ @@', 'Hello hello HELLO', 'é É e\u0301',
      'line\nbreak\r\nwindows', 'tab\tseparated\u00a0nbsp', 'a.b.c', '3.14159', '(test) [test] {test}', 'x'.repeat(500),
    ];
    for (const text of cases) expect(extractKeywords(text), JSON.stringify(text)).toEqual(expected(text));
  });

  it('every string of the recorded trace fixtures', () => {
    const texts = fixtureTexts();
    expect(texts.length).toBeGreaterThan(1000);
    let differing = 0;
    for (const text of texts) if (JSON.stringify(extractKeywords(text)) !== JSON.stringify(expected(text))) differing++;
    expect(differing).toBe(0);
  });

  it('20,000 seeded random texts', () => {
    const next = seededRandom(18);
    const bad: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(next);
      if (JSON.stringify(extractKeywords(text)) !== JSON.stringify(expected(text))) bad.push(text);
    }
    expect(bad.slice(0, 3)).toEqual([]);
  });
});
