/**
 * `createScorer` and the immutable scorer pipeline (docs/scorers.md). Steps are compiled once when chained, so
 * a run only walks a frozen array: no per-run closures, no step-shape detection, no judge resolution for
 * function steps.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ScorerDefinitionError, ScorerRunError } from './errors.js';
import { isJudgeModelPort, type JudgeModelPort } from '../../judge/port.js';
import { createDefaultJudgeResolver } from '../../judge/default-resolver.js';
import type { JudgeResolver } from '../../judge/resolver.js';
import { isNotScorable, type NotScorable } from './not-scorable.js';
import type {
  FunctionStep,
  JudgeConfig,
  JudgeExecution,
  PreparedRun,
  ReasonContext,
  ScorerRun,
  ScorerRunResult,
  ScorerType,
  StepContext,
  StepInfo,
  StepName,
  StepResults,
  StepValue,
  StructuredPromptStep,
  TextPromptStep,
} from './types.js';

/** Per-run options of {@link Scorer.run}. */
export interface ScorerRunOptions {
  /**
   * Called with the score before the generateReason step; returning true skips that step (no reason, no
   * judge call). The service uses it for the `reason: on-fail | never` policy.
   */
  skipReason?: (score: number) => boolean;
  /**
   * Turns `judge.model` values that are not ports (model strings, AI SDK model objects) into ports. The
   * service passes its own; without it the scorer's own resolver (made from `process.env` on its first judge step, `createDefaultJudgeResolver`) serves them.
   */
  judges?: JudgePorts;
}

/** What resolves a `judge.model` value to a port (a `JudgeResolver`). */
export interface JudgePorts {
  resolve(model: unknown): JudgeModelPort | undefined;
}

/** `createScorer` config with an `id` (the form Mastra 1.x requires). */
export interface ScorerConfigWithId<TInput = unknown, TOutput = unknown> extends ScorerConfigBase<TInput, TOutput> {
  /** The scorer's id: the evaluation name when no config name is given. */
  id: string;
  /** Display name; defaults to `id`. */
  name?: string;
}

/**
 * `createScorer` config with a `name` only, as Mastra's `MastraScorer` and `runEvals` examples (and Mastra 0.x)
 * write it: the id is the name itself, unchanged, so `result.scores['My Scorer']` keeps working.
 */
export interface ScorerConfigWithName<TInput = unknown, TOutput = unknown> extends ScorerConfigBase<TInput, TOutput> {
  id?: undefined;
  /** The display name, and the id. */
  name: string;
}

/** `createScorer` config (docs/scorers.md): `id`, or `name` alone. */
export type ScorerConfig<TInput = unknown, TOutput = unknown> = ScorerConfigWithId<TInput, TOutput> | ScorerConfigWithName<TInput, TOutput>;

/** The fields of every `createScorer` config. */
export interface ScorerConfigBase<TInput = unknown, TOutput = unknown> {
  description: string;
  /** Default judge for prompt-object steps. */
  judge?: JudgeConfig;
  /** No runtime effect beyond trajectory extraction (docs/scorers.md). */
  type?: ScorerType;
  /** Applied to the run before the pipeline (strip data, reshape). */
  prepareRun?: (run: ScorerRun<TInput, TOutput>) => ScorerRun<TInput, TOutput> | Promise<ScorerRun<TInput, TOutput>>;
}

type AnyFn = (context: never) => unknown;

interface CompiledStep {
  readonly name: StepName;
  readonly resultKey: string;
  readonly promptKey: string;
  readonly info: StepInfo;
  /** Function step. */
  readonly fn?: AnyFn;
  /** Prompt step. */
  readonly createPrompt?: AnyFn;
  /** Structured output schema (preprocess/analyze, or `{score}` for generateScore); absent → text. */
  readonly schema?: z.ZodType;
  readonly model?: unknown;
  readonly instructions?: string;
}

const SCORE_SCHEMA = z.object({ score: z.number() });

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as { then?: unknown }).then === 'function';
}

function modelIdOf(model: unknown): string {
  if (typeof model === 'string') return model;
  if (model !== null && typeof model === 'object') {
    const id = (model as { modelId?: unknown }).modelId;
    if (typeof id === 'string') return id;
  }
  return 'unknown';
}

