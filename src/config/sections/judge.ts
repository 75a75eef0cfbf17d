import { z } from 'zod';
import { BUILTIN_PROVIDERS, DEFAULT_PROVIDER, PROVIDER_NAME } from './judge-providers.js';

/** `judge.providers.<prefix>`: where the models `<prefix>/<model>` are served. */
const judgeProvider = z.strictObject({
  /** The OpenAI-compatible base URL (requests go to `<baseURL>/chat/completions`). */
  baseURL: z.url({ protocol: /^https?$/ }),
  /** Environment variable holding the key. Absent: no key (a local server), unless the prefix is a built-in one. */
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name (letters, digits, _)').optional(),
});

const providerMap = z
  .record(z.string().regex(PROVIDER_NAME, 'a provider prefix is letters, digits, ".", "_" or "-", without "/"'), judgeProvider)
  .superRefine((providers, ctx) => {
    if (Object.hasOwn(providers, DEFAULT_PROVIDER)) {
      ctx.addIssue({ code: 'custom', path: [DEFAULT_PROVIDER], message: 'the openai provider is the judge section itself: set judge.baseURL and judge.apiKey instead' });
    }
  })
  .default({});

/** The provider segment of a model string, or undefined for a bare id. */
function providerOf(model: string): string | undefined {
  const slash = model.indexOf('/');
  return slash < 0 ? undefined : model.slice(0, slash);
}

/**
 * `judge:` — the OpenAI-compatible LLM judge (OpenAI, vLLM, Ollama, LM Studio, LiteLLM).
 * `baseURL`, `apiKey` and `model` fall back to `OPENAI_BASE_URL`, `OPENAI_API_KEY` and
 * `TRACEJUDGE_JUDGE_MODEL` (docs/configuration.md, "The embedded default"); resolve them with `resolveJudgeSettings`.
 * `providers` adds model-router prefixes (`judge.providers.acme` serves `acme/<model>`). The judge is enabled
 * when the provider of `model` can be reached: its key is known, or it needs none.
 */
export const judgeSection = z
  .strictObject({
    type: z.literal('openai').default('openai'),
    /** Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
    baseURL: z.url({ protocol: /^https?$/ }).optional(),
    /** Default `OPENAI_API_KEY`. Never logged. */
    apiKey: z.string().min(1).optional(),
    /**
     * Default `TRACEJUDGE_JUDGE_MODEL`, else `gpt-4o-mini`. A model router string `<provider>/<model>`
     * (`openrouter/anthropic/claude-3.5-sonnet`) names a provider of the built-in table or of `providers`.
     */
    model: z.string().min(1).optional(),
    /** More OpenAI-compatible providers for model strings, by prefix (or a built-in one moved). */
    providers: providerMap,
    temperature: z.number().min(0).max(2).default(0),
    /** Hard limit on one HTTP call to the judge; a call past it fails with TJ_JUDGE_TIMEOUT and is not retried. */
    timeoutMs: z.number().int().positive().default(60_000),
    /** Retries of one call after 429 / 408 / 5xx / network errors (quota-exhausted 429s are never retried). */
    maxRetries: z.number().int().min(0).max(10).default(2),
    /** First backoff wait; doubles per retry up to `backoffMaxMs`. `Retry-After` replaces it when given. */
    backoffInitialMs: z.number().int().min(0).default(1_000),
    backoffMaxMs: z.number().int().min(0).default(30_000),
    /** A `Retry-After` longer than this fails the call at once instead of waiting. */
    maxRetryAfterMs: z.number().int().min(0).default(60_000),
    /** Judge calls in flight at once, per judge model. */
    concurrency: z.number().int().positive().default(4),
    /**
     * Ask for answers as server-sent events (`stream: true`), as Mastra's client does; `false` for a gateway
     * that does not stream. Either way an answer is used only once complete.
     */
    stream: z.boolean().default(true),
  })
  .superRefine((judge, ctx) => {
    const provider = judge.model === undefined ? undefined : providerOf(judge.model);
    if (provider === undefined || provider === DEFAULT_PROVIDER || Object.hasOwn(BUILTIN_PROVIDERS, provider) || Object.hasOwn(judge.providers, provider)) return;
    const known = [DEFAULT_PROVIDER, ...Object.keys(BUILTIN_PROVIDERS), ...Object.keys(judge.providers)].join(', ');
    ctx.addIssue({
      code: 'custom',
      path: ['model'],
      message:
        provider === ''
          ? 'expected "<provider>/<model>" or a bare model id'
          : `unknown provider ${JSON.stringify(provider)} (known: ${known}); add it under judge.providers (${provider}: { baseURL, apiKeyEnv }), or write "openai/${judge.model}" for a model id of judge.baseURL that contains "/"`,
    });
  })
  .prefault({});

export type JudgeSection = z.output<typeof judgeSection>;
