/** Hallucination scorer (docs/scorers.md): share of the answer's claims that the context contradicts or does not support. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import type { PreparedRun, StepResults } from '../../core/types.js';
import { claimExtractionPrompt, claimsSchema } from '../claims.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, scaleOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, HALLUCINATION_INSTRUCTIONS, reasonPrompt } from './prompts.js';

/** Arguments of `getContext`; called once for `analyze` and once for `generateReason` (with `score`). */
export interface HallucinationContextParams {
  run: PreparedRun;
  results: StepResults;
  score?: number;
  step: 'analyze' | 'generateReason';
}

export interface HallucinationOptions {
  /** Multiplies the ratio (default 1; 0 acts as 1). */
  scale?: number;
  /** Static context, used when `getContext` is absent. */
  context?: string[];
  /** Replaces `context` entirely when given. */
  getContext?: (params: HallucinationContextParams) => string[] | Promise<string[]>;
}

const hallucinationVerdictsSchema = z.object({
  verdicts: z.array(z.object({ statement: z.string(), verdict: z.string(), reason: z.string() })),
});

/** Score from verdicts: 0 without verdicts, else round2(yes / n × scale), exact `=== 'yes'`. */
function hallucinationScore(verdicts: ReadonlyArray<{ verdict: string }>, scale: number): number {
  if (verdicts.length === 0) return 0;
  const yes = verdicts.filter((v) => v.verdict === 'yes').length;
  return round2((yes / verdicts.length) * scale);
}

/**
 * Create the hallucination scorer. Lower is better.
 *
 * @example
 * ```ts
 * const scorer = createHallucinationScorer({ model: 'gpt-4o-mini', options: { context: ['Paris is the capital of France.'] } });
 * const r = await scorer.run({ input: 'Capital of France?', output: 'Lyon is the capital of France.' });
 * ```
 */
export function createHallucinationScorer({ model, options = {} }: { model: JudgeModel; options?: HallucinationOptions }) {
  const scale = scaleOf(options.scale);
  const contextFor = async (params: HallucinationContextParams): Promise<string[]> =>
    options.getContext ? await options.getContext(params) : (options.context ?? []);
  return createScorer({
    id: 'hallucination-scorer',
    name: 'Hallucination Scorer',
    description: 'Share of the claims in the answer that the context contradicts or does not support',
    judge: judgeConfig(model, HALLUCINATION_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess({
      description: 'Extract the claims of the answer',
      outputSchema: claimsSchema,
      createPrompt: ({ run }) => claimExtractionPrompt(outputTextOf(run)),
    })
    .analyze({
      description: 'Check each claim against the context',
      outputSchema: hallucinationVerdictsSchema,
      createPrompt: async ({ run, results }) =>
        analyzePrompt(results.preprocessStepResult.claims, await contextFor({ run, results, step: 'analyze' })),
    })
    .generateScore(({ results }) => hallucinationScore(results.analyzeStepResult.verdicts, scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: async ({ run, results, score }) =>
        reasonPrompt({
          input: inputTextOf(run),
          output: outputTextOf(run),
          context: await contextFor({ run, results, score, step: 'generateReason' }),
          score,
          scale,
          verdicts: results.analyzeStepResult.verdicts,
        }),
    });
}