function errorShape(err: unknown): { name: string; message: string; code?: string } {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? { name: err.name, message: err.message, code } : { name: err.name, message: err.message };
  }
  return { name: 'Error', message: String(err) };
}

/**
 * A shallow copy of `o`'s own enumerable properties, as `{ ...o }` makes it but leaving a result that takes
 * further properties cheaply. An own `__proto__` key (possible from JSON) is defined, not assigned, as the
 * spread would.
 */
function copyOwn(o: object): Record<string, unknown> {
  if (Object.prototype.hasOwnProperty.call(o, '__proto__')) return { ...o };
  return Object.assign({}, o) as Record<string, unknown>;
}

/**
 * The id of a scorer config: `id`, else `name` as is (Mastra's docs create scorers from a name alone). A
 * `name` is not slugged, so results keyed by id read the same as the name the user wrote.
 */
function idOf(config: unknown): string {
  if (config === null || typeof config !== 'object') {
    throw new ScorerDefinitionError('MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID', 'createScorer: the config must be an object with an `id` or a `name`');
  }
  const { id, name } = config as { id?: unknown; name?: unknown };
  if (id !== undefined) {
    if (typeof id === 'string' && id !== '') return id;
    throw new ScorerDefinitionError('MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID', `createScorer: \`id\` must be a non-empty string, got ${id === '' ? 'an empty string' : typeof id}`);
  }
  if (typeof name === 'string' && name !== '') return name;
  throw new ScorerDefinitionError('MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID', 'createScorer: `id` is required (a non-empty string), or a `name` to use as the id');
}

/**
 * A scorer pipeline: Mastra's `MastraScorer`, also exported as `Scorer`. Every scorer made by
 * {@link createScorer} and by the prebuilt factories is an instance (`scorer instanceof MastraScorer`).
 * Immutable: every builder method returns a new scorer.
 *
 * @example
 * ```ts
 * const exact = createScorer({ id: 'exact', description: 'output equals ground truth' })
 *   .generateScore(({ run }) => (run.output === run.groundTruth ? 1 : 0))
 *   .generateReason(({ score }) => `The score is ${score}.`);
 * const r = await exact.run({ output: 'a', groundTruth: 'a' }); // r.score === 1
 * ```
 */
export class MastraScorer<TInput = unknown, TOutput = unknown, TAcc extends StepResults = StepResults> {
  readonly id: string;
  readonly description: string;
  readonly judge: JudgeConfig | undefined;
  readonly type: ScorerType | undefined;
  readonly #name: string | undefined;
  readonly #prepareRun: ScorerConfig<TInput, TOutput>['prepareRun'];
  readonly #steps: readonly CompiledStep[];
  readonly #infos: readonly StepInfo[];
  readonly #hasScore: boolean;
  /** Serves judge steps when a run is given no resolver; made on the first such step. */
  #defaultJudges: JudgeResolver | undefined;

  /** Use {@link createScorer}. */
  constructor(config: ScorerConfig<TInput, TOutput>, steps: readonly CompiledStep[] = []) {
    const id = idOf(config);
    this.id = id;
    this.#name = config.name;
    this.description = config.description;
    this.judge = config.judge;
    this.type = config.type;
    this.#prepareRun = config.prepareRun;
    this.#steps = Object.freeze([...steps]);
    this.#infos = Object.freeze(steps.map((s) => s.info));
    this.#hasScore = steps.some((s) => s.name === 'generateScore');
  }

  /** Display name (`name ?? id`). */
  get name(): string {
    return this.#name ?? this.id;
  }

  /** True when any step calls the judge. */
  get hasJudge(): boolean {
    return this.#steps.some((s) => s.info.type === 'prompt');
  }

