/**
 * The narrow boundary between the scorer engine and an LLM judge. The engine never talks to a model SDK:
 * prompt-object steps call a {@link JudgeModelPort}. The judge package implements the port over the AI SDK
 * and registers a resolver, so `judge.model` in a scorer may be either a port object or anything the
 * registered resolver understands (an AI SDK `LanguageModel`, a model id string, …).
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

/** Turns a user's `judge.model` value into a port, or returns undefined when it does not recognise it. */
export type JudgePortResolver = (model: unknown) => JudgeModelPort | undefined;

let resolver: JudgePortResolver | undefined;

/**
 * Install the resolver used for `judge.model` values that are not already ports (the judge package calls
 * this once at start-up). Passing `undefined` removes it.
 *
 * @example
 * ```ts
 * setJudgePortResolver((model) => (isLanguageModel(model) ? new AiSdkJudgePort(model) : undefined));
 * ```
 */
export function setJudgePortResolver(next: JudgePortResolver | undefined): void {
  resolver = next;
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

/**
 * Resolve a `judge.model` value to a port: a port is used as is, anything else goes through the installed
 * resolver. Returns undefined when nothing can serve it.
 *
 * @example
 * ```ts
 * const port = resolveJudgePort(judge.model);
 * ```
 */
export function resolveJudgePort(model: unknown): JudgeModelPort | undefined {
  if (isJudgeModelPort(model)) return model;
  return resolver?.(model);
}
