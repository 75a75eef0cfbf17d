import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { economicsSection } from '../../../src/config/sections/economics.js';
import type { JudgeModelPort } from '../../../src/judge/port.js';
import {
  createJudgeEconomics,
  EconomicJudge,
  estimateCostUsd,
  JudgeKeys,
  JudgeScopes,
  type JudgeKeyParts,
  TtlLru,
} from '../../../src/judge/economics/index.js';
import type { JudgeClient } from '../../../src/judge/index.js';
import { wantsReason } from '../../../src/scorers/descriptor.js';
import { claimsSchema } from '../../../src/scorers/llm/claims.js';
import { createFaithfulnessScorer } from '../../../src/scorers/llm/faithfulness/index.js';
import { createHallucinationScorer } from '../../../src/scorers/llm/hallucination/index.js';
import { startStubJudge, type StubJudge } from '../../../src/testing/stub-judge/index.js';
import { agentRun, stubClient } from '../llm/helpers.js';
import { claimsScript } from './stub-script.js';

const CONTEXT = ['Paris is the capital of France.', 'The Seine flows through Paris.'];
const ANSWERS = [
  'Paris is the capital of France. The Seine flows through Paris.',
  'Lyon is the capital of France. The Seine flows through Paris. Paris has museums.',
  'Lyon is the capital of France.',
];

/** Claim extraction is shared within a run (what the service configures). */
const shareableSchemas = new Set([claimsSchema]);

let stub: StubJudge;
let client: JudgeClient;

beforeAll(async () => {
  stub = await startStubJudge({ script: claimsScript });
  client = stubClient(stub);
});
afterAll(async () => {
  client.close();
  await stub.close();
});

function scorers(model: JudgeModelPort) {
  return [
    createHallucinationScorer({ model, options: { context: CONTEXT } }),
    createFaithfulnessScorer({ model, options: { context: CONTEXT } }),
  ] as const;
}

/** Scores and reasons of both scorers over every answer, each run in its own judge scope (of `scopes`). */
async function scoreAll(model: JudgeModelPort, runPrefix: string, scopes: JudgeScopes = new JudgeScopes()): Promise<string> {
  const out: unknown[] = [];
  for (const [i, answer] of ANSWERS.entries()) {
    const runId = `${runPrefix}-${i}`;
    for (const s of scorers(model)) {
      const r = await scopes.run({ runId, agentName: 'support-agent', scorerName: s.id }, () => s.run({ runId, ...agentRun('Capital?', answer) }));
      out.push({ scorer: s.id, score: r.score, reason: r.reason, pre: r.preprocessStepResult, analyze: r.analyzeStepResult });
    }
  }
  return JSON.stringify(out);
}

const claimCalls = (): number => stub.requests.filter((r) => r.user.includes('Extract all claims')).length;

