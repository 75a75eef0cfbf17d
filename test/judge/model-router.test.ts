/**
 * Model router strings over real HTTP: `"<provider>/<model>"` resolves from the environment, the provider
 * segment is stripped from the model id on the wire, each provider gets its own URL and key, and what
 * cannot be served is a TracejudgeError that says what to set. Two stub servers stand for two providers,
 * so a request landing at the wrong one is visible.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { componentSettings } from '../../src/component.js';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError, ErrorCodes, TracejudgeError } from '../../src/errors.js';
import { JudgeResolver, judgeEnabled, resolveJudgeSettings, type JudgeResolverOptions } from '../../src/judge/index.js';
import { reply, startStubJudge, type StubJudge } from '../../src/testing/stub-judge/index.js';

const OPENAI_KEY = 'sk-router-openai-5a1c9e3b7d';
const OTHER_KEY = 'sk-router-other-8f2d6b4a0c';
const schema = z.object({ ok: z.boolean() });

let a: StubJudge;
let b: StubJudge;
const resolvers: JudgeResolver[] = [];

function resolver(env: Record<string, string>, extra: Omit<JudgeResolverOptions, 'env' | 'settings'> = {}): JudgeResolver {
  const r = new JudgeResolver({ env, settings: componentSettings(), ...extra, section: { maxRetries: 0, ...extra.section } });
  resolvers.push(r);
  return r;
}

async function ask(r: JudgeResolver, model: unknown): Promise<{ object: { ok: boolean }; modelId: string; provider?: string }> {
  const port = r.resolve(model);
  if (!port) throw new Error('no port');
  return port.generateObject({ model, instructions: 'You are a judge.', prompt: 'Is it ok?', stepName: 'analyze', scorerId: 'router-test', schema });
}

function thrown(fn: () => unknown): TracejudgeError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TracejudgeError);
    return err as TracejudgeError;
  }
  throw new Error('expected a TracejudgeError');
}

beforeAll(async () => {
  a = await startStubJudge({ script: () => reply.json({ ok: true }) });
  b = await startStubJudge({ script: () => reply.json({ ok: true }) });
});
afterEach(() => {
  a.reset();
  b.reset();
  for (const r of resolvers.splice(0)) r.close();
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('model router strings', () => {
  it('openai/gpt-4o-mini goes to OPENAI_BASE_URL with OPENAI_API_KEY and model gpt-4o-mini', async () => {
    const r = resolver({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: a.baseURL });
    const res = await ask(r, 'openai/gpt-4o-mini');
    expect(res.object).toEqual({ ok: true });
    expect(res.modelId).toBe('gpt-4o-mini');
    expect(res.provider).toBe('openai');
    expect(a.requests).toHaveLength(1);
    expect(a.requests[0]?.path).toBe('/v1/chat/completions');
    expect(a.requests[0]?.model).toBe('gpt-4o-mini');
    expect(a.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it('a bare id keeps going to the judge endpoint unchanged; the same model string gives the same port', async () => {
    const r = resolver({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: a.baseURL });
    await ask(r, 'gpt-4o-mini');
    expect(a.requests[0]?.model).toBe('gpt-4o-mini');
    expect(r.resolve('gpt-4o')).toBe(r.resolve('gpt-4o'));
    // Same provider, same model id: one port (one concurrency limit), however it is written.
    expect(r.resolve('openai/gpt-4o')).toBe(r.resolve('gpt-4o'));
  });

  it('judge.baseURL and judge.apiKey in the config win over the environment for openai/…', async () => {
    const r = resolver({ OPENAI_API_KEY: 'sk-from-env', OPENAI_BASE_URL: b.baseURL }, { section: { baseURL: a.baseURL, apiKey: OPENAI_KEY } });
    await ask(r, 'openai/gpt-4o');
    expect(b.requests).toHaveLength(0);
    expect(a.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it('openrouter/anthropic/claude-3.5-sonnet strips only the first segment and uses OPENROUTER_API_KEY', async () => {
    const r = resolver({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: a.baseURL, OPENROUTER_API_KEY: OTHER_KEY, OPENROUTER_BASE_URL: b.baseURL });
    const res = await ask(r, 'openrouter/anthropic/claude-3.5-sonnet');
    expect(res.modelId).toBe('anthropic/claude-3.5-sonnet');
    expect(res.provider).toBe('openrouter');
    expect(a.requests).toHaveLength(0);
    expect(b.requests[0]?.model).toBe('anthropic/claude-3.5-sonnet');
    expect(b.requests[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
  });

  it('openrouter defaults to https://openrouter.ai/api/v1 and ollama to http://localhost:11434/v1', () => {
    const s = resolveJudgeSettings({}, {});
    expect(s.providers.openrouter).toMatchObject({ baseURL: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY', keyRequired: true });
    expect(s.providers.ollama).toMatchObject({ baseURL: 'http://localhost:11434/v1', apiKeyEnv: 'OLLAMA_API_KEY', keyRequired: false });
    expect(s.providers.openai).toMatchObject({ baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', keyRequired: true });
  });

  it('ollama/… needs no key and then sends no Authorization header; OLLAMA_API_KEY is sent when set', async () => {
    const keyless = resolver({ OLLAMA_BASE_URL: b.baseURL });
    const res = await ask(keyless, 'ollama/llama3.1:8b');
    expect(res.modelId).toBe('llama3.1:8b');
    expect(b.requests[0]?.model).toBe('llama3.1:8b');
    expect(b.requests[0]?.headers.authorization).toBeUndefined();
    const keyed = resolver({ OLLAMA_BASE_URL: b.baseURL, OLLAMA_API_KEY: OTHER_KEY });
    await ask(keyed, 'ollama/llama3.1:8b');
    expect(b.requests[1]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
  });

  it('a judge.providers prefix routes to its baseURL with the key from its apiKeyEnv', async () => {
    const r = resolver(
      { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: a.baseURL, ACME_LLM_KEY: OTHER_KEY },
      { section: { providers: { acme: { baseURL: b.baseURL, apiKeyEnv: 'ACME_LLM_KEY' } } } },
    );
    const res = await ask(r, 'acme/judge-large');
    expect(res.provider).toBe('acme');
    expect(a.requests).toHaveLength(0);
    expect(b.requests[0]?.model).toBe('judge-large');
    expect(b.requests[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
  });

  it('providers given in code win over configured ones', async () => {
    const r = resolver(
      { ACME_LLM_KEY: 'sk-config-key' },
      { section: { providers: { acme: { baseURL: a.baseURL, apiKeyEnv: 'ACME_LLM_KEY' } } }, providers: { acme: { baseURL: b.baseURL, apiKey: OTHER_KEY } } },
    );
    await ask(r, 'acme/judge-large');
    expect(a.requests).toHaveLength(0);
    expect(b.requests[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
  });

  it("Mastra's { id, url, apiKey, headers } model config goes to url with its key and headers", async () => {
    const r = resolver({});
    const model = { id: 'custom/my-judge', url: b.baseURL, apiKey: OTHER_KEY, headers: { 'x-team': 'evals' } };
    const res = await ask(r, model);
    expect(res.modelId).toBe('my-judge');
    expect(b.requests[0]?.model).toBe('my-judge');
    expect(b.requests[0]?.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    expect(b.requests[0]?.headers['x-team']).toBe('evals');
    // { providerId, modelId } names a known provider: its URL and key are used.
    const known = resolver({ OPENROUTER_API_KEY: OTHER_KEY, OPENROUTER_BASE_URL: a.baseURL });
    await ask(known, { providerId: 'openrouter', modelId: 'meta/llama-3' });
    expect(a.requests[0]?.model).toBe('meta/llama-3');
  });

  it('AI SDK model objects keep working (@ai-sdk/openai chat model, MockLanguageModelV3), streamed or not', async () => {
    const r = resolver({});
    const chat = createOpenAI({ baseURL: a.baseURL, apiKey: OPENAI_KEY }).chat('gpt-4o');
    const res = await ask(r, chat);
    expect(res.modelId).toBe('gpt-4o');
    expect(a.requests[0]?.model).toBe('gpt-4o');
    expect(a.requests[0]?.stream).toBe(true);
    const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
    const finishReason = { unified: 'stop', raw: 'stop' } as const;
    // A model object is called as the judge.stream setting says: doStream by default, doGenerate with stream: false.
    const mock = () =>
      new MockLanguageModelV3({
        doGenerate: () => Promise.resolve({ content: [{ type: 'text', text: '{"ok":false}' }], finishReason, usage, warnings: [] }),
        doStream: () =>
          Promise.resolve({
            stream: simulateReadableStream<LanguageModelV3StreamPart>({
              chunks: [
                { type: 'stream-start', warnings: [] },
                { type: 'text-start', id: '0' },
                { type: 'text-delta', id: '0', delta: '{"ok":' },
                { type: 'text-delta', id: '0', delta: 'false}' },
                { type: 'text-end', id: '0' },
                { type: 'finish', finishReason, usage },
              ],
            }),
          }),
      });
    const streamed = mock();
    expect((await ask(r, streamed)).object).toEqual({ ok: false });
    expect([streamed.doStreamCalls.length, streamed.doGenerateCalls.length]).toEqual([1, 0]);
    const plain = mock();
    expect((await ask(resolver({}, { section: { stream: false } }), plain)).object).toEqual({ ok: false });
    expect([plain.doStreamCalls.length, plain.doGenerateCalls.length]).toEqual([0, 1]);
  });
});

describe('what cannot be served', () => {
  it('a missing key names OPENAI_API_KEY and the model string (when resolved, not before)', () => {
    const r = resolver({});
    const err = thrown(() => r.resolve('openai/gpt-4o-mini'));
    expect(err.code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(err.message).toContain('"openai/gpt-4o-mini"');
    expect(err.message).toContain('OPENAI_API_KEY');
    expect(thrown(() => r.resolve('gpt-4o-mini')).message).toContain('OPENAI_API_KEY');
  });

  it("a missing key of another provider names that provider's variable", () => {
    const r = resolver({ OPENAI_API_KEY: OPENAI_KEY });
    expect(thrown(() => r.resolve('openrouter/anthropic/claude-3.5')).message).toMatch(/"openrouter\/anthropic\/claude-3\.5" needs an API key: set OPENROUTER_API_KEY/);
    const configured = resolver({}, { section: { providers: { acme: { baseURL: a.baseURL, apiKeyEnv: 'ACME_LLM_KEY' } } } });
    expect(thrown(() => configured.resolve('acme/x')).message).toContain('set ACME_LLM_KEY');
  });

  it('an unknown prefix lists the known prefixes and how to add one', () => {
    const err = thrown(() => resolver({ OPENAI_API_KEY: OPENAI_KEY }).resolve('acme/judge-large'));
    expect(err.code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(err.message).toContain('unknown provider "acme"');
    for (const known of ['openai', 'openrouter', 'ollama', 'groq']) expect(err.message).toContain(known);
    expect(err.message).toContain('judge.providers');
    expect(err.message).toContain('apiKeyEnv');
  });

  it('a provider with its own API (anthropic/…) is pointed at AI SDK model objects', () => {
    const err = thrown(() => resolver({}).resolve('anthropic/claude-3-5-sonnet'));
    expect(err.message).toContain('@ai-sdk/anthropic');
  });

  it('malformed model strings are errors, not requests', () => {
    const r = resolver({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: a.baseURL });
    expect(thrown(() => r.resolve('openai/')).message).toContain('"<provider>/<model>"');
    expect(thrown(() => r.resolve('/gpt-4o')).message).toContain('"<provider>/<model>"');
    expect(thrown(() => r.resolve('constructor/x')).message).toContain('unknown provider "constructor"');
    expect(a.requests).toHaveLength(0);
  });
});

describe('judge settings and config', () => {
  it('resolveJudgeSettings({}) fills every default', () => {
    const s = resolveJudgeSettings({}, {});
    expect(s).toMatchObject({ type: 'openai', model: 'gpt-4o-mini', baseURL: 'https://api.openai.com/v1', apiKey: undefined, concurrency: 4, maxRetries: 2, timeoutMs: 60_000 });
    expect(() => resolveJudgeSettings()).not.toThrow();
  });

  it('the judge is enabled when the default model can be served: a key for openai/openrouter, nothing for ollama', () => {
    expect(judgeEnabled(resolveJudgeSettings({}, {}))).toBe(false);
    expect(judgeEnabled(resolveJudgeSettings({}, { OPENAI_API_KEY: OPENAI_KEY }))).toBe(true);
    expect(judgeEnabled(resolveJudgeSettings({ model: 'openrouter/x/y' }, { OPENAI_API_KEY: OPENAI_KEY }))).toBe(false);
    expect(judgeEnabled(resolveJudgeSettings({ model: 'openrouter/x/y' }, { OPENROUTER_API_KEY: OTHER_KEY }))).toBe(true);
    expect(judgeEnabled(resolveJudgeSettings({ model: 'ollama/llama3.1' }, {}))).toBe(true);
    expect(resolver({}, { section: { model: 'openrouter/x/y' } }).problem?.message).toContain('OPENROUTER_API_KEY');
  });

  it("the service's default judge client sends the stripped id of judge.model", async () => {
    const r = resolver({ OPENROUTER_API_KEY: OTHER_KEY, OPENROUTER_BASE_URL: b.baseURL }, { section: { model: 'openrouter/anthropic/claude-3.5-sonnet' } });
    expect(r.enabled).toBe(true);
    expect(r.client?.defaultModel).toBe('anthropic/claude-3.5-sonnet');
    expect(r.defaultEndpoint).toEqual({ provider: 'openrouter', baseURL: b.baseURL, modelId: 'anthropic/claude-3.5-sonnet' });
    const res = await r.client?.port().generateObject({ model: undefined, instructions: 'i', prompt: 'p', stepName: 'analyze', scorerId: 's', schema });
    expect(res?.modelId).toBe('anthropic/claude-3.5-sonnet');
    expect(b.requests[0]?.model).toBe('anthropic/claude-3.5-sonnet');
    expect(resolver({}, { section: { model: 'openrouter/x' } }).client).toBeUndefined();
  });

  it('config errors name the key: unknown judge.model prefix, judge.providers.openai, bad entries', () => {
    const issues = (raw: unknown): string[] => {
      try {
        parseConfig(raw, 't.yaml', {});
      } catch (err) {
        if (err instanceof ConfigError) return err.issues.map((i) => `${i.path}: ${i.message}`);
        throw err;
      }
      return [];
    };
    expect(issues({ judge: { model: 'acme/x' } })[0]).toMatch(/^judge\.model: unknown provider "acme" \(known: openai, openrouter, ollama.*add it under judge\.providers/);
    expect(issues({ judge: { model: 'acme/x', providers: { acme: { baseURL: 'http://127.0.0.1:9/v1' } } } })).toEqual([]);
    expect(issues({ judge: { model: 'openrouter/anthropic/claude-3.5' } })).toEqual([]);
    expect(issues({ judge: { providers: { openai: { baseURL: 'http://127.0.0.1:9/v1' } } } })[0]).toMatch(/^judge\.providers\.openai: .*judge\.baseURL/);
    expect(issues({ judge: { providers: { acme: { baseURL: 'not a url' } } } })[0]).toMatch(/^judge\.providers\.acme\.baseURL: /);
    expect(issues({ judge: { providers: { acme: { baseURL: 'http://x/v1', apiKeyEnv: 'NOT-A-VAR' } } } })[0]).toMatch(/^judge\.providers\.acme\.apiKeyEnv: must be an environment variable name/);
    expect(issues({ judge: { providers: { acme: { baseURL: 'http://x/v1', apiKey: 'sk' } } } })[0]).toBe('judge.providers.acme.apiKey: unknown key');
    expect(issues({ judge: { providers: { 'a/b': { baseURL: 'http://x/v1' } } } })[0]).toMatch(/^judge\.providers/);
  });
});
