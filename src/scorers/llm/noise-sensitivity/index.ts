/** Noise sensitivity scorer, LLM (docs/scorers.md): robustness of the answer to a noisy variant of the query. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { clamp01, inputTextOf, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { analyzePrompt, NOISE_SENSITIVITY_INSTRUCTIONS, reasonPrompt } from './prompts.js';

type Impact = 'none' | 'minimal' | 'moderate' | 'significant' | 'severe';

export interface NoiseSensitivityOptions {
  baselineResponse: string;
  noisyQuery: string;
  noiseType?: string;
  scoring?: {
    impactWeights?: Partial<Record<Impact, number>>;
    penalties?: { majorIssuePerItem?: number; maxMajorIssuePenalty?: number };
    discrepancyThreshold?: number;
  };
}

const noiseAnalysisSchema = z.object({
  dimensions: z.array(
    z.object({ dimension: z.string(), impactLevel: z.enum(['none', 'minimal', 'moderate', 'significant', 'severe']), specificChanges: z.string(), noiseInfluence: z.string() }),
  ),
  overallAssessment: z.string(),
  majorIssues: z.array(z.string()).optional().default([]),
  robustnessScore: z.number().min(0).max(1),
});
type Analysis = z.output<typeof noiseAnalysisSchema>;

const IMPACT: Record<Impact, number> = { none: 1.0, minimal: 0.85, moderate: 0.6, significant: 0.3, severe: 0.1 };

/** The score (docs/scorers.md). Throws without an analysis. */
function noiseSensitivityScore(a: Analysis | undefined, scoring: NoiseSensitivityOptions['scoring'] = {}): number {
  if (!a) throw new Error('Analysis step failed to produce results');
  const weights = { ...IMPACT, ...(scoring.impactWeights ?? {}) };
  const perItem = scoring.penalties?.majorIssuePerItem ?? 0.1;
  const maxPenalty = scoring.penalties?.maxMajorIssuePenalty ?? 0.3;
  const threshold = scoring.discrepancyThreshold ?? 0.2;
  let s = clamp01(a.robustnessScore);
  if (a.dimensions.length > 0) {
    const calc = a.dimensions.reduce((sum, d) => sum + weights[d.impactLevel], 0) / a.dimensions.length;
    if (Math.abs(s - calc) > threshold) s = Math.min(s, calc);
  }
  s = Math.max(0, s - Math.min(a.majorIssues.length * perItem, maxPenalty));
  return round2(s);
}

/**
 * Create the noise sensitivity scorer: the run's input is the original query, its output the noisy response.
 *
 * @example
 * ```ts
 * createNoiseSensitivityScorerLLM({ model: 'gpt-4o-mini', options: { baselineResponse: '…', noisyQuery: '…' } });
 * ```
 */
export function createNoiseSensitivityScorerLLM({ model, options }: { model: JudgeModel; options: NoiseSensitivityOptions }) {
  if (!options?.baselineResponse || !options.noisyQuery) throw new Error('Both baselineResponse and noisyQuery are required for Noise Sensitivity scoring');
  return createScorer({
    id: 'noise-sensitivity-scorer',
    name: 'Noise Sensitivity (LLM)',
    description: 'Robustness of the answer when noise is added to the query',
    judge: judgeConfig(model, NOISE_SENSITIVITY_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Compare the baseline and noisy responses',
      outputSchema: noiseAnalysisSchema,
      createPrompt: ({ run }) => {
        const original = inputTextOf(run);
        const noisyResponse = outputTextOf(run);
        if (!original || !noisyResponse) throw new Error('Original query and noisy response are required for Noise Sensitivity scoring');
        return analyzePrompt({
          original,
          baseline: options.baselineResponse,
          noisyQuery: options.noisyQuery,
          noisyResponse,
          ...(options.noiseType ? { noiseType: options.noiseType } : {}),
        });
      },
    })
    .generateScore(({ results }) => noiseSensitivityScore(results.analyzeStepResult, options.scoring))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ results, score }) => reasonPrompt(score, results.analyzeStepResult),
    });
}
