/**
 * Library code with no setup call, as Mastra's docs write it: a prebuilt judge scorer from the public entry
 * with `model: 'openai/gpt-4o-mini'`, and `createScorer({ judge: { model: 'openai/gpt-4o-mini', … } })`,
 * reach the judge named by the environment (OPENAI_BASE_URL → the stub, OPENAI_API_KEY) through the
 * scorer's own resolver, made from the environment at its first judge step and kept.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createHallucinationScorer, createScorer, TracejudgeError } from '../../src/index.js';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { expectedHallucinationScore, scriptHallucination } from '../e2e/judge-script.js';

const KEY = 'sk-library-default-3c8e1a7f5b';
let stub: StubJudge;

/** A run as Mastra's docs build it for `scorer.run`: user input, assistant output. */
const run = (question: string, answer: string) => ({
  input: { inputMessages: [{ role: 'user', content: question }], systemMessages: [], rememberedMessages: [], taggedSystemMessages: {} },
  output: [{ role: 'assistant', content: answer }],
});

beforeAll(async () => {
  stub = await startStubJudge();
});
afterEach(() => {
  stub.reset();
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await stub.close();
});

describe('judge scorers with model strings and no setup call', () => {
  it('createHallucinationScorer({ model: "openai/gpt-4o-mini" }) from the public entry runs end to end', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('OPENAI_BASE_URL', stub.baseURL);
    const verdicts = ['yes', 'no', 'no', 'yes'];
    scriptHallucination(stub, { claims: ['a', 'b', 'c', 'd'], verdicts, reason: 'Two of four claims are not supported.' });
    const scorer = createHallucinationScorer({ model: 'openai/gpt-4o-mini', options: { context: ['The sky is blue.'] } });
    const result = await scorer.run(run('Tell me about the sky.', 'The sky is blue, green, red and blue.'));
    expect(result.score).toBe(expectedHallucinationScore(verdicts));
    expect(result.reason).toBe('Two of four claims are not supported.');
    // preprocess, analyze, generateReason: three calls, each with the prefix stripped and the key sent.
    expect(stub.requests).toHaveLength(3);
    for (const r of stub.requests) {
      expect(r.model).toBe('gpt-4o-mini');
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    }
    const analyze = (result as { judge?: { analyze?: { executions: Array<{ judgeModelId: string; judgeProvider?: string }> } } }).judge?.analyze?.executions[0];
    expect(analyze).toMatchObject({ judgeModelId: 'gpt-4o-mini', judgeProvider: 'openai' });
  });

  it('createScorer({ judge: { model: "openai/gpt-4o-mini", instructions } }) prompt steps use the same default judge', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('OPENAI_BASE_URL', stub.baseURL);
    stub.enqueue(reply.json({ polite: true }));
    const scorer = createScorer({ id: 'polite', description: 'is it polite', judge: { model: 'openai/gpt-4o-mini', instructions: 'You grade tone.' } })
      .analyze({ description: 'verdict', outputSchema: z.object({ polite: z.boolean() }), createPrompt: () => 'Is this polite? Thank you kindly.' })
      .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0));
    const result = await scorer.run(run('hi', 'Thank you kindly.'));
    expect(result.score).toBe(1);
    expect(stub.requests[0]?.model).toBe('gpt-4o-mini');
    expect(stub.requests[0]?.system).toContain('You grade tone.');
  });

  it('a scorer makes its judge resolver from the environment at its first judge step and keeps it', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('OPENAI_BASE_URL', stub.baseURL);
    const make = () =>
      createScorer({ id: 'polite', description: 'is it polite', judge: { model: 'openai/gpt-4o-mini', instructions: 'You grade tone.' } })
        .analyze({ description: 'verdict', outputSchema: z.object({ polite: z.boolean() }), createPrompt: () => 'Is this polite?' })
        .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0));
    const early = make();
    stub.enqueue(reply.json({ polite: true }));
    await early.run(run('hi', 'Thank you.'));
    vi.stubEnv('OPENAI_API_KEY', 'sk-rotated-key-0000');
    stub.enqueue(reply.json({ polite: true }), reply.json({ polite: true }));
    await early.run(run('hi', 'Thank you.'));
    await make().run(run('hi', 'Thank you.'));
    expect(stub.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, 'Bearer sk-rotated-key-0000']);
  });

  it('without OPENAI_API_KEY the run fails at first use with a TracejudgeError naming the variable and the model', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', stub.baseURL);
    // Creating the scorer needs no key: only running a judge step does.
    const scorer = createHallucinationScorer({ model: 'openai/gpt-4o-mini' });
    const err: unknown = await scorer.run(run('q', 'a')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TracejudgeError);
    expect((err as Error).message).toContain('"openai/gpt-4o-mini" needs an API key: set OPENAI_API_KEY');
    expect((err as Error).cause).toBeInstanceOf(TracejudgeError);
    expect(stub.requests).toHaveLength(0);
  });

  it('an unknown provider prefix fails the run with the list of known prefixes', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    const scorer = createHallucinationScorer({ model: 'acme/judge-large' });
    await expect(scorer.run(run('q', 'a'))).rejects.toThrow(/unknown provider "acme" \(known: openai, openrouter, ollama/);
  });
});
