/**
 * The completeness parse (src/scorers/code/completeness/elements.ts, compromise's CommonJS build loaded on
 * first use) and the workers' parse (the same, on the worker's own compromise with speedups.ts). Their
 * element lists must be the reference's, order included: the oracle here is the reference's derivation
 * written out (one `compromise` document per text, nouns, `verbs().toInfinitive()`, topics, terms, each
 * cleaned and de-duplicated in order) on compromise's own ES module, not on tracejudge's code.
 *
 * Corpus (test/scorers/fixtures): README prose of node_modules with the fixture and labeled texts
 * (~3,700), doc-comment prose of node_modules' type declarations (~20,000) and generated English (2,500).
 * Every text when TRACEJUDGE_FULL_CORPUS=1 (~27,000; ~8 minutes on 2 cores), else every 2nd README text,
 * every 20th doc comment and every 4th generated text (~3,500).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compileFunction } from 'node:vm';
import nlp from 'compromise';
import { afterAll, describe, expect, it } from 'vitest';
import { ElementPool } from '../../src/scorers/code/completeness/element-pool.js';
import { elementParser, parseElements } from '../../src/scorers/code/completeness/elements.js';
import type { Nlp } from '../../src/scorers/code/completeness/nlp.js';
import { compromise } from '../../src/scorers/code/completeness/nlp.js';
import { installSpeedups } from '../../src/scorers/code/completeness/speedups.js';
import { docCommentCorpus, englishCorpus } from './fixtures/english-corpus.js';
import { generatedEnglish } from './fixtures/generated-english.js';

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

/** A compromise instance of this test's own (the CommonJS build compiled again), for the speed-ups in-process. */
function privateCompromise(): Nlp {
  const path = createRequire(import.meta.url).resolve('compromise');
  const module = { exports: {} as unknown };
  const load = compileFunction(readFileSync(path, 'utf8'), ['exports', 'module'], { filename: path }) as (exports: unknown, m: { exports: unknown }) => void;
  load(module.exports, module);
  return module.exports as Nlp;
}

const full = process.env.TRACEJUDGE_FULL_CORPUS === '1';
const every = <T>(list: T[], n: number): T[] => (full ? list : list.filter((_, i) => i % n === 0));

interface Differing {
  text: string;
  expected: string[];
  got: string[];
}

/** The oracle's lists, computed once per text for the several parses compared with them. */
const expectedLists = new Map<string, string[]>();

function differences(texts: readonly string[], got: readonly string[][]): Differing[] {
  const out: Differing[] = [];
  texts.forEach((text, i) => {
    let expected = expectedLists.get(text);
    if (!expected) expectedLists.set(text, (expected = oracle(text)));
    const g = got[i] as string[];
    if (JSON.stringify(g) !== JSON.stringify(expected)) out.push({ text, expected, got: g });
  });
  return out;
}