  /** The config this scorer was created with, with its id filled in (from the name when it had none). */
  get config(): ScorerConfigWithId<TInput, TOutput> {
    const c: ScorerConfigWithId<TInput, TOutput> = { id: this.id, description: this.description };
    if (this.#name !== undefined) c.name = this.#name;
    if (this.judge !== undefined) c.judge = this.judge;
    if (this.type !== undefined) c.type = this.type;
    if (this.#prepareRun !== undefined) c.prepareRun = this.#prepareRun;
    return c;
  }

  /** Steps in run order, e.g. `[{ name: 'preprocess', type: 'prompt', description: 'Extract claims' }]`. */
  getSteps(): StepInfo[] {
    return this.#infos.map((i) => ({ ...i }));
  }

  /** Add a preprocess step: a function, or a prompt object with an `outputSchema`. */
  preprocess<S extends z.ZodType>(
    step: StructuredPromptStep<StepContext<TInput, TOutput, TAcc>, S>,
  ): MastraScorer<TInput, TOutput, TAcc & { preprocessStepResult: z.infer<S> }>;
  preprocess<T>(
    step: FunctionStep<StepContext<TInput, TOutput, TAcc>, T>,
  ): MastraScorer<TInput, TOutput, TAcc & { preprocessStepResult: StepValue<T> }>;
  preprocess(step: unknown): unknown {
    return this.#with('preprocess', step);
  }

  /** Add an analyze step: a function, or a prompt object with an `outputSchema`. */
  analyze<S extends z.ZodType>(
    step: StructuredPromptStep<StepContext<TInput, TOutput, TAcc>, S>,
  ): MastraScorer<TInput, TOutput, TAcc & { analyzeStepResult: z.infer<S> }>;
  analyze<T>(
    step: FunctionStep<StepContext<TInput, TOutput, TAcc>, T>,
  ): MastraScorer<TInput, TOutput, TAcc & { analyzeStepResult: StepValue<T> }>;
  analyze(step: unknown): unknown {
    return this.#with('analyze', step);
  }

  /** Add the score step: a function returning a number (or `notScorable`), or a prompt object (judge answers `{ score }`). */
  generateScore(
    step: TextPromptStep<StepContext<TInput, TOutput, TAcc>> | FunctionStep<StepContext<TInput, TOutput, TAcc>, number | NotScorable>,
  ): MastraScorer<TInput, TOutput, TAcc & { generateScoreStepResult: number }> {
    return this.#with('generateScore', step) as unknown as MastraScorer<TInput, TOutput, TAcc & { generateScoreStepResult: number }>;
  }

  /** Add the reason step: a function, or a prompt object answered in plain text. Receives `score`. */
  generateReason(
    step: TextPromptStep<ReasonContext<TInput, TOutput, TAcc>>,
  ): MastraScorer<TInput, TOutput, TAcc & { generateReasonStepResult: string }>;
  generateReason<T>(
    step: FunctionStep<ReasonContext<TInput, TOutput, TAcc>, T>,
  ): MastraScorer<TInput, TOutput, TAcc & { generateReasonStepResult: StepValue<T> }>;
  generateReason(step: unknown): unknown {
    return this.#with('generateReason', step);
  }

  #with(name: StepName, step: unknown): MastraScorer<TInput, TOutput, StepResults> {
    if (this.#steps.some((s) => s.name === name)) {
      throw new ScorerDefinitionError('MASTR_SCORER_INVALID_STEP', `scorer ${this.id}: step ${name} was already added`);
    }
    return new MastraScorer<TInput, TOutput, StepResults>(this.config, [...this.#steps, this.#compile(name, step)]);
  }

  #compile(name: StepName, step: unknown): CompiledStep {
    const resultKey = `${name}StepResult`;
    const promptKey = `${name}Prompt`;
    if (typeof step === 'function') {
      return { name, resultKey, promptKey, info: Object.freeze({ name, type: 'function' }), fn: step as AnyFn };
    }
    const o = step as Partial<StructuredPromptStep<unknown, z.ZodType>> | null;
    if (o === null || typeof o !== 'object' || typeof o.createPrompt !== 'function' || typeof o.description !== 'string') {
      throw new ScorerDefinitionError(
        'MASTR_SCORER_INVALID_STEP',
        `scorer ${this.id}: step ${name} must be a function or a prompt object with description and createPrompt`,
      );
    }
    let schema: z.ZodType | undefined;
    if (name === 'preprocess' || name === 'analyze') {
      if (!(o.outputSchema instanceof Object) || typeof (o.outputSchema as { safeParse?: unknown }).safeParse !== 'function') {
        throw new ScorerDefinitionError('MASTR_SCORER_INVALID_STEP', `scorer ${this.id}: prompt step ${name} needs a zod outputSchema`);
      }
      schema = o.outputSchema;
    } else if (name === 'generateScore') {
      schema = SCORE_SCHEMA;
    }
    const compiled: CompiledStep = {
      name,
      resultKey,
      promptKey,
      info: Object.freeze({ name, type: 'prompt', description: o.description }),
      createPrompt: o.createPrompt,
      model: o.judge?.model ?? this.judge?.model,
      instructions: o.judge?.instructions ?? this.judge?.instructions,
    };
    return schema ? { ...compiled, schema } : compiled;
  }

  /**
   * Run the pipeline. Resolves to the result (with `score`, or with `notScorable` and no `score`);
   * rejects with {@link ScorerRunError} naming the failed step, or {@link ScorerDefinitionError} when no
   * generateScore step was added.
   */
  async run(input: ScorerRun<TInput, TOutput>, options?: ScorerRunOptions): Promise<ScorerRunResult<TInput, TOutput, TAcc>> {
    if (!this.#hasScore) {
      throw new ScorerDefinitionError('MASTR_SCORER_FAILED_TO_RUN_MISSING_GENERATE_SCORE', `scorer ${this.id}: no generateScore step was added`);
    }
    const prepared = this.#prepareRun ? await this.#prepareRun(input) : input;
    const run: PreparedRun<TInput, TOutput> =
      typeof prepared.runId === 'string' ? (prepared as PreparedRun<TInput, TOutput>) : { ...prepared, runId: randomUUID() };
    const results: StepResults = {};
    const context: StepContext<TInput, TOutput> = { run, results };
    let judge: Partial<Record<StepName, { executions: JudgeExecution[] }>> | undefined;
    const steps = this.#steps;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i] as CompiledStep;
      // The reason policy (reason: on-fail | never) skips the reason step, and its judge call, by score.
      if (step.name === 'generateReason' && options?.skipReason?.(results.generateScoreStepResult as number)) continue;
      const ctx =
        step.name === 'generateReason' ? { run, results, score: results.generateScoreStepResult as number } : context;
      let value: unknown;
      try {
        if (step.fn) {
          value = step.fn(ctx as never);
          if (isThenable(value)) value = await value;
        } else {
          judge ??= {};
          value = await this.#runPrompt(step, ctx, results, judge, options?.judges);
        }
        if (step.name === 'generateScore' && !isNotScorable(value) && (typeof value !== 'number' || Number.isNaN(value))) {
          throw new TypeError(`generateScore returned ${typeof value === 'number' ? 'NaN' : typeof value}, not a number`);
        }
      } catch (err) {
        const done = steps.slice(0, i).map((s) => s.name);
        const snapshot: Record<string, unknown> = { ...results };
        if (judge) snapshot.judge = judge;
        throw new ScorerRunError(this.id, step.name, done, snapshot, err);
      }
      if (isNotScorable(value)) {
        const out = this.#result(run, results, judge);
        delete out.score;
        out.notScorable = value.reason === undefined ? { step: step.name } : { step: step.name, reason: value.reason };
        return out as unknown as ScorerRunResult<TInput, TOutput, TAcc>;
      }
      results[step.resultKey] = value;
    }
    return this.#result(run, results, judge) as unknown as ScorerRunResult<TInput, TOutput, TAcc>;
  }

  #result(
    run: PreparedRun<TInput, TOutput>,
    results: StepResults,
    judge: Partial<Record<StepName, { executions: JudgeExecution[] }>> | undefined,
  ): Record<string, unknown> {
    // Same keys, order and values as `{ ...run, score, … }`, built without the spread: on Node 20 every
    // property added after an object spread costs ~0.8 µs (≈7 µs for these eight, on every evaluation).
    const out = copyOwn(run);
    out.score = results.generateScoreStepResult;
    out.generateScorePrompt = results.generateScorePrompt;
    out.reason = results.generateReasonStepResult;
    out.generateReasonPrompt = results.generateReasonPrompt;
    out.preprocessStepResult = results.preprocessStepResult;
    out.preprocessPrompt = results.preprocessPrompt;
    out.analyzeStepResult = results.analyzeStepResult;
    out.analyzePrompt = results.analyzePrompt;
    if (judge) out.judge = judge;
    return out;
  }

