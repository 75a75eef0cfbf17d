/**
 * Context position scorer (docs/scorers.md): the reference's legacy `ContextPositionMetric` in the scorer
 * shape — relevant context pieces weighted by `1/(i+1)`.
 */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { checkContextOptions, resolveContext, type ContextSourceOptions } from '../context-source.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, scaleOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, CONTEXT_POSITION_INSTRUCTIONS, reasonPrompt } from './prompts.js';

export interface ContextPositionOptions extends ContextSourceOptions {
  scale?: number;
}

const contextPositionSchema = z.object({ verdicts: z.array(z.object({ verdict: z.string(), reason: z.string() })) });

/** Σ b_i/(i+1) ÷ Σ 1/(i+1) over all verdicts, rounded ×scale; 0 without verdicts or without a relevant piece. */
export function contextPositionScore(verdicts: ReadonlyArray<{ verdict: string }>, scale: number): number {
  if (verdicts.length === 0) return 0;
  let weighted = 0;
  let max = 0;
  verdicts.forEach((v, i) => {
    const w = 1 / (i + 1);
    max += w;
    if (v.verdict.trim().toLowerCase() === 'yes') weighted += w;
  });
  if (weighted === 0) return 0;
  return round2((weighted / max) * scale);
}

/**
 * Create the context position scorer.
 *
 * @example
 * ```ts
 * createContextPositionScorer({ model: 'gpt-4o-mini', options: { context: ['doc a', 'doc b'] } });
 * ```
 */
export function createContextPositionScorer({ model, options }: { model: JudgeModel; options: ContextPositionOptions }) {
  checkContextOptions('context position scorer', options);
  const scale = scaleOf(options.scale);
  return createScorer({
    id: 'context-position-scorer',
    name: 'Context Position Scorer',
    description: 'Whether relevant context pieces come first',
    judge: judgeConfig(model, CONTEXT_POSITION_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Judge the relevance of each context piece in order',
      outputSchema: contextPositionSchema,
      createPrompt: async ({ run }) => analyzePrompt(inputTextOf(run), outputTextOf(run), await resolveContext(options, run)),
    })
    .generateScore(({ results }) => contextPositionScore(results.analyzeStepResult.verdicts, scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ run, results, score }) =>
        reasonPrompt({ input: inputTextOf(run), output: outputTextOf(run), score, scale, verdicts: results.analyzeStepResult.verdicts }),
    });
}
