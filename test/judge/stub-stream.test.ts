/**
 * The stub judge answers streamed requests (`stream: true`, as Mastra's agents and the AI SDK's
 * `streamText` send them) with server-sent events carrying the same scripted answer as a plain request,
 * so one script serves tracejudge's judge (plain JSON) and a streaming client alike.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, Output, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';

const KEY = 'sk-stream-test-6b0d2f4e8a';
const ANSWER = 'The score is 0.5 because two of four claims are unsupported.';
let stub: StubJudge;

beforeAll(async () => {
  stub = await startStubJudge({ streamChunkChars: 7 });
});
afterEach(() => stub.reset());
afterAll(async () => {
  await stub.close();
});

const model = () => createOpenAI({ baseURL: stub.baseURL, apiKey: KEY }).chat('gpt-4o-mini');

describe('stub judge streaming (SSE)', () => {
  it('streams a text answer in deltas, with usage, and records the request as streamed', async () => {
    stub.enqueue(reply.text(ANSWER, { promptTokens: 40, completionTokens: 12 }));
    const result = streamText({ model: model(), prompt: 'Explain the score.' });
    const deltas: string[] = [];
    for await (const d of result.textStream) deltas.push(d);
    expect(deltas.join('')).toBe(ANSWER);
    expect(deltas.length).toBe(Math.ceil(ANSWER.length / 7));
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(40);
    expect(usage.outputTokens).toBe(12);
    expect(await result.finishReason).toBe('stop');
    expect(stub.requests[0]?.stream).toBe(true);
    expect(stub.requests[0]?.user).toBe('Explain the score.');
  });

  it('streams a structured answer that parses with the schema', async () => {
    const verdicts = { verdicts: [{ verdict: 'yes', reason: 'supported' }] };
    stub.enqueue(reply.json(verdicts));
    const schema = z.object({ verdicts: z.array(z.object({ verdict: z.string(), reason: z.string() })) });
    const result = streamText({ model: model(), prompt: 'Judge.', output: Output.object({ schema }) });
    expect(await result.output).toEqual(verdicts);
    expect(stub.requests[0]?.jsonSchema).toBeDefined();
  });

  it('answers the same script without streaming as one JSON completion', async () => {
    stub.enqueue(reply.text(ANSWER));
    const result = await generateText({ model: model(), prompt: 'Explain the score.' });
    expect(result.text).toBe(ANSWER);
    expect(stub.requests[0]?.stream).toBe(false);
  });

  it("OpenAI's Responses API (Mastra's route for openai/… strings): one response object, or its events when streamed", async () => {
    const responses = () => createOpenAI({ baseURL: stub.baseURL, apiKey: KEY }).responses('gpt-4o-mini');
    stub.enqueue(reply.text(ANSWER, { promptTokens: 30, completionTokens: 9 }));
    const plain = await generateText({ model: responses(), system: 'You are a judge.', prompt: 'Explain the score.' });
    expect(plain.text).toBe(ANSWER);
    expect(plain.usage.inputTokens).toBe(30);
    expect(stub.requests[0]).toMatchObject({ path: '/v1/responses', api: 'responses', stream: false, model: 'gpt-4o-mini', system: 'You are a judge.', user: 'Explain the score.' });

    stub.enqueue(reply.text(ANSWER, { promptTokens: 30, completionTokens: 9 }));
    const streamed = streamText({ model: responses(), prompt: 'Explain the score.' });
    const deltas: string[] = [];
    for await (const d of streamed.textStream) deltas.push(d);
    expect(deltas.join('')).toBe(ANSWER);
    expect(deltas.length).toBe(Math.ceil(ANSWER.length / 7));
    expect((await streamed.usage).outputTokens).toBe(9);
    expect(await streamed.finishReason).toBe('stop');
    expect(stub.requests[1]).toMatchObject({ api: 'responses', stream: true });

    const verdict = { ok: true };
    stub.enqueue(reply.json(verdict));
    const structured = streamText({ model: responses(), prompt: 'Judge.', output: Output.object({ schema: z.object({ ok: z.boolean() }) }) });
    expect(await structured.output).toEqual(verdict);
    expect(stub.requests[2]?.jsonSchema).toMatchObject({ type: 'object' });
  });

  it('an error reply is a plain JSON error in streaming mode too', async () => {
    stub.enqueue(reply.error(400, 'bad request from script'));
    const errors: unknown[] = [];
    const result = streamText({ model: model(), prompt: 'x', maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toContain('bad request from script');
  });
});
