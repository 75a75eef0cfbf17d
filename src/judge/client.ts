/**
 * The judge client built from config: one OpenAI-compatible provider (chat-completions API, which vLLM,
 * Ollama, LM Studio and LiteLLM all speak) and one port per judge model, each with its own concurrency limit.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { componentSettings, type ComponentSettings } from '../component.js';
import { AiSdkJudge } from './ai-sdk-judge.js';
import type { JudgeScopes } from './economics/scope.js';
import { Semaphore } from './semaphore.js';
import type { JudgeSettings } from './settings.js';

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
}

/**
 * Build the judge client. The API key is added to the settings' secrets so it never reaches a log line or
 * an error.
 *
 * @example
 * ```ts
 * const settings = resolveJudgeSettings(config.judge);
 * if (judgeEnabled(settings)) {
 *   const client = createJudgeClient(settings);
 *   const verdict = await client.port().generateObject({ … });
 * }
 * ```
 */
export function createJudgeClient(settings: JudgeSettings & { apiKey: string }, options: JudgeClientOptions = {}): JudgeClient {
  const component = options.settings ?? componentSettings();
  component.secrets.add(settings.apiKey);
  const provider = createOpenAI({
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const shutdown = new AbortController();
  options.signal?.addEventListener('abort', () => shutdown.abort(options.signal?.reason), { once: true });
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
          model: provider.chat(modelId),
          modelId,
          provider: 'openai',
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
