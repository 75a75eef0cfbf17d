/**
 * The narrow boundary between the scorer engine and an LLM judge. The engine never talks to a model SDK:
 * prompt-object steps call a {@link JudgeModelPort}. `judge.model` in a scorer may be a port object or
 * anything a `JudgeResolver` understands (an AI SDK `LanguageModel`, a model string).
 */
import type { z } from 'zod';

/** Token counts reported by the judge for one step call (all optional; providers differ). */
export interface JudgeUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** Arguments common to both judge calls. */
export interface JudgeCallArgs {
  /** The `judge.model` value of the step (or scorer) as given by the user; the port may ignore it. */
  model: unknown;
  /** System prompt of the judge. */
  instructions: string;
  /** The user prompt produced by the step's `createPrompt`. */
  prompt: string;
  /** `preprocess` | `analyze` | `generateScore` | `generateReason`. */
  stepName: string;
  /** Scorer id, for accounting (tokens per scorer) and logs. */
  scorerId: string;
}

/** What a judge call returns besides its payload. */
export interface JudgeCallMeta {
  usage: JudgeUsage;
  /** Wall time of the call including retries, in milliseconds. */
  durationMs: number;
  /** Model id actually used, e.g. `gpt-4o-mini`. */
  modelId: string;
  /** Provider name when known, e.g. `openai`. */
  provider?: string;
  /** Attempts made (≥ 1), counting re-asks after a schema mismatch. Defaults to 1. */
  attemptCount?: number;
  /** HTTP model calls made (≥ 1). Defaults to `attemptCount`. */
  modelCallCount?: number;
}

/**
 * An LLM judge as the engine sees it.
 *
 * @example
 * ```ts
 * const port: JudgeModelPort = {
 *   async generateObject({ schema }) {
 *     return { object: schema.parse({ score: 1 }), usage: {}, durationMs: 0, modelId: 'scripted' };
 *   },
 *   async generateText() {
 *     return { text: 'The score is 1 because …', usage: {}, durationMs: 0, modelId: 'scripted' };
 *   },
 * };
 * const scorer = createScorer({ id: 'x', description: 'd', judge: { model: port, instructions: 'Be fair.' } });
 * ```
 */
export interface JudgeModelPort {
  /** Structured output: the answer must be parsed with `schema` (the port re-asks or fails when it does not fit). */
  generateObject<S extends z.ZodType>(args: JudgeCallArgs & { schema: S }): Promise<JudgeCallMeta & { object: z.infer<S> }>;
  /** Plain text output (used by `generateReason` prompt steps). */
  generateText(args: JudgeCallArgs): Promise<JudgeCallMeta & { text: string }>;
}

/**
 * True when `value` already implements {@link JudgeModelPort}.
 *
 * @example
 * ```ts
 * isJudgeModelPort({ generateObject() {}, generateText() {} }); // true
 * ```
 */
export function isJudgeModelPort(value: unknown): value is JudgeModelPort {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.generateObject === 'function' && typeof v.generateText === 'function';
}
