import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHallucinationScorer } from '../../../src/scorers/llm/hallucination/index.js';
import { ScorerRunError } from '../../../src/scorers/core/errors.js';
import { JudgeError, type JudgeClient } from '../../../src/judge/index.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import { agentRun, stubClient, TEST_KEY } from './helpers.js';

let stub: StubJudge;
let client: JudgeClient;
beforeAll(async () => {
  stub = await startStubJudge();
  client = stubClient(stub);
});
afterAll(async () => {
  client.close();
  await stub.close();
});

describe('judge failures inside scorer runs (stub judge over HTTP)', () => {
  it('a run whose judge answer never fits fails with the step named; the other runs still score', async () => {
    stub.setScript(
      byMarker([
        ['BROKEN-RUN', reply.json({ claims: 'not a list' })],
        ['QUOTA-RUN', reply.quotaExhausted()],
        ['Extract all claims', reply.json({ claims: ['a', 'b'] })],
        ['hallucination with respect to the context', reply.json({ verdicts: [{ statement: 'a', verdict: 'yes', reason: '' }, { statement: 'b', verdict: 'no', reason: '' }] })],
      ], reply.text('The score is 0.5 because half the claims are unsupported.')),
    );
    const scorer = createHallucinationScorer({ model: client.port(), options: { context: ['ctx'] } });
    const outcomes = await Promise.allSettled([
      scorer.run(agentRun('q1', 'good answer one')),
      scorer.run(agentRun('q2', 'BROKEN-RUN')),
      scorer.run(agentRun('q3', 'QUOTA-RUN')),
      scorer.run(agentRun('q4', 'good answer two')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    for (const i of [0, 3]) expect((outcomes[i] as PromiseFulfilledResult<{ score?: number }>).value.score).toBe(0.5);

    const broken = (outcomes[1] as PromiseRejectedResult).reason as ScorerRunError;
    expect(broken).toBeInstanceOf(ScorerRunError);
    expect(broken.failedStep).toBe('preprocess');
    expect(broken.cause).toBeInstanceOf(JudgeError);
    expect((broken.cause as JudgeError).code).toBe('TJ_JUDGE_SCHEMA');
    expect(stub.requests.filter((r) => r.user.includes('BROKEN-RUN'))).toHaveLength(2);

    const quota = (outcomes[2] as PromiseRejectedResult).reason as ScorerRunError;
    expect((quota.cause as JudgeError).code).toBe('TJ_JUDGE_QUOTA');
    expect(stub.requests.filter((r) => r.user.includes('QUOTA-RUN'))).toHaveLength(1);

    for (const o of outcomes) expect(JSON.stringify(o)).not.toContain(TEST_KEY);
    expect(JSON.stringify(broken.result)).not.toContain(TEST_KEY);
  });
});
