/**
 * The unified trajectory scorer (docs/scorers.md): a weighted mean of accuracy, efficiency, tool failures
 * and blacklist, 0 on any blacklist violation, with nested expectations for sub-agents.
 */
import { createScorer } from '../../core/scorer.js';
import { toTrajectory } from '../../utils/extract-trajectory.js';
import type { TrajectoryExpectation } from '../../utils/trajectory-types.js';
import { DEFAULT_WEIGHTS, evaluateTrajectory, type TrajectoryWeights } from './evaluate.js';
import { trajectoryReason } from './reason.js';

export interface TrajectoryScorerCodeOptions {
  /** Expectation used for every run; a run's own `expectedTrajectory` fields override it key by key. */
  defaults?: TrajectoryExpectation;
  /** Default `{ accuracy: 0.4, efficiency: 0.3, toolFailures: 0.2, blacklist: 0.1 }`. */
  weights?: Partial<TrajectoryWeights>;
}

export { evaluateTrajectory, DEFAULT_WEIGHTS, type LevelResult, type TrajectoryWeights } from './evaluate.js';

/**
 * Create the unified trajectory scorer (type `trajectory`; output may be a `Trajectory` or agent messages).
 *
 * @example
 * ```ts
 * const scorer = createTrajectoryScorerCode({
 *   defaults: { steps: [{ name: 'orders' }], blacklistedSequences: [['refund', 'answer']], maxSteps: 8 },
 * });
 * ```
 */
export function createTrajectoryScorerCode(options: TrajectoryScorerCodeOptions = {}) {
  const weights: TrajectoryWeights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const defaults = options.defaults ?? {};
  return createScorer({
    id: 'code-trajectory-scorer',
    name: 'Trajectory Scorer',
    description: 'Evaluates trajectory accuracy, efficiency, tool failures and blacklisted tools or sequences',
    type: 'trajectory',
  })
    .preprocess(({ run }) => {
      const perItem = (run.expectedTrajectory ?? {}) as TrajectoryExpectation;
      return evaluateTrajectory(toTrajectory(run.output), { ...defaults, ...perItem }, weights);
    })
    .generateScore(({ results }) => results.preprocessStepResult.score)
    .generateReason(({ results }) => trajectoryReason(results.preprocessStepResult));
}
