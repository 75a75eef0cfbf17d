/** Prompts of the LLM trajectory accuracy scorer (docs/scorers.md). */
import { fence } from '../fence.js';
import { REASON_FORMAT } from '../shared.js';

export const TRAJECTORY_ACCURACY_INSTRUCTIONS = `You evaluate the path an AI agent took to complete a task: whether each step was necessary, whether the steps came in a sensible order, and which expected steps are missing or which steps were superfluous.`;

export function analyzePrompt(p: { task: string; response: string; actual: string; expected?: string }): string {
  return `Evaluate the agent's trajectory.

${fence('USER REQUEST', p.task)}
${fence('AGENT RESPONSE', p.response)}
Actual steps:
${fence('TRAJECTORY', p.actual || '(no steps)')}
${p.expected ? `Expected steps:\n${fence('EXPECTED TRAJECTORY', p.expected)}\n` : 'No expected trajectory is given: judge from the request what a sensible path would be.\n'}
For every actual step say whether it was necessary and whether it was in order. List expected steps that are missing and actual steps that were superfluous.

Answer with JSON: {"stepEvaluations": [{"stepName": string, "wasNecessary": boolean, "wasInOrder": boolean, "reasoning": string}], "missingSteps": string[], "extraSteps": string[], "overallAssessment": string}.`;
}

export function reasonPrompt(score: number, analysis: unknown): string {
  return `Explain a trajectory accuracy score (higher is better).

Score: ${score}
${fence('ANALYSIS', JSON.stringify(analysis))}

${REASON_FORMAT}`;
}
