/**
 * A scorer as the pipeline runs it: the createScorer pipeline plus what config says about it.
 */
import type { ScorerKind } from '../sampling/types.js';
import type { ScorerLike } from '../scorers/core/types.js';
import { shouldGenerateReason, type ReasonPolicy } from '../judge/economics/reason-policy.js';
import { scoreLabel, type ConfiguredScorer as BuiltScorer } from '../scorers/registry.js';

export type { ReasonPolicy };

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
  scorer: ScorerLike;
}

/** Label per SPEC §6 (the registry's `scoreLabel`, in the pipeline's terms). */
export function labelFor(score: number, threshold: number, lowerIsBetter: boolean): 'pass' | 'fail' {
  return scoreLabel(score, threshold, lowerIsBetter ? 'lower-is-better' : 'higher-is-better');
}

/** Whether the reason step is worth a judge call under `policy`, given the score. */
export function wantsReason(policy: ReasonPolicy, score: number, threshold: number, lowerIsBetter: boolean): boolean {
  return shouldGenerateReason(policy, { score, threshold, direction: lowerIsBetter ? 'lower' : 'higher' });
}

/** The pipeline's view of a scorer the registry built from config (`judgeModel` is recorded on judge scorers' records). */
export function configuredScorerOf(b: BuiltScorer, judgeModel?: string): ConfiguredScorer {
  return {
    name: b.name,
    type: b.type,
    kind: b.kind,
    lowerIsBetter: b.direction === 'lower-is-better',
    threshold: b.threshold,
    reason: b.reason,
    needsGroundTruth: b.needsGroundTruth,
    input: b.scorer.type === 'trajectory' ? 'trajectory' : 'agent',
    scorer: b.scorer,
    ...(b.kind === 'judge' && judgeModel ? { judgeModel } : {}),
  };
}
