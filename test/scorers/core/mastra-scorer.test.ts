/** createScorer with a name only (Mastra's MastraScorer docs) and MastraScorer as a class. */
import { describe, expect, it } from 'vitest';
import * as api from '../../../src/index.js';
import { createKeywordCoverageScorer } from '../../../src/scorers/code/keyword-coverage/index.js';
import { createContentSimilarityScorer } from '../../../src/scorers/code/content-similarity/index.js';
import { createScorer, MastraScorer, Scorer, ScorerDefinitionError } from '../../../src/scorers/core/index.js';
import { runEvals } from '../../../src/scorers/core/run-evals.js';
import { createHallucinationScorer } from '../../../src/scorers/llm/hallucination/index.js';
import { createToxicityScorer } from '../../../src/scorers/llm/toxicity/index.js';

describe('createScorer({ name, description }) without id', () => {
  it('uses the name as the id, the same every time', () => {
    const a = createScorer({ name: 'My Custom Scorer', description: 'Evaluates responses based on custom criteria' }).generateScore(() => 0.85);
    const b = createScorer({ name: 'My Custom Scorer', description: 'other' });
    expect(a.id).toBe('My Custom Scorer');
    expect(a.name).toBe('My Custom Scorer');
    expect(b.id).toBe(a.id);
    expect(a.config).toMatchObject({ id: 'My Custom Scorer', name: 'My Custom Scorer' });
    // An explicit id still wins.
    expect(createScorer({ id: 'quality', name: 'Quality Scorer', description: 'd' }).id).toBe('quality');
  });

  it('runs, and runEvals keys its results by that name (as Mastra 0.x keyed them by scorer name)', async () => {
    const scorer = createScorer({ name: 'Quality Scorer', description: 'Evaluates response quality' })
      .preprocess(({ run }) => ({ wordCount: String(run.output).split(' ').length }))
      .generateScore(({ results }) => (results.preprocessStepResult.wordCount > 3 ? 1 : 0))
      .generateReason(({ score, results }) => `Score: ${score}. Response has ${results.preprocessStepResult.wordCount} words.`);
    const r = await scorer.run({ input: 'What is machine learning?', output: 'Machine learning is a subset of AI' });
    expect(r.score).toBe(1);
    expect(r.reason).toBe('Score: 1. Response has 7 words.');
    const evals = await runEvals({ data: [{ input: 'q', output: 'a b c d e' }, { input: 'q', output: 'a b' }], scorers: [scorer] });
    expect(evals.scores).toEqual({ 'Quality Scorer': 0.5 });
  });

  it('throws a coded error with neither id nor name, or with an empty or non-string id', () => {
    for (const bad of [{ description: 'd' }, { name: '', description: 'd' }, { id: '', name: 'n', description: 'd' }, { id: 7, description: 'd' }, null]) {
      let err: unknown;
      try {
        createScorer(bad as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ScorerDefinitionError);
      expect((err as ScorerDefinitionError).code).toBe('TJ_SCORER_FAILED');
      expect((err as ScorerDefinitionError).referenceId).toBe('MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID');
    }
  });
});

describe('MastraScorer is a class', () => {
  it('createScorer, chained steps and the prebuilt factories give its instances', () => {
    const made = createScorer({ id: 'x', description: 'd' });
    expect(made).toBeInstanceOf(MastraScorer);
    expect(made.generateScore(() => 1)).toBeInstanceOf(MastraScorer);
    expect(createContentSimilarityScorer()).toBeInstanceOf(MastraScorer);
    expect(createKeywordCoverageScorer()).toBeInstanceOf(MastraScorer);
    expect(createHallucinationScorer({ model: 'openai/gpt-4o-mini', options: { context: ['c'] } })).toBeInstanceOf(MastraScorer);
    expect(createToxicityScorer({ model: 'openai/gpt-4o-mini' })).toBeInstanceOf(MastraScorer);
    expect({ id: 'x', run: () => 1 }).not.toBeInstanceOf(MastraScorer);
  });

  it('is exported as a value from the public API, and Scorer is the same class', () => {
    expect(typeof api.MastraScorer).toBe('function');
    expect(api.MastraScorer).toBe(MastraScorer);
    expect(Scorer).toBe(MastraScorer);
    expect(api.Scorer).toBe(MastraScorer);
    expect(api.createScorer({ name: 'n', description: 'd' })).toBeInstanceOf(api.MastraScorer);
  });
});
