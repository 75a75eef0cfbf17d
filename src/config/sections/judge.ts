import { z } from 'zod';

/**
 * `judge:` — the OpenAI-compatible LLM judge (OpenAI, vLLM, Ollama, LM Studio, LiteLLM).
 * `baseURL`, `apiKey` and `model` fall back to `OPENAI_BASE_URL`, `OPENAI_API_KEY` and
 * `TRACEJUDGE_JUDGE_MODEL` (docs/configuration.md, "The embedded default"); resolve them with `resolveJudgeSettings`. The judge is enabled only
 * when an API key is known.
 */
export const judgeSection = z
  .strictObject({
    type: z.literal('openai').default('openai'),
    /** Default `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. */
    baseURL: z.url({ protocol: /^https?$/ }).optional(),
    /** Default `OPENAI_API_KEY`. Never logged. */
    apiKey: z.string().min(1).optional(),
    /** Default `TRACEJUDGE_JUDGE_MODEL`, else `gpt-4o-mini`. */
    model: z.string().min(1).optional(),
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
  })
  .prefault({});

export type JudgeSection = z.output<typeof judgeSection>;
