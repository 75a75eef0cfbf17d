/** Rubric scorer (docs/scorers.md): all required criteria satisfied → 1, else 0. */
import { z } from 'zod';
import { createScorer } from '../../core/scorer.js';
import { getUserMessageFromRunInput } from '../run-text.js';
import { judgeConfig, outputTextOf, type JudgeModel } from '../shared.js';
import { analyzePrompt, RUBRIC_INSTRUCTIONS, type Criterion } from './prompts.js';

export type RubricCriteria = Array<{ id?: string; description: string; required?: boolean }> | string;

const rubricSchema = z.object({
  criteria: z.array(z.object({ criterion: z.string(), satisfied: z.boolean(), required: z.boolean(), reasoning: z.string() })),
  overallAssessment: z.string(),
});
type Analysis = z.output<typeof rubricSchema>;

/** Normalise criteria: a string checklist becomes one required criterion per non-empty line (bullets stripped). */
export function parseCriteria(criteria: RubricCriteria | undefined): Criterion[] {
  if (criteria === undefined) return [];
  if (typeof criteria === 'string') {
    return criteria
      .split('\n')
      .map((l) => l.trim().replace(/^([-*•]|\d+[.)])\s*/, '').trim())
      .filter((l) => l !== '')
      .map((description) => ({ description, required: true }));
  }
  return criteria.map((c) => ({ ...(c.id ? { id: c.id } : {}), description: c.description, required: c.required ?? true }));
}

function dynamicRubric(run: { requestContext?: unknown; input?: unknown } & Record<string, unknown>): RubricCriteria | undefined {
  const rc = run.requestContext as { get?: (k: string) => unknown; rubric?: unknown } | undefined;
  const fromRc = typeof rc?.get === 'function' ? rc.get('rubric') : rc?.rubric;
  const candidates = [fromRc, (run.additionalContext as { rubric?: unknown } | undefined)?.rubric, (run.input as { rubric?: unknown } | undefined)?.rubric];
  for (const c of candidates) if (typeof c === 'string' || Array.isArray(c)) return c as RubricCriteria;
  return undefined;
}

/** Empty analysis → 1; else 1 × scale when every gating criterion (required ones, or all if none required) is satisfied. */
function rubricScore(a: Analysis | undefined, scale: number): number {
  if (!a || a.criteria.length === 0) return 1;
  const required = a.criteria.filter((c) => c.required);
  const gating = required.length > 0 ? required : a.criteria;
  return (gating.every((c) => c.satisfied) ? 1 : 0) * scale;
}

function reasonOf(a: Analysis | undefined, score: number): string {
  if (!a || a.criteria.length === 0) return 'No rubric was provided, so the rubric check passed by default.';
  const lines = [score > 0 ? '✅ Rubric satisfied: every required criterion is met.' : '❌ Rubric not yet satisfied.', ''];
  for (const c of a.criteria) lines.push(`${c.satisfied ? '✅' : '❌'} [${c.required ? 'required' : 'optional'}] ${c.criterion}\n   → ${c.reasoning}`);
  if (a.overallAssessment) lines.push('', a.overallAssessment);
  const unmet = a.criteria.filter((c) => c.required && !c.satisfied).length;
  if (score === 0 && unmet > 0) lines.push('', `To finish, address the ${unmet} unmet required ${unmet === 1 ? 'criterion' : 'criteria'} above.`);
  return lines.join('\n');
}

/**
 * Create the rubric scorer.
 *
 * @example
 * ```ts
 * createRubricScorer({ model: 'gpt-4o-mini', criteria: '- cites a source\n- under 100 words' });
 * ```
 */
export function createRubricScorer({ model, criteria, options = {} }: { model: JudgeModel; criteria?: RubricCriteria; options?: { scale?: number } }) {
  const scale = options.scale ?? 1;
  const fixed = criteria === undefined ? undefined : parseCriteria(criteria);
  return createScorer({
    id: 'rubric-scorer',
    name: 'Rubric (LLM)',
    description: 'Whether the response meets every required rubric criterion',
    judge: judgeConfig(model, RUBRIC_INSTRUCTIONS),
  })
    .analyze({
      description: 'Check each rubric criterion',
      outputSchema: rubricSchema,
      createPrompt: ({ run }) => {
        const list = fixed ?? parseCriteria(dynamicRubric(run as unknown as Record<string, unknown>));
        const input = run.input as { originalTask?: unknown; currentText?: unknown } | undefined;
        const task = typeof input?.originalTask === 'string' ? input.originalTask : (getUserMessageFromRunInput(run.input) ?? '');
        const out = outputTextOf(run) || (typeof input?.currentText === 'string' ? input.currentText : '') || (typeof run.output === 'string' ? run.output : '');
        return analyzePrompt(task, out, list);
      },
    })
    .generateScore(({ results }) => rubricScore(results.analyzeStepResult, scale))
    .generateReason(({ results, score }) => reasonOf(results.analyzeStepResult, score));
}
