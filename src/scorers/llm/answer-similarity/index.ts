/** Answer similarity scorer (docs/scorers.md): semantic-unit match of the answer against ground truth. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { clamp01, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { analyzePrompt, ANSWER_SIMILARITY_INSTRUCTIONS, NO_GROUND_TRUTH_REASON, reasonPrompt, unitsPrompt } from './prompts.js';

export interface AnswerSimilarityOptions {
  requireGroundTruth?: boolean;
  semanticThreshold?: number;
  exactMatchBonus?: number;
  missingPenalty?: number;
  contradictionPenalty?: number;
  extraInfoPenalty?: number;
  scale?: number;
}

export const ANSWER_SIMILARITY_DEFAULT_OPTIONS: Required<AnswerSimilarityOptions> = {
  requireGroundTruth: true,
  semanticThreshold: 0.8,
  exactMatchBonus: 0.2,
  missingPenalty: 0.15,
  contradictionPenalty: 1.0,
  extraInfoPenalty: 0.05,
  scale: 1,
};

const unitsSchema = z.object({ outputUnits: z.array(z.string()), groundTruthUnits: z.array(z.string()) });
const similarityAnalysisSchema = z.object({
  matches: z.array(
    z.object({ groundTruthUnit: z.string(), outputUnit: z.string().nullable(), matchType: z.enum(['exact', 'semantic', 'partial', 'missing']), explanation: z.string() }),
  ),
  extraInOutput: z.array(z.string()),
  contradictions: z.array(z.object({ outputUnit: z.string(), groundTruthUnit: z.string(), explanation: z.string() })),
});
type Analysis = z.output<typeof similarityAnalysisSchema>;

const groundTruthText = (g: unknown): string => (typeof g === 'string' ? g : JSON.stringify(g));

/** The score, as docs/scorers.md gives it. */
function answerSimilarityScore(a: Analysis | undefined, o: Required<AnswerSimilarityOptions>): number {
  if (!a || a.matches.length === 0) return 0;
  const n = a.matches.length;
  let raw = 0;
  for (const m of a.matches) {
    raw += m.matchType === 'exact' ? 1 + o.exactMatchBonus : m.matchType === 'semantic' ? o.semanticThreshold : m.matchType === 'partial' ? 0.5 * o.semanticThreshold : -o.missingPenalty;
  }
  let s = raw / (n * (1 + o.exactMatchBonus));
  s -= a.contradictions.length * o.contradictionPenalty;
  s -= Math.min(a.extraInOutput.length * o.extraInfoPenalty, 0.2);
  return round2(clamp01(s) * o.scale);
}

/**
 * Create the answer similarity scorer (needs `run.groundTruth`).
 *
 * @example
 * ```ts
 * await createAnswerSimilarityScorer({ model: 'gpt-4o-mini' }).run({ input: 'q', output: 'Paris', groundTruth: 'Paris' });
 * ```
 */
export function createAnswerSimilarityScorer({ model, options = {} }: { model: JudgeModel; options?: AnswerSimilarityOptions }) {
  const o = { ...ANSWER_SIMILARITY_DEFAULT_OPTIONS, ...options };
  return createScorer({
    id: 'answer-similarity-scorer',
    name: 'Answer Similarity Scorer',
    description: 'Semantic similarity of the answer to the ground truth',
    judge: judgeConfig(model, ANSWER_SIMILARITY_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess({
      description: 'Extract semantic units of the answer and the ground truth',
      outputSchema: unitsSchema,
      createPrompt: ({ run }) => {
        if (!run.groundTruth) {
          if (o.requireGroundTruth) throw new Error('Answer Similarity Scorer requires ground truth to be provided');
          return unitsPrompt('', '');
        }
        return unitsPrompt(outputTextOf(run), groundTruthText(run.groundTruth));
      },
    })
    .analyze({
      description: 'Match units and find contradictions',
      outputSchema: similarityAnalysisSchema,
      createPrompt: ({ results }) => analyzePrompt(results.preprocessStepResult.outputUnits, results.preprocessStepResult.groundTruthUnits),
    })
    .generateScore(({ run, results }) => (run.groundTruth ? answerSimilarityScore(results.analyzeStepResult, o) : 0))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ run, results, score }) =>
        run.groundTruth
          ? reasonPrompt({ output: outputTextOf(run), groundTruth: groundTruthText(run.groundTruth), score, scale: o.scale, analysis: results.analyzeStepResult })
          : NO_GROUND_TRUTH_REASON,
    });
}
