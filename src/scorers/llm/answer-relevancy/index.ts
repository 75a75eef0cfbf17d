/** Answer relevancy scorer (docs/scorers.md): how much of the answer addresses the question. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { analyzePrompt, ANSWER_RELEVANCY_INSTRUCTIONS, reasonPrompt, statementsPrompt } from './prompts.js';

export interface AnswerRelevancyOptions {
  /** Weight of an "unsure" result (default 0.3). */
  uncertaintyWeight?: number;
  scale?: number;
}

/** Used when `options` is omitted entirely (as in the reference). */
export const DEFAULT_OPTIONS: Required<AnswerRelevancyOptions> = { uncertaintyWeight: 0.3, scale: 1 };

const statementsSchema = z.object({ statements: z.array(z.string()) });
const relevancyResultsSchema = z.object({ results: z.array(z.object({ result: z.string(), reason: z.string() })) });

/** 0 without results; else round2(Σ(yes 1, unsure w) / n × scale) over trimmed lower-cased results. */
function answerRelevancyScore(results: ReadonlyArray<{ result: string }> | undefined, uncertaintyWeight: number, scale: number): number {
  if (!results || results.length === 0) return 0;
  let sum = 0;
  for (const r of results) {
    const v = r.result.trim().toLowerCase();
    sum += v === 'yes' ? 1 : v === 'unsure' ? uncertaintyWeight : 0;
  }
  return round2((sum / results.length) * scale);
}

/**
 * Create the answer relevancy scorer. Higher is better. tracejudge merges a partial `options` over
 * {@link DEFAULT_OPTIONS} (the reference leaves missing keys undefined, which yields NaN).
 *
 * @example
 * ```ts
 * const scorer = createAnswerRelevancyScorer({ model: 'gpt-4o-mini', options: { uncertaintyWeight: 0.5 } });
 * ```
 */
export function createAnswerRelevancyScorer({ model, options }: { model: JudgeModel; options?: AnswerRelevancyOptions }) {
  const o = { ...DEFAULT_OPTIONS, ...(options ?? {}) };
  return createScorer({
    id: 'answer-relevancy-scorer',
    name: 'Answer Relevancy Scorer',
    description: 'How relevant the answer is to the question',
    judge: judgeConfig(model, ANSWER_RELEVANCY_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess({
      description: 'Split the answer into statements',
      outputSchema: statementsSchema,
      createPrompt: ({ run }) => statementsPrompt(outputTextOf(run)),
    })
    .analyze({
      description: 'Rate the relevance of each statement',
      outputSchema: relevancyResultsSchema,
      createPrompt: ({ run, results }) => analyzePrompt(inputTextOf(run), results.preprocessStepResult.statements),
    })
    .generateScore(({ results }) => answerRelevancyScore(results.analyzeStepResult?.results, o.uncertaintyWeight, o.scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ run, results, score }) => reasonPrompt({ input: inputTextOf(run), output: outputTextOf(run), score, results: results.analyzeStepResult.results }),
    });
}
