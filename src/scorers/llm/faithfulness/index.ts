/** Faithfulness scorer (docs/scorers.md): share of the answer's claims the context supports. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import type { PreparedRun } from '../../core/types.js';
import { claimExtractionPrompt, claimsSchema } from '../claims.js';
import { legacyToolResultStrings } from '../run-text.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, scaleOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, FAITHFULNESS_INSTRUCTIONS, reasonPrompt } from './prompts.js';

export interface FaithfulnessOptions {
  scale?: number;
  /** Static context; without it the legacy tool-invocation results of the output are used. */
  context?: string[];
  /** tracejudge extension (used by the service for the live default context); wins over `context`. */
  getContext?: (params: { run: PreparedRun }) => string[] | Promise<string[]>;
}

const faithfulnessVerdictsSchema = z.object({ verdicts: z.array(z.object({ verdict: z.string(), reason: z.string() })) });

/** 0 without verdicts, else round2(yes / n × scale), exact `=== 'yes'`. */
function faithfulnessScore(verdicts: ReadonlyArray<{ verdict: string }>, scale: number): number {
  if (verdicts.length === 0) return 0;
  return round2((verdicts.filter((v) => v.verdict === 'yes').length / verdicts.length) * scale);
}

/**
 * Create the faithfulness scorer. Higher is better.
 *
 * @example
 * ```ts
 * const scorer = createFaithfulnessScorer({ model: 'gpt-4o-mini', options: { context: ['The sky is blue.'] } });
 * ```
 */
export function createFaithfulnessScorer({ model, options = {} }: { model: JudgeModel; options?: FaithfulnessOptions }) {
  const scale = scaleOf(options.scale);
  const contextFor = async (run: PreparedRun): Promise<string[]> =>
    options.getContext ? await options.getContext({ run }) : (options.context ?? legacyToolResultStrings(run.output));
  return createScorer({
    id: 'faithfulness-scorer',
    name: 'Faithfulness Scorer',
    description: 'Share of the claims in the answer that the context supports',
    judge: judgeConfig(model, FAITHFULNESS_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess({
      description: 'Extract the claims of the answer',
      outputSchema: claimsSchema,
      createPrompt: ({ run }) => claimExtractionPrompt(outputTextOf(run)),
    })
    .analyze({
      description: 'Check each claim against the context',
      outputSchema: faithfulnessVerdictsSchema,
      createPrompt: async ({ run, results }) => analyzePrompt(results.preprocessStepResult.claims, await contextFor(run)),
    })
    .generateScore(({ results }) => faithfulnessScore(results.analyzeStepResult.verdicts, scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: async ({ run, results, score }) =>
        reasonPrompt({ input: inputTextOf(run), output: outputTextOf(run), context: await contextFor(run), score, scale, verdicts: results.analyzeStepResult.verdicts }),
    });
}
