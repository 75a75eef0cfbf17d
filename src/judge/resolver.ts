/**
 * Turns a scorer's `judge.model` value into a judge port, for library code and the service alike: the
 * service makes one resolver from its settings (config + environment); a scorer run without one uses the
 * scorer's own resolver (`createDefaultJudgeResolver`, made from `process.env` on its first judge step).
 * - a `JudgeModelPort` is used as is;
 * - an AI SDK language model object (e.g. `openai.chat('gpt-4o-mini')`) is wrapped with the reliability
 *   settings (retries, timeout, concurrency), so Mastra-style `createHallucinationScorer({ model: openai(…) })`
 *   works as is;
 * - a model router string (`openai/gpt-4o-mini`, `openrouter/anthropic/claude-3.5`, `ollama/llama3.1`, or a
 *   bare `gpt-4o-mini` for the `judge:` endpoint) goes to its provider's OpenAI-compatible endpoint with
 *   the provider's key; the provider segment is stripped from the model id that is sent (src/judge/providers.ts);
 * - an OpenAI-compatible model config `{ id: 'acme/my-model', url?, apiKey?, headers? }` (or `{ providerId,
 *   modelId, … }`), as Mastra's router takes it, goes to `url` (default: the provider's base URL).
 */
import type { LanguageModel } from 'ai';
import type { JudgeSection } from '../config/sections/judge.js';
import type { ComponentSettings } from '../component.js';
import { AiSdkJudge, type JudgeCallPolicy } from './ai-sdk-judge.js';
import { createJudgeClient, type JudgeClient } from './client.js';
import { JudgeScopes } from './economics/scope.js';
import { isJudgeModelPort, type JudgeModelPort } from './port.js';
import { missingKeyError, parseModelString, routeModel, unknownProviderError, type JudgeEndpoint, type JudgeProviderConfig } from './providers.js';
import { Semaphore } from './semaphore.js';
import { judgeProblem, resolveJudgeSettings, type JudgeSettings } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;
type ModelObject = Exclude<LanguageModel, string>;

/** True for an AI SDK language model object (specification v2 or v3). */
export function isLanguageModelObject(value: unknown): value is ModelObject {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.doGenerate === 'function' && typeof v.modelId === 'string' && (v.specificationVersion === 'v3' || v.specificationVersion === 'v2');
}

/** Mastra's OpenAI-compatible model config: a model string plus where to send it. */
export type OpenAICompatibleModelConfig =
  | { id: string; url?: string; apiKey?: string; headers?: Record<string, string> }
  | { providerId: string; modelId: string; url?: string; apiKey?: string; headers?: Record<string, string> };

function isModelConfig(value: unknown): value is OpenAICompatibleModelConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.doGenerate === 'function' || typeof v.generateObject === 'function') return false;
  return typeof v.id === 'string' || (typeof v.providerId === 'string' && typeof v.modelId === 'string');
}

export interface JudgeResolverOptions {
  /** The `judge:` section (defaults when absent), `judge.providers` included. */
  section?: Partial<JudgeSection>;
  /** Where keys and base URLs are read (`OPENAI_API_KEY`, `OPENROUTER_API_KEY`, …; default `process.env`). */
  env?: Env;
  /** Providers added in code, by prefix; they win over built-in and configured ones. */
  providers?: Readonly<Record<string, JudgeProviderConfig>>;
  /** Replaces `fetch` for model-string judges (tests, proxies, the self-exclusion marks). */
  fetch?: typeof globalThis.fetch;
  settings: ComponentSettings;
}

export class JudgeResolver {
  /** The judge settings from config and environment, the provider table included. */
  readonly judge: JudgeSettings;
  /** The evaluation scope of judge calls (agent and scorer on their metrics, shared preprocessing). */
  readonly scopes: JudgeScopes;
  readonly #options: JudgeResolverOptions;
  readonly #shutdown = new AbortController();
  readonly #wrapped = new WeakMap<object, JudgeModelPort>();
  readonly #semaphores = new Map<string, Semaphore>();
  /** One client per endpoint (provider prefix), made on first use. */
  readonly #clients = new Map<string, JudgeClient>();
  /** Ports of model strings already resolved. */
  readonly #byString = new Map<string, JudgeModelPort>();
  #default: JudgeClient | undefined;

  /** Throws a zod error for an invalid `section`, a `TracejudgeError` for a code provider named `openai`. */
  constructor(options: JudgeResolverOptions) {
    this.#options = options;
    this.scopes = new JudgeScopes((name) => options.settings.telemetry.agentLabel(name));
    this.judge = resolveJudgeSettings(options.section ?? {}, options.env ?? process.env, options.providers ?? {});
  }

  /** True when the default model (`judge.model`) can be served: its provider is known and has its key, or needs none. */
  get enabled(): boolean {
    return judgeProblem(this.judge) === undefined;
  }

  /**
   * Why the default model cannot be served (unknown provider, missing key, naming the variable to set), or
   * undefined when it can.
   */
  get problem(): Error | undefined {
    return judgeProblem(this.judge);
  }

  /** Where the default model goes (provider, base URL; for logs), or undefined when it cannot be served. */
  get defaultEndpoint(): { provider: string; baseURL: string; modelId: string } | undefined {
    if (!this.enabled) return undefined;
    const { endpoint, modelId } = routeModel(this.judge.model, this.judge.providers);
    return { provider: endpoint.provider, baseURL: endpoint.baseURL, modelId };
  }

