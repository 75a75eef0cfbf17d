/**
 * The code-based legacy metrics (Mastra 0.x `@mastra/evals/nlp`): `new XMetric(options?).measure(input, output)`.
 * Expected values are derived by hand from the documented definitions.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../../src/index.js';
import {
  CompletenessMetric,
  ContentSimilarityMetric,
  KeywordCoverageMetric,
  Metric,
  TextualDifferenceMetric,
  ToneConsistencyMetric,
  type MetricResult,
} from '../../../src/scorers/legacy/index.js';
import { MastraScorer } from '../../../src/scorers/core/index.js';

describe('ContentSimilarityMetric', () => {
  it('identical strings → similarity 1; both normalisations on by default', async () => {
    const m = new ContentSimilarityMetric();
    expect(await m.measure('The quick brown fox', 'The quick brown fox')).toEqual({ score: 1, info: { similarity: 1 } });
    // Case and runs of whitespace are ignored by default: 'THE  quick' → 'the quick'.
    expect((await m.measure('THE  quick brown fox ', 'the quick brown fox')).score).toBe(1);
  });

  it('options override one default at a time, as in 0.x (the other stays on)', async () => {
    // 'ABC' vs 'abc' case-sensitively share no character bigram (AB, BC vs ab, bc) → Dice 0.
    expect((await new ContentSimilarityMetric({ ignoreCase: false }).measure('ABC', 'abc')).score).toBe(0);
    // ignoreWhitespace stays on: 'ab  cd' → 'ab cd', identical to the output.
    expect((await new ContentSimilarityMetric({ ignoreCase: false }).measure('ab  cd', 'ab cd')).score).toBe(1);
    // 'abcd' vs 'abce': bigrams {ab, bc, cd} vs {ab, bc, ce} → 2·2 / (3 + 3) = 2/3.
    const r = await new ContentSimilarityMetric({ ignoreCase: true, ignoreWhitespace: true }).measure('abcd', 'abce');
    expect(r.score).toBeCloseTo(2 / 3, 12);
    expect(r.info.similarity).toBe(r.score);
  });
});

describe('CompletenessMetric', () => {
  it('the same text covers all its elements', async () => {
    const r = await new CompletenessMetric().measure('The cat sleeps on the mat', 'The cat sleeps on the mat');
    expect(r.score).toBe(1);
    expect(r.info.missingElements).toEqual([]);
    expect(r.info.inputElements).toEqual(r.info.outputElements);
    expect(r.info.elementCounts).toEqual({ input: r.info.inputElements.length, output: r.info.outputElements.length });
    expect(r.info.inputElements).toContain('cat');
  });

  it('an empty output covers nothing: score 0 and every input element missing', async () => {
    const r = await new CompletenessMetric().measure('The cat sleeps on the mat', '');
    expect(r.score).toBe(0);
    expect(r.info.outputElements).toEqual([]);
    expect(r.info.missingElements).toEqual(r.info.inputElements);
    expect(r.info.elementCounts.output).toBe(0);
  });
});

describe('KeywordCoverageMetric', () => {
  it('counts the input keywords found in the output', async () => {
    // 'The quick brown fox' → keywords quick, brown, fox ('the' is a stopword); the output has quick and brown.
    const r = await new KeywordCoverageMetric().measure('The quick brown fox', 'A quick brown dog');
    expect(r.score).toBeCloseTo(2 / 3, 12);
    expect(r.info).toEqual({ totalKeywords: 3, matchedKeywords: 2 });
  });

  it('two empty strings → 1 with no keywords', async () => {
    expect(await new KeywordCoverageMetric().measure('', '')).toEqual({ score: 1, info: { totalKeywords: 0, matchedKeywords: 0 } });
  });
});

describe('TextualDifferenceMetric', () => {
  it('identical strings: ratio 1, no changes', async () => {
    expect(await new TextualDifferenceMetric().measure('hello world', 'hello world')).toEqual({
      score: 1,
      info: { confidence: 1, ratio: 1, changes: 0, lengthDiff: 0 },
    });
  });

  it("'abc' vs 'abd': LCS 2 → ratio 2·2/6, one changed word, same length", async () => {
    const r = await new TextualDifferenceMetric().measure('abc', 'abd');
    expect(r.score).toBeCloseTo(4 / 6, 12);
    expect(r.info).toEqual({ confidence: 1, ratio: r.score, changes: 1, lengthDiff: 0 });
  });

  it("'ab' vs 'abcd': lengthDiff 2/4, confidence 1/2", async () => {
    const r = await new TextualDifferenceMetric().measure('ab', 'abcd');
    // LCS 2 → 2·2 / (2 + 4).
    expect(r.score).toBeCloseTo(4 / 6, 12);
    expect(r.info.lengthDiff).toBe(0.5);
    expect(r.info.confidence).toBe(0.5);
  });
});

describe('ToneConsistencyMetric', () => {
  it('comparison mode: input is the response, output the reference (AFINN: good +3, bad −3)', async () => {
    const r = await new ToneConsistencyMetric().measure('good', 'bad');
    // Comparative scores are score / tokens: +3 and −3; difference 6 → max(0, 1 − 6) = 0.
    expect(r).toEqual({ score: 0, info: { responseSentiment: 3, referenceSentiment: -3, difference: 6 } });
    const same = await new ToneConsistencyMetric().measure('This is good.', 'This is good.');
    expect(same.score).toBe(1);
    expect(same.info).toMatchObject({ difference: 0 });
  });

  it("stability mode with output '': variance of the input's sentences", async () => {
    // Two neutral sentences: comparative 0 each → mean 0, variance 0 → score 1.
    expect(await new ToneConsistencyMetric().measure('The table is brown. The chair is black.', '')).toEqual({
      score: 1,
      info: { avgSentiment: 0, sentimentVariance: 0 },
    });
    // 'good.' (+3/1) and 'bad.' (−3/1): mean 0, variance ((3)² + (−3)²)/2 = 9 → max(0, 1 − 9) = 0.
    expect(await new ToneConsistencyMetric().measure('good. bad.', '')).toEqual({ score: 0, info: { avgSentiment: 0, sentimentVariance: 9 } });
  });
});

describe('the Metric base class', () => {
  it('every legacy metric is a Metric, runs a MastraScorer, and a custom metric can extend it', async () => {
    for (const m of [new ContentSimilarityMetric(), new CompletenessMetric(), new KeywordCoverageMetric(), new TextualDifferenceMetric()]) {
      expect(m).toBeInstanceOf(Metric);
      expect(m.scorer).toBeInstanceOf(MastraScorer);
    }
    expect(new ToneConsistencyMetric()).toBeInstanceOf(api.Metric);
    class LengthMetric extends api.Metric {
      async measure(_input: string, output: string): Promise<MetricResult> {
        return Promise.resolve({ score: output.length <= 5 ? 1 : 0, info: { length: output.length } });
      }
    }
    expect(await new LengthMetric().measure('q', 'short')).toEqual({ score: 1, info: { length: 5 } });
  });

  it('measure() with a non-string argument is a coded usage error', async () => {
    const m = new KeywordCoverageMetric();
    await expect(m.measure(undefined as never, 'x')).rejects.toMatchObject({ code: 'TJ_USAGE', message: 'KeywordCoverageMetric.measure(input, output): input must be a string, got undefined' });
    await expect(new CompletenessMetric().measure('x', null as never)).rejects.toMatchObject({ code: 'TJ_USAGE', message: expect.stringContaining('output must be a string, got null') as unknown });
    expect(() => new ContentSimilarityMetric(null as never)).toThrow(/options must be an object/);
  });
});