describe('completeness elements', () => {
  const readme = every(englishCorpus(), 2);
  const corpus = [...readme, ...every(docCommentCorpus(), 20), ...every(generatedEnglish(), 4)];

  it('the corpus is large and has many sentences with several verbs (where the per-verb re-tags matter)', () => {
    expect(corpus.length).toBeGreaterThan(full ? 25_000 : 3_000);
    // Sentences with two verbs or more: toInfinitive re-tags between their verbs.
    const multiVerb = corpus.filter((t) => {
      const sentences = nlp(t).sentences().json() as Array<{ terms: Array<{ tags: string[] }> }>;
      return sentences.some((s) => s.terms.filter((x) => x.tags.includes('Verb')).length >= 2);
    });
    expect(multiVerb.length).toBeGreaterThan(corpus.length / 3);
  }, 1_200_000);

  it('are the reference derivation’s, order included, on every text of the corpus (event loop)', () => {
    expect(differences(corpus, corpus.map((t) => parseElements(t))).slice(0, 5)).toEqual([]);
  }, 1_800_000);

  it('are the reference derivation’s on every text of the corpus with the speed-ups (a private instance)', () => {
    const parse = elementParser(privateCompromise());
    const sped = privateCompromise();
    installSpeedups(sped);
    const fast = elementParser(sped);
    const got = corpus.map((t) => fast(t));
    expect(differences(corpus, got).slice(0, 5)).toEqual([]);
    // The private instance as it ships agrees too (the oracle is not tied to the ES module).
    expect(corpus.slice(0, 200).map((t) => parse(t))).toEqual(got.slice(0, 200));
  }, 1_800_000);

  describe('in the worker pool', () => {
    const pool = new ElementPool(2);
    afterAll(() => pool.close());

    it('are the reference derivation’s on every text of the corpus, and the main thread’s compromise is untouched', async () => {
      const one = (compromise().world() as { methods: { one: Record<string, unknown> } }).methods.one;
      const before = { ...one };
      const view = Object.getPrototypeOf(compromise()('x')) as { update: unknown; toView: unknown };
      const viewBefore = { update: view.update, toView: view.toView };
      // Loading the worker module outside a pool's thread installs nothing either.
      await import('../../src/scorers/code/completeness/element-worker.js');
      const got = await Promise.all(corpus.map((t) => pool.parse(t)));
      expect(differences(corpus, got).slice(0, 5)).toEqual([]);
      expect({ ...one }).toEqual(before);
      for (const k of Object.keys(before)) expect(one[k]).toBe(before[k]);
      expect({ update: view.update, toView: view.toView }).toEqual(viewBefore);
    }, 1_800_000);
  });

  it('parsing a text twice gives the same list (a parse leaves no state behind)', () => {
    const texts = corpus.slice(0, 50);
    const first = texts.map((t) => parseElements(t));
    expect(texts.map((t) => parseElements(t))).toEqual(first);
    expect(texts.map(oracle)).toEqual(first);
  }, 120_000);

  it('the speed-ups are in place on this compromise (each wrapped internal and view method replaced)', () => {
    const plain = privateCompromise();
    const sped = privateCompromise();
    installSpeedups(sped);
    const one = (nlpInstance: Nlp): Record<string, unknown> => (nlpInstance.world() as { methods: { one: Record<string, unknown> } }).methods.one;
    for (const name of ['parseMatch', 'killUnicode', 'bulkMatch']) expect(one(sped)[name], name).not.toBe(one(plain)[name]);
    const viewOf = (nlpInstance: Nlp): { update: unknown; toView: unknown } => Object.getPrototypeOf(nlpInstance('x')) as { update: unknown; toView: unknown };
    expect(viewOf(sped).update).not.toBe(viewOf(plain).update);
    expect(viewOf(sped).toView).not.toBe(viewOf(plain).toView);
    // A view made by the faster `update` is a view of that instance, with its values.
    const doc = sped('Walk the dog. It barked.') as unknown as Record<string, unknown> & { update: (pointer: unknown) => unknown };
    const first = doc.update([[0]]) as Record<string, unknown>;
    expect(first).toBeInstanceOf((Object.getPrototypeOf(doc) as { constructor: new () => unknown }).constructor);
    expect([first.document, first.world, first._cache, first.viewType, first.ptrs]).toEqual([doc.document, doc.world, null, 'View', [[0]]]);
    expect((first as unknown as { text: () => string }).text()).toBe('Walk the dog.');
  });

  it('a kept match pattern is copied for each caller (callers change the tokens they get)', () => {
    const sped = privateCompromise();
    installSpeedups(sped);
    const world = sped.world() as { methods: { one: { parseMatch: (p: string, o: unknown, w: unknown) => Array<Record<string, unknown>> } } };
    const parseMatch = world.methods.one.parseMatch;
    const first = parseMatch('(a|the) #Noun', undefined, world);
    (first[0] as Record<string, unknown>).end = true;
    const second = parseMatch('(a|the) #Noun', undefined, world);
    expect(second).not.toBe(first);
    expect(second[0]).not.toHaveProperty('end');
    // `growLeft` marks the pattern it parses: a later match on the same pattern must not see the mark.
    const doc = sped('He said that to me. Go to the shop.');
    expect(doc.match('to').out('array')).toEqual(nlp('He said that to me. Go to the shop.').match('to').out('array'));
    doc.match('me').growLeft('to');
    expect(doc.match('to').out('array')).toEqual(['to', 'to']);
  });
});
