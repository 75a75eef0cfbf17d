/**
 * `runEvals` (docs/scorers.md), batch form: score given items (`{ input, output?, groundTruth? }`, or extracted
 * agent runs) with several scorers, optionally producing outputs with a `target` function first.
 */
import { TracejudgeError, ErrorCodes, errorMessage } from '../../errors.js';
import type { ScorerLike, ScorerRunResult } from './types.js';

/** One item to score. Extracted `AgentRun`s fit: they have `input`, `output` and optional `groundTruth`. */
export interface EvalItem {
  input?: unknown;
  output?: unknown;
  groundTruth?: unknown;
  expectedTrajectory?: unknown;
  requestContext?: unknown;
}

/** A scorer, or a scorer with a pass threshold (`number` = minimum, or `{ min?, max? }`). */
export type EvalScorer = ScorerLike | { scorer: ScorerLike; threshold: number | { min?: number; max?: number } };

export interface RunEvalsOptions<I extends EvalItem = EvalItem> {
  data: readonly I[];
  scorers: readonly EvalScorer[];
  /** Produces the output from the item's input when the item has none. */
  target?: (input: unknown, item: I) => unknown;
  /** Items scored at once (default 1). Scorers of one item run in sequence. */
  concurrency?: number;
  onItemComplete?: (event: { item: I; index: number; output: unknown; scorerResults: Record<string, ScorerRunResult> }) => void | Promise<void>;
}

export interface ThresholdResult {
  id: string;
  passed: boolean;
  averageScore: number | undefined;
  threshold: number | { min?: number; max?: number };
}

export interface RunEvalsResult {
  /** Unrounded mean score per scorer id; scorers with no numeric score are omitted. */
  scores: Record<string, number>;
  summary: { totalItems: number; notScorable?: Record<string, number> };
  thresholdResults?: ThresholdResult[];
  /** Present when some thresholded scorer produced a number: `passed`, or `scored` when a threshold was missed. */
  verdict?: 'passed' | 'scored';
}

function usage(message: string): TracejudgeError {
  return new TracejudgeError(ErrorCodes.USAGE, `runEvals: ${message}`);
}

function validThreshold(t: number | { min?: number; max?: number }): boolean {
  const ok = (v: number | undefined) => v === undefined || (Number.isFinite(v) && v >= 0 && v <= 1);
  if (typeof t === 'number') return ok(t);
  return ok(t.min) && ok(t.max) && (t.min === undefined || t.max === undefined || t.min <= t.max);
}

function passes(avg: number | undefined, t: number | { min?: number; max?: number }): boolean {
  if (avg === undefined || !Number.isFinite(avg)) return false;
  if (typeof t === 'number') return avg >= t;
  return (t.min === undefined || avg >= t.min) && (t.max === undefined || avg <= t.max);
}

/**
 * Score every item with every scorer. Rejects with a `TJ_USAGE` error for bad arguments and with a
 * `TJ_SCORER_FAILED` error naming the item index and scorer when a scorer or the target throws.
 *
 * @example
 * ```ts
 * const { scores, summary } = await runEvals({
 *   data: [{ input: { inputMessages: [user('hi')] }, output: [assistant('hello')] }],
 *   scorers: [createContentSimilarityScorer(), { scorer: createCompletenessScorer(), threshold: 0.5 }],
 *   concurrency: 4,
 * });
 * ```
 */
export async function runEvals<I extends EvalItem>(options: RunEvalsOptions<I>): Promise<RunEvalsResult> {
  const { target, onItemComplete } = options;
  const data: readonly I[] = options.data ?? [];
  const scorerList: readonly EvalScorer[] = options.scorers ?? [];
  if (data.length === 0) throw usage('no data provided');
  if (scorerList.length === 0) throw usage('no scorers provided');
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw usage(`concurrency must be an integer ≥ 1, got ${String(concurrency)}`);
  const entries = scorerList.map((s) => ('scorer' in s ? { scorer: s.scorer, threshold: s.threshold } : { scorer: s, threshold: undefined }));
  for (const e of entries) {
    if (e.threshold !== undefined && !validThreshold(e.threshold)) throw usage(`threshold of ${e.scorer.id} must be within [0, 1] with min ≤ max`);
  }
  data.forEach((item, i) => {
    if (item === null || typeof item !== 'object') throw usage(`data[${i}] is not an object`);
    if (item.output === undefined && (!target || item.input === undefined)) throw usage(`data[${i}] has no output and there is no target to produce it`);
  });

  const sums = new Map<string, { sum: number; n: number }>();
  const notScorable = new Map<string, number>();

  const scoreItem = async (index: number): Promise<void> => {
    const item = data[index] as I;
    let output = item.output;
    if (output === undefined && target) {
      try {
        output = await target(item.input, item);
      } catch (err) {
        throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `runEvals: target failed on data[${index}]: ${errorMessage(err)}`, { cause: err });
      }
    }
    const scorerResults: Record<string, ScorerRunResult> = {};
    for (const { scorer } of entries) {
      let r: ScorerRunResult;
      try {
        r = await scorer.run({
          input: item.input,
          output,
          groundTruth: item.groundTruth,
          expectedTrajectory: item.expectedTrajectory,
          requestContext: item.requestContext,
          scoreSource: 'experiment',
          targetScope: 'span',
        });
      } catch (err) {
        throw new TracejudgeError(ErrorCodes.SCORER_FAILED, `runEvals: scorer ${scorer.id} failed on data[${index}]: ${errorMessage(err)}`, { cause: err });
      }
      scorerResults[scorer.id] = r;
      if (r.notScorable) notScorable.set(scorer.id, (notScorable.get(scorer.id) ?? 0) + 1);
      else if (typeof r.score === 'number') {
        const acc = sums.get(scorer.id) ?? { sum: 0, n: 0 };
        acc.sum += r.score;
        acc.n++;
        sums.set(scorer.id, acc);
      }
    }
    if (onItemComplete) await onItemComplete({ item, index, output, scorerResults });
  };

  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < data.length) {
      const i = next++;
      try {
        await scoreItem(i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, data.length) }, worker));

  const scores: Record<string, number> = {};
  for (const [id, { sum, n }] of sums) scores[id] = sum / n;
  const result: RunEvalsResult = { scores, summary: { totalItems: data.length } };
  if (notScorable.size > 0) result.summary.notScorable = Object.fromEntries(notScorable);
  const withThreshold = entries.filter((e) => e.threshold !== undefined);
  if (withThreshold.length > 0) {
    result.thresholdResults = withThreshold.map((e) => {
      const threshold = e.threshold;
      const averageScore = scores[e.scorer.id];
      return { id: e.scorer.id, passed: passes(averageScore, threshold), averageScore, threshold };
    });
    if (result.thresholdResults.some((t) => t.averageScore !== undefined)) {
      result.verdict = result.thresholdResults.every((t) => t.passed) ? 'passed' : 'scored';
    }
  }
  return result;
}
