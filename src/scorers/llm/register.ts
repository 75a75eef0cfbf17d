/**
 * Defines the LLM-judged scorer types in a scorer registry (`createScorerRegistry` calls it).
 * Options are the reference's, minus functions; context-needing types get the live default context (the run's
 * tool results, retrieved documents, then the static `context` option) through `getContext`.
 */
import { z } from 'zod';
import type { ScorerRun, ScorerRunResult, ScorerType, StepInfo } from '../core/types.js';

/** What a factory returns, structurally (the registry's `ScorerLike`). */
export interface LlmScorer {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly type: ScorerType | undefined;
  readonly hasJudge: boolean;
  run(input: ScorerRun): Promise<ScorerRunResult>;
  getSteps(): StepInfo[];
}
type ScorerLike = LlmScorer;
// Each type's implementation (prompts, schemas, steps) is imported when a scorer of that type is built: a
// service or command that configures none of them never loads them.
import { liveContext } from './shared.js';

/** What a factory receives from the registry. */
export interface LlmFactoryContext {
  name: string;
  judgeModel?: unknown;
}

/** `ScorerRegistry.define`, structurally. */
export type RegisterLlmType = (
  type: string,
  definition: { kind: 'judge'; direction: 'higher' | 'lower'; options: z.ZodType; needsGroundTruth?: boolean; create(options: never, context: LlmFactoryContext): Promise<ScorerLike> },
) => void;

const scale = z.number().positive().optional();
const context = z.array(z.string()).optional();

function modelOf(ctx: LlmFactoryContext, type: string): unknown {
  if (ctx.judgeModel === undefined || ctx.judgeModel === null) {
    throw new Error(`scorers.${ctx.name}: type ${type} needs the LLM judge; set judge.apiKey or OPENAI_API_KEY`);
  }
  return ctx.judgeModel;
}

/** Live default context: tool results + retrieved documents + static `context`. */
const live = (staticContext: string[] | undefined) => ({ run }: { run: Parameters<typeof liveContext>[0] }) => liveContext(run, staticContext ?? []);

/** Types whose scores read "lower is better": a high hallucination, toxicity or bias score fails. */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set(['hallucination', 'toxicity', 'bias']);

/**
 * Define every LLM type: hallucination, faithfulness, answer-relevancy, context-precision, context-relevance,
 * context-position, context-recall, toxicity, bias, prompt-alignment, tool-call-accuracy, answer-similarity,
 * noise-sensitivity, summarization, rubric, multi-turn-judge, trajectory-accuracy, goal, classifier.
 *
 * @example
 * ```ts
 * registerLlmScorerTypes((type, definition) => registry.define(type, definition));
 * ```
 */
