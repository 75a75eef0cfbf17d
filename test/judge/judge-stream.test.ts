/**
 * What only a streamed judge answer can do, over real HTTP against the stub judge: stall in the middle, be
 * cut, end without its finish chunk, or carry an error event. An answer is used only once the stream
 * completed; a broken one is asked for again like a network error (nothing of it was used), its reported
 * tokens still count, a stall is the per-call timeout, and an error event keeps its provider code (an
 * exhausted quota is not retried). The properties both modes share are in judge-http.test.ts.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { componentSettings } from '../../src/component.js';
import { JudgeResolver, type JudgeClient, type JudgeSettings } from '../../src/judge/index.js';
import type { JudgeModelPort } from '../../src/judge/port.js';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { judgeFailure as failure, stubJudgeClient } from './stub-client.js';

const API_KEY = 'sk-stream-judge-3c9e1a7f5b2d';
const CHUNK = 8;
const schema = z.object({ verdicts: z.array(z.object({ verdict: z.string(), reason: z.string() })) });
const GOOD = { verdicts: [{ verdict: 'yes', reason: 'supported' }] };
/** A different answer that fits the schema too: if any of it were used, the result would show it. */
const PARTIAL = { verdicts: [{ verdict: 'no', reason: 'from a broken stream' }] };

/** Chat-completions events of a streamed answer: role, content deltas, finish, usage, `[DONE]`. */
const deltas = (value: unknown): number => Math.ceil(JSON.stringify(value).length / CHUNK);
const eventsOf = (value: unknown): number => 1 + deltas(value) + 3;

let stub: StubJudge;
const closers: Array<{ close(): void }> = [];

const client = (overrides: Partial<JudgeSettings> = {}): JudgeClient => stubJudgeClient(stub, API_KEY, closers, overrides);

const ask = (port: JudgeModelPort, prompt = 'Judge these claims.') =>
  port.generateObject({ model: undefined, instructions: 'You are a judge.', prompt, stepName: 'analyze', scorerId: 'stream-test', schema });


