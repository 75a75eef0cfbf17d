/** Trajectory accuracy scorer, LLM (docs/scorers.md). The run's output is a `Trajectory`. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { clamp01, inputTextOf, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { analyzePrompt, reasonPrompt, TRAJECTORY_ACCURACY_INSTRUCTIONS } from './prompts.js';

/** The fields of a trajectory step this scorer reads (docs/scorers.md). */
export interface StepLike {
  stepType?: string;
  name: string;
  toolArgs?: unknown;
  toolResult?: unknown;
  modelId?: string;
  output?: unknown;
  children?: StepLike[] | { steps?: StepLike[] };
  [key: string]: unknown;
}

const trajectoryAnalysisSchema = z.object({
  stepEvaluations: z.array(z.object({ stepName: z.string(), wasNecessary: z.boolean(), wasInOrder: z.boolean(), reasoning: z.string() })),
  missingSteps: z.array(z.string()).optional(),
  extraSteps: z.array(z.string()).optional(),
  overallAssessment: z.string(),
});
type Analysis = z.output<typeof trajectoryAnalysisSchema>;

const childrenOf = (s: StepLike): StepLike[] => (Array.isArray(s.children) ? s.children : (s.children?.steps ?? []));

/** Numbered lines `"i. [stepType] name (args: …, result: …)"`, children indented two spaces per level. */
function formatSteps(steps: readonly StepLike[], depth = 0): string {
  const pad = '  '.repeat(depth);
  return steps
    .map((s, i) => {
      const details: string[] = [];
      if (s.toolArgs !== undefined) details.push(`args: ${JSON.stringify(s.toolArgs)}`);
      if (s.toolResult !== undefined) details.push(`result: ${JSON.stringify(s.toolResult)}`);
      if (s.stepType === 'model_generation' && s.modelId) details.push(`model: ${s.modelId}`);
      if (s.stepType === 'workflow_step' && s.output !== undefined) details.push(`output: ${JSON.stringify(s.output)}`);
      const line = `${pad}${i + 1}. ${s.stepType ? `[${s.stepType}] ` : ''}${s.name}${details.length ? ` (${details.join(', ')})` : ''}`;
      const kids = childrenOf(s);
      return kids.length > 0 ? `${line}\n${formatSteps(kids, depth + 1)}` : line;
    })
    .join('\n');
}

/** The score, as docs/scorers.md gives it. */
function trajectoryAccuracyScore(a: Analysis): number {
  const n = a.stepEvaluations.length;
  if (n === 0) return (a.missingSteps?.length ?? 0) > 0 ? 0 : (a.extraSteps?.length ?? 0) > 0 ? 0.5 : 1;
  const m = a.missingSteps?.length ?? 0;
  const missingPenalty = m > 0 ? m / (n + m) : 0;
  const necessary = a.stepEvaluations.filter((e) => e.wasNecessary).length;
  const inOrder = a.stepEvaluations.filter((e) => e.wasInOrder).length;
  return round2(clamp01((0.6 * necessary) / n + (0.3 * inOrder) / n - 0.1 * missingPenalty));
}

function expectedSteps(given: StepLike[] | { steps: StepLike[] } | undefined, run: { expectedTrajectory?: unknown }): StepLike[] | undefined {
  if (given) return Array.isArray(given) ? given : given.steps;
  const steps = (run.expectedTrajectory as { steps?: StepLike[] } | undefined)?.steps;
  return steps && steps.length > 0 ? steps : undefined;
}

/**
 * Create the LLM trajectory accuracy scorer.
 *
 * @example
 * ```ts
 * createTrajectoryAccuracyScorerLLM({ model: 'gpt-4o-mini', expectedTrajectory: [{ name: 'orders' }, { name: 'refund' }] });
 * ```
 */
export function createTrajectoryAccuracyScorerLLM({ model, expectedTrajectory }: { model: JudgeModel; expectedTrajectory?: StepLike[] | { steps: StepLike[] } }) {
  return createScorer({
    id: 'llm-trajectory-accuracy-scorer',
    name: 'Trajectory Accuracy (LLM)',
    description: 'Whether the agent took a necessary, well-ordered path',
    judge: judgeConfig(model, TRAJECTORY_ACCURACY_INSTRUCTIONS),
    type: 'trajectory',
  })
    .preprocess(({ run }) => {
      const t = run.output as { steps?: StepLike[] } | undefined;
      const expected = expectedSteps(expectedTrajectory, run);
      return { actual: formatSteps(t?.steps ?? []), ...(expected ? { expected: formatSteps(expected) } : {}) };
    })
    .analyze({
      description: 'Evaluate each step of the trajectory',
      outputSchema: trajectoryAnalysisSchema,
      createPrompt: ({ run, results }) => {
        const raw = (run.output as { rawOutput?: unknown } | undefined)?.rawOutput;
        return analyzePrompt({ task: inputTextOf(run), response: raw === undefined ? '' : outputTextOf({ output: raw }), ...results.preprocessStepResult });
      },
    })
    .generateScore(({ results }) => trajectoryAccuracyScore(results.analyzeStepResult))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ results, score }) => reasonPrompt(score, results.analyzeStepResult),
    });
}
