/** Summarization scorer (docs/scorers.md): min(alignment, coverage). */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { isAgentInput } from '../run-text.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { alignmentPrompt, coveragePrompt, reasonPrompt, SUMMARIZATION_INSTRUCTIONS } from './prompts.js';

export interface SummarizationOptions {
  scale?: number;
  source?: string;
  sourceExtractor?: (input: unknown, output: unknown) => string;
  maxQuestions?: number;
}

const alignmentSchema = z.object({
  alignment: z.array(z.object({ claim: z.string(), supported: z.boolean(), reason: z.string() })),
  questions: z.array(z.string()),
});
const coverageSchema = z.object({ coverage: z.array(z.object({ question: z.string(), answered: z.boolean(), reason: z.string() })) });

/** The score (docs/scorers.md); 0 unless there are claims and questions. */
function summarizationScore(
  a: z.output<typeof alignmentSchema>,
  c: z.output<typeof coverageSchema>,
  maxQuestions: number,
  scale: number,
): number {
  const A = a.alignment.length;
  const Q = Math.min(a.questions.length, maxQuestions);
  if (A === 0 || Q === 0) return 0;
  const alignment = Math.min(1, a.alignment.filter((x) => x.supported).length / A);
  const coverage = Math.min(1, c.coverage.slice(0, Q).filter((x) => x.answered).length / Q);
  return round2(Math.min(alignment, coverage) * scale);
}

/**
 * Create the summarization scorer.
 *
 * @example
 * ```ts
 * createSummarizationScorer({ model: 'gpt-4o-mini', options: { source: longText } });
 * ```
 */
export function createSummarizationScorer({ model, options = {} }: { model: JudgeModel; options?: SummarizationOptions }) {
  const scale = options.scale ?? 1;
  const maxQuestions = options.maxQuestions ?? 10;
  if (maxQuestions < 1) throw new Error('maxQuestions must be at least 1');
  const sourceOf = (run: { input?: unknown; output: unknown }): string =>
    (options.sourceExtractor && isAgentInput(run.input) && Array.isArray(run.output) ? options.sourceExtractor(run.input, run.output) : undefined) ??
    options.source ??
    inputTextOf(run);
  return createScorer({
    id: 'summarization-scorer',
    name: 'Summarization Scorer',
    description: 'Alignment and coverage of a summary against its source',
    judge: judgeConfig(model, SUMMARIZATION_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess({
      description: 'Check claims against the source and write coverage questions',
      outputSchema: alignmentSchema,
      createPrompt: ({ run }) => alignmentPrompt(sourceOf(run), outputTextOf(run), maxQuestions),
    })
    .analyze({
      description: 'Answer the questions from the summary only',
      outputSchema: coverageSchema,
      createPrompt: ({ run, results }) => coveragePrompt(outputTextOf(run), results.preprocessStepResult.questions.slice(0, maxQuestions)),
    })
    .generateScore(({ results }) => summarizationScore(results.preprocessStepResult, results.analyzeStepResult, maxQuestions, scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ results, score }) => reasonPrompt(score, { alignment: results.preprocessStepResult.alignment, coverage: results.analyzeStepResult.coverage }),
    });
}
