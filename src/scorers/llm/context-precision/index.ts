/** Context precision scorer (docs/scorers.md): mean average precision of the useful context pieces. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { checkContextOptions, resolveContext, type ContextSourceOptions } from '../context-source.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, scaleOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, CONTEXT_PRECISION_INSTRUCTIONS, reasonPrompt } from './prompts.js';

export interface ContextPrecisionOptions extends ContextSourceOptions {
  scale?: number;
}

const contextPrecisionSchema = z.object({
  verdicts: z.array(z.object({ context_index: z.number(), verdict: z.string(), reason: z.string() })),
});

/** MAP over verdicts sorted by `context_index`; positions are indices in the sorted list. */
function contextPrecisionScore(verdicts: ReadonlyArray<{ context_index: number; verdict: string }>, scale: number): number {
  if (verdicts.length === 0) return 0;
  const sorted = [...verdicts].sort((a, b) => a.context_index - b.context_index);
  let rel = 0;
  let sumP = 0;
  sorted.forEach((v, i) => {
    if (v.verdict.toLowerCase().trim() === 'yes') {
      rel++;
      sumP += rel / (i + 1);
    }
  });
  if (rel === 0) return 0;
  return round2((sumP / rel) * scale);
}

/**
 * Create the context precision scorer. Throws when neither `context` nor `contextExtractor` is given, or
 * `context` is empty.
 *
 * @example
 * ```ts
 * createContextPrecisionScorer({ model: 'gpt-4o-mini', options: { context: ['doc a', 'doc b'] } });
 * ```
 */
export function createContextPrecisionScorer({ model, options }: { model: JudgeModel; options: ContextPrecisionOptions }) {
  checkContextOptions('context precision scorer', options);
  const scale = scaleOf(options.scale);
  return createScorer({
    id: 'context-precision-scorer',
    name: 'Context Precision Scorer',
    description: 'Whether the useful context pieces were retrieved and ranked first',
    judge: judgeConfig(model, CONTEXT_PRECISION_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Judge the usefulness of each context piece',
      outputSchema: contextPrecisionSchema,
      createPrompt: async ({ run }) => {
        const context = await resolveContext(options, run);
        if (context.length === 0) throw new Error('No context available for evaluation');
        return analyzePrompt(inputTextOf(run), outputTextOf(run), context);
      },
    })
    .generateScore(({ results }) => contextPrecisionScore(results.analyzeStepResult.verdicts, scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: async ({ run, results, score }) =>
        reasonPrompt({ input: inputTextOf(run), output: outputTextOf(run), context: await resolveContext(options, run), score, verdicts: results.analyzeStepResult.verdicts }),
    });
}
