import { describe, expect, it } from 'vitest';
import { createCompletenessScorer } from '../../../src/scorers/code/completeness/index.js';
import { createContentSimilarityScorer } from '../../../src/scorers/code/content-similarity/index.js';
import { createKeywordCoverageScorer } from '../../../src/scorers/code/keyword-coverage/index.js';
import { createTextualDifferenceScorer, lcsLength } from '../../../src/scorers/code/textual-difference/index.js';
import { createToneScorer } from '../../../src/scorers/code/tone/index.js';
import { ScorerRunError } from '../../../src/scorers/core/errors.js';
import { agentRun } from './helpers.js';

const FOX = 'The quick brown fox';
const DOG = 'The quick brown fox jumps over the lazy dog';

describe('content similarity (§5.1)', () => {
  it.each([
    [FOX, FOX, 1],
    ['The Quick Brown Fox', 'the quick brown fox', 1],
    ['The   quick\nbrown    fox', FOX, 1],
    [FOX, 'Lorem ipsum dolor sit amet', 0],
    ['', '', 1],
    [FOX, '', 0],
    [FOX, 'The quick brown cat', 0.8],
    [FOX, 'The very quick brown fox', 0.8235294117647058],
  ])('%j vs %j → %s', async (input, output, score) => {
    const r = await createContentSimilarityScorer().run(agentRun(input, output));
    expect(r.score).toBe(score);
  });
  it('{} disables normalisation', async () => {
    const r = await createContentSimilarityScorer({}).run(agentRun('The Quick Brown Fox', 'the quick brown fox'));
    expect(r.score).toBe(0.5333333333333333);
    expect(r.preprocessStepResult).toEqual({ processedInput: 'The Quick Brown Fox', processedOutput: 'the quick brown fox' });
  });
  it('joins several messages with ", "', async () => {
    const run = agentRun('A', 'b');
    run.output.push(agentRun('', 'c').output[0] as (typeof run.output)[number]);
    const r = await createContentSimilarityScorer().run(run);
    expect(r.preprocessStepResult?.processedOutput).toBe('b, c');
  });
});

describe('textual difference (§5.2)', () => {
  it.each([
    [FOX, FOX, 1, 0, 0, 1],
    [FOX, 'The quick brown cat', 0.8421052631578947, 1, 0, 1],
    [FOX, 'The very quick brown fox', 0.8837209302325582, 1, 0.20833333333333334, 0.7916666666666666],
    ['The quick brown fox jumps', 'The quick fox jumps', 0.8636363636363636, 1, 0.24, 0.76],
    [FOX, 'Lorem ipsum dolor sit amet', 0.26666666666666666, 5, 0.2692307692307692, 0.7307692307692308],
    ['', '', 1, 0, 0, 1],
    [FOX, '', 0, 4, 1, 0],
    ['The Quick Brown Fox', 'the quick brown fox', 0.7894736842105263, 4, 0, 1],
    ['The   quick\nbrown    fox', FOX, 0.8372093023255814, 1, 0.20833333333333334, 0.7916666666666666],
  ])('%j vs %j', async (input, output, ratio, changes, lengthDiff, confidence) => {
    const r = await createTextualDifferenceScorer().run(agentRun(input, output));
    expect(r.score).toBe(ratio);
    expect(r.preprocessStepResult).toEqual({ ratio, changes, lengthDiff, confidence });
  });
  it('lcsLength', () => {
    expect(lcsLength('abcde', 'ace')).toBe(3);
    expect(lcsLength('', 'x')).toBe(0);
  });

  /** The textbook O(|a|·|b|) table, the independent reference for the bit-parallel lcsLength. */
  function lcsTable(a: string, b: string): number {
    const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
      }
    }
    return t[a.length]![b.length]!;
  }

  it('lcsLength equals the dynamic programme on 3,000 seeded pairs (1 to 200 units, word boundaries, shared ends, surrogates)', () => {
    let seed = 7;
    const next = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const alphabets = ['ab', 'abc ', 'abcdefghijklmnopqrstuvwxyz ', 'aé😀 x'];
    const text = (alphabet: string, n: number): string => {
      let out = '';
      for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    };
    let checked = 0;
    for (let k = 0; k < 3000; k++) {
      const alphabet = alphabets[k % alphabets.length] as string;
      const lengths = [1, 5, 31, 32, 33, 63, 64, 65, 100, 200];
      const a = text(alphabet, lengths[Math.floor(next() * lengths.length)] as number);
      let b = text(alphabet, lengths[Math.floor(next() * lengths.length)] as number);
      if (k % 5 === 0) b = a.slice(0, 10) + b + a.slice(-7);
      expect(lcsLength(a, b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(lcsTable(a, b));
      checked++;
    }
    expect(checked).toBe(3000);
  });
});