describe('judge economics over the stub judge (real HTTP)', () => {
  it('shared claim extraction halves the claim calls of hallucination + faithfulness, scores byte-identical', async () => {
    stub.reset();
    const naive = await scoreAll(client.port(), 'naive');
    const naiveClaims = claimCalls();
    const naiveTotal = stub.requests.length;
    expect(naiveClaims).toBe(2 * ANSWERS.length);

    stub.reset();
    const economics = createJudgeEconomics(economicsSection.parse({ cache: { enabled: false } }), { shareableSchemas });
    const shared = await scoreAll(economics.wrap(client.port()), 'shared', economics.scopes);
    expect(claimCalls()).toBe(ANSWERS.length);
    expect(stub.requests.length).toBe(naiveTotal - ANSWERS.length);
    expect(shared).toBe(naive);
    // the scores are what the verdict arithmetic says
    const parsed = JSON.parse(shared) as Array<{ scorer: string; score: number }>;
    expect(parsed.map((p) => p.score)).toEqual([0, 1, 0.33, 0.67, 1, 0]);
  });

  it('the cache judges identical outputs in different traces once, with byte-identical scores', async () => {
    stub.reset();
    const baseline = await scoreAll(client.port(), 'a');
    const baselineRequests = stub.requests.length;

    stub.reset();
    const economics = createJudgeEconomics(economicsSection.parse({ sharedPreprocessing: false }), { shareableSchemas });
    const port = economics.wrap(client.port());
    const first = await scoreAll(port, 'trace-1', economics.scopes);
    expect(stub.requests.length).toBe(baselineRequests);
    const second = await scoreAll(port, 'trace-2', economics.scopes);
    expect(stub.requests.length).toBe(baselineRequests); // every call of the second pass was a cache hit
    expect(first).toBe(baseline);
    expect(second).toBe(baseline);
  });

  it('without a judge scope nothing is shared, and failures are never cached', async () => {
    stub.reset();
    let fail = true;
    stub.setScript((req) => {
      if (fail) {
        fail = false;
        return { kind: 'error', status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error', param: null, code: null } } };
      }
      return claimsScript(req);
    });
    try {
      const port = createJudgeEconomics(undefined, { shareableSchemas }).wrap(client.port());
      const [h] = scorers(port);
      await expect(h.run(agentRun('Capital?', ANSWERS[0] as string))).rejects.toThrow();
      const r = await h.run(agentRun('Capital?', ANSWERS[0] as string));
      expect(r.score).toBe(0);
    } finally {
      stub.setScript(claimsScript);
    }
  });
});

describe('economics units', () => {
  it('judge keys depend on model, instructions, prompt and schema', () => {
    const base = { modelId: 'm', instructions: 'i', prompt: 'p', schema: z.object({ a: z.number() }) };
    const keys = new JudgeKeys();
    const judgeKey = (parts: JudgeKeyParts): string => keys.key(parts);
    const k = judgeKey(base);
    expect(judgeKey({ ...base, schema: z.object({ a: z.number() }) })).toBe(k); // same JSON Schema
    expect(judgeKey({ ...base, modelId: 'n' })).not.toBe(k);
    expect(judgeKey({ ...base, instructions: 'j' })).not.toBe(k);
    expect(judgeKey({ ...base, prompt: 'q' })).not.toBe(k);
    expect(judgeKey({ ...base, schema: z.object({ b: z.number() }) })).not.toBe(k);
    expect(judgeKey({ ...base, schema: undefined })).not.toBe(k);
  });

  it('TtlLru evicts the least recently used and expires on the injected clock', () => {
    let now = 0;
    const c = new TtlLru<number>(2, 100, () => now);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    now = 100;
    expect(c.get('a')).toBeUndefined();
    expect(() => new TtlLru(0, 1)).toThrow(RangeError);
  });

  it('a cache hit replays a deep copy with zero usage', async () => {
    let calls = 0;
    const inner: JudgeModelPort = {
      generateObject: ({ schema }) => {
        calls++;
        return Promise.resolve({ object: schema.parse({ list: [1, 2] }) as never, usage: { inputTokens: 5, outputTokens: 1 }, durationMs: 3, modelId: 'm' });
      },
      generateText: () => Promise.reject(new Error('unused')),
    };
    const port = new EconomicJudge(inner);
    const args = { model: 'm', instructions: 'i', prompt: 'p', stepName: 'analyze', scorerId: 's', schema: z.object({ list: z.array(z.number()) }) };
    const a = await port.generateObject(args);
    a.object.list.push(99);
    const b = await port.generateObject(args);
    expect(calls).toBe(1);
    expect(b.object).toEqual({ list: [1, 2] });
    expect(b.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(b.modelCallCount).toBe(0);
  });

  it('reason policy: on-fail skips the reason when the label is pass', () => {
    expect(wantsReason({ reason: 'on-fail', threshold: 0.5, direction: 'lower' }, 0.8)).toBe(true);
    expect(wantsReason({ reason: 'on-fail', threshold: 0.5, direction: 'lower' }, 0.5)).toBe(false);
    expect(wantsReason({ reason: 'on-fail', threshold: 0.5, direction: 'higher' }, 0.8)).toBe(false);
    expect(wantsReason({ reason: 'on-fail', threshold: 0.5, direction: 'higher' }, 0.4)).toBe(true);
    expect(wantsReason({ reason: 'always', threshold: 0.5, direction: 'higher' }, 1)).toBe(true);
    expect(wantsReason({ reason: 'never', threshold: 0.5, direction: 'higher' }, 0)).toBe(false);
  });

  it('cost estimate from the price table', () => {
    const prices = { 'gpt-4o-mini': { inputPerMTokens: 0.15, outputPerMTokens: 0.6 } };
    expect(estimateCostUsd(prices, 'gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 500_000 })).toBeCloseTo(0.45, 12);
    expect(estimateCostUsd(prices, 'other', { inputTokens: 5 })).toBeUndefined();
  });
});
