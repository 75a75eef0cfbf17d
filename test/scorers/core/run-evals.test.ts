import { describe, expect, it } from 'vitest';
import { createContentSimilarityScorer } from '../../../src/scorers/code/content-similarity/index.js';
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { notScorable } from '../../../src/scorers/core/not-scorable.js';
import { runEvals } from '../../../src/scorers/core/run-evals.js';
import { agentRun, msg } from '../code/helpers.js';

const needsGroundTruth = createScorer({ id: 'exact', description: 'output text equals ground truth' })
  .preprocess(({ run }) => (run.groundTruth === undefined ? notScorable('no ground truth') : run.groundTruth))
  .generateScore(({ run, results }) => {
    const out = run.output as Array<{ content: { content: string } }>;
    return out[0]?.content.content === results.preprocessStepResult ? 1 : 0;
  });

describe('runEvals', () => {
  it('means per scorer, notScorable counts, onItemComplete per item', async () => {
    const seen: number[] = [];
    const r = await runEvals({
      data: [
        { ...agentRun('The quick brown fox', 'The quick brown fox'), groundTruth: 'The quick brown fox' },
        { ...agentRun('The quick brown fox', 'The quick brown cat'), groundTruth: 'nope' },
        agentRun('The quick brown fox', ''),
      ],
      scorers: [createContentSimilarityScorer(), needsGroundTruth],
      concurrency: 2,
      onItemComplete: ({ index, scorerResults }) => {
        seen.push(index);
        expect(Object.keys(scorerResults)).toEqual(['content-similarity-scorer', 'exact']);
      },
    });
    expect(r.scores['content-similarity-scorer']).toBe((1 + 0.8 + 0) / 3);
    expect(r.scores.exact).toBe(0.5);
    expect(r.summary).toEqual({ totalItems: 3, notScorable: { exact: 1 } });
    expect(seen.sort()).toEqual([0, 1, 2]);
    expect(r.verdict).toBeUndefined();
  });

  it('runs the target when an item has no output; thresholds give a verdict', async () => {
    const r = await runEvals({
      data: [{ input: { inputMessages: [msg('user', 'The quick brown fox')] } }],
      target: (input) => {
        const text = (input as { inputMessages: Array<{ content: { content: string } }> }).inputMessages[0]?.content.content ?? '';
        return [msg('assistant', text)];
      },
      scorers: [{ scorer: createContentSimilarityScorer(), threshold: 0.9 }, { scorer: needsGroundTruth, threshold: { min: 0.5 } }],
    });
    expect(r.scores).toEqual({ 'content-similarity-scorer': 1 });
    expect(r.thresholdResults).toEqual([
      { id: 'content-similarity-scorer', passed: true, averageScore: 1, threshold: 0.9 },
      { id: 'exact', passed: false, averageScore: undefined, threshold: { min: 0.5 } },
    ]);
    expect(r.verdict).toBe('scored');
  });

  it('omits a scorer that never produced a number', async () => {
    const r = await runEvals({ data: [agentRun('a', 'b')], scorers: [needsGroundTruth] });
    expect(r.scores).toEqual({});
    expect(r.summary.notScorable).toEqual({ exact: 1 });
  });

  it('validates arguments', async () => {
    await expect(runEvals({ data: [], scorers: [needsGroundTruth] })).rejects.toThrow(/no data/);
    await expect(runEvals({ data: [agentRun('a', 'b')], scorers: [] })).rejects.toThrow(/no scorers/);
    await expect(runEvals({ data: [{ input: 'x' }], scorers: [needsGroundTruth] })).rejects.toThrow(/data\[0\] has no output/);
    await expect(runEvals({ data: [agentRun('a', 'b')], scorers: [{ scorer: needsGroundTruth, threshold: 2 }] })).rejects.toThrow(/threshold/);
    await expect(runEvals({ data: [agentRun('a', 'b')], scorers: [needsGroundTruth], concurrency: 0 })).rejects.toThrow(/concurrency/);
  });

  it('a throwing scorer rejects with the item index and scorer id, and stops further items', async () => {
    let runs = 0;
    const boom = createScorer({ id: 'boom', description: 'd' }).generateScore(() => {
      runs++;
      throw new Error('kaput');
    });
    await expect(runEvals({ data: [agentRun('a', 'b'), agentRun('c', 'd'), agentRun('e', 'f')], scorers: [boom] })).rejects.toThrow(
      'runEvals: scorer boom failed on data[0]: Scorer Run Failed: kaput',
    );
    expect(runs).toBe(1);
  });
});
