/**
 * `type: judge` — an LLM-judged scorer defined in YAML: a prompt template, and either a choice-to-score
 * table (`choices: { yes: 1, no: 0 }`) or a numeric range (`range: [1, 5]`, normalised to 0..1). The judge
 * answers in a schema built from that (a choice from the table, or a number within the range, re-asked
 * once when it does not fit); the score is computed in code from the answer.
 */
import { z } from 'zod';
import { createScorer } from '../core/scorer.js';
import type { PreparedRun } from '../core/types.js';
import { inputTextOf, judgeConfig, LIVE_RUN_KEY, outputTextOf, REASON_FORMAT, type LiveRunFacts } from '../llm/shared.js';
import { extractToolResults } from '../llm/run-text.js';
import { renderTemplate, unknownPlaceholders, type TemplateValues } from './template.js';

/** Options of a `type: judge` entry (the registry strips `type`, `threshold` and `reason`). */
export const judgeScorerOptions = z
  .strictObject({
    /** Template with {{input}}, {{output}}, {{context}}, {{toolResults}}, {{groundTruth}}. */
    prompt: z.string().min(1),
    /** Choice → score, e.g. `{ yes: 1, no: 0 }`. */
    choices: z.record(z.string().min(1), z.number()).optional(),
    /** `[min, max]`: the judge answers a number in it; score = (answer − min) / (max − min). */
    range: z.tuple([z.number(), z.number()]).optional(),
    /** Judge system prompt (the untrusted-data rule is appended). */
    instructions: z.string().min(1).optional(),
    /** Judge model id (default: the configured judge model). */
    model: z.string().min(1).optional(),
    /** Static context added after the run's retrieved documents in {{context}}. */
    context: z.array(z.string()).default([]),
    /** `higher` (default) or `lower` is better; sets the label rule. */
    direction: z.enum(['higher', 'lower']).default('higher'),
    /** Scorer id (default `judge-<config name>`). */
    id: z.string().min(1).optional(),
    description: z.string().optional(),
  })
  .superRefine((o, ctx) => {
    if ((o.choices === undefined) === (o.range === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['choices'], message: 'give exactly one of choices or range' });
    }
    if (o.choices !== undefined && Object.keys(o.choices).length < 2) {
      ctx.addIssue({ code: 'custom', path: ['choices'], message: 'needs at least two choices' });
    }
    if (o.range !== undefined && !(o.range[0] < o.range[1])) {
      ctx.addIssue({ code: 'custom', path: ['range'], message: 'must be [min, max] with min < max' });
    }
    for (const name of unknownPlaceholders(o.prompt)) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: `unknown placeholder {{${name}}} (use input, output, context, toolResults, groundTruth)` });
    }
  });

export type JudgeScorerOptions = z.output<typeof judgeScorerOptions>;

const DEFAULT_JUDGE_INSTRUCTIONS =
  'You are a careful, impartial evaluator of AI agent runs. Answer the question exactly as asked, using only the material given.';

function factsOf(requestContext: unknown): LiveRunFacts | undefined {
  if (requestContext === null || typeof requestContext !== 'object') return undefined;
  const rc = requestContext as { get?: unknown } & Record<string, unknown>;
  const v: unknown = typeof rc.get === 'function' ? (rc.get as (k: string) => unknown).call(rc, LIVE_RUN_KEY) : rc[LIVE_RUN_KEY];
  return v !== null && typeof v === 'object' ? (v) : undefined;
}

/** The template values of a run: texts, retrieved documents + static context, tool results, ground truth. */
function templateValuesOf(run: PreparedRun, staticContext: readonly string[]): TemplateValues {
  const facts = factsOf(run.requestContext);
  const tools = facts?.toolResults ?? extractToolResults(run.output);
  const gt = run.groundTruth;
  return {
    input: inputTextOf(run),
    output: outputTextOf(run),
    context: [...(facts?.context ?? []), ...staticContext],
    toolResults: tools.map((t) => JSON.stringify({ tool: t.toolName, result: t.result })),
    groundTruth: gt === undefined ? undefined : typeof gt === 'string' ? gt : JSON.stringify(gt),
  };
}

function answerSchema(o: JudgeScorerOptions): z.ZodType<{ choice: string } | { score: number }> {
  if (o.choices) {
    const keys = Object.keys(o.choices) as [string, ...string[]];
    return z.object({ choice: z.enum(keys) });
  }
  const [min, max] = o.range as [number, number];
  return z.object({ score: z.number().min(min).max(max) });
}

function answerFormat(o: JudgeScorerOptions): string {
  if (o.choices) return `Answer with JSON: {"choice": one of ${Object.keys(o.choices).map((k) => JSON.stringify(k)).join(', ')}}.`;
  const [min, max] = o.range as [number, number];
  return `Answer with JSON: {"score": a number from ${min} to ${max}}.`;
}

/**
 * Create a YAML-defined judge scorer.
 *
 * @example
 * ```ts
 * const polite = createJudgeScorer('polite', judgeScorerOptions.parse({
 *   prompt: 'Is the answer polite to the user?\n{{input}}\n{{output}}',
 *   choices: { yes: 1, no: 0 },
 * }), judgeModel);
 * ```
 */
export function createJudgeScorer(name: string, options: JudgeScorerOptions, judgeModel: unknown) {
  const schema = answerSchema(options);
  const toScore = (a: { choice: string } | { score: number }): number => {
    if ('choice' in a) return (options.choices as Record<string, number>)[a.choice] as number;
    const [min, max] = options.range as [number, number];
    return (a.score - min) / (max - min);
  };
  const render = (run: PreparedRun): string => renderTemplate(options.prompt, templateValuesOf(run, options.context));
  return createScorer({
    id: options.id ?? `judge-${name}`,
    name,
    description: options.description ?? `LLM-judged scorer ${name} defined in config`,
    judge: judgeConfig(options.model ?? judgeModel, options.instructions ?? DEFAULT_JUDGE_INSTRUCTIONS),
    type: 'agent',
  })
    .analyze({
      description: 'Ask the judge',
      outputSchema: schema,
      createPrompt: ({ run }) => `${render(run)}\n\n${answerFormat(options)}`,
    })
    .generateScore(({ results }) => toScore(results.analyzeStepResult))
    .generateReason({
      description: 'Explain the score',
      createPrompt: ({ run, results, score }) =>
        `${render(run)}\n\nThe evaluation answered ${JSON.stringify(results.analyzeStepResult)}, which gives the score ${score} (0 to 1, ${
          options.direction === 'lower' ? 'lower' : 'higher'
        } is better). ${REASON_FORMAT.replace('{score}', String(score))}`,
    });
}
