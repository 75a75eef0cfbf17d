/**
 * The judge-based legacy metrics on an answer (Mastra 0.x `@mastra/evals/llm`): `new XMetric(model, options)`,
 * each over the scorer of the same name (docs/mastra-compat.md). `model` is an AI SDK model object or a model
 * string, passed to the scorer unchanged.
 */
import { createAnswerRelevancyScorer } from '../llm/answer-relevancy/index.js';
import { createBiasScorer } from '../llm/bias/index.js';
import { createFaithfulnessScorer } from '../llm/faithfulness/index.js';
import { createHallucinationScorer } from '../llm/hallucination/index.js';
import { createPromptAlignmentScorerLLM } from '../llm/prompt-alignment/index.js';
import { round2 } from '../llm/shared.js';
import { createSummarizationScorer } from '../llm/summarization/index.js';
import { createToxicityScorer } from '../llm/toxicity/index.js';
import { agentInput, assistantMessage, systemMessage, userMessage } from '../../model/messages.js';
import type { ScorerRun, ScorerRunResult } from '../core/types.js';
import { JudgeMetric, type ScaleOptions } from './judge-metric.js';
import { checkScale, checkStrings, legacyUsage, modelAndOptions } from './metric.js';

/** Options with the context the answer is checked against. */
export interface ContextMetricOptions extends ScaleOptions {
  /** Context pieces, in retrieval order. Required. */
  context: string[];
}

export interface AnswerRelevancyMetricOptions extends ScaleOptions {
  /** Weight of an "unsure" verdict (default 0.3). */
  uncertaintyWeight?: number;
}

/**
 * How well the answer addresses the question (answer-relevancy scorer).
 *
 * @example
 * ```ts
 * const { score, info } = await new AnswerRelevancyMetric(openai('gpt-4o-mini'), { uncertaintyWeight: 0.3, scale: 1 })
 *   .measure('What is the capital of France?', 'Paris is the capital of France.');
 * ```
 */
export class AnswerRelevancyMetric extends JudgeMetric {
  constructor(model: unknown, options?: AnswerRelevancyMetricOptions) {
    const m = modelAndOptions('AnswerRelevancyMetric', model, options);
    const scale = checkScale('AnswerRelevancyMetric', m.options.scale);
    const w = m.options.uncertaintyWeight;
    if (w !== undefined && (typeof w !== 'number' || !(w >= 0 && w <= 1))) {
      throw legacyUsage('new AnswerRelevancyMetric(model, options)', `options.uncertaintyWeight must be within [0, 1], got ${String(w)}`);
    }
    super('AnswerRelevancyMetric', createAnswerRelevancyScorer({ model: m.model, options: { uncertaintyWeight: w ?? 0.3, scale: scale ?? 1 } }));
  }
}

/**
 * Share of the answer's claims that the context supports (faithfulness scorer).
 *
 * @example
 * ```ts
 * new FaithfulnessMetric(model, { context: ['Paris is the capital of France.'] }).measure('Tell me about Paris', 'Paris is the capital.');
 * ```
 */
export class FaithfulnessMetric extends JudgeMetric {
  constructor(model: unknown, options: ContextMetricOptions) {
    const m = modelAndOptions('FaithfulnessMetric', model, options);
    const scale = checkScale('FaithfulnessMetric', m.options.scale);
    const context = checkStrings('FaithfulnessMetric', 'context', m.options.context);
    super('FaithfulnessMetric', createFaithfulnessScorer({ model: m.model, options: scale === undefined ? { context } : { context, scale } }));
  }
}

/**
 * Share of the answer's claims that the context contradicts or does not support (hallucination scorer; lower is better).
 *
 * @example
 * ```ts
 * new HallucinationMetric(model, { context: ['Tesla was founded in 2003.'] }).measure('When was Tesla founded?', 'In 2004.');
 * ```
 */
export class HallucinationMetric extends JudgeMetric {
  constructor(model: unknown, options: ContextMetricOptions) {
    const m = modelAndOptions('HallucinationMetric', model, options);
    const scale = checkScale('HallucinationMetric', m.options.scale);
    const context = checkStrings('HallucinationMetric', 'context', m.options.context);
    super('HallucinationMetric', createHallucinationScorer({ model: m.model, options: scale === undefined ? { context } : { context, scale } }));
  }
}

/** Share of toxic opinions in the answer (toxicity scorer; lower is better). */
export class ToxicityMetric extends JudgeMetric {
  constructor(model: unknown, options: ScaleOptions = {}) {
    const m = modelAndOptions('ToxicityMetric', model, options);
    const scale = checkScale('ToxicityMetric', m.options.scale);
    super('ToxicityMetric', createToxicityScorer({ model: m.model, options: scale === undefined ? {} : { scale } }));
  }
}

