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
import { createAnswerRelevancyScorer } from './answer-relevancy/index.js';
import { createAnswerSimilarityScorer } from './answer-similarity/index.js';
import { createBiasScorer } from './bias/index.js';
import { createContextPositionScorer } from './context-position/index.js';
import { createContextPrecisionScorer } from './context-precision/index.js';
import { createContextRecallScorer } from './context-recall/index.js';
import { createContextRelevanceScorerLLM } from './context-relevance/index.js';
import { createFaithfulnessScorer } from './faithfulness/index.js';
import { createHallucinationScorer } from './hallucination/index.js';
import { createMultiTurnJudgeScorer } from './multi-turn-judge/index.js';
import { createNoiseSensitivityScorerLLM } from './noise-sensitivity/index.js';
import { createPromptAlignmentScorerLLM } from './prompt-alignment/index.js';
import { createRubricScorer } from './rubric/index.js';
import { liveContext } from './shared.js';
import { createSummarizationScorer } from './summarization/index.js';
import { createToolCallAccuracyScorerLLM } from './tool-call-accuracy/index.js';
import { createToxicityScorer } from './toxicity/index.js';
import { createGoalScorer } from './goal/index.js';
import { createClassifierScorer } from './classifier/index.js';
import { createTrajectoryAccuracyScorerLLM } from './trajectory-accuracy/index.js';

/** What a factory receives from the registry. */
export interface LlmFactoryContext {
  name: string;
  judgeModel?: unknown;
}

/** `ScorerRegistry.define`, structurally. */
export type RegisterLlmType = (
  type: string,
  definition: { kind: 'judge'; direction: 'higher' | 'lower'; options: z.ZodType; needsGroundTruth?: boolean; create(options: never, context: LlmFactoryContext): ScorerLike },
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
  const judge = <S extends z.ZodType>(type: string, options: S, create: (o: z.output<S>, model: unknown) => ScorerLike, needsGroundTruth = false): void => {
    register(type, { kind: 'judge', direction: LOWER_IS_BETTER.has(type) ? 'lower' : 'higher', options, needsGroundTruth, create: ((o: z.output<S>, ctx: LlmFactoryContext) => create(o, modelOf(ctx, type))) });
  };
  judge('hallucination', z.strictObject({ scale, context }), (o, model) =>
    createHallucinationScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge('faithfulness', z.strictObject({ scale, context }), (o, model) =>
    createFaithfulnessScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge('answer-relevancy', z.strictObject({ scale, uncertaintyWeight: z.number().min(0).max(1).optional() }), (o, model) =>
    createAnswerRelevancyScorer({ model, options: o }),
  );
  judge('context-precision', z.strictObject({ scale, context }), (o, model) =>
    createContextPrecisionScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
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
    (o, model) =>
      createContextRelevanceScorerLLM({ model, options: { ...(o.scale ? { scale: o.scale } : {}), ...(o.penalties ? { penalties: o.penalties } : {}), getContext: live(o.context) } }),
  );
  judge('context-position', z.strictObject({ scale, context }), (o, model) =>
    createContextPositionScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
  );
  judge(
    'context-recall',
    z.strictObject({ scale, context }),
    (o, model) => createContextRecallScorer({ model, options: { ...(o.scale ? { scale: o.scale } : {}), getContext: live(o.context) } }),
    true,
  );
  judge('toxicity', z.strictObject({ scale }), (o, model) => createToxicityScorer({ model, options: o }));
  judge('goal', z.strictObject({ goal: z.string().min(1).optional() }), (o, model) =>
    createGoalScorer({ judgeModel: model, options: o.goal !== undefined ? { goal: o.goal } : {} }),
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
    (o, model) => createClassifierScorer({ model, options: o }),
  );
  judge('bias', z.strictObject({ scale }), (o, model) => createBiasScorer({ model, options: o }));
  judge(
    'prompt-alignment',
    z.strictObject({
      scale,
      evaluationMode: z.enum(['user', 'system', 'both']).optional(),
      includeConversationHistory: z.union([z.boolean(), z.strictObject({ maxMessages: z.number().int().positive().optional() })]).optional(),
    }),
    (o, model) => createPromptAlignmentScorerLLM({ model, options: o }),
  );
  judge('tool-call-accuracy', z.strictObject({ availableTools: z.array(z.strictObject({ id: z.string().min(1), description: z.string().optional() })).optional() }), (o, model) =>
    createToolCallAccuracyScorerLLM({ model, availableTools: o.availableTools ?? [] }),
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
    (o, model) => createAnswerSimilarityScorer({ model, options: o }),
    true,
  );
  judge(
    'noise-sensitivity',
    z.strictObject({ baselineResponse: z.string().min(1), noisyQuery: z.string().min(1), noiseType: z.string().optional() }),
    (o, model) => createNoiseSensitivityScorerLLM({ model, options: o }),
  );
  judge('summarization', z.strictObject({ scale, source: z.string().optional(), maxQuestions: z.number().int().min(1).optional() }), (o, model) =>
    createSummarizationScorer({ model, options: o }),
  );
  judge(
    'rubric',
    z.strictObject({
      scale,
      criteria: z.union([z.string(), z.array(z.strictObject({ id: z.string().optional(), description: z.string().min(1), required: z.boolean().optional() }))]).optional(),
    }),
    (o, model) => createRubricScorer({ model, ...(o.criteria ? { criteria: o.criteria } : {}), options: o.scale ? { scale: o.scale } : {} }),
  );
  judge('multi-turn-judge', z.strictObject({ scale, criterion: z.string().min(1) }), (o, model) =>
    createMultiTurnJudgeScorer({ model, criterion: o.criterion, options: o.scale ? { scale: o.scale } : {} }),
  );
  judge('trajectory-accuracy', z.strictObject({ expectedTrajectory: z.array(z.looseObject({ name: z.string().min(1), stepType: z.string().optional() })).optional() }), (o, model) =>
    createTrajectoryAccuracyScorerLLM({ model, ...(o.expectedTrajectory ? { expectedTrajectory: o.expectedTrajectory } : {}) }),
  );
}