/** Resolves once the stub has no answer open (the client dropped a stalled one), or fails after 2 s. */
async function connectionsClosed(): Promise<void> {
  const until = Date.now() + 2_000;
  while (stub.inFlight.now > 0) {
    if (Date.now() > until) throw new Error(`${stub.inFlight.now} answer(s) still open`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  stub = await startStubJudge({ streamChunkChars: CHUNK });
});
afterEach(() => {
  stub.reset();
  for (const c of closers.splice(0)) c.close();
});
afterAll(async () => {
  await stub.close();
});

describe('a streamed judge answer (stub judge over HTTP)', () => {
  it('is asked for with stream: true and read from several server-sent events', async () => {
    stub.enqueue(reply.json(GOOD, { promptTokens: 50, completionTokens: 12 }));
    const res = await ask(client().port());
    expect(res.object).toEqual(GOOD);
    expect(res.usage).toMatchObject({ inputTokens: 50, outputTokens: 12, totalTokens: 62 });
    expect(stub.requests[0]?.stream).toBe(true);
    expect(stub.requests[0]?.response).toEqual({ status: 200, sse: true, events: eventsOf(GOOD), whole: true });
    expect(deltas(GOOD)).toBeGreaterThan(3);
  });

  it('that stalls mid-way hits the per-call timeout, is not retried, and its connection is dropped', async () => {
    stub.enqueue(reply.streamFault({ afterEvents: 3, then: 'stall' }, reply.json(GOOD)), reply.json(GOOD));
    const started = Date.now();
    const err = await failure(ask(client({ timeoutMs: 300 }).port()));
    const elapsed = Date.now() - started;
    expect(err.code).toBe('TJ_JUDGE_TIMEOUT');
    expect(err.kind).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(3_000);
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]?.response).toMatchObject({ sse: true, events: 3, whole: false });
    await connectionsClosed();
  });

  // After the whole answer text: `end` and `error` leave an answer that parses, `cut` drops the connection
  // after the finish chunk (before the usage chunk and [DONE]). None of it may be used.
  it.each([
    { then: 'cut', afterEvents: 1 + deltas(PARTIAL) + 1 },
    { then: 'end', afterEvents: 1 + deltas(PARTIAL) },
    { then: 'error', afterEvents: 1 + deltas(PARTIAL) },
    { then: 'cut', afterEvents: 2 },
    { then: 'end', afterEvents: 0 },
  ] as const)('that is broken ($then after $afterEvents events) is retried, and nothing of it is used', async ({ then, afterEvents }) => {
    stub.enqueue(reply.streamFault({ afterEvents, then }, reply.json(PARTIAL)), reply.json(GOOD));
    const res = await ask(client().port());
    expect(res.object).toEqual(GOOD);
    expect(res.modelCallCount).toBe(2);
    expect(res.attemptCount).toBe(1);
    expect(stub.requests.map((r) => r.response?.whole)).toEqual([false, true]);
  });

  // `cut`: the SDK never finishes the stream (the usage is read from the raw chunk); `error`: it finishes it with
  // the error, and the usage of its finish part is used.
  it.each(['cut', 'error'] as const)('that broke (%s) after its usage chunk still counts the tokens it reported', async (then) => {
    const usage = { promptTokens: 100, completionTokens: 20 };
    stub.enqueue(reply.streamFault({ afterEvents: eventsOf(GOOD) - 1, then }, reply.json(GOOD, usage)), reply.json(GOOD, usage));
    const res = await ask(client().port());
    expect(res.modelCallCount).toBe(2);
    expect(res.usage).toMatchObject({ inputTokens: 200, outputTokens: 40, totalTokens: 240 });
  });

  it('of a model that ends its stream without a single part is retried, not re-asked (MockLanguageModelV3)', async () => {
    const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
    const chunks = (parts: LanguageModelV3StreamPart[]) => ({ stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts] as LanguageModelV3StreamPart[] }) });
    const text = JSON.stringify(GOOD);
    const model = new MockLanguageModelV3({
      doStream: [
        chunks([]),
        chunks([{ type: 'text-start', id: '0' }, { type: 'text-delta', id: '0', delta: text }, { type: 'text-end', id: '0' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }]),
      ],
    });
    const r = new JudgeResolver({ env: {}, settings: componentSettings(), section: { backoffInitialMs: 5 } });
    closers.push(r);
    const port = r.resolve(model);
    if (!port) throw new Error('no port');
    const res = await ask(port);
    expect(res.object).toEqual(GOOD);
    expect([res.modelCallCount, res.attemptCount]).toEqual([2, 1]);
  });

  it('that keeps breaking fails with TJ_JUDGE_FAILED after maxRetries, tokens counted', async () => {
    stub.setScript(() => reply.streamFault({ afterEvents: 2, then: 'cut' }, reply.json(GOOD)));
    const err = await failure(ask(client({ maxRetries: 2 }).port()));
    expect(err.code).toBe('TJ_JUDGE_FAILED');
    expect(err.message).toContain('broke off');
    expect(err.message).toContain('gave up after 3 calls');
    expect(err.modelCallCount).toBe(3);
    expect(stub.requests).toHaveLength(3);
  });

  it('with an insufficient_quota error event is not retried, before or after output began', async () => {
    const quota = { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' };
    for (const afterEvents of [1, 3]) {
      stub.reset();
      stub.enqueue(reply.streamFault({ afterEvents, then: 'error', error: quota }, reply.json(GOOD)), reply.json(GOOD));
      const err = await failure(ask(client().port()));
      expect(err.code, `after ${afterEvents} events`).toBe('TJ_JUDGE_QUOTA');
      expect(err.providerCode).toBe('insufficient_quota');
      expect(stub.requests).toHaveLength(1);
    }
  });

  it('with a rate-limit error event before any output is retried', async () => {
    const limited = { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' };
    stub.enqueue(reply.streamFault({ afterEvents: 1, then: 'error', error: limited }, reply.json(GOOD)), reply.json(GOOD));
    const res = await ask(client().port());
    expect(res.object).toEqual(GOOD);
    expect(stub.requests).toHaveLength(2);
  });

  it('of a reason step (plain text) that is cut is retried, and the text is the whole second answer', async () => {
    const text = 'The score is 1 because every claim is supported by the context.';
    stub.enqueue(reply.streamFault({ afterEvents: 3, then: 'end' }, reply.text(text)), reply.text(text, { promptTokens: 10, completionTokens: 14 }));
    const res = await client().port().generateText({ model: undefined, instructions: 'Explain.', prompt: 'why', stepName: 'generateReason', scorerId: 's' });
    expect(res.text).toBe(text);
    expect(res.modelCallCount).toBe(2);
    expect(res.usage.outputTokens).toBe(14);
  });

  it('never puts the API key in an error, even when an error event echoes it', async () => {
    stub.setScript(() => reply.streamFault({ afterEvents: 3, then: 'error', error: { message: `upstream rejected key ${API_KEY}`, type: 'server_error' } }, reply.json(GOOD)));
    const err = await failure(ask(client({ maxRetries: 1 }).port()));
    expect(err.message).toContain('[REDACTED]');
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(API_KEY);
  });

  it("of a Responses API model object (openai('…') as Mastra passes it) is retried when cut and times out when stalled", async () => {
    const r = new JudgeResolver({ env: {}, settings: componentSettings(), section: { timeoutMs: 300, backoffInitialMs: 5, maxRetries: 1 } });
    closers.push(r);
    const port = r.resolve(createOpenAI({ baseURL: stub.baseURL, apiKey: API_KEY }).responses('gpt-4o'));
    if (!port) throw new Error('no port');
    stub.enqueue(reply.streamFault({ afterEvents: 3, then: 'cut' }, reply.json(PARTIAL)), reply.json(GOOD));
    expect((await ask(port)).object).toEqual(GOOD);
    expect(stub.requests.map((q) => [q.api, q.stream, q.response?.whole])).toEqual([
      ['responses', true, false],
      ['responses', true, true],
    ]);
    stub.reset();
    stub.enqueue(reply.streamFault({ afterEvents: 3, then: 'stall' }, reply.json(GOOD)));
    expect((await failure(ask(port))).code).toBe('TJ_JUDGE_TIMEOUT');
    expect(stub.requests).toHaveLength(1);
    await connectionsClosed();
  });
});
