/**
 * The completeness parse (src/scorers/code/completeness/elements.ts, compromise's CommonJS build loaded on
 * first use). Its element lists must be the reference's, order included:
 * the oracle here is the reference's derivation written out (one `compromise` document per text, nouns,
 * `verbs().toInfinitive()`, topics, terms, each cleaned and de-duplicated in order) on compromise's own
 * ES module, not on tracejudge's code. Corpus: test/scorers/fixtures/english-corpus.ts (README prose of
 * node_modules, fixture and labeled texts); every text when TRACEJUDGE_FULL_CORPUS=1, else every other one.
 */
import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { parseElements } from '../../src/scorers/code/completeness/elements.js';
import { englishCorpus } from './fixtures/english-corpus.js';

function oracle(text: string): string[] {
  const normalize = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const split = (term: string): string[] =>
    normalize(term)
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .split(/\s+/)
      .filter((w) => w.length > 0);
  const doc = nlp(text);
  const nouns = doc.nouns().out('array') as string[];
  const verbs = doc.verbs().toInfinitive().out('array') as string[];
  const topics = doc.topics().out('array') as string[];
  const terms = doc.terms().out('array') as string[];
  return [...new Set([...nouns.flatMap(split), ...verbs.flatMap(split), ...topics.flatMap(split), ...terms.flatMap(split)])];
}

describe('completeness elements', () => {
  const all = englishCorpus();
  const corpus = process.env.TRACEJUDGE_FULL_CORPUS === '1' ? all : all.filter((_, i) => i % 2 === 0);

  it('the corpus is large and has many sentences with several verbs (where the per-verb re-tags matter)', () => {
    expect(corpus.length).toBeGreaterThan(1500);
    // Sentences with two verbs or more: toInfinitive re-tags between their verbs.
    const multiVerb = corpus.filter((t) => {
      const sentences = nlp(t).sentences().json() as Array<{ terms: Array<{ tags: string[] }> }>;
      return sentences.some((s) => s.terms.filter((x) => x.tags.includes('Verb')).length >= 2);
    });
    expect(multiVerb.length).toBeGreaterThan(corpus.length / 3);
  }, 120_000);

  it('are the reference derivation’s, order included, on every text of the corpus', () => {
    const differing: Array<{ text: string; expected: string[]; got: string[] }> = [];
    for (const text of corpus) {
      const expected = oracle(text);
      const got = parseElements(text);
      if (JSON.stringify(got) !== JSON.stringify(expected)) differing.push({ text, expected, got });
    }
    expect(differing.slice(0, 5)).toEqual([]);
  }, 600_000);

  it('parsing a text twice gives the same list (a parse leaves no state behind)', () => {
    const texts = corpus.slice(0, 50);
    const first = texts.map(parseElements);
    expect(texts.map(parseElements)).toEqual(first);
    expect(texts.map(oracle)).toEqual(first);
  }, 120_000);
});
