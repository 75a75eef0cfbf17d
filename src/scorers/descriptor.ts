/**
 * One description of a configured scorer, and the one rule that turns a score into a label. The pipeline,
 * the sampler, the reason policy, `score --dataset` and the emitters all read it; nothing else encodes a
 * score's direction.
 */
import type { ScorerLike } from './core/types.js';
import { judgeInstructionsOf, scorerVersion } from './version.js';

/** Code scorers run locally; judge scorers call an LLM (and are sampled at 0.1 by default). */
export type ScorerKind = 'code' | 'judge';

/** How a score reads: `lower` (hallucination, toxicity, bias) or `higher` (every other scorer). */
export type ScoreDirection = 'higher' | 'lower';

/** When the reason step (a judge call for judge scorers) runs: `on-fail` (default), `always` or `never`. */
export type ReasonPolicy = 'always' | 'on-fail' | 'never';

/** Label threshold when a scorer entry gives none. */
export const DEFAULT_THRESHOLD = 0.5;

/** What config says about one configured scorer. */
export interface ScorerDescriptor {
  /** The configured name: `gen_ai.evaluation.name` and the record's `scorer`. */
  readonly name: string;
  /** The config `type`, e.g. `hallucination`. */
  readonly type: string;
  readonly kind: ScorerKind;
  readonly direction: ScoreDirection;
  readonly threshold: number;
  readonly reason: ReasonPolicy;
  /** Scorers that compare against ground truth are not applicable without it. */
  readonly needsGroundTruth: boolean;
  /** Scorers that judge an empty answer (`answered`) run on runs without output text; the others skip them. */
  readonly scoresEmptyOutput?: boolean;
  /** Trajectory scorers receive the run's trajectory as output. */
  readonly input: 'agent' | 'trajectory';
  /** The key of the scorer in `sampling` (`sampling.*.scorers.<key>`, budgets): its name. */
  readonly samplingKey: string;
  /** Judge model id recorded on score records (judge scorers only). */
  readonly judgeModel?: string;
  /**
   * Short hash of the effective definition (type, options, threshold, direction, reason policy, judge model,
   * judge instructions): the record's `scorerVersion`, part of its evaluation id. Set by the registry; when
   * absent, {@link scorerVersionOf} derives one from the descriptor itself (without options).
   */
  readonly version?: string;
}

/** A configured scorer: its descriptor and the scorer pipeline that computes the score. */
export interface ConfiguredScorer extends ScorerDescriptor {
  readonly scorer: ScorerLike;
}

/**
 * The label of `score`: a lower-is-better scorer fails when `score > threshold`, the others when
 * `score < threshold`; a score equal to the threshold passes.
 *
 * @example
 * ```ts
 * labelOf({ direction: 'lower', threshold: 0.5 }, 0.25); // 'pass'
 * ```
 */
export function labelOf(d: Pick<ScorerDescriptor, 'direction' | 'threshold'>, score: number): 'pass' | 'fail' {
  const fail = d.direction === 'lower' ? score > d.threshold : score < d.threshold;
  return fail ? 'fail' : 'pass';
}

/**
 * Whether the reason step is worth running for `score` under the descriptor's reason policy: `always`,
 * `never`, or `on-fail` (only when the label is fail). Skipping it never changes the score.
 */
export function wantsReason(d: Pick<ScorerDescriptor, 'direction' | 'threshold' | 'reason'>, score: number): boolean {
  if (d.reason === 'always') return true;
  if (d.reason === 'never') return false;
  return labelOf(d, score) === 'fail';
}

const derived = new WeakMap<object, string>();

/**
 * The scorer's version: `version` when the registry set it, else a hash of what the descriptor itself says
 * (type, threshold, direction, reason policy, judge model, judge instructions), remembered per descriptor.
 */
export function scorerVersionOf(d: ScorerDescriptor & { readonly scorer?: unknown }): string {
  if (d.version !== undefined) return d.version;
  let v = derived.get(d);
  if (v === undefined) {
    v = scorerVersion({ type: d.type, options: null, threshold: d.threshold, direction: d.direction, reason: d.reason, judgeModel: d.judgeModel, instructions: judgeInstructionsOf(d.scorer) });
    derived.set(d, v);
  }
  return v;
}
