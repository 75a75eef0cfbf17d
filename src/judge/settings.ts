/**
 * Resolves the `judge:` config section against its environment fallbacks (`OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `TRACEJUDGE_JUDGE_MODEL`, and the key and base-URL variables of the model-router
 * providers) into the settings the judge runs with. Every setting has a default, so
 * `resolveJudgeSettings({})` always succeeds.
 */
import { judgeSection, type JudgeSection } from '../config/sections/judge.js';
import type { JudgeCallPolicy } from './ai-sdk-judge.js';
import { resolveProviderTable, routeModel, type JudgeEndpoint, type JudgeProviderConfig } from './providers.js';

/** Default judge model when neither config nor `TRACEJUDGE_JUDGE_MODEL` names one. */
export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';
/** Default base URL when neither config nor `OPENAI_BASE_URL` gives one. */
export const DEFAULT_JUDGE_BASE_URL = 'https://api.openai.com/v1';

/** Fully resolved judge settings. */
export interface JudgeSettings extends JudgeCallPolicy {
  type: 'openai';
  /** The `openai` provider's endpoint: bare model ids and `openai/<model>` go here. */
  baseURL: string;
  /** The `openai` provider's key; undefined when unknown. */
  apiKey: string | undefined;
  /** The default judge model, as configured (a bare id or a model router string). */
  model: string;
  concurrency: number;
  /** Every model-router provider by prefix (`openai` included), resolved against the environment. */
  providers: Readonly<Record<string, Readonly<JudgeEndpoint>>>;
}

type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v : undefined);

/**
 * Apply environment fallbacks: config wins, then `OPENAI_BASE_URL` / `OPENAI_API_KEY` /
 * `TRACEJUDGE_JUDGE_MODEL`, then the built-in defaults. `providers` (from code) add to or replace the
 * built-in and configured providers. Throws a zod error for an invalid section.
 *
 * @example
 * ```ts
 * const settings = resolveJudgeSettings(config.judge, process.env);
 * if (judgeEnabled(settings)) new JudgeResolver({ section: config.judge, settings: componentSettings() });
 * ```
 */
export function resolveJudgeSettings(
  partial: Partial<JudgeSection> = {},
  env: Env = process.env,
  providers: Readonly<Record<string, JudgeProviderConfig>> = {},
): JudgeSettings {
  const section = judgeSection.parse(partial);
  const baseURL = nonEmpty(section.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_JUDGE_BASE_URL;
  const apiKey = nonEmpty(section.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);
  return {
    type: section.type,
    baseURL,
    apiKey,
    model: nonEmpty(section.model) ?? nonEmpty(env.TRACEJUDGE_JUDGE_MODEL) ?? DEFAULT_JUDGE_MODEL,
    temperature: section.temperature,
    timeoutMs: section.timeoutMs,
    maxRetries: section.maxRetries,
    backoffInitialMs: section.backoffInitialMs,
    backoffMaxMs: section.backoffMaxMs,
    maxRetryAfterMs: section.maxRetryAfterMs,
    stream: section.stream,
    concurrency: section.concurrency,
    providers: resolveProviderTable({ baseURL, apiKey }, env, section.providers, providers),
  };
}

/**
 * The problem that keeps the default judge model (`settings.model`) from being served: an unknown
 * provider or a missing key, as a `TracejudgeError` naming what to set; undefined when it can be served.
 */
export function judgeProblem(settings: Pick<JudgeSettings, 'model' | 'providers'>): Error | undefined {
  try {
    routeModel(settings.model, settings.providers);
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

/**
 * The judge (and so every built-in LLM scorer of a service) is enabled when the default model can be
 * served: its provider is known and has its key, or needs none (`ollama/…`).
 */
export function judgeEnabled(settings: Pick<JudgeSettings, 'model' | 'providers'>): boolean {
  return judgeProblem(settings) === undefined;
}