export function registerLlmScorerTypes(register: RegisterLlmType): void {
  const judge = <S extends z.ZodType>(type: string, options: S, create: (o: z.output<S>, model: unknown) => Promise<ScorerLike>, needsGroundTruth = false): void => {
    register(type, { kind: 'judge', direction: LOWER_IS_BETTER.has(type) ? 'lower' : 'higher', options, needsGroundTruth, create: ((o: z.output<S>, ctx: LlmFactoryContext) => create(o, modelOf(ctx, type))) });
  };
  judge('hallucination', z.strictObject({ scale, context }), async (o, model) =>
    (await import('./hallucination/index.js')).createHallucinationScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge('faithfulness', z.strictObject({ scale, context }), async (o, model) =>
    (await import('./faithfulness/index.js')).createFaithfulnessScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge('answer-relevancy', z.strictObject({ scale, uncertaintyWeight: z.number().min(0).max(1).optional() }), async (o, model) =>
    (await import('./answer-relevancy/index.js')).createAnswerRelevancyScorer({ model, options: o }),
  );
  judge('context-precision', z.strictObject({ scale, context }), async (o, model) =>
    (await import('./context-precision/index.js')).createContextPrecisionScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge(
    'context-relevance',
    z.strictObject({
      scale,
      context,
      penalties: z
        .strictObject({ unusedHighRelevanceContext: z.number().min(0).optional(), missingContextPerItem: z.number().min(0).optional(), maxMissingContextPenalty: z.number().min(0).optional() })
        .optional(),
    }),
    async (o, model) =>
      (await import('./context-relevance/index.js')).createContextRelevanceScorerLLM({ model, options: { ...(o.scale ? { scale: o.scale } : {}), ...(o.penalties ? { penalties: o.penalties } : {}), getContext: live(o.context) } }),
  );
  judge('context-position', z.strictObject({ scale, context }), async (o, model) =>
    (await import('./context-position/index.js')).createContextPositionScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge(
    'context-recall',
    z.strictObject({ scale, context }),
    async (o, model) => (await import('./context-recall/index.js')).createContextRecallScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
    true,
  );
  judge('toxicity', z.strictObject({ scale }), async (o, model) => (await import('./toxicity/index.js')).createToxicityScorer({ model, options: o }));
  judge('goal', z.strictObject({ goal: z.string().min(1).optional() }), async (o, model) =>
    (await import('./goal/index.js')).createGoalScorer({ judgeModel: model, options: o.goal !== undefined ? { goal: o.goal } : {} }),
  );
  const unit = z.number().min(0).max(1);
  judge(
    'classifier',
    z.strictObject({
      question: z.string().min(1),
      answer: z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('choice'), scores: z.record(z.string().min(1), unit).refine((r) => Object.keys(r).length > 0, 'needs at least one choice') }),
        z.strictObject({ type: z.literal('score'), levels: z.number().int().min(2) }),
        z.strictObject({ type: z.literal('probability') }),
      ]),
    }),
    async (o, model) => (await import('./classifier/index.js')).createClassifierScorer({ model, options: o }),
  );
  judge('bias', z.strictObject({ scale }), async (o, model) => (await import('./bias/index.js')).createBiasScorer({ model, options: o }));
  judge(
    'prompt-alignment',
    z.strictObject({
      scale,
      evaluationMode: z.enum(['user', 'system', 'both']).optional(),
      includeConversationHistory: z.union([z.boolean(), z.strictObject({ maxMessages: z.number().int().positive().optional() })]).optional(),
    }),
    async (o, model) => (await import('./prompt-alignment/index.js')).createPromptAlignmentScorerLLM({ model, options: o }),
  );
  judge('tool-call-accuracy', z.strictObject({ availableTools: z.array(z.strictObject({ id: z.string().min(1), description: z.string().optional() })).optional() }), async (o, model) =>
    (await import('./tool-call-accuracy/index.js')).createToolCallAccuracyScorerLLM({ model, availableTools: o.availableTools ?? [] }),
  );
  judge(
    'answer-similarity',
    z.strictObject({
      scale,
      requireGroundTruth: z.boolean().optional(),
      semanticThreshold: z.number().min(0).max(1).optional(),
      exactMatchBonus: z.number().min(0).optional(),
      missingPenalty: z.number().min(0).optional(),
      contradictionPenalty: z.number().min(0).optional(),
      extraInfoPenalty: z.number().min(0).optional(),
    }),
    async (o, model) => (await import('./answer-similarity/index.js')).createAnswerSimilarityScorer({ model, options: o }),
    true,
  );
  judge(
    'noise-sensitivity',
    z.strictObject({ baselineResponse: z.string().min(1), noisyQuery: z.string().min(1), noiseType: z.string().optional() }),
    async (o, model) => (await import('./noise-sensitivity/index.js')).createNoiseSensitivityScorerLLM({ model, options: o }),
  );
  judge('summarization', z.strictObject({ scale, source: z.string().optional(), maxQuestions: z.number().int().min(1).optional() }), async (o, model) =>
    (await import('./summarization/index.js')).createSummarizationScorer({ model, options: o }),
  );
  judge(
    'rubric',
    z.strictObject({
      scale,
      criteria: z.union([z.string(), z.array(z.strictObject({ id: z.string().optional(), description: z.string().min(1), required: z.boolean().optional() }))]).optional(),
    }),
    async (o, model) => (await import('./rubric/index.js')).createRubricScorer({ model, ...(o.criteria ? { criteria: o.criteria } : {}), options: o.scale ? { scale: o.scale } : {} }),
  );
  judge('multi-turn-judge', z.strictObject({ scale, criterion: z.string().min(1) }), async (o, model) =>
    (await import('./multi-turn-judge/index.js')).createMultiTurnJudgeScorer({ model, criterion: o.criterion, options: o.scale ? { scale: o.scale } : {} }),
  );
  judge('trajectory-accuracy', z.strictObject({ expectedTrajectory: z.array(z.looseObject({ name: z.string().min(1), stepType: z.string().optional() })).optional() }), async (o, model) =>
    (await import('./trajectory-accuracy/index.js')).createTrajectoryAccuracyScorerLLM({ model, ...(o.expectedTrajectory ? { expectedTrajectory: o.expectedTrajectory } : {}) }),
  );
}
