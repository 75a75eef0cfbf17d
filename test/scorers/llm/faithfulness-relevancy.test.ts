import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFaithfulnessScorer } from '../../../src/scorers/llm/faithfulness/index.js';
import { createAnswerRelevancyScorer } from '../../../src/scorers/llm/answer-relevancy/index.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import type { JudgeClient } from '../../../src/judge/index.js';
import { agentRun, stubClient } from './helpers.js';

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

describe('faithfulness scorer (stub judge over HTTP)', () => {
  it('[yes, no, unsure] → 0.33, context defaults to legacy tool-invocation results', async () => {
    stub.setScript(
      byMarker([
        ['Extract all claims', reply.json({ claims: ['a', 'b', 'c'] })],
        ['Judge every claim against the context', reply.json({ verdicts: [{ verdict: 'yes', reason: '' }, { verdict: 'no', reason: '' }, { verdict: 'unsure', reason: '' }] })],
        ['Explain a faithfulness score', reply.text('The score is 0.33 because one of three claims is supported.')],
      ]),
    );
    const run = agentRun('weather?', 'It is 20C, sunny and windy.', {
      toolInvocations: [{ toolCallId: '1', toolName: 'weather', args: {}, state: 'result', result: { tempC: 20 } }],
    });
    const r = await createFaithfulnessScorer({ model: client.port() }).run(run);
    expect(r.score).toBe(0.33);
    expect(stub.requests[1]?.user).toContain('{"tempC":20}');
    expect(r.reason).toContain('0.33');
  });

  it('no verdicts → 0', async () => {
    stub.setScript(byMarker([['Extract all claims', reply.json({ claims: [] })], ['Judge every claim', reply.json({ verdicts: [] })]], reply.text('ok')));
    const r = await createFaithfulnessScorer({ model: client.port(), options: { context: ['x'] } }).run(agentRun('q', ''));
    expect(r.score).toBe(0);
  });
});

describe('answer relevancy scorer (stub judge over HTTP)', () => {
  const results = (rs: string[]) => ({ results: rs.map((result) => ({ result, reason: 'r' })) });
  it('[yes, unsure, no] → 0.43 with default options', async () => {
    stub.setScript(
      byMarker([
        ['meaningful statements', reply.json({ statements: ['a', 'b', 'c'] })],
        ['Rate how each statement relates', reply.json(results(['yes', 'unsure', 'no']))],
        ['Explain an answer relevancy score', reply.text('The score is 0.43 because …')],
      ]),
    );
    const r = await createAnswerRelevancyScorer({ model: client.port() }).run(agentRun('What colour is the sky?', 'Blue. Sometimes grey. Cats.'));
    expect(r.score).toBe(0.43);
    expect(stub.requests[1]?.user).toContain(JSON.stringify('What colour is the sky?'));
  });

  it('{uncertaintyWeight 0.5, scale 10} with [" YES ", unsure] → 7.5', async () => {
    stub.setScript(
      byMarker([
        ['meaningful statements', reply.json({ statements: ['a', 'b'] })],
        ['Rate how each statement relates', reply.json(results([' YES ', 'unsure']))],
      ], reply.text('reason')),
    );
    const r = await createAnswerRelevancyScorer({ model: client.port(), options: { uncertaintyWeight: 0.5, scale: 10 } }).run(agentRun('q', 'a b'));
    expect(r.score).toBe(7.5);
  });

  it('empty results → 0', async () => {
    stub.setScript(byMarker([['meaningful statements', reply.json({ statements: [] })], ['Rate how each', reply.json({ results: [] })]], reply.text('r')));
    const r = await createAnswerRelevancyScorer({ model: client.port() }).run(agentRun('q', ''));
    expect(r.score).toBe(0);
  });
});
