/** Prompts of the rubric scorer (docs/scorers.md). */
import { fence } from '../fence.js';

export const RUBRIC_INSTRUCTIONS = 'You check a response against a rubric of criteria, one by one, and say for each whether it is satisfied.';

export interface Criterion {
  id?: string;
  description: string;
  required: boolean;
}

export function analyzePrompt(task: string, output: string, criteria: readonly Criterion[]): string {
  const list =
    criteria.length === 0
      ? 'No rubric was provided: return {"criteria": [], "overallAssessment": "no rubric"}.'
      : criteria.map((c, i) => `${i + 1}. [${c.required ? 'required' : 'optional'}] ${c.description}`).join('\n');
  return `Check the response against every criterion.

${fence('TASK', task)}
${fence('RESPONSE', output)}
Criteria:
${list}

Answer with JSON: {"criteria": [{"criterion": string, "satisfied": boolean, "required": boolean, "reasoning": string}], "overallAssessment": string}.`;
}