  /**
   * The client of the default model's endpoint, its `defaultModel` the id sent on the wire (`openai/gpt-4o`
   * → `gpt-4o`); undefined when the default model cannot be served.
   */
  get client(): JudgeClient | undefined {
    if (!this.#default && this.enabled) {
      const { endpoint, modelId } = routeModel(this.judge.model, this.judge.providers);
      const client = this.#clientOf(endpoint);
      this.#default = { defaultModel: modelId, port: (id = modelId) => client.port(id), close: () => client.close() };
    }
    return this.#default;
  }

  /**
   * The port for `model`, or undefined when the value is not a judge model at all. A model string that
   * cannot be served (an unknown provider, a missing key) throws a `TracejudgeError` naming what to set.
   *
   * @example
   * ```ts
   * const judges = new JudgeResolver({ settings: componentSettings() });
   * judges.resolve('openrouter/anthropic/claude-3.5-sonnet'); // sends model "anthropic/claude-3.5-sonnet" with OPENROUTER_API_KEY
   * ```
   */
  resolve(model: unknown): JudgeModelPort | undefined {
    if (isJudgeModelPort(model)) return model;
    if (isLanguageModelObject(model)) return this.#wrap(model);
    if (typeof model === 'string') return this.#byName(model);
    if (isModelConfig(model)) return this.#byConfig(model);
    return undefined;
  }

  /** Abort every judge call in flight or waiting (service shutdown). Safe to call twice. */
  close(): void {
    if (!this.#shutdown.signal.aborted) this.#shutdown.abort(new Error('judge closed'));
    for (const c of this.#clients.values()) c.close();
  }

  #byName(name: string): JudgeModelPort {
    const known = this.#byString.get(name);
    if (known) return known;
    const { endpoint, modelId } = routeModel(name, this.judge.providers);
    const port = this.#clientOf(endpoint).port(modelId);
    this.#byString.set(name, port);
    return port;
  }

  #byConfig(config: OpenAICompatibleModelConfig): JudgeModelPort {
    const known = this.#wrapped.get(config);
    if (known) return known;
    const name = 'id' in config ? config.id : `${config.providerId}/${config.modelId}`;
    const { provider, modelId } = 'id' in config ? parseModelString(config.id) : { provider: config.providerId, modelId: config.modelId };
    const table = this.judge.providers;
    const base = Object.hasOwn(table, provider) ? table[provider] : undefined;
    if (!base && config.url === undefined) throw unknownProviderError(name, provider, table);
    const endpoint: JudgeEndpoint = {
      provider,
      baseURL: config.url ?? (base as JudgeEndpoint).baseURL,
      apiKey: config.apiKey ?? base?.apiKey,
      apiKeyEnv: base?.apiKeyEnv,
      keyRequired: config.apiKey === undefined && (base?.keyRequired ?? false),
      source: 'code',
    };
    if (endpoint.keyRequired && endpoint.apiKey === undefined) throw missingKeyError(name, endpoint);
    // Its own client: the URL, key or headers may differ from the provider's.
    const client = this.#newClient(endpoint, config.headers);
    const port = client.port(modelId);
    this.#wrapped.set(config, port);
    return port;
  }

  #clientOf(endpoint: Readonly<JudgeEndpoint>): JudgeClient {
    let client = this.#clients.get(endpoint.provider);
    if (!client) {
      client = this.#newClient(endpoint);
      this.#clients.set(endpoint.provider, client);
    }
    return client;
  }

  #newClient(endpoint: Readonly<JudgeEndpoint>, headers?: Readonly<Record<string, string>>): JudgeClient {
    const o = this.#options;
    return createJudgeClient(
      { ...this.#policy(), baseURL: endpoint.baseURL, apiKey: endpoint.apiKey, model: this.judge.model, concurrency: this.judge.concurrency },
      {
        settings: o.settings,
        scopes: this.scopes,
        signal: this.#shutdown.signal,
        provider: endpoint.provider,
        ...(headers ? { headers } : {}),
        ...(o.fetch ? { fetch: o.fetch } : {}),
      },
    );
  }

  #policy(): JudgeCallPolicy {
    const j = this.judge;
    return {
      temperature: j.temperature,
      timeoutMs: j.timeoutMs,
      maxRetries: j.maxRetries,
      backoffInitialMs: j.backoffInitialMs,
      backoffMaxMs: j.backoffMaxMs,
      maxRetryAfterMs: j.maxRetryAfterMs,
      stream: j.stream,
    };
  }

  #wrap(model: ModelObject): JudgeModelPort {
    let port = this.#wrapped.get(model);
    if (!port) {
      const key = `${model.provider}:${model.modelId}`;
      let sem = this.#semaphores.get(key);
      if (!sem) {
        sem = new Semaphore(this.judge.concurrency);
        this.#semaphores.set(key, sem);
      }
      port = new AiSdkJudge({
        ...this.#policy(),
        model,
        modelId: model.modelId,
        provider: model.provider.split('.')[0] ?? model.provider,
        semaphore: sem,
        signal: this.#shutdown.signal,
        settings: this.#options.settings,
        scopes: this.scopes,
      });
      this.#wrapped.set(model, port);
    }
    return port;
  }
}
