/** Prompt alignment scorer, LLM (docs/scorers.md): weighted intent / requirements / completeness / appropriateness. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { getCombinedSystemPrompt, getConversationHistoryFromRunInput } from '../run-text.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { analyzePrompt, PROMPT_ALIGNMENT_INSTRUCTIONS, reasonPrompt, type EvaluationMode } from './prompts.js';

export type { EvaluationMode } from './prompts.js';

export interface PromptAlignmentOptions {
  scale?: number;
  evaluationMode?: EvaluationMode;
  includeConversationHistory?: boolean | { maxMessages?: number };
}

const unit = z.number().min(0).max(1);
const promptAlignmentSchema = z.object({
  intentAlignment: z.object({ score: unit, primaryIntent: z.string(), isAddressed: z.boolean(), reasoning: z.string() }),
  requirementsFulfillment: z.object({
    requirements: z.array(z.object({ requirement: z.string(), isFulfilled: z.boolean(), reasoning: z.string() })),
    overallScore: unit,
  }),
  completeness: z.object({ score: unit, missingElements: z.array(z.string()), reasoning: z.string() }),
  responseAppropriateness: z.object({ score: unit, formatAlignment: z.boolean(), toneAlignment: z.boolean(), reasoning: z.string() }),
  overallAssessment: z.string(),
});
export type PromptAlignmentAnalysis = z.output<typeof promptAlignmentSchema>;

const WEIGHTS = { user: [0.4, 0.3, 0.2, 0.1], system: [0.35, 0.35, 0.15, 0.15] } as const;

/** Weighted score per mode; `both` = 0.7·user + 0.3·system where both use the same analysis. */
function promptAlignmentScore(a: PromptAlignmentAnalysis | undefined, mode: EvaluationMode, scale: number): number {
  if (!a) return 0;
  const dims = [a.intentAlignment.score, a.requirementsFulfillment.overallScore, a.completeness.score, a.responseAppropriateness.score];
  const weighted = (w: readonly number[]): number => dims.reduce((s, d, i) => s + d * (w[i] ?? 0), 0);
  let score: number;
  if (mode === 'user') score = weighted(WEIGHTS.user);
  else if (mode === 'system') score = weighted(WEIGHTS.system);
  else {
    const userScore = weighted(WEIGHTS.user);
    const systemScore = userScore;
    score = 0.7 * userScore + 0.3 * systemScore;
  }
  return round2(score * scale);
}

/**
 * Create the LLM prompt alignment scorer.
 *
 * @example
 * ```ts
 * createPromptAlignmentScorerLLM({ model: 'gpt-4o-mini', options: { evaluationMode: 'system' } });
 * ```
 */
export function createPromptAlignmentScorerLLM({ model, options = {} }: { model: JudgeModel; options?: PromptAlignmentOptions }) {
  const scale = options.scale ?? 1;
  const mode: EvaluationMode = options.evaluationMode ?? 'both';
  const history = options.includeConversationHistory;
  return createScorer({
    id: 'prompt-alignment-scorer',
    name: 'Prompt Alignment (LLM)',
    description: 'How well the response follows the user prompt and/or the system prompt',
    judge: judgeConfig(model, PROMPT_ALIGNMENT_INSTRUCTIONS),
  })
    .analyze({
      description: 'Score intent, requirements, completeness and appropriateness',
      outputSchema: promptAlignmentSchema,
      createPrompt: ({ run }) => {
        const user = inputTextOf(run);
        const system = getCombinedSystemPrompt(run.input);
        const response = outputTextOf(run);
        if (mode === 'user' && !user) throw new Error('User prompt is required for user prompt alignment scoring');
        if (mode === 'system' && !system) throw new Error('System prompt is required for system prompt alignment scoring');
        if (mode === 'both' && !user && !system) throw new Error('A user or system prompt is required for prompt alignment scoring');
        if (!response) throw new Error('Agent response is required for prompt alignment scoring');
        const max = typeof history === 'object' ? (history.maxMessages ?? 10) : 10;
        const transcript = history ? getConversationHistoryFromRunInput(run.input, max) : undefined;
        return analyzePrompt({ mode, user, system, response, ...(transcript ? { history: transcript } : {}) });
      },
    })
    .generateScore(({ results }) => promptAlignmentScore(results.analyzeStepResult, mode, scale))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ results, score }) => reasonPrompt({ mode, score, analysis: results.analyzeStepResult }),
    });
}
