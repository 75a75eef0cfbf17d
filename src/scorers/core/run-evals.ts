/**
 * `runEvals` (docs/scorers.md, docs/mastra-compat.md): score data items with several scorers, producing outputs
 * first with a target (a function, an Agent or a Workflow) when an item has none. `runExperiment` is its old
 * Mastra name.
 */
import { ErrorCodes, errorMessage } from '../../errors.js';
import { toTrajectory } from '../utils/extract-trajectory.js';
import { evalsFailure, evalsUsage, RunEvalsError } from './errors.js';
import {
  planScorers,
  ScoreAccumulator,
  workflowTrajectory,
  type EvalScorers,
  type PlannedScorer,
  type Threshold,
} from './eval-scorers.js';
import { describeValue, runTarget, scorerInputOf, targetKind, type EvalTarget, type TargetOutcome } from './eval-targets.js';
import type { ScorerRunResult } from './types.js';

export type { EvalScorer, EvalScorers, Threshold, WorkflowScorerConfig, AgentScorerConfig } from './eval-scorers.js';
export type { EvalTarget, AgentTarget, WorkflowTarget, WorkflowRunLike, TargetFunction, WorkflowStepResult } from './eval-targets.js';

/** One item to score. Extracted `AgentRun`s fit: they have `input`, `output` and optional `groundTruth`. */
export interface EvalItem {
  /** The target's input. For the scorers, a string (or a list of strings / `{ role, content }` messages) becomes the user message(s). */
  input?: unknown;
  /** Scored as given; the target runs only for items without it. */
  output?: unknown;
  groundTruth?: unknown;
  expectedTrajectory?: unknown;
  requestContext?: unknown;
  /** Workflow targets: merged into the `run.start()` arguments (Mastra's `startOptions`). */
  startOptions?: Record<string, unknown>;
}

/** Scorer results of one item, by scorer id. */
export type ScorerResults = Record<string, ScorerRunResult>;
/** Scorer results of one item under a `WorkflowScorerConfig`. */
export interface WorkflowScorerResults {
  workflow?: ScorerResults;
  steps?: Record<string, ScorerResults>;
  trajectory?: ScorerResults;
}
/** Scorer results of one item under an `AgentScorerConfig`. */
export interface AgentScorerResults {
  agent?: ScorerResults;
  trajectory?: ScorerResults;
}

/** Mean score by scorer id. */
export type MeanScores = Record<string, number>;
export interface WorkflowScores {
  workflow?: MeanScores;
  steps?: Record<string, MeanScores>;
  trajectory?: MeanScores;
}
export interface AgentScores {
  agent?: MeanScores;
  trajectory?: MeanScores;
}

type Configured<S, L, A, W> = S extends readonly unknown[] ? L : S extends { agent: unknown } ? A : S extends { workflow: unknown } | { steps: unknown } ? W : A & W;
/** `scorerResults` for a `scorers` option of type `S`. */
export type ScorerResultsOf<S> = Configured<S, ScorerResults, AgentScorerResults, WorkflowScorerResults>;
/** `result.scores` for a `scorers` option of type `S`. */
export type ScoresOf<S> = Configured<S, MeanScores, AgentScores, WorkflowScores>;

/** What `onItemComplete` receives. `item`, `targetResult` and `scorerResults` are Mastra's; `index` and `output` are tracejudge's. */
export interface ItemCompleteEvent<I, S> {
  item: I;
  /** The target function's value, the Agent's `generate()` result or the Workflow's run result; undefined when the item had an output. */
  targetResult: unknown;
  scorerResults: ScorerResultsOf<S>;
  /** Position of the item in `data`. */
  index: number;
  /** The output the scorers saw. */
  output: unknown;
}

export interface RunEvalsOptions<I extends EvalItem = EvalItem, S extends EvalScorers = EvalScorers> {
  data: readonly I[];
  /** A list of scorers (optionally `{ scorer, threshold }`), a `WorkflowScorerConfig` or an `AgentScorerConfig`. */
  scorers: S;
  /** Produces the output of items that have none: a function `(input, item) => output`, an Agent or a Workflow. */
  target?: EvalTarget<I>;
  /** Agent targets: merged into the `generate()` options; Workflow targets: into the `run.start()` arguments. */
  targetOptions?: Record<string, unknown>;
  /** Items scored at once (default 1). Scorers of one item run in sequence. */
  concurrency?: number;
  onItemComplete?: (event: ItemCompleteEvent<I, S>) => void | Promise<void>;
}

