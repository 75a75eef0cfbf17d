/** Tool-call accuracy scorer, LLM (docs/scorers.md): share of appropriate tool calls. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { extractToolNames } from '../run-text.js';
import { inputTextOf, judgeConfig, outputTextOf, round2, type JudgeModel } from '../shared.js';
import { analyzePrompt, reasonPrompt, TOOL_CALL_ACCURACY_INSTRUCTIONS } from './prompts.js';

/** A tool as the reference takes it: `id` and `description` are rendered. */
export interface AvailableTool {
  id: string;
  description?: string;
}

const toolCallEvaluationSchema = z.object({
  evaluations: z.array(z.object({ toolCalled: z.string(), wasAppropriate: z.boolean(), reasoning: z.string() })),
  missingTools: z.array(z.string()).optional(),
});

/** No evaluations → missing tools ? 0 : 1; else round2(appropriate / n). */
function toolCallAccuracyScore(a: z.output<typeof toolCallEvaluationSchema>): number {
  if (a.evaluations.length === 0) return (a.missingTools?.length ?? 0) > 0 ? 0 : 1;
  return round2(a.evaluations.filter((e) => e.wasAppropriate).length / a.evaluations.length);
}

/**
 * Create the LLM tool-call accuracy scorer.
 *
 * @example
 * ```ts
 * createToolCallAccuracyScorerLLM({ model: 'gpt-4o-mini', availableTools: [{ id: 'weather', description: 'current weather' }] });
 * ```
 */
export function createToolCallAccuracyScorerLLM({ model, availableTools = [] }: { model: JudgeModel; availableTools?: AvailableTool[] }) {
  const available = availableTools.map((t) => `${t.id}: ${t.description ?? ''}`).join('\n');
  return createScorer({
    id: 'llm-tool-call-accuracy-scorer',
    name: 'Tool Call Accuracy (LLM)',
    description: 'Whether the agent called the right tools for the request',
    judge: judgeConfig(model, TOOL_CALL_ACCURACY_INSTRUCTIONS),
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const input = run.input as { inputMessages?: unknown[] } | undefined;
      if (!input?.inputMessages || input.inputMessages.length === 0 || !Array.isArray(run.output) || run.output.length === 0) {
        throw new Error('Input and output messages cannot be null or empty');
      }
      const actualTools = extractToolNames(run.output);
      return { actualTools, hasToolCalls: actualTools.length > 0 };
    })
    .analyze({
      description: 'Judge each tool call',
      outputSchema: toolCallEvaluationSchema,
      createPrompt: ({ run, results }) =>
        analyzePrompt({ user: inputTextOf(run), response: outputTextOf(run), tools: results.preprocessStepResult.actualTools, available }),
    })
    .generateScore(({ results }) => toolCallAccuracyScore(results.analyzeStepResult))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ run, results, score }) =>
        reasonPrompt({ user: inputTextOf(run), score, evaluations: results.analyzeStepResult.evaluations, missingTools: results.analyzeStepResult.missingTools ?? [] }),
    });
}
