/**
 * Goal scorer (docs/scorers.md): has the agent reached its goal? The judge decides `done` | `continue` |
 * `waiting`; done → 1, waiting → 0.5, continue → 0; the reason is the judge's own.
 */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { judgeConfig, outputTextOf, type JudgeModel } from '../shared.js';
import { getUserMessageFromRunInput } from '../run-text.js';
import { GOAL_INSTRUCTIONS, goalPrompt } from './prompts.js';

/** Score of a `waiting` decision. */
export const GOAL_SCORE_WAITING = 0.5;
/** Longest user message shown to the judge. */
const MAX_USER_CHARS = 4000;

const goalAnalysisSchema = z.object({ decision: z.enum(['done', 'continue', 'waiting']), reason: z.string() });

export interface GoalOptions {
  /** The goal; default: the run's first user message (the task the agent was given). */
  goal?: string;
}

/** The latest user message of the input and how many assistant messages came after it. */
function latestUserTurn(input: unknown): { text: string; assistantSteps: number } | undefined {
  const messages = input !== null && typeof input === 'object' ? (input as { inputMessages?: unknown; messages?: unknown }) : undefined;
  const list = Array.isArray(messages?.inputMessages) ? messages.inputMessages : Array.isArray(messages?.messages) ? messages.messages : [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i] as { role?: unknown; content?: unknown };
    if (m?.role === 'user') {
      const text = typeof m.content === 'string' ? m.content : (getUserMessageFromRunInput({ inputMessages: [m] }) ?? '');
      const assistantSteps = list.slice(i + 1).filter((x) => (x as { role?: unknown })?.role === 'assistant').length;
      return { text: text.slice(0, MAX_USER_CHARS), assistantSteps };
    }
  }
  return undefined;
}

/**
 * Create the goal scorer.
 *
 * @example
 * ```ts
 * const goal = createGoalScorer({ judgeModel: 'gpt-4o-mini', options: { goal: 'Refund order 42' } });
 * ```
 */
export function createGoalScorer({ judgeModel, options = {} }: { judgeModel: JudgeModel; options?: GoalOptions }) {
  return createScorer({
    id: 'goal-scorer',
    name: 'Goal (LLM)',
    description: 'Whether the agent reached the goal it was given',
    judge: judgeConfig(judgeModel, GOAL_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Decide whether the goal is reached',
      outputSchema: goalAnalysisSchema,
      createPrompt: ({ run }) => {
        const goal = options.goal ?? getUserMessageFromRunInput(run.input) ?? '';
        const latest = latestUserTurn(run.input);
        const currentText = (run.input as { currentText?: unknown } | undefined)?.currentText;
        const assistant = typeof currentText === 'string' ? currentText : outputTextOf(run);
        return goalPrompt(goal, latest?.text, latest?.assistantSteps ?? 0, assistant);
      },
    })
    .generateScore(({ results }) => {
      const d = results.analyzeStepResult.decision;
      return d === 'done' ? 1 : d === 'waiting' ? GOAL_SCORE_WAITING : 0;
    })
    .generateReason(({ results }) => results.analyzeStepResult.reason);
}