export interface ThresholdResult {
  id: string;
  passed: boolean;
  averageScore: number | undefined;
  threshold: Threshold;
}

export interface RunEvalsResult<S = MeanScores> {
  /** Unrounded mean score per scorer id (nested as `workflow`, `steps[stepId]`, `agent`, `trajectory` for a scorer config); scorers with no numeric score are omitted. */
  scores: S;
  summary: { totalItems: number; notScorable?: Record<string, number> };
  thresholdResults?: ThresholdResult[];
  /** Present when some thresholded scorer produced a number: `passed`, or `scored` when a threshold was missed. */
  verdict?: 'passed' | 'scored';
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function passes(avg: number | undefined, t: Threshold): boolean {
  if (avg === undefined || !Number.isFinite(avg)) return false;
  if (typeof t === 'number') return avg >= t;
  return (t.min === undefined || avg >= t.min) && (t.max === undefined || avg <= t.max);
}

function checkItems(data: readonly unknown[], hasTarget: boolean): void {
  data.forEach((item, i) => {
    if (!isObj(item)) throw evalsUsage(`data[${i}]`, `must be an object, got ${describeValue(item)}`, 'INVALID_DATA_ITEM');
    if (item.output !== undefined) return;
    if (!hasTarget) throw evalsUsage(`data[${i}].output`, 'missing, and there is no target to produce it', 'INVALID_DATA_ITEM');
    if (item.input === undefined) throw evalsUsage(`data[${i}].input`, 'missing: the target needs an input (or give the item an output)', 'INVALID_DATA_ITEM');
  });
}

/**
 * Score every item with every scorer. Rejects with a {@link RunEvalsError}: code `TJ_USAGE` and the option at
 * fault in `field` for bad arguments; `TJ_SCORER_FAILED` naming the item index and scorer (or target) when one
 * throws, after which no further items start.
 *
 * @example
 * ```ts
 * const { scores, summary } = await runEvals({
 *   target: myAgent, // or (input) => output, or a Workflow
 *   data: [{ input: 'What is AI?', groundTruth: 'AI is …' }],
 *   scorers: [createAnswerRelevancyScorer({ model: 'openai/gpt-4o-mini' }), { scorer: createCompletenessScorer(), threshold: 0.5 }],
 *   concurrency: 4,
 * });
 * ```
 */
export async function runEvals<I extends EvalItem, S extends EvalScorers>(options: RunEvalsOptions<I, S>): Promise<RunEvalsResult<ScoresOf<S>>> {
  if (!isObj(options)) throw evalsUsage('options', `must be an object { data, scorers, target?, … }, got ${describeValue(options)}`);
  const { target, targetOptions, onItemComplete } = options;
  const data: unknown = options.data;
  if (!Array.isArray(data)) throw evalsUsage('data', `must be an array of items, got ${describeValue(data)}`, 'RUN_EXPERIMENT_FAILED_NO_DATA_PROVIDED');
  if (data.length === 0) throw evalsUsage('data', 'no data provided (the array is empty)', 'RUN_EXPERIMENT_FAILED_NO_DATA_PROVIDED');
  const kind = target === undefined ? undefined : targetKind(target);
  const plan = planScorers(options.scorers, kind);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw evalsUsage('concurrency', `must be an integer ≥ 1, got ${String(concurrency)}`);
  if (onItemComplete !== undefined && typeof onItemComplete !== 'function') throw evalsUsage('onItemComplete', `must be a function, got ${describeValue(onItemComplete)}`);
  if (targetOptions !== undefined && !isObj(targetOptions)) throw evalsUsage('targetOptions', `must be an object, got ${describeValue(targetOptions)}`);
  const items = data as readonly I[];
  checkItems(items, kind !== undefined);

  const acc = new ScoreAccumulator();

  const scoreItem = async (index: number): Promise<void> => {
    const item = items[index] as I;
    const outcome: TargetOutcome =
      item.output !== undefined || kind === undefined || target === undefined
        ? { input: scorerInputOf(item.input), output: item.output, targetResult: undefined }
        : await runTarget({ kind, target, item, index, targetOptions });
    const score = async (
      entry: PlannedScorer,
      path: readonly string[],
      run: { input: unknown; output: unknown; targetScope: 'span' | 'trajectory' },
      where: string,
    ): Promise<ScorerRunResult> => {
      let r: ScorerRunResult;
      try {
        r = await entry.scorer.run({
          input: run.input,
          output: run.output,
          groundTruth: item.groundTruth,
          expectedTrajectory: item.expectedTrajectory,
          requestContext: item.requestContext,
          scoreSource: 'experiment',
          targetScope: run.targetScope,
        });
      } catch (err) {
        throw evalsFailure(entry.field, `scorer ${entry.scorer.id} failed on ${where}`, err, 'RUN_EXPERIMENT_SCORER_FAILED_TO_SCORE_RESULT');
      }
      acc.add(path, entry.scorer.id, r);
      return r;
    };
    const whole = { input: outcome.input, output: outcome.output, targetScope: 'span' as const };
    const at = `data[${index}]`;
    const results: Record<string, unknown> = {};
    const group = async (key: string, entries: readonly PlannedScorer[], run: typeof whole | { input: unknown; output: unknown; targetScope: 'trajectory' }) => {
      if (entries.length === 0) return;
      const out: ScorerResults = {};
      for (const e of entries) out[e.scorer.id] = await score(e, [key], run, at);
      results[key] = out;
    };
    if (plan.kind === 'list') {
      for (const e of plan.entries) results[e.scorer.id] = await score(e, [], whole, at);
    } else if (plan.kind === 'agent') {
      await group('agent', plan.agent, whole);
      await group('trajectory', plan.trajectory, { input: outcome.input, output: toTrajectory(outcome.output), targetScope: 'trajectory' });
    } else {
      await group('workflow', plan.workflow, whole);
      const stepResults = outcome.workflow?.steps ?? {};
      const steps: Record<string, ScorerResults> = {};
      for (const { stepId, entries } of plan.steps) {
        const sr = stepResults[stepId];
        // As Mastra: only steps that succeeded with an output are scored; their input is the step's payload.
        if (!isObj(sr) || sr.status !== 'success' || sr.output === undefined || entries.length === 0) continue;
        const run = { input: sr.payload !== undefined ? sr.payload : outcome.input, output: sr.output, targetScope: 'span' as const };
        const out: ScorerResults = {};
        for (const e of entries) out[e.scorer.id] = await score(e, ['steps', stepId], run, `step ${JSON.stringify(stepId)} of ${at}`);
        steps[stepId] = out;
      }
      if (Object.keys(steps).length > 0) results.steps = steps;
      if (plan.trajectory.length > 0) {
        const trajectory = outcome.workflow ? workflowTrajectory(outcome.workflow.steps, outcome.workflow.stepExecutionPath) : toTrajectory(outcome.output);
        await group('trajectory', plan.trajectory, { input: outcome.input, output: trajectory, targetScope: 'trajectory' });
      }
    }
    if (onItemComplete) {
      const event = { item, targetResult: outcome.targetResult, scorerResults: results as ScorerResultsOf<S>, index, output: outcome.output };
      try {
        await onItemComplete(event);
      } catch (err) {
        throw new RunEvalsError(ErrorCodes.USAGE, 'onItemComplete', `runEvals: onItemComplete failed on ${at}: ${errorMessage(err)}`, { cause: err });
      }
    }
  };

  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        await scoreItem(i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));

  const scores = acc.means();
  const result: RunEvalsResult<ScoresOf<S>> = { scores: scores as ScoresOf<S>, summary: { totalItems: items.length } };
  if (acc.notScorable.size > 0) result.summary.notScorable = Object.fromEntries(acc.notScorable);
  const withThreshold = plan.kind === 'list' ? plan.entries.filter((e) => e.threshold !== undefined) : [];
  if (withThreshold.length > 0) {
    result.thresholdResults = withThreshold.map((e) => {
      const threshold = e.threshold as Threshold;
      const averageScore = scores[e.scorer.id] as number | undefined;
      return { id: e.scorer.id, passed: passes(averageScore, threshold), averageScore, threshold };
    });
    if (result.thresholdResults.some((t) => t.averageScore !== undefined)) {
      result.verdict = result.thresholdResults.every((t) => t.passed) ? 'passed' : 'scored';
    }
  }
  return result;
}

/** Mastra's earlier name for {@link runEvals} (the same function). */
export const runExperiment = runEvals;
