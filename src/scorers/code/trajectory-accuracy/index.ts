/**
 * Trajectory accuracy, code version (docs/scorers.md): compares the run's trajectory with expected steps
 * (from options, else the run's `expectedTrajectory`). Score = `compareTrajectories(...).score`.
 */
import { createScorer } from '../../core/scorer.js';
import { compareTrajectories, type CompareOptions } from '../../utils/trajectory-compare.js';
import type { ExpectedStep, Trajectory, TrajectoryExpectation, TrajectoryStep } from '../../utils/trajectory-types.js';
import { toTrajectory } from '../../utils/extract-trajectory.js';

export interface TrajectoryAccuracyCodeOptions {
  /** Expected steps, or a recorded `Trajectory` (durations and metadata dropped). `[]` expects no steps. */
  expectedTrajectory?: ExpectedStep[] | Trajectory;
  comparisonOptions?: CompareOptions;
}

function toExpectedStep(step: TrajectoryStep): ExpectedStep {
  const { durationMs: _d, metadata: _m, children, ...rest } = step;
  const out: ExpectedStep = { ...rest };
  if (children) out.children = { steps: children.map(toExpectedStep) };
  return out;
}

/**
 * Normalise an expected trajectory given as steps or as a recorded trajectory.
 *
 * @example
 * ```ts
 * toExpectedSteps({ steps: [{ name: 'search', stepType: 'tool_call', durationMs: 5 }] }); // [{ name: 'search', stepType: 'tool_call' }]
 * ```
 */
function toExpectedSteps(expected: ExpectedStep[] | Trajectory): ExpectedStep[] {
  return Array.isArray(expected) ? expected : expected.steps.map(toExpectedStep);
}

/**
 * Create the code trajectory-accuracy scorer (type `trajectory`). The run output may be a `Trajectory` or
 * agent output messages (their tool calls become the trajectory).
 *
 * @example
 * ```ts
 * const scorer = createTrajectoryAccuracyScorerCode({ expectedTrajectory: [{ name: 'orders', stepType: 'tool_call' }] });
 * ```
 */
export function createTrajectoryAccuracyScorerCode(options: TrajectoryAccuracyCodeOptions = {}) {
  const staticSteps = options.expectedTrajectory ? toExpectedSteps(options.expectedTrajectory) : undefined;
  const base = options.comparisonOptions ?? {};
  return createScorer({
    id: 'code-trajectory-accuracy-scorer',
    name: 'Trajectory Accuracy Scorer',
    description: 'Compares the actual trajectory of steps against an expected trajectory',
    type: 'trajectory',
  })
    .preprocess(({ run }) => {
      const actualTrajectory = toTrajectory(run.output);
      const perItem = run.expectedTrajectory as TrajectoryExpectation | undefined;
      const expected = staticSteps ?? perItem?.steps;
      const actualStepNames = actualTrajectory.steps.map((s) => s.name);
      if (!expected) {
        return {
          actualTrajectory,
          expectedTrajectory: undefined,
          comparison: undefined,
          actualStepNames,
          expectedStepNames: [] as string[],
          error: 'No expected trajectory provided (pass via options or dataset item expectedTrajectory)',
        };
      }
      const comparison = compareTrajectories(actualTrajectory, expected, {
        ordering: perItem?.ordering ?? base.ordering ?? 'relaxed',
        allowRepeatedSteps: perItem?.allowRepeatedSteps ?? base.allowRepeatedSteps ?? true,
      });
      return { actualTrajectory, expectedTrajectory: expected, comparison, actualStepNames, expectedStepNames: expected.map((s) => s.name) };
    })
    .generateScore(({ results }) => results.preprocessStepResult.comparison?.score ?? 0);
}
