/** Multi-turn judge (docs/scorers.md): does the whole conversation satisfy one criterion. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { getAssistantMessages } from '../run-text.js';
import { judgeConfig, type JudgeModel } from '../shared.js';
import { analyzePrompt, MULTI_TURN_INSTRUCTIONS } from './prompts.js';

const multiTurnSchema = z.object({ satisfied: z.boolean(), reasoning: z.string() });

function turnsOf(output: unknown): string[] {
  if (typeof output === 'string') return output.trim() === '' ? [] : [output.trim()];
  return getAssistantMessages(output).map((t) => t.trim()).filter((t) => t !== '');
}

/**
 * Create the multi-turn judge.
 *
 * @example
 * ```ts
 * createMultiTurnJudgeScorer({ model: 'gpt-4o-mini', criterion: 'The agent confirms the refund amount before acting.' });
 * ```
 */
export function createMultiTurnJudgeScorer({ model, criterion, options = {} }: { model: JudgeModel; criterion: string; options?: { scale?: number } }) {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale)) throw new Error('multi-turn judge: scale must be a finite number');
  return createScorer({
    id: 'multi-turn-judge-scorer',
    name: 'Multi-turn Judge (LLM)',
    description: 'Whether the whole conversation satisfies a criterion',
    judge: judgeConfig(model, MULTI_TURN_INSTRUCTIONS),
  })
    .analyze({
      description: 'Grade the conversation against the criterion',
      outputSchema: multiTurnSchema,
      createPrompt: ({ run }) => analyzePrompt(criterion, turnsOf(run.output)),
    })
    .generateScore(({ results }) => (results.analyzeStepResult.satisfied ? 1 : 0) * scale)
    .generateReason(({ results }) => {
      const a = results.analyzeStepResult;
      return `${a.satisfied ? '✅ Criterion satisfied.' : '❌ Criterion not satisfied.'}\n\n${criterion}\n\n${a.reasoning || '(no reasoning returned by the judge)'}`;
    });
}
