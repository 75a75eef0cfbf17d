/**
 * Errors of the scorer engine. Each carries a tracejudge code (`TJ_SCORER_*`) and the reference's error id
 * (`MASTR_SCORER_*`) in `referenceId`, so callers ported from Mastra can keep their checks.
 */
import { ErrorCodes, TracejudgeError, errorMessage } from '../../errors.js';
import type { StepName } from './types.js';

/** Reference ids of engine errors. */
export type ScorerErrorId =
  | 'MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID'
  | 'MASTR_SCORER_FAILED_TO_RUN_MISSING_GENERATE_SCORE'
  | 'MASTR_SCORER_FAILED_TO_RUN_MISSING_MODEL_OR_INSTRUCTIONS'
  | 'MASTR_SCORER_INVALID_STEP';

/**
 * A scorer that is defined wrongly (no id, a step of the wrong shape, no generateScore step).
 *
 * @example
 * ```ts
 * try { createScorer({ description: 'd' } as never); } catch (e) { (e as ScorerDefinitionError).referenceId; }
 * ```
 */
export class ScorerDefinitionError extends TracejudgeError {
  readonly referenceId: ScorerErrorId;
  constructor(referenceId: ScorerErrorId, message: string) {
    super(ErrorCodes.SCORER_FAILED, message);
    this.name = 'ScorerDefinitionError';
    this.referenceId = referenceId;
  }
}

/**
 * A scorer run that failed in one of its steps (a throwing function, a judge failure, a bad prompt).
 * `message` is `Scorer Run Failed: <cause message>`; the original error is `cause`.
 *
 * @example
 * ```ts
 * try { await scorer.run({ input, output }); }
 * catch (e) { if (e instanceof ScorerRunError) log.warn({ step: e.failedStep, done: e.completedSteps }, e.message); }
 * ```
 */
export class ScorerRunError extends TracejudgeError {
  readonly referenceId = 'MASTR_SCORER_FAILED_TO_RUN_WORKFLOW_FAILED';
  /** The step that threw. */
  readonly failedStep: StepName;
  /** Steps that finished before it, in run order. */
  readonly completedSteps: readonly StepName[];
  /** Snapshot of the completed step results and prompts, plus the failed judge execution if any. */
  readonly result: Readonly<Record<string, unknown>>;
  /** Id of the scorer. */
  readonly scorerId: string;
  constructor(scorerId: string, failedStep: StepName, completedSteps: readonly StepName[], result: Record<string, unknown>, cause: unknown) {
    super(ErrorCodes.SCORER_FAILED, `Scorer Run Failed: ${errorMessage(cause)}`, { cause });
    this.name = 'ScorerRunError';
    this.scorerId = scorerId;
    this.failedStep = failedStep;
    this.completedSteps = completedSteps;
    this.result = result;
  }
}

/**
 * A `runEvals` call that went wrong. `field` names the option at fault (`scorers`, `scorers.steps["check"][0]`,
 * `data[3].input`, `target`, …). Misuse has code `TJ_USAGE`; a target or scorer that throws while running has
 * `TJ_SCORER_FAILED` and the original error as `cause`. `referenceId` is Mastra's error id for the same case.
 *
 * @example
 * ```ts
 * try { await runEvals({ data, scorers: {} as never }); }
 * catch (e) { if (e instanceof RunEvalsError) console.error(e.code, e.field); } // TJ_USAGE scorers
 * ```
 */
export class RunEvalsError extends TracejudgeError {
  readonly field: string;
  readonly referenceId: string | undefined;
  constructor(
    code: typeof ErrorCodes.USAGE | typeof ErrorCodes.SCORER_FAILED,
    field: string,
    message: string,
    options: { cause?: unknown; referenceId?: string } = {},
  ) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RunEvalsError';
    this.field = field;
    this.referenceId = options.referenceId;
  }
}

/** A `TJ_USAGE` {@link RunEvalsError}: `runEvals: <field>: <problem>`. */
export function evalsUsage(field: string, problem: string, referenceId?: string): RunEvalsError {
  return new RunEvalsError(ErrorCodes.USAGE, field, `runEvals: ${field}: ${problem}`, referenceId === undefined ? {} : { referenceId });
}

/** A `TJ_SCORER_FAILED` {@link RunEvalsError} wrapping what a target or scorer threw. */
export function evalsFailure(field: string, what: string, cause: unknown, referenceId: string): RunEvalsError {
  return new RunEvalsError(ErrorCodes.SCORER_FAILED, field, `runEvals: ${what}: ${errorMessage(cause)}`, { cause, referenceId });
}