  async #runPrompt(
    step: CompiledStep,
    ctx: unknown,
    results: StepResults,
    judge: Partial<Record<StepName, { executions: JudgeExecution[] }>>,
    judges: JudgePorts | undefined,
  ): Promise<unknown> {
    const made = (step.createPrompt as (c: unknown) => unknown)(ctx);
    const prompt = isThenable(made) ? await made : made;
    if (typeof prompt !== 'string') throw new TypeError(`createPrompt of step ${step.name} returned ${typeof prompt}, not a string`);
    results[step.promptKey] = prompt;
    if (step.model === undefined || step.model === null || typeof step.instructions !== 'string') {
      throw new ScorerDefinitionError(
        'MASTR_SCORER_FAILED_TO_RUN_MISSING_MODEL_OR_INSTRUCTIONS',
        `scorer ${this.id}: step ${step.name} needs judge.model and judge.instructions (on the step or the scorer)`,
      );
    }
    const port = isJudgeModelPort(step.model) ? step.model : (judges ?? (this.#defaultJudges ??= createDefaultJudgeResolver())).resolve(step.model);
    if (!port) {
      throw new ScorerDefinitionError(
        'MASTR_SCORER_FAILED_TO_RUN_MISSING_MODEL_OR_INSTRUCTIONS',
        `scorer ${this.id}: no judge can serve model ${modelIdOf(step.model)} (pass a JudgeModelPort, an AI SDK model or a model string such as "openai/gpt-4o-mini")`,
      );
    }
    const entry = (judge[step.name] ??= { executions: [] });
    const args = { model: step.model, instructions: step.instructions, prompt, stepName: step.name, scorerId: this.id };
    const started = performance.now();
    try {
      let output: unknown;
      let value: unknown;
      let meta;
      if (step.schema) {
        const r = await port.generateObject({ ...args, schema: step.schema });
        meta = r;
        output = r.object;
        value = step.name === 'generateScore' ? (r.object as { score: number }).score : r.object;
      } else {
        const r = await port.generateText(args);
        meta = r;
        output = r.text;
        value = r.text;
      }
      const attemptCount = meta.attemptCount ?? 1;
      const exec: JudgeExecution = {
        status: 'success',
        prompt,
        output,
        judgeModelId: meta.modelId,
        usage: meta.usage,
        attemptCount,
        modelCallCount: meta.modelCallCount ?? attemptCount,
        durationMs: meta.durationMs,
      };
      if (meta.provider !== undefined) exec.judgeProvider = meta.provider;
      entry.executions.push(exec);
      return value;
    } catch (err) {
      entry.executions.push({
        status: 'failed',
        prompt,
        judgeModelId: modelIdOf(step.model),
        durationMs: performance.now() - started,
        error: errorShape(err),
      });
      throw err;
    }
  }
}

/** tracejudge's earlier name for {@link MastraScorer} (the same class). */
export { MastraScorer as Scorer };

/**
 * Create an empty scorer pipeline; chain `preprocess → analyze → generateScore → generateReason`.
 * Without `id`, the `name` is the id (unchanged: the same name always gives the same id). Throws
 * {@link ScorerDefinitionError} (`MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID`) when neither is a non-empty string.
 *
 * @example
 * ```ts
 * const lengthScorer = createScorer<string, string>({ id: 'short-answer', description: 'prefers short answers' })
 *   .preprocess(({ run }) => ({ words: run.output.split(/\s+/).length }))
 *   .generateScore(({ results }) => (results.preprocessStepResult.words <= 50 ? 1 : 0));
 *
 * const judged = createScorer({ id: 'polite', description: 'is it polite', judge: { model, instructions: 'You grade tone.' } })
 *   .analyze({ description: 'verdict', outputSchema: z.object({ polite: z.boolean() }), createPrompt: ({ run }) => `Is this polite? ${String(run.output)}` })
 *   .generateScore(({ results }) => (results.analyzeStepResult.polite ? 1 : 0));
 * ```
 */
export function createScorer<TInput = unknown, TOutput = unknown>(config: ScorerConfig<TInput, TOutput>): MastraScorer<TInput, TOutput, StepResults> {
  return new MastraScorer<TInput, TOutput, StepResults>(config);
}
