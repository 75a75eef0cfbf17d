/**
 * Connects the engine's `judge.model` values to judge ports: a model id string goes to the installed judge
 * client; an AI SDK language model object (e.g. `openai('gpt-4o-mini')`) is wrapped with default reliability
 * settings, so Mastra-style `createHallucinationScorer({ model: openai('gpt-4o-mini') })` works as is.
 */
import type { LanguageModel } from 'ai';
import { setJudgePortResolver, type JudgeModelPort } from './port.js';
import { AiSdkJudge, type JudgeCallPolicy } from './ai-sdk-judge.js';
import type { JudgeClient } from './client.js';
import { Semaphore } from './semaphore.js';

/** Reliability defaults for model objects handed over directly (same as the config defaults). */
export const DEFAULT_CALL_POLICY: JudgeCallPolicy = {
  temperature: 0,
  timeoutMs: 60_000,
  maxRetries: 2,
  backoffInitialMs: 1_000,
  backoffMaxMs: 30_000,
  maxRetryAfterMs: 60_000,
};
const DEFAULT_CONCURRENCY = 4;

type ModelObject = Exclude<LanguageModel, string>;

/** True for an AI SDK language model object (specification v2 or v3). */
export function isLanguageModelObject(value: unknown): value is ModelObject {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.doGenerate === 'function' && typeof v.modelId === 'string' && (v.specificationVersion === 'v3' || v.specificationVersion === 'v2');
}

let client: JudgeClient | undefined;
const wrapped = new WeakMap<object, AiSdkJudge>();
const semaphores = new Map<string, Semaphore>();

function wrap(model: ModelObject): AiSdkJudge {
  let port = wrapped.get(model);
  if (!port) {
    const key = `${model.provider}:${model.modelId}`;
    let sem = semaphores.get(key);
    if (!sem) {
      sem = new Semaphore(DEFAULT_CONCURRENCY);
      semaphores.set(key, sem);
    }
    port = new AiSdkJudge({ ...DEFAULT_CALL_POLICY, model, modelId: model.modelId, provider: model.provider.split('.')[0] ?? model.provider, semaphore: sem });
    wrapped.set(model, port);
  }
  return port;
}

/** Resolve a `judge.model` value: port as is, model object wrapped, string via the installed client. */
export function resolveJudgeModel(model: unknown): JudgeModelPort | undefined {
  if (isLanguageModelObject(model)) return wrap(model);
  if (typeof model === 'string' && client) return client.port(model);
  if (model === undefined && client) return client.port();
  return undefined;
}

/**
 * Install the resolver in the engine, and make `client` the one that serves model id strings
 * (pass undefined to keep only model-object wrapping). Returns a function that uninstalls the client.
 *
 * @example
 * ```ts
 * installJudge(createJudgeClient(settings));
 * const scorer = createHallucinationScorer({ model: 'gpt-4o-mini' });
 * ```
 */
export function installJudge(next?: JudgeClient): () => void {
  client = next;
  setJudgePortResolver(resolveJudgeModel);
  return () => {
    if (client === next) client = undefined;
  };
}

/** The installed judge client, if any. */
export function installedJudgeClient(): JudgeClient | undefined {
  return client;
}
