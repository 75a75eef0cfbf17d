import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHallucinationScorer } from '../../../src/scorers/llm/hallucination/index.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import { componentSettings } from '../../../src/component.js';
import { JudgeResolver, type JudgeClient } from '../../../src/judge/index.js';
import { agentRun, stubClient, TEST_KEY } from './helpers.js';

const verdicts = (vs: string[]) => ({ verdicts: vs.map((v, i) => ({ statement: `claim ${i}`, verdict: v, reason: 'r' })) });

let stub: StubJudge;
let client: JudgeClient;
beforeAll(async () => {
  stub = await startStubJudge();
  client = stubClient(stub);
});
afterEach(() => stub.reset());
afterAll(async () => {
  client.close();
  await stub.close();
});

function script(claims: string[], vs: string[]) {
  stub.setScript(
    byMarker([
      ['Extract all claims', reply.json({ claims })],
      ['hallucination with respect to the context', reply.json(verdicts(vs))],
      ['Explain a hallucination score', reply.text('The score is X because some claims are unsupported.')],
    ]),
  );
}

describe('hallucination scorer (stub judge over HTTP)', () => {
  it('[yes,yes,no,yes] → 0.75, getContext called for analyze then generateReason', async () => {
    script(['a', 'b', 'c', 'd'], ['yes', 'yes', 'no', 'yes']);
    const seen: Array<[string, number | undefined]> = [];
    const scorer = createHallucinationScorer({
      model: client.port(),
      options: { context: ['static ignored'], getContext: ({ step, score }) => (seen.push([step, score]), ['ctx from hook']) },
    });
    const r = await scorer.run(agentRun('Tell me about X', 'X is a, b, c and d.'));
    expect(r.score).toBe(0.75);
    expect(r.reason).toBe('The score is X because some claims are unsupported.');
    expect(seen).toEqual([
      ['analyze', undefined],
      ['generateReason', 0.75],
    ]);
    expect(stub.requests).toHaveLength(3);
    expect(stub.requests[1]?.user).toContain('ctx from hook');
    expect(stub.requests[1]?.user).not.toContain('static ignored');
    expect(r.analyzePrompt).toContain('There are 4 claims and 1 context pieces');
  });

  it('zero claims → 0', async () => {
    script([], []);
    const r = await createHallucinationScorer({ model: client.port() }).run(agentRun('q', ''));
    expect(r.score).toBe(0);
  });

  it('[yes,no,no] with scale 10 → 3.33', async () => {
    script(['a', 'b', 'c'], ['yes', 'no', 'no']);
    const r = await createHallucinationScorer({ model: client.port(), options: { scale: 10, context: ['c'] } }).run(agentRun('q', 'a b c'));
    expect(r.score).toBe(3.33);
  });

  it('verdict comparison is exact ("Yes" is not "yes")', async () => {
    script(['a', 'b'], ['Yes', 'yes']);
    const r = await createHallucinationScorer({ model: client.port() }).run(agentRun('q', 'a b'));
    expect(r.score).toBe(0.5);
  });

  it('a model id string resolves through the judge resolver given to run', async () => {
    const judges = new JudgeResolver({
      section: { backoffInitialMs: 5, backoffMaxMs: 20 },
      env: { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: stub.baseURL },
      settings: componentSettings(),
    });
    script(['a'], ['no']);
    const r = await createHallucinationScorer({ model: 'judge-model-x' }).run(agentRun('q', 'a'), { judges });
    judges.close();
    expect(r.score).toBe(0);
    expect(stub.requests[0]?.model).toBe('judge-model-x');
    expect(JSON.stringify(r)).not.toContain(TEST_KEY);
  });
});
