import { describe, expect, it } from 'vitest';
import { createContentSimilarityScorer } from '../../../src/scorers/code/content-similarity/index.js';
import { createKeywordCoverageScorer } from '../../../src/scorers/code/keyword-coverage/index.js';
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { notScorable } from '../../../src/scorers/core/not-scorable.js';
import { runEvals } from '../../../src/scorers/core/run-evals.js';
import { userMessage } from '../../../src/model/messages.js';
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
      onItemComplete: ({ index, scorerResults, targetResult }) => {
        seen.push(index);
        expect(targetResult).toBeUndefined(); // the items had outputs: no target ran
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

  it('a throwing scorer rejects with the item index and scorer id, and stops further items', async () => {
    let runs = 0;
    const boom = createScorer({ id: 'boom', description: 'd' }).generateScore(() => {
      runs++;
      throw new Error('kaput');
    });
    const err = await runEvals({ data: [agentRun('a', 'b'), agentRun('c', 'd'), agentRun('e', 'f')], scorers: [boom] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TJ_SCORER_FAILED', field: 'scorers[0]', message: 'runEvals: scorer boom failed on data[0]: Scorer Run Failed: kaput' });
    expect(runs).toBe(1);
  });
});

describe('runEvals: a string input is the user message (as Mastra)', () => {
  // Mastra's keyword coverage: |keywords(input) ∩ keywords(output)| / |keywords(input)|, keywords from the user
  // message. "What is the capital of France?" has the keywords capital and france (the rest are stopwords);
  // "I do not know." contains neither, so Mastra scores 0. Scored against an empty input it would be 1.
  it('keyword coverage of a string input with an output that lacks its keywords is 0', async () => {
    const r = await runEvals({
      data: [{ input: 'What is the capital of France?', output: 'I do not know.' }],
      scorers: [createKeywordCoverageScorer()],
    });
    expect(r.scores['keyword-coverage-scorer']).toBe(0);
  });

  it('a string input reaches a target as is and the scorers as a user message', async () => {
    let targetSaw: unknown;
    let scorerSaw: unknown;
    const spy = createScorer({ id: 'spy', description: 'records its input' }).generateScore(({ run }) => {
      scorerSaw = run.input;
      return 1;
    });
    await runEvals({
      data: [{ input: 'The quick brown fox' }],
      target: (input) => {
        targetSaw = input;
        return 'A quick brown dog';
      },
      // 'The quick brown fox' → keywords quick, brown, fox; the answer has quick and brown: 2 of 3.
      scorers: [spy, createKeywordCoverageScorer()],
      onItemComplete: ({ targetResult }) => expect(targetResult).toBe('A quick brown dog'),
    }).then((r) => expect(r.scores['keyword-coverage-scorer']).toBeCloseTo(2 / 3, 12));
    expect(targetSaw).toBe('The quick brown fox');
    expect(scorerSaw).toEqual({ inputMessages: [userMessage('The quick brown fox')], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} });
  });

  it('a list of strings and { role, content } messages becomes input messages (system ones systemMessages)', async () => {
    let saw: { inputMessages: Array<{ role: string; content: { content?: string } }>; systemMessages: unknown[] } | undefined;
    const spy = createScorer({ id: 'spy', description: 'd' }).generateScore(({ run }) => {
      saw = run.input as typeof saw;
      return 1;
    });
    await runEvals({
      data: [{ input: [{ role: 'system', content: 'Be brief.' }, 'hello', { role: 'assistant', content: 'hi' }], output: 'x' }],
      scorers: [spy],
    });
    expect(saw?.systemMessages).toEqual([{ role: 'system', content: 'Be brief.' }]);
    expect(saw?.inputMessages.map((m) => [m.role, m.content.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'hi'],
    ]);
  });
});
