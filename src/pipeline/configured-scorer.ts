/**
 * A scorer as the pipeline runs it: the createScorer pipeline plus what config says about it.
 */
import type { ScorerKind } from '../sampling/types.js';

export type ReasonPolicy = 'always' | 'on-fail' | 'never';

/** The minimal scorer surface the pipeline needs (any createScorer pipeline has it). */
export interface RunnableScorer {
  readonly id: string;
  run(input: {
    runId?: string;
    input?: unknown;
    output: unknown;
    groundTruth?: unknown;
    requestContext?: unknown;
    scoreSource?: 'live' | 'trace' | 'experiment';
    targetScope?: 'span' | 'trajectory';
    targetTraceId?: string;
    targetSpanId?: string;
    expectedTrajectory?: unknown;
  }, options?: { skipReason?: (score: number) => boolean }): Promise<{ score?: number; reason?: unknown; notScorable?: { step: string; reason?: string } }>;
}

export interface ConfiguredScorer {
  /** The configured name: `gen_ai.evaluation.name` and the record's `scorer`. */
  name: string;
  /** The config `type`, e.g. `hallucination`. */
  type: string;
  kind: ScorerKind;
  /** Hallucination, toxicity, bias: fail when score > threshold. Others fail when score < threshold. */
  lowerIsBetter: boolean;
  threshold: number;
  reason: ReasonPolicy;
  /** Scorers that compare against ground truth are not applicable without it. */
  needsGroundTruth: boolean;
  /** Judge model id recorded on score records (judge scorers only). */
  judgeModel?: string;
  /** Trajectory scorers receive the run's trajectory as output. */
  input: 'agent' | 'trajectory';
  scorer: RunnableScorer;
}

/** Label per SPEC §6. */
export function labelFor(score: number, threshold: number, lowerIsBetter: boolean): 'pass' | 'fail' {
  return lowerIsBetter ? (score > threshold ? 'fail' : 'pass') : score < threshold ? 'fail' : 'pass';
}

/** Whether the reason step is worth a judge call under `policy`, given the score. */
export function wantsReason(policy: ReasonPolicy, score: number, threshold: number, lowerIsBetter: boolean): boolean {
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return labelFor(score, threshold, lowerIsBetter) === 'fail';
}
