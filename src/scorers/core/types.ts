/**
 * Types of the scorer pipeline (docs/scorers.md): run input, step context, step shapes and the run result.
 */
import type { z } from 'zod';
import type { JudgeUsage } from '../../judge/port.js';
import type { NotScorable } from './not-scorable.js';

/** The four pipeline steps, in their intended order. */
export type StepName = 'preprocess' | 'analyze' | 'generateScore' | 'generateReason';

/**
 * The LLM judge of a scorer or a step. `model` is a {@link JudgeModelPort} or any value the installed port
 * resolver understands (an AI SDK `LanguageModel`, …); it is passed through untouched.
 */
export interface JudgeConfig {
  model: unknown;
  /** The judge's system prompt. */
  instructions: string;
}

/** `'agent'` / `'trajectory'` (as in the reference) or zod schemas used for typing only. */
export type ScorerType = 'agent' | 'trajectory' | { input: z.ZodType; output: z.ZodType };

/** What `scorer.run()` takes (the reference's `ScorerRun`). */
export interface ScorerRun<TInput = unknown, TOutput = unknown> {
  /** Generated with `crypto.randomUUID()` when absent. */
  runId?: string;
  input?: TInput;
  output: TOutput;
  groundTruth?: unknown;
  /** A `TrajectoryExpectation` for trajectory scorers. */
  expectedTrajectory?: unknown;
  requestContext?: unknown;
  requestContextKeys?: string[];
  scoreSource?: 'live' | 'trace' | 'experiment';
  targetScope?: 'span' | 'trajectory';
  targetEntityType?: string;
  targetTraceId?: string;
  targetSpanId?: string;
  targetCorrelationContext?: Record<string, unknown>;
  targetMetadata?: Record<string, unknown>;
}

/** The run as steps see it: always has a `runId`. */
export type PreparedRun<TInput = unknown, TOutput = unknown> = ScorerRun<TInput, TOutput> & { runId: string };

/** Accumulated step results: `preprocessStepResult`, `analyzeStepResult`, `generateScoreStepResult`, … */
export type StepResults = Record<string, unknown>;

/** What every step receives. */
export interface StepContext<TInput = unknown, TOutput = unknown, TAcc extends StepResults = StepResults> {
  run: PreparedRun<TInput, TOutput>;
  results: TAcc;
}

/** What `generateReason` receives: the context plus the score. */
export interface ReasonContext<TInput = unknown, TOutput = unknown, TAcc extends StepResults = StepResults>
  extends StepContext<TInput, TOutput, TAcc> {
  score: number;
}

/** A function step; sync or async. May return {@link NotScorable}. */
export type FunctionStep<TCtx, T> = (context: TCtx) => T | Promise<T>;

/** A prompt-object step for `preprocess` / `analyze`: the judge answers in `outputSchema`. */
export interface StructuredPromptStep<TCtx, S extends z.ZodType> {
  description: string;
  outputSchema: S;
  createPrompt: (context: TCtx) => string | Promise<string>;
  /** Step-level override of the scorer's judge fields. */
  judge?: Partial<JudgeConfig>;
}

/** A prompt-object step for `generateScore` (schema `{ score: number }`) or `generateReason` (plain text). */
export interface TextPromptStep<TCtx> {
  description: string;
  createPrompt: (context: TCtx) => string | Promise<string>;
  judge?: Partial<JudgeConfig>;
}

/** `getSteps()` entry. */
export interface StepInfo {
  name: StepName;
  type: 'prompt' | 'function';
  description?: string;
}

/** One judge call made by a prompt step (`result.judge[step].executions[]`). */
export type JudgeExecution =
  | {
      status: 'success';
      prompt: string;
      output: unknown;
      judgeModelId: string;
      judgeProvider?: string;
      usage: JudgeUsage;
      attemptCount: number;
      modelCallCount: number;
      durationMs: number;
    }
  | {
      status: 'failed';
      prompt: string;
      judgeModelId: string;
      judgeProvider?: string;
      durationMs: number;
      error: { name: string; message: string; code?: string };
    };

/** Result value of a step key in the accumulator, or undefined when that step was never added. */
type Field<TAcc, K extends string> = K extends keyof TAcc ? TAcc[K] : undefined;

/**
 * What `scorer.run()` resolves to (docs/scorers.md): the prepared run plus step results. Either scored
 * (`score` a number, no `notScorable`) or not scorable (`notScorable` set, no `score`) when a step returned
 * {@link NotScorable}; `notScorable` is the discriminant, so after `if (r.notScorable) …` `r.score` is a `number`.
 */
export type ScorerRunResult<TInput = unknown, TOutput = unknown, TAcc extends StepResults = StepResults> = PreparedRun<TInput, TOutput> &
  ScorerRunDetails<TAcc> &
  (ScoredRun | NotScorableRun);

/** A result with a score. */
export interface ScoredRun {
  score: number;
  notScorable?: undefined;
}

/** A result of a run a step declared not scorable (not an error: the run lacks what the scorer needs). */
export interface NotScorableRun {
  score?: undefined;
  notScorable: { step: StepName; reason?: string };
}

/** The step results and prompts of a run, scored or not. */
export interface ScorerRunDetails<TAcc extends StepResults = StepResults> {
  reason?: Field<TAcc, 'generateReasonStepResult'>;
  preprocessStepResult?: Field<TAcc, 'preprocessStepResult'>;
  analyzeStepResult?: Field<TAcc, 'analyzeStepResult'>;
  preprocessPrompt?: string;
  analyzePrompt?: string;
  generateScorePrompt?: string;
  generateReasonPrompt?: string;
  judge?: Partial<Record<StepName, { executions: JudgeExecution[] }>>;
}

/** Strips the sentinel and the promise from a step's return type. */
export type StepValue<T> = Exclude<Awaited<T>, NotScorable>;

/**
 * What the service, the registry and `runEvals` need from any scorer, whatever its step types: every
 * `Scorer` built with `createScorer` satisfies it.
 */
export interface ScorerLike {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly type: ScorerType | undefined;
  readonly hasJudge: boolean;
  run(input: ScorerRun, options?: { skipReason?: (score: number) => boolean }): Promise<ScorerRunResult>;
  getSteps(): StepInfo[];
}
