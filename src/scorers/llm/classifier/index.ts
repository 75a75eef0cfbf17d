/**
 * Classifier scorer (docs/scorers.md): one question about the run, answered by the judge in one of three
 * forms, mapped to a score in [0, 1]:
 * - `choice`: one of the keys of `scores`, an exhaustive table of choice → score;
 * - `score`: an integer level 0 … levels−1, scored `level / (levels − 1)`;
 * - `probability`: a probability in [0, 1], scored as is.
 * The reason names the question and the answer.
 */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { inputTextOf, judgeConfig, outputTextOf, type JudgeModel } from '../shared.js';
import { CLASSIFIER_INSTRUCTIONS, classifierPrompt } from './prompts.js';

export type ClassifierAnswer =
  | { type: 'choice'; scores: Readonly<Record<string, number>> }
  | { type: 'score'; levels: number }
  | { type: 'probability' };

export interface ClassifierOptions {
  id?: string;
  question: string;
  answer: ClassifierAnswer;
}

function schemaOf(answer: ClassifierAnswer): z.ZodType<{ choice?: string; score?: number; probability?: number }> {
  if (answer.type === 'choice') {
    const keys = Object.keys(answer.scores);
    if (keys.length === 0) throw new Error('classifier: answer.scores needs at least one choice');
    return z.object({ choice: z.enum(keys as [string, ...string[]]) });
  }
  if (answer.type === 'score') return z.object({ score: z.number().int().min(0).max(answer.levels - 1) });
  return z.object({ probability: z.number().min(0).max(1) });
}

function formOf(answer: ClassifierAnswer): string {
  if (answer.type === 'choice') return `Answer with JSON {"choice": one of ${Object.keys(answer.scores).map((k) => JSON.stringify(k)).join(', ')}}.`;
  if (answer.type === 'score') return `Answer with JSON {"score": an integer from 0 (lowest) to ${answer.levels - 1} (highest)}.`;
  return 'Answer with JSON {"probability": your probability from 0 to 1 that the answer to the question is yes}.';
}

/**
 * Create a classifier scorer.
 *
 * @example
 * ```ts
 * createClassifierScorer({ model, options: { question: 'Did the agent apologise?', answer: { type: 'choice', scores: { yes: 1, no: 0 } } } });
 * ```
 */
export function createClassifierScorer({ model, options }: { model: JudgeModel; options: ClassifierOptions }) {
  const { answer, question } = options;
  if (answer.type === 'score' && !(Number.isInteger(answer.levels) && answer.levels >= 2)) throw new Error('classifier: answer.levels must be an integer ≥ 2');
  const schema = schemaOf(answer);
  return createScorer({
    id: options.id ?? 'classifier-scorer',
    name: 'Classifier (LLM)',
    description: `Classifier question: ${question}`,
    judge: judgeConfig(model, CLASSIFIER_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Answer the classifier question',
      outputSchema: schema,
      createPrompt: ({ run }) => classifierPrompt(question, formOf(answer), inputTextOf(run), outputTextOf(run)),
    })
    .generateScore(({ results }) => {
      const a = results.analyzeStepResult;
      if (answer.type === 'choice') return answer.scores[a.choice ?? ''] ?? 0;
      if (answer.type === 'score') return (a.score ?? 0) / (answer.levels - 1);
      return a.probability ?? 0;
    })
    .generateReason(({ results, score }) => {
      const a = results.analyzeStepResult;
      const picked = answer.type === 'choice' ? a.choice : answer.type === 'score' ? `level ${a.score}` : `probability ${a.probability}`;
      return `Classifier question '${question}' selected '${String(picked)}' (score: ${score}).`;
    });
}
