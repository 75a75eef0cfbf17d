/**
 * The judge over real HTTP against the stub OpenAI-compatible server, with every reliability property
 * checked twice: streamed answers (`judge.stream: true`, the default, as Mastra's client asks for them)
 * and plain JSON answers (`judge.stream: false`). Faults only a stream can have are in judge-stream.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JudgeError, resolveJudgeSettings, type JudgeClient, type JudgeSettings } from '../../src/judge/index.js';
import { judgeSection } from '../../src/config/sections/judge.js';
import { byMarker, reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';
import { judgeFailure as failure, stubJudgeClient } from './stub-client.js';

const API_KEY = 'sk-test-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c1e';
const verdictSchema = z.object({ verdicts: z.array(z.object({ verdict: z.string(), reason: z.string() })) });
const GOOD = { verdicts: [{ verdict: 'yes', reason: 'supported' }] };

let stub: StubJudge;
const clients: JudgeClient[] = [];

const newClient = (overrides: Partial<JudgeSettings> = {}): JudgeClient => stubJudgeClient(stub, API_KEY, clients, overrides);

const ask = (c: JudgeClient, prompt = 'Judge these claims.') =>
  c.port().generateObject({ model: undefined, instructions: 'You are a judge.', prompt, stepName: 'analyze', scorerId: 'test-scorer', schema: verdictSchema });


beforeAll(async () => {
  stub = await startStubJudge();
});
afterEach(() => {
  stub.reset();
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await stub.close();
});

describe.each([{ stream: true }, { stream: false }])('judge over real HTTP (stub OpenAI-compatible server), stream: $stream', ({ stream }) => {
  const client = (overrides: Partial<JudgeSettings> = {}): JudgeClient => newClient({ stream, ...overrides });

  it('sends a chat-completions structured-output request and parses the answer', async () => {
    stub.enqueue(reply.json(GOOD, { promptTokens: 120, completionTokens: 30 }));
    const res = await ask(client());
    expect(res.object).toEqual(GOOD);
    expect(res.usage).toMatchObject({ inputTokens: 120, outputTokens: 30, totalTokens: 150 });
    expect(res.modelId).toBe('gpt-4o-mini');
    expect(res.attemptCount).toBe(1);
    expect(res.modelCallCount).toBe(1);
    const req = stub.requests[0];
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.model).toBe('gpt-4o-mini');
    expect(req?.body?.temperature).toBe(0);
    expect(req?.system).toBe('You are a judge.');
    expect(req?.user).toBe('Judge these claims.');
    expect(req?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const format = req?.body?.response_format as { type?: string; json_schema?: { strict?: boolean } } | undefined;
    expect(format?.type).toBe('json_schema');
    expect(format?.json_schema?.strict).toBe(false);
    expect(JSON.stringify(req?.jsonSchema)).toContain('verdicts');
    // Streamed: `stream: true` with the usage chunk asked for, and the answer came as server-sent events.
    expect(req?.stream).toBe(stream);
    expect((req?.body?.stream_options as { include_usage?: boolean } | undefined)?.include_usage).toBe(stream ? true : undefined);
    expect(req?.response).toMatchObject({ status: 200, sse: stream, whole: true });
  });

  it('honours Retry-After (seconds) on 429 and then succeeds', async () => {
    stub.enqueue(reply.rateLimited(1), reply.json(GOOD));
    const started = Date.now();
    const res = await ask(client());
    const waited = (stub.requests[1]?.receivedAt ?? 0) - (stub.requests[0]?.receivedAt ?? 0);
    expect(res.object).toEqual(GOOD);
    expect(stub.requests).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(res.modelCallCount).toBe(2);
  });

  it('prefers retry-after-ms over the exponential backoff', async () => {
    stub.enqueue(reply.rateLimited(undefined, 400), reply.json(GOOD));
    await ask(client({ backoffInitialMs: 0 }));
    const waited = (stub.requests[1]?.receivedAt ?? 0) - (stub.requests[0]?.receivedAt ?? 0);
    expect(waited).toBeGreaterThanOrEqual(350);
  });

  it('fails at once when Retry-After is beyond maxRetryAfterMs', async () => {
    stub.enqueue(reply.rateLimited(3600), reply.json(GOOD));
    const err = await failure(ask(client({ maxRetryAfterMs: 5_000 })));
    expect(err.code).toBe('TJ_JUDGE_FAILED');
    expect(err.kind).toBe('rate_limited');
    expect(stub.requests).toHaveLength(1);
  });

  it('still throttled after every retry: a rate_limited failure, not an http one', async () => {
    stub.enqueue(reply.rateLimited(undefined, 20), reply.rateLimited(undefined, 20));
    const err = await failure(ask(client({ maxRetries: 1 })));
    expect(err.kind).toBe('rate_limited');
    expect(stub.requests).toHaveLength(2);
  });

  it('honours Retry-After on a 503 too', async () => {
    stub.enqueue(reply.serverError(503, { 'retry-after-ms': '300' }), reply.json(GOOD));
    await ask(client({ backoffInitialMs: 0 }));
    const waited = (stub.requests[1]?.receivedAt ?? 0) - (stub.requests[0]?.receivedAt ?? 0);
    expect(waited).toBeGreaterThanOrEqual(250);
  });

  it('retries a 500 and succeeds', async () => {
    stub.enqueue(reply.serverError(500), reply.serverError(503), reply.json(GOOD));
    const res = await ask(client());
    expect(res.object).toEqual(GOOD);
    expect(stub.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a typed failure', async () => {
    stub.setScript(() => reply.serverError(500));
    const err = await failure(ask(client({ maxRetries: 2 })));
    expect(err.code).toBe('TJ_JUDGE_FAILED');
    expect(err.status).toBe(500);
    expect(err.modelCallCount).toBe(3);
    expect(stub.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    stub.enqueue(reply.error(400, 'bad request'));
    const err = await failure(ask(client()));
    expect(err.status).toBe(400);
    expect(stub.requests).toHaveLength(1);
  });

  it('times out a slow answer past timeoutMs and does not retry it', async () => {
    stub.enqueue(reply.slow(5_000, reply.json(GOOD)));
    const started = Date.now();
    const err = await failure(ask(client({ timeoutMs: 200 })));
    expect(err.code).toBe('TJ_JUDGE_TIMEOUT');
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(stub.requests).toHaveLength(1);
  });

  it('re-asks once with the error when the answer is not JSON, then succeeds', async () => {
    stub.enqueue(reply.invalidJson(), reply.json(GOOD));
    const res = await ask(client());
    expect(res.object).toEqual(GOOD);
    expect(res.attemptCount).toBe(2);
    expect(stub.requests).toHaveLength(2);
    const second = stub.requests[1];
    expect(second?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second?.messages[3]?.content).toContain('not valid JSON');
  });

  it('fails with TJ_JUDGE_SCHEMA after one re-ask when the answer never fits', async () => {
    stub.setScript(() => reply.json({ verdicts: [{ verdict: 1 }] }));
    const err = await failure(ask(client()));
    expect(err.code).toBe('TJ_JUDGE_SCHEMA');
    expect(err.attemptCount).toBe(2);
    expect(err.rawOutput).toContain('"verdict":1');
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]?.messages[3]?.content).toContain('verdicts.0.verdict');
  });

  it('fails with TJ_JUDGE_SCHEMA when both answers are invalid JSON', async () => {
    stub.setScript(() => reply.invalidJson());
    const err = await failure(ask(client()));
    expect(err.code).toBe('TJ_JUDGE_SCHEMA');
    expect(stub.requests).toHaveLength(2);
  });

  it('never retries a quota-exhausted 429, and other calls go on', async () => {
    stub.setScript(byMarker([['QUOTA', reply.quotaExhausted()]], reply.json(GOOD)));
    const c = client();
    const results = await Promise.allSettled([ask(c, 'a'), ask(c, 'QUOTA'), ask(c, 'b'), ask(c, 'c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const err = (results[1] as PromiseRejectedResult).reason as JudgeError;
    expect(err.code).toBe('TJ_JUDGE_QUOTA');
    expect(err.providerCode).toBe('insufficient_quota');
    expect(stub.requests.filter((r) => r.user === 'QUOTA')).toHaveLength(1);
  });

  it('releases its concurrency slot while it waits to retry', async () => {
    // One slot. The first call is throttled for 400 ms; the second must get the slot during that wait.
    stub.enqueue(reply.rateLimited(undefined, 400), reply.json(GOOD), reply.json(GOOD));
    const c = client({ concurrency: 1 });
    await Promise.all([ask(c, 'first'), ask(c, 'second')]);
    expect(stub.requests.map((r) => r.user)).toEqual(['first', 'second', 'first']);
    const [throttled, other, retried] = stub.requests.map((r) => r.receivedAt);
    expect((other ?? 0) - (throttled ?? 0)).toBeLessThan(300);
    expect((retried ?? 0) - (throttled ?? 0)).toBeGreaterThanOrEqual(350);
    expect(stub.inFlight.max).toBe(1);
  });

  it('limits calls in flight per judge model', async () => {
    stub.setScript(() => reply.slow(80, reply.json(GOOD)));
    const c = client({ concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => ask(c, `p${i}`)));
    expect(stub.requests).toHaveLength(6);
    expect(stub.inFlight.max).toBe(2);
    // another model has its own limit
    expect(c.port('other-model')).not.toBe(c.port());
  });

  it('plain text generation works and counts tokens', async () => {
    stub.enqueue(reply.text('The score is 1 because all claims are supported.', { promptTokens: 10, completionTokens: 9 }));
    const res = await client().port().generateText({ model: undefined, instructions: 'Explain.', prompt: 'why', stepName: 'generateReason', scorerId: 's' });
    expect(res.text).toBe('The score is 1 because all claims are supported.');
    expect(res.usage.inputTokens).toBe(10);
    expect(res.usage.outputTokens).toBe(9);
    expect(stub.requests[0]?.body?.response_format).toBeUndefined();
    expect(stub.requests[0]?.response?.sse).toBe(stream);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    stub.setScript(() => reply.error(401, `Incorrect API key provided: ${API_KEY}.`, 'invalid_api_key'));
    const err = await failure(ask(client()));
    expect(err.status).toBe(401);
    expect(err.message).toContain('[REDACTED]');
    expect(err.message).not.toContain(API_KEY);
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(API_KEY);
    expect(String(err.stack)).not.toContain(API_KEY);
  });
});

describe('judge settings', () => {
  it('falls back to the docs/configuration.md, "The embedded default" environment variables', () => {
    const s = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: 'k-1234', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', TRACEJUDGE_JUDGE_MODEL: 'llama3' });
    expect(s).toMatchObject({ apiKey: 'k-1234', baseURL: 'http://127.0.0.1:1/v1', model: 'llama3', temperature: 0 });
  });
  it('defaults to OpenAI and gpt-4o-mini, disabled without a key', () => {
    const s = resolveJudgeSettings(judgeSection.parse({}), {});
    expect(s).toMatchObject({ apiKey: undefined, baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' });
  });
  it('streams by default; judge.stream: false turns it off; anything but a boolean is refused', () => {
    expect(resolveJudgeSettings({}, {}).stream).toBe(true);
    expect(resolveJudgeSettings({ stream: false }, {}).stream).toBe(false);
    const bad = judgeSection.safeParse({ stream: 'yes' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['stream']);
  });
  it('config wins over the environment', () => {
    const s = resolveJudgeSettings(judgeSection.parse({ model: 'm', apiKey: 'cfgkey' }), { OPENAI_API_KEY: 'envkey', TRACEJUDGE_JUDGE_MODEL: 'x' });
    expect(s.apiKey).toBe('cfgkey');
    expect(s.model).toBe('m');
  });
  it('rejects a base URL that is not http(s)', () => {
    expect(judgeSection.safeParse({ baseURL: 'ftp://x' }).success).toBe(false);
  });
});
