/**
 * Turns a scorer's `judge.model` value into a judge port, for library code and the service alike (one
 * resolver per service, in its settings; a scorer run without one makes its own from the environment):
 * - a `JudgeModelPort` is used as is;
 * - an AI SDK language model object (e.g. `openai('gpt-4o-mini')`) is wrapped with the default reliability
 *   settings (retries, timeout, concurrency), so Mastra-style `createHallucinationScorer({ model: openai(…) })`
 *   works as is;
 * - a model string, `gpt-4o-mini` or `openai/gpt-4o-mini`, goes to the configured OpenAI-compatible
 *   endpoint (`judge.baseURL` or `OPENAI_BASE_URL`) with `judge.apiKey` or `OPENAI_API_KEY`; the provider
 *   prefix is stripped from the model id that is sent.
 */
import type { LanguageModel } from 'ai';
import type { JudgeSection } from '../config/sections/judge.js';
import type { ComponentSettings } from '../component.js';
import { ErrorCodes, TracejudgeError } from '../errors.js';
import { AiSdkJudge, type JudgeCallPolicy } from './ai-sdk-judge.js';
import { createJudgeClient, type JudgeClient } from './client.js';
import { JudgeScopes } from './economics/scope.js';
import { isJudgeModelPort, type JudgeModelPort } from './port.js';
import { Semaphore } from './semaphore.js';
import { judgeEnabled, resolveJudgeSettings, type JudgeSettings } from './settings.js';

type Env = Readonly<Record<string, string | undefined>>;
type ModelObject = Exclude<LanguageModel, string>;

/** True for an AI SDK language model object (specification v2 or v3). */
export function isLanguageModelObject(value: unknown): value is ModelObject {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.doGenerate === 'function' && typeof v.modelId === 'string' && (v.specificationVersion === 'v3' || v.specificationVersion === 'v2');
}

export interface JudgeResolverOptions {
  /** The `judge:` section (defaults when absent). */
  section?: Partial<JudgeSection>;
  /** For `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `TRACEJUDGE_JUDGE_MODEL` (default `process.env`). */
  env?: Env;
  /** Replaces `fetch` for model-string judges (tests, proxies, the self-exclusion marks). */
  fetch?: typeof globalThis.fetch;
  settings: ComponentSettings;
}

/** Provider prefixes served by the configured OpenAI-compatible endpoint. */
const OPENAI_PREFIX = 'openai/';

export class JudgeResolver {
  /** The judge settings from config and environment. */
  readonly judge: JudgeSettings;
  /** The evaluation scope of judge calls (agent and scorer on their metrics, shared preprocessing). */
  readonly scopes: JudgeScopes;
  readonly #options: JudgeResolverOptions;
  readonly #shutdown = new AbortController();
  readonly #wrapped = new WeakMap<object, AiSdkJudge>();
  readonly #semaphores = new Map<string, Semaphore>();
  #client: JudgeClient | undefined;

  constructor(options: JudgeResolverOptions) {
    this.#options = options;
    this.scopes = new JudgeScopes((name) => options.settings.telemetry.agentLabel(name));
    this.judge = resolveJudgeSettings(options.section ?? {}, options.env ?? process.env);
  }

  /** True when an API key is known, so model strings can be served. */
  get enabled(): boolean {
    return judgeEnabled(this.judge);
  }

  /** The client of the configured endpoint, built on first use; undefined without an API key. */
  get client(): JudgeClient | undefined {
    if (!this.#client && judgeEnabled(this.judge)) {
      this.#client = createJudgeClient(this.judge, {
        settings: this.#options.settings,
        scopes: this.scopes,
        signal: this.#shutdown.signal,
        ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
      });
    }
    return this.#client;
  }

  /**
   * The port for `model`, or undefined when the value is not a judge model at all. A model string that
   * cannot be served (no API key, an unknown provider) throws a `TracejudgeError` naming what to set.
   */
  resolve(model: unknown): JudgeModelPort | undefined {
    if (isJudgeModelPort(model)) return model;
    if (isLanguageModelObject(model)) return this.#wrap(model);
    if (typeof model === 'string') return this.#byName(model);
    return undefined;
  }

  /** Abort every judge call in flight or waiting (service shutdown). Safe to call twice. */
  close(): void {
    if (!this.#shutdown.signal.aborted) this.#shutdown.abort(new Error('judge closed'));
    this.#client?.close();
  }

  #byName(name: string): JudgeModelPort {
    const slash = name.indexOf('/');
    const provider = slash > 0 ? name.slice(0, slash) : 'openai';
    const modelId = slash > 0 ? name.slice(slash + 1) : name;
    if (`${provider}/` !== OPENAI_PREFIX || modelId === '') {
      throw new TracejudgeError(ErrorCodes.CONFIG_INVALID, `judge model ${JSON.stringify(name)}: unknown provider ${JSON.stringify(provider)}; use "openai/<model>" or a model object`);
    }
    const client = this.client;
    if (!client) throw new TracejudgeError(ErrorCodes.CONFIG_INVALID, `judge model ${JSON.stringify(name)} needs an API key: set OPENAI_API_KEY (or judge.apiKey)`);
    return client.port(modelId);
  }

  #wrap(model: ModelObject): AiSdkJudge {
    let port = this.#wrapped.get(model);
    if (!port) {
      const key = `${model.provider}:${model.modelId}`;
      let sem = this.#semaphores.get(key);
      if (!sem) {
        sem = new Semaphore(this.judge.concurrency);
        this.#semaphores.set(key, sem);
      }
      const policy: JudgeCallPolicy = this.judge;
      port = new AiSdkJudge({
        temperature: policy.temperature,
        timeoutMs: policy.timeoutMs,
        maxRetries: policy.maxRetries,
        backoffInitialMs: policy.backoffInitialMs,
        backoffMaxMs: policy.backoffMaxMs,
        maxRetryAfterMs: policy.maxRetryAfterMs,
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
