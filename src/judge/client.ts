/**
 * The judge client of one endpoint: one OpenAI-compatible provider (chat-completions API, which OpenAI,
 * OpenRouter, vLLM, Ollama, LM Studio and LiteLLM all speak) and one port per judge model, each with its
 * own concurrency limit.
 */
import { componentSettings, type ComponentSettings } from '../component.js';
import { AiSdkJudge, type JudgeCallPolicy } from './ai-sdk-judge.js';
import { openAiProvider } from './ai-lazy.js';
import type { JudgeScopes } from './economics/scope.js';
import { Semaphore } from './semaphore.js';

/** What one endpoint's client needs (a `JudgeSettings` fits). */
export interface JudgeClientSettings extends JudgeCallPolicy {
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; without one no `Authorization` header is sent (local servers). */
  apiKey?: string | undefined;
  /** The default model id sent on the wire. */
  model: string;
  concurrency: number;
}

/** Judge ports by model id, sharing one provider, one API key and one shutdown signal. */
export interface JudgeClient {
  /** The configured default model id. */
  readonly defaultModel: string;
  /** The port for `modelId` (default: the configured model); the same object for the same id. */
  port(modelId?: string): AiSdkJudge;
  /** Abort every in-flight and waiting call (service shutdown). Safe to call twice. */
  close(): void;
}

export interface JudgeClientOptions {
  /** Replaces `fetch` (tests, proxies, the self-exclusion marks). */
  fetch?: typeof globalThis.fetch;
  /** Logger, instruments and secrets (default: silent, no-op). */
  settings?: ComponentSettings;
  /** Agent and scorer attributes of the calls' metrics. */
  scopes?: JudgeScopes;
  /** Aborts every call (besides `close`). */
  signal?: AbortSignal;
  /** Provider name on the calls' metadata (`judgeProvider` of executions); default `openai`. */
  provider?: string;
  /** Extra request headers (e.g. those of a `{ id, url, apiKey, headers }` model config). */
  headers?: Readonly<Record<string, string>>;
}

/** A `fetch` that sends no `Authorization` header (keyless endpoints). */
function withoutAuthorization(base: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.delete('authorization');
    return base(input, { ...init, headers });
  };
}

/**
 * Build the judge client of one endpoint. The API key is added to the settings' secrets so it never
 * reaches a log line or an error. Model ids are sent as given: model router strings
 * (`openrouter/anthropic/…`) are routed by a `JudgeResolver`, which makes one client per provider.
 *
 * @example
 * ```ts
 * const client = createJudgeClient({ ...resolveJudgeSettings({}), baseURL: 'http://localhost:11434/v1', apiKey: undefined, model: 'llama3.1' });
 * const verdict = await client.port().generateObject({ … });
 * ```
 */
export function createJudgeClient(settings: JudgeClientSettings, options: JudgeClientOptions = {}): JudgeClient {
  const component = options.settings ?? componentSettings();
  const apiKey = settings.apiKey === '' ? undefined : settings.apiKey;
  const keyless = apiKey === undefined;
  if (apiKey !== undefined) component.secrets.add(apiKey);
  const fetch = keyless ? withoutAuthorization(options.fetch ?? globalThis.fetch) : options.fetch;
  const provider = openAiProvider().createOpenAI({
    baseURL: settings.baseURL,
    // A placeholder the keyless `fetch` removes, so the SDK never reads OPENAI_API_KEY on its own.
    apiKey: apiKey ?? 'unused',
    ...(options.headers ? { headers: { ...options.headers } } : {}),
    ...(fetch ? { fetch } : {}),
  });
  const providerName = options.provider ?? 'openai';
  const shutdown = new AbortController();
  if (options.signal?.aborted) shutdown.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', () => shutdown.abort(options.signal?.reason), { once: true });
  const ports = new Map<string, AiSdkJudge>();
  return {
    defaultModel: settings.model,
    port(modelId = settings.model) {
      let p = ports.get(modelId);
      if (!p) {
        p = new AiSdkJudge({
          temperature: settings.temperature,
          timeoutMs: settings.timeoutMs,
          maxRetries: settings.maxRetries,
          backoffInitialMs: settings.backoffInitialMs,
          backoffMaxMs: settings.backoffMaxMs,
          maxRetryAfterMs: settings.maxRetryAfterMs,
          stream: settings.stream,
          model: provider.chat(modelId),
          modelId,
          provider: providerName,
          semaphore: new Semaphore(settings.concurrency),
          signal: shutdown.signal,
          settings: component,
          ...(options.scopes ? { scopes: options.scopes } : {}),
        });
        ports.set(modelId, p);
      }
      return p;
    },
    close() {
      if (!shutdown.signal.aborted) shutdown.abort(new Error('judge client closed'));
    },
  };
}