describe('keyword coverage (§5.3)', () => {
  it.each([
    [DOG, DOG, 1, 6, 6],
    [DOG, 'A quick brown fox runs past a sleeping cat', 0.5, 6, 3],
    [FOX, 'A quick brown fox', 1, 3, 3],
    ['The Quick Brown Fox', 'the quick brown fox', 1, 3, 3],
    ['', '', 1, 0, 0],
    [FOX, '', 0, 3, 0],
    [DOG, 'Lorem ipsum dolor sit amet', 0, 6, 0],
    ['', 'some output', 1, 0, 0],
  ])('%j vs %j', async (input, output, score, total, matched) => {
    const r = await createKeywordCoverageScorer().run(agentRun(input, output));
    expect(r.score).toBe(score);
    expect(r.analyzeStepResult).toEqual({ totalKeywordsLength: total, matchedKeywordsLength: matched });
  });
});

describe('completeness (§5.4)', () => {
  it.each([
    [DOG, DOG, 1],
    [DOG, 'The fox jumps over the dog', 0.625],
    ['The weather is sunny today', 'I like to eat pizza', 0],
    ['', '', 1],
    ['', 'some text', 0],
    ['   \n  ', '  \n  ', 1],
    ['cat cat cat cats', 'cat cats', 1],
    [
      'First paragraph about AI.\n        Second paragraph about ML.\n        Third paragraph about DL.',
      'First para about AI.\n        Second para about ML.',
      0.625,
    ],
  ])('%j vs %j → %s', async (input, output, score) => {
    const r = await createCompletenessScorer().run(agentRun(input, output));
    expect(r.score).toBe(score);
  });
  it('elements as the reference produces them', async () => {
    const a = await createCompletenessScorer().run(agentRun(DOG, DOG));
    expect(a.preprocessStepResult?.inputElements).toEqual(['the', 'quick', 'brown', 'fox', 'over', 'lazy', 'dog', 'jump']);
    const b = await createCompletenessScorer().run(agentRun(DOG, 'The fox jumps over the dog'));
    expect(b.preprocessStepResult?.outputElements).toEqual(['the', 'fox', 'over', 'dog', 'jump']);
    expect(b.preprocessStepResult?.missingElements).toEqual(['quick', 'brown', 'lazy']);
    const c = await createCompletenessScorer().run(agentRun('The weather is sunny today', 'I like to eat pizza'));
    expect(c.preprocessStepResult?.inputElements).toEqual(['the', 'weather', 'be', 'sunny', 'today']);
    expect(c.preprocessStepResult?.outputElements).toEqual(['i', 'pizza', 'like', 'eat', 'to']);
    const d = await createCompletenessScorer().run(
      agentRun('First paragraph about AI.\n        Second paragraph about ML.\n        Third paragraph about DL.', 'x'),
    );
    expect(d.preprocessStepResult?.inputElements).toEqual(['first', 'paragraph', 'ai', 'second', 'ml', 'third', 'dl', 'about']);
  });
  it('missing input → ScorerRunError', async () => {
    await expect(createCompletenessScorer().run({ output: [] })).rejects.toThrow(
      new ScorerRunError('completeness-scorer', 'preprocess', [], {}, new Error('Inputs cannot be null or undefined')).message,
    );
  });
});

describe('tone (§5.5)', () => {
  it.each([
    ['This product is wonderful and fantastic!', 'I love this amazing product!', 0.9333333333333333, { responseSentiment: 1.4, referenceSentiment: 1.3333333333333333 }],
    ['This is excellent and amazing!', 'This is terrible and disappointing.', 0, { responseSentiment: -1, referenceSentiment: 1.4, difference: 2.4 }],
    ['Trees are tall. Water is wet.', 'The sky is blue. The grass is green.', 1, { responseSentiment: 0, referenceSentiment: 0 }],
    [
      'While the interface is beautiful, performance is poor.',
      'The product has great features but some annoying bugs.',
      0.9861111111111112,
      { responseSentiment: 0.1111111111111111, referenceSentiment: 0.125 },
    ],
  ])('reference %j', async (ref, output, score, details) => {
    const r = await createToneScorer({ referenceTone: ref }).run(agentRun('ignored', output));
    expect(r.score).toBe(score);
    expect(r.preprocessStepResult).toMatchObject(details);
  });
  it.each([
    ['I love this product! It works amazingly well. The features are fantastic.', 0.8194444444444444, { avgSentiment: 0.5833333333333334, sentimentVariance: 0.18055555555555558 }],
    ['This is terrible. It never works properly. The support is awful.', 0.8194444444444444, { avgSentiment: -0.4166666666666667 }],
    ['This is a great product.', 1, { sentimentVariance: 0 }],
    ['', 1, { avgSentiment: 0, sentimentVariance: 0 }],
  ])('stability %j', async (output, score, details) => {
    const r = await createToneScorer().run(agentRun('ignored', output));
    expect(r.score).toBe(score);
    expect(r.preprocessStepResult).toMatchObject(details);
  });
});