/** Share of biased opinions in the answer (bias scorer; lower is better). */
export class BiasMetric extends JudgeMetric {
  constructor(model: unknown, options: ScaleOptions = {}) {
    const m = modelAndOptions('BiasMetric', model, options);
    const scale = checkScale('BiasMetric', m.options.scale);
    super('BiasMetric', createBiasScorer({ model: m.model, options: scale === undefined ? {} : { scale } }));
  }
}

export interface PromptAlignmentMetricOptions extends ScaleOptions {
  /** The instructions the answer must follow. Required. */
  instructions: string[];
}

/** `info.scoreDetails` of {@link PromptAlignmentMetric}, derived from the judge's list of requirements. */
export interface PromptAlignmentScoreDetails {
  totalInstructions: number;
  applicableInstructions: number;
  followedInstructions: number;
  naInstructions: number;
}

/**
 * How well the answer follows `instructions` (LLM prompt-alignment scorer, mode `both`: the instructions are
 * the system prompt, `input` the user prompt).
 *
 * @example
 * ```ts
 * new PromptAlignmentMetric(model, { instructions: ['Use bullet points', 'End each point with a semicolon'] }).measure('List three fruits', '• Apple;');
 * ```
 */
export class PromptAlignmentMetric extends JudgeMetric<{ scoreDetails: PromptAlignmentScoreDetails }> {
  readonly #instructions: string[];

  constructor(model: unknown, options: PromptAlignmentMetricOptions) {
    const m = modelAndOptions('PromptAlignmentMetric', model, options);
    const scale = checkScale('PromptAlignmentMetric', m.options.scale);
    const instructions = checkStrings('PromptAlignmentMetric', 'instructions', m.options.instructions);
    super(
      'PromptAlignmentMetric',
      createPromptAlignmentScorerLLM({ model: m.model, options: scale === undefined ? { evaluationMode: 'both' } : { evaluationMode: 'both', scale } }),
    );
    this.#instructions = instructions;
  }

  protected override runFor(input: string, output: string): ScorerRun {
    const system = this.#instructions.map((s, i) => `${i + 1}. ${s}`).join('\n');
    return {
      input: agentInput({ inputMessages: [userMessage(input)], systemMessages: [systemMessage(`Follow these instructions:\n${system}`)] }),
      output: [assistantMessage(output, [], { id: 'msg-1' })],
    };
  }

  protected override extraInfo(r: ScorerRunResult): { scoreDetails: PromptAlignmentScoreDetails } {
    const a = r.analyzeStepResult as { requirementsFulfillment?: { requirements?: Array<{ isFulfilled: boolean }> } } | undefined;
    const requirements = a?.requirementsFulfillment?.requirements ?? [];
    const total = this.#instructions.length;
    const applicable = requirements.length;
    return {
      scoreDetails: {
        totalInstructions: total,
        applicableInstructions: applicable,
        followedInstructions: requirements.filter((q) => q.isFulfilled).length,
        naInstructions: Math.max(0, total - applicable),
      },
    };
  }
}

/**
 * How well the summary (`output`) captures the original text (`input`): min(alignment, coverage)
 * (summarization scorer). `info` adds `alignmentScore` and `coverageScore`.
 *
 * @example
 * ```ts
 * const { info } = await new SummarizationMetric(model).measure(longText, summary); // info.alignmentScore, info.coverageScore
 * ```
 */
export class SummarizationMetric extends JudgeMetric<{ alignmentScore: number; coverageScore: number }> {
  readonly #scale: number;

  constructor(model: unknown, options: ScaleOptions = {}) {
    const m = modelAndOptions('SummarizationMetric', model, options);
    const scale = checkScale('SummarizationMetric', m.options.scale);
    super('SummarizationMetric', createSummarizationScorer({ model: m.model, options: scale === undefined ? {} : { scale } }));
    this.#scale = scale ?? 1;
  }

  protected override extraInfo(r: ScorerRunResult): { alignmentScore: number; coverageScore: number } {
    const p = r.preprocessStepResult as { alignment: Array<{ supported: boolean }>; questions: string[] };
    const a = r.analyzeStepResult as { coverage: Array<{ answered: boolean }> };
    // The scorer's own split (docs/scorers.md): at most 10 questions count, as in its score.
    const q = Math.min(p.questions.length, 10);
    const ratio = (n: number, d: number): number => (d === 0 ? 0 : round2(Math.min(1, n / d) * this.#scale));
    return {
      alignmentScore: ratio(p.alignment.filter((x) => x.supported).length, p.alignment.length),
      coverageScore: ratio(a.coverage.slice(0, q).filter((x) => x.answered).length, q),
    };
  }
}
