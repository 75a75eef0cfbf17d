/** Context recall scorer (docs/scorers.md): share of the ground truth's claims attributable to the context. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { claimsSchema } from '../claims.js';
import { checkContextOptions, resolveContext, type ContextSourceOptions } from '../context-source.js';
import { judgeConfig, round2, scaleOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, claimsPrompt, CONTEXT_RECALL_INSTRUCTIONS, reasonPrompt } from './prompts.js';

export interface ContextRecallOptions extends ContextSourceOptions {
  scale?: number;
}

const recallVerdictsSchema = z.object({ verdicts: z.array(z.object({ verdict: z.string(), reason: z.string() })) });

const truthText = (g: unknown): string => (g === undefined || g === null ? '' : typeof g === 'string' ? g : JSON.stringify(g));

/** round2(min(1, attributed / claims) × scale); 0 without ground truth or claims. */
function contextRecallScore(hasGroundTruth: boolean, claimCount: number, verdicts: ReadonlyArray<{ verdict: string }>, scale: number): number {
  if (!hasGroundTruth || claimCount === 0) return 0;
  const attributed = verdicts.filter((v) => v.verdict.toLowerCase().trim() === 'yes').length;
  return round2(Math.min(1, attributed / claimCount) * scale);
}

/**
 * Create the context recall scorer (needs `run.groundTruth`).
 *
 * @example
 * ```ts
 * createContextRecallScorer({ model: 'gpt-4o-mini', options: { context: ['doc'] } });
 * ```
 */
export function createContextRecallScorer({ model, options }: { model: JudgeModel; options: ContextRecallOptions }) {
  checkContextOptions('context recall scorer', options);
  const scale = scaleOf(options.scale);
  return createScorer({
    id: 'context-recall-scorer',
    name: 'Context Recall Scorer',
    description: 'Share of the ground-truth claims found in the context',
    judge: judgeConfig(model, CONTEXT_RECALL_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess({
      description: 'Extract the claims of the ground truth',
      outputSchema: claimsSchema,
      createPrompt: ({ run }) => claimsPrompt(truthText(run.groundTruth)),
    })
    .analyze({
      description: 'Attribute each claim to the context',
      outputSchema: recallVerdictsSchema,
      createPrompt: async ({ run, results }) => analyzePrompt(await resolveContext(options, run), results.preprocessStepResult.claims),
    })
    .generateScore(({ run, results }) =>
      contextRecallScore(Boolean(run.groundTruth), results.preprocessStepResult.claims.length, results.analyzeStepResult.verdicts, scale),
    )
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ results, score }) => reasonPrompt(score, results.analyzeStepResult.verdicts),
    });
}
