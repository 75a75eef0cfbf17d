/** Context relevance scorer, LLM (docs/scorers.md): weighted relevance of context pieces with usage and missing-context penalties. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { checkContextOptions, resolveContext, type ContextSourceOptions } from '../context-source.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, scaleOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, CONTEXT_RELEVANCE_INSTRUCTIONS, reasonPrompt } from './prompts.js';

export interface ContextRelevancePenalties {
  unusedHighRelevanceContext?: number;
  missingContextPerItem?: number;
  maxMissingContextPenalty?: number;
}

export interface ContextRelevanceOptions extends ContextSourceOptions {
  scale?: number;
  penalties?: ContextRelevancePenalties;
}

const contextRelevanceSchema = z.object({
  evaluations: z.array(
    z.object({
      context_index: z.number(),
      contextPiece: z.string(),
      relevanceLevel: z.enum(['high', 'medium', 'low', 'none']),
      wasUsed: z.boolean(),
      reasoning: z.string(),
    }),
  ),
  missingContext: z.array(z.string()).optional().default([]),
  overallAssessment: z.string(),
});

type Analysis = z.output<typeof contextRelevanceSchema>;
const WEIGHTS = { high: 1, medium: 0.7, low: 0.3, none: 0 } as const;

/** The score (docs/scorers.md) given the resolved context size and the analysis. */
function contextRelevanceScore(contextSize: number, a: Pick<Analysis, 'evaluations' | 'missingContext'>, scale: number, penalties: ContextRelevancePenalties = {}): number {
  if (contextSize === 0) return 1.0 * scale;
  if (a.evaluations.length === 0) return a.missingContext.length > 0 ? 0 : 1;
  const unusedRate = penalties.unusedHighRelevanceContext ?? 0.1;
  const missingRate = penalties.missingContextPerItem ?? 0.15;
  const maxMissing = penalties.maxMissingContextPenalty ?? 0.5;
  const base = a.evaluations.reduce((s, e) => s + WEIGHTS[e.relevanceLevel], 0) / a.evaluations.length;
  const usage = a.evaluations.filter((e) => e.relevanceLevel === 'high' && !e.wasUsed).length * unusedRate;
  const missing = Math.min(a.missingContext.length * missingRate, maxMissing);
  return round2(Math.max(0, base - usage - missing) * scale);
}

/**
 * Create the LLM context relevance scorer.
 *
 * @example
 * ```ts
 * createContextRelevanceScorerLLM({ model: 'gpt-4o-mini', options: { context: ['doc a'] } });
 * ```
 */
export function createContextRelevanceScorerLLM({ model, options }: { model: JudgeModel; options: ContextRelevanceOptions }) {
  checkContextOptions('context relevance scorer', options);
  const scale = scaleOf(options.scale);
  return createScorer({
    id: 'context-relevance-scorer',
    name: 'Context Relevance (LLM)',
    description: 'How relevant and well used the provided context is',
    judge: judgeConfig(model, CONTEXT_RELEVANCE_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Rate the relevance and use of each context piece',
      outputSchema: contextRelevanceSchema,
      createPrompt: async ({ run }) => analyzePrompt(inputTextOf(run), outputTextOf(run), await resolveContext(options, run)),
    })
    .generateScore(async ({ run, results }) =>
      contextRelevanceScore((await resolveContext(options, run)).length, results.analyzeStepResult, scale, options.penalties),
    )
    .generateReason({
      description: 'Explain the score',
      createPrompt: async ({ run, results, score }) =>
        reasonPrompt({
          input: inputTextOf(run),
          score,
          analysis: results.analyzeStepResult,
          contextEmpty: (await resolveContext(options, run)).length === 0,
          penalties: options.penalties ?? {},
        }),
    });
}
