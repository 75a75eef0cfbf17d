/**
 * Resolves the `judge:` config section against its environment fallbacks (`OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `TRACEJUDGE_JUDGE_MODEL`) into the settings the judge client runs with.
 */
import { judgeSection, type JudgeSection } from '../config/sections/judge.js';
import type { JudgeCallPolicy } from './ai-sdk-judge.js';

/** Default judge model when neither config nor `TRACEJUDGE_JUDGE_MODEL` names one. */
export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';
/** Default base URL when neither config nor `OPENAI_BASE_URL` gives one. */
export const DEFAULT_JUDGE_BASE_URL = 'https://api.openai.com/v1';

/** Fully resolved judge settings. `apiKey` undefined means the judge is disabled. */
export interface JudgeSettings extends JudgeCallPolicy {
  type: 'openai';
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  concurrency: number;
}

type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v : undefined);

/**
 * Apply environment fallbacks: config wins, then `OPENAI_BASE_URL` / `OPENAI_API_KEY` /
 * `TRACEJUDGE_JUDGE_MODEL`, then the built-in defaults.
 *
 * @example
 * ```ts
 * const settings = resolveJudgeSettings(config.judge, process.env);
 * if (judgeEnabled(settings)) createJudgeClient(settings);
 * ```
 */
export function resolveJudgeSettings(partial: Partial<JudgeSection> = {}, env: Env = process.env): JudgeSettings {
  const section = judgeSection.parse(partial);
  return {
    type: section.type,
    baseURL: nonEmpty(section.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_JUDGE_BASE_URL,
    apiKey: nonEmpty(section.apiKey) ?? nonEmpty(env.OPENAI_API_KEY),
    model: nonEmpty(section.model) ?? nonEmpty(env.TRACEJUDGE_JUDGE_MODEL) ?? DEFAULT_JUDGE_MODEL,
    temperature: section.temperature,
    timeoutMs: section.timeoutMs,
    maxRetries: section.maxRetries,
    backoffInitialMs: section.backoffInitialMs,
    backoffMaxMs: section.backoffMaxMs,
    maxRetryAfterMs: section.maxRetryAfterMs,
    concurrency: section.concurrency,
  };
}

/** The judge (and so every LLM scorer) is enabled only when an API key is known. */
export function judgeEnabled(settings: JudgeSettings): settings is JudgeSettings & { apiKey: string } {
  return settings.apiKey !== undefined;
}
